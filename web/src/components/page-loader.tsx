import { Center, Loader } from '@mantine/core';

export function PageLoader() {
  return (
    <Center h="50vh" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}
