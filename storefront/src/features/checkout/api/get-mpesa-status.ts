import { queryOptions, useQuery } from '@tanstack/react-query';
import { MPESA_STATUS_POLL_MS } from '@spc/shared-contracts';
import { api, unwrap } from '../../../lib/api-client';
import { paymentKeys } from './get-payment-options';

export const getMpesaStatus = (checkoutRequestId: string) =>
  unwrap(
    api.GET('/api/payments/mpesa/status/{checkoutRequestId}', {
      params: { path: { checkoutRequestId } },
    }),
  );

/** Asks for a prompt's outcome every few seconds while it is pending; stops once it is settled. */
export const mpesaStatusQueryOptions = (checkoutRequestId: string, pollMs = MPESA_STATUS_POLL_MS) =>
  queryOptions({
    queryKey: paymentKeys.mpesaStatus(checkoutRequestId),
    queryFn: () => getMpesaStatus(checkoutRequestId),
    enabled: checkoutRequestId !== '',
    staleTime: 0,
    retry: 3,
    refetchInterval: (query) =>
      query.state.data && query.state.data.status !== 'pending' ? false : pollMs,
  });

export const useMpesaStatus = (checkoutRequestId: string, pollMs?: number) =>
  useQuery(mpesaStatusQueryOptions(checkoutRequestId, pollMs));
