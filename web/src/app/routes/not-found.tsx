import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function Component() {
  return (
    <Container size="sm" py="xl" component="main">
      <Stack>
        <Title order={1}>Page not found</Title>
        <Text>There is no page at this address.</Text>
        <Anchor component={Link} to="/">
          Back to the start
        </Anchor>
      </Stack>
    </Container>
  );
}
