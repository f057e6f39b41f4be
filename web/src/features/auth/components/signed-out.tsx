import { Code, Container, List, Paper, Stack, Text, Title } from '@mantine/core';

/** What a visitor without a session sees: how to get a login link. */
export function SignedOut() {
  return (
    <Container size="sm" py="xl" component="main">
      <Paper withBorder p="xl" radius="md">
        <Stack>
          <Title order={1}>Org Admin</Title>
          <Text>You are not signed in.</Text>
          <Text>Sign-in is by a one-time link. To get one:</Text>
          <List type="ordered" spacing="xs">
            <List.Item>
              Ask an operator of this hub to run <Code>hub login-link &lt;your imOpenId&gt;</Code> on the server.
            </List.Item>
            <List.Item>Open the link it prints within 15 minutes; it works once.</List.Item>
          </List>
          <Text size="sm" c="dimmed">
            You will land on the first organization you belong to.
          </Text>
        </Stack>
      </Paper>
    </Container>
  );
}
