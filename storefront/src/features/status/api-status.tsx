import { useEffect, useState } from 'react';
import type { ApiClient } from '@spc/shared-contracts/client';
import { api } from '../../lib/api-client';

type Status = 'checking' | 'up' | 'down';

const LABELS: Record<Status, string> = {
  checking: 'Checking the shop…',
  up: 'The shop is online.',
  down: 'The shop cannot be reached right now.',
};

/** Shows whether the API (and its database) answers; the placeholder's one live element. */
export function ApiStatus({ client = api }: { client?: ApiClient }) {
  const [status, setStatus] = useState<Status>('checking');
  useEffect(() => {
    let live = true;
    client
      .GET('/api/health')
      .then(({ data }) => live && setStatus(data?.db === 'up' ? 'up' : 'down'))
      .catch(() => live && setStatus('down'));
    return () => {
      live = false;
    };
  }, [client]);
  return (
    <p role="status" data-status={status}>
      {LABELS[status]}
    </p>
  );
}
