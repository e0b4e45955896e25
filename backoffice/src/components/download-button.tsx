import { Button, type ButtonProps } from '@mantine/core';
import { useState } from 'react';
import { showToast } from '../lib/query-client';

/**
 * A button that fetches a file signed in (a PDF, a CSV) and hands it to the browser: busy while it
 * fetches, the API's refusal as a toast.
 */
export function DownloadButton({
  download,
  children,
  ...props
}: ButtonProps & { download: () => Promise<void>; children: string }) {
  const [fetching, setFetching] = useState(false);
  const run = () => {
    setFetching(true);
    download()
      .catch((e: Error) => showToast('error', e.message))
      .finally(() => setFetching(false));
  };
  return (
    <Button variant="default" {...props} onClick={run} loading={fetching}>
      {children}
    </Button>
  );
}
