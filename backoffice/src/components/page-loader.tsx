import { Center, Loader } from '@mantine/core';

export function PageLoader() {
  return (
    <Center py="xl" mih={200}>
      <Loader role="status" aria-label="Loading" />
    </Center>
  );
}
