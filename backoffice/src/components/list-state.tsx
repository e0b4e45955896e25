import { Center, Loader, Text } from '@mantine/core';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';

/** Loading, error and empty states of a list, worded as the spec words them. */
export function ListState({
  isLoading,
  isError,
  isEmpty,
  emptyText,
  errorText = BACKOFFICE_MESSAGES.listError,
}: {
  isLoading: boolean;
  isError: boolean;
  isEmpty: boolean;
  emptyText: string;
  errorText?: string;
}) {
  if (isLoading)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (isError)
    return (
      <Text c="red" ta="center" py="xl" role="alert">
        {errorText}
      </Text>
    );
  if (isEmpty)
    return (
      <Text c="dimmed" ta="center" py="xl">
        {emptyText}
      </Text>
    );
  return null;
}
