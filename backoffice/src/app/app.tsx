import { Center, Stack, Text, Title } from '@mantine/core';
import { ApiStatus } from '../features/status/api-status';

/** Placeholder of the back office until its issue fills it. */
export function App() {
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="xs">
        <Text size="sm" tt="uppercase" c="dimmed">
          Seedling Propagation Centre
        </Text>
        <Title order={1}>Back office</Title>
        <Text>Orders, products, staff and reports will be managed here.</Text>
        <ApiStatus />
      </Stack>
    </Center>
  );
}
