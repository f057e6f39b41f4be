/**
 * `/sign-in-test`: where a test sign-in's popup lands (testOrgIdentityProvider). The report is in
 * the URL fragment, which no server sees; the page passes it to the Settings page that started
 * the test (a BroadcastChannel of this origin) and shows it too.
 */
import { Alert, Button, Container, Group, Paper, Stack, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  reportOfFragment,
  TEST_REPORT_CHANNEL,
  TestSignInReport,
} from '../../features/settings/components/test-sign-in';

export function Component() {
  const [report] = useState(() => reportOfFragment(window.location.hash));
  useEffect(() => {
    document.title = 'Test sign-in · Org Admin';
    if (!report) return;
    // Same origin only, by the channel's nature: the Settings page that started the test listens.
    const channel = new BroadcastChannel(TEST_REPORT_CHANNEL);
    channel.postMessage({ report });
    channel.close();
  }, [report]);
  return (
    <Container size="sm" py="xl" component="main">
      <Paper withBorder p="xl" radius="md">
        <Stack>
          <Title order={1}>Test sign-in</Title>
          {report ? (
            <TestSignInReport report={report} />
          ) : (
            <Alert color="red" title="No test result here" role="alert">
              This page shows the result of a test sign-in started from Settings → Sign-in.
            </Alert>
          )}
          <Group>
            <Button variant="default" onClick={() => window.close()}>
              Close this window
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}
