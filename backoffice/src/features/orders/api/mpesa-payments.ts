import { BACKOFFICE_MESSAGES, type components } from '@spc/shared-contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@spc/shared-contracts/web-client';
import { api } from '../../../lib/api-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { orderKeys } from './get-orders';

export type InboxPayment = components['schemas']['C2bPaymentViewDto'];
export type MpesaRefund = components['schemas']['MpesaRefundViewDto'];

export const paymentKeys = {
  all: ['payments'] as const,
  inbox: () => [...paymentKeys.all, 'inbox'] as const,
  count: () => [...paymentKeys.all, 'inbox-count'] as const,
  order: (orderId: string) => [...paymentKeys.all, 'order', orderId] as const,
};

/** Payments to match: what matched no order (or several), and over-payments to give back. */
export const usePaymentInbox = () =>
  useQuery({
    queryKey: paymentKeys.inbox(),
    queryFn: async () => unwrap(await api.GET('/api/payments/mpesa/inbox')),
  });

/** How many payments wait (the dashboard tile). */
export const usePaymentInboxCount = (enabled = true) =>
  useQuery({
    queryKey: paymentKeys.count(),
    queryFn: async () => unwrap(await api.GET('/api/payments/mpesa/inbox/count')),
    enabled,
  });

/** An order's paybill payments and M-Pesa refunds. */
export const useOrderMpesa = (orderId: string, refundDue = false) =>
  useQuery({
    queryKey: paymentKeys.order(orderId),
    queryFn: async () =>
      unwrap(
        await api.GET('/api/payments/mpesa/orders/{orderId}', {
          params: { path: { orderId } },
        }),
      ),
    // A refund on its way (or about to be asked for, after a cancellation) is shown as it goes.
    refetchInterval: (q) =>
      (refundDue && q.state.data?.refunds.length === 0) ||
      q.state.data?.refunds.some((r) => ['queued', 'sending', 'pending'].includes(r.status))
        ? 3000
        : false,
  });

function usePaymentMutation<V>(fn: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    meta: { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong },
    onSettled: async () => {
      await refreshQueries(queryClient, paymentKeys.all);
      await refreshQueries(queryClient, orderKeys.all);
    },
  });
}

export const useAssignPayment = () =>
  usePaymentMutation(
    async ({ transId, purchaseNumber }: { transId: string; purchaseNumber: string }) =>
      unwrap(
        await api.POST('/api/payments/mpesa/c2b/{transId}/assign', {
          params: { path: { transId } },
          body: { purchaseNumber },
        }),
      ),
  );

/**
 * Whether M-Pesa did not confirm an inbox payment (its status query): such a payment cannot be
 * assigned or paid out, only checked again.
 */
export const isUnconfirmed = (payment: InboxPayment) =>
  payment.status === 'inbox' && payment.unconfirmed;

/** Asks M-Pesa again about an inbox payment it did not confirm. */
export const useCheckPaymentAgain = () =>
  usePaymentMutation(async (transId: string) =>
    unwrap(
      await api.POST('/api/payments/mpesa/c2b/{transId}/check', {
        params: { path: { transId } },
      }),
    ),
  );

/**
 * Gives a payment (or its excess) back: sent through M-Pesa, or, with `byHand` (the M-Pesa code of
 * the money sent back, or a note), recorded as given back by hand already.
 */
export const useRefundPayment = () =>
  usePaymentMutation(async ({ transId, byHand }: { transId: string; byHand?: string }) =>
    unwrap(
      await api.POST('/api/payments/mpesa/c2b/{transId}/refund', {
        params: { path: { transId } },
        body: byHand ? { byHand } : {},
      }),
    ),
  );

/** Sends a failed refund again; its id is the API's own (`out:<entry>`, `payment:<code>`, ...). */
export const useRetryRefund = () =>
  usePaymentMutation(async (refundId: string) =>
    unwrap(
      await api.POST('/api/payments/mpesa/refunds/{refundId}/retry', {
        params: { path: { refundId } },
      }),
    ),
  );
