import { TIMINGS } from '@spc/shared-contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Toaster } from '../components/toast';
import { ApiError } from '../lib/api-client';
import { forgetUserOnSignOut } from '../lib/forget-user';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: TIMINGS.queryStaleTimeMs,
        refetchOnWindowFocus: false,
        // Ask even when the phone says it is offline: the service worker answers with the
        // catalogue the shopper already saw.
        networkMode: 'offlineFirst',
        // A 4xx will not get better by asking again; network and 5xx failures get two more tries.
        retry: (count, error) =>
          count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
}

export function AppProvider({ client, children }: { client: QueryClient; children: ReactNode }) {
  // Signing out (or a session that cannot be renewed) leaves nothing of the shopper on the phone.
  useEffect(() => forgetUserOnSignOut(client), [client]);
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
