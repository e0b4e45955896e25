import { Alert, Button, Center, Loader, Text } from '@mantine/core';
import { BACKOFFICE_MESSAGES } from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';

/** A query's loading, error (with the API's words and a "Try again") and empty states. */
export function TillQueryState({
  query,
  isEmpty,
  emptyText,
  errorTitle,
}: {
  query: {
    isPending: boolean;
    isError: boolean;
    isFetching: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  isEmpty: boolean;
  emptyText: string;
  errorTitle: string;
}) {
  if (query.isPending)
    return (
      <Center py="lg">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (query.isError)
    return (
      <Alert color="red" title={errorTitle} role="alert">
        <Text size="sm" mb="xs">
          {errorMessage(query.error, BACKOFFICE_MESSAGES.somethingWentWrong)}
        </Text>
        <Button
          size="md"
          variant="white"
          loading={query.isFetching}
          onClick={() => void query.refetch()}
        >
          Try again
        </Button>
      </Alert>
    );
  if (isEmpty)
    return (
      <Text c="dimmed" ta="center" py="lg">
        {emptyText}
      </Text>
    );
  return null;
}
