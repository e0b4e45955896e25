/** M-Pesa Express from the shop: send the PIN prompt, follow its outcome, how to pay an order. */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { MPESA_STATUS_POLL_MS } from '@spc/shared-contracts';
import { api, unwrap } from './api-client';

const mpesaKeys = {
  status: (checkoutRequestId: string) =>
    ['payments', 'mpesa', 'status', checkoutRequestId] as const,
  payInfo: (purchaseNumber: string) => ['payments', 'mpesa', 'pay-info', purchaseNumber] as const,
};

export interface MpesaPromptInput {
  purchaseNumber: string;
  phoneNumber: string;
}

/** Sends the M-Pesa PIN prompt for an order; the API charges the order's total. */
export const sendMpesaPrompt = (body: MpesaPromptInput) =>
  unwrap(api.POST('/api/payments/mpesa/stk-push', { body }));

export const useSendMpesaPrompt = () => useMutation({ mutationFn: sendMpesaPrompt });

export const getMpesaStatus = (checkoutRequestId: string) =>
  unwrap(
    api.GET('/api/payments/mpesa/status/{checkoutRequestId}', {
      params: { path: { checkoutRequestId } },
    }),
  );

/** Asks for a prompt's outcome every few seconds while it is pending; stops once it is settled. */
export const mpesaStatusQueryOptions = (checkoutRequestId: string, pollMs = MPESA_STATUS_POLL_MS) =>
  queryOptions({
    queryKey: mpesaKeys.status(checkoutRequestId),
    queryFn: () => getMpesaStatus(checkoutRequestId),
    enabled: checkoutRequestId !== '',
    staleTime: 0,
    retry: 3,
    refetchInterval: (query) =>
      query.state.data && query.state.data.status !== 'pending' ? false : pollMs,
  });

export const useMpesaStatus = (checkoutRequestId: string, pollMs?: number) =>
  useQuery(mpesaStatusQueryOptions(checkoutRequestId, pollMs));

/** How an order may still be paid by M-Pesa (paybill, amount due) and how its latest prompt ended. */
export const useMpesaPayInfo = (purchaseNumber: string, enabled = true) =>
  useQuery({
    queryKey: mpesaKeys.payInfo(purchaseNumber),
    queryFn: () =>
      unwrap(
        api.GET('/api/payments/mpesa/pay-info/{purchaseNumber}', {
          params: { path: { purchaseNumber } },
        }),
      ),
    enabled: enabled && purchaseNumber !== '',
  });
