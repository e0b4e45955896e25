import type { TillPaymentInput, TillSaleInput, TillSaleView } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { tillKeys } from './till-keys';

/** How often a sale waiting for its M-Pesa prompt is read again. */
export const TILL_PAYMENT_POLL_MS = 3000;

type SaleAnswer = { message: string; sale: TillSaleView };

/**
 * `POST /api/till/sales`. `idempotencyKey` is made once per attempt and sent again on a retry, so
 * a sale whose answer was lost on the network is made once.
 */
export const createSale = ({ input, idempotencyKey }: SaleAttempt) =>
  unwrap(
    looseApi.POST<SaleAnswer>('/api/till/sales', {
      body: input,
      params: { header: { 'Idempotency-Key': idempotencyKey } },
    }),
  );

export interface SaleAttempt {
  input: TillSaleInput;
  idempotencyKey: string;
}

/** The sale; the form shows the API's words under it as well as the toast. */
export function useCreateSale() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createSale,
    meta: { successToast: false },
    onSuccess: ({ sale }) => client.setQueryData(tillKeys.sale(sale.orderId), sale),
    onSettled: () => refreshQueries(client, tillKeys.all),
  });
}

/** `GET /api/till/sales?sessionId=`: the session's sales, newest first. */
export const getSales = async (sessionId: string) =>
  (
    await unwrap(
      looseApi.GET<{ sales: TillSaleView[] }>('/api/till/sales', {
        params: { query: { sessionId } },
      }),
    )
  ).sales;

export const useSales = (sessionId: string) =>
  useQuery({ queryKey: tillKeys.sales(sessionId), queryFn: () => getSales(sessionId) });

/** `GET /api/till/sales/:orderId`. */
export const getSale = async (orderId: string) =>
  (await unwrap(looseApi.GET<{ sale: TillSaleView }>(`/api/till/sales/${orderId}`))).sale;

/** One sale; read again every few seconds while its M-Pesa prompt is waiting for the buyer. */
export const saleQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: tillKeys.sale(orderId),
    queryFn: () => getSale(orderId),
    refetchInterval: (query) =>
      query.state.data?.state === 'awaiting-payment' ? TILL_PAYMENT_POLL_MS : false,
  });

export const useSale = (orderId: string) => useQuery(saleQueryOptions(orderId));

/** `POST /api/till/sales/:orderId/sms`: the SMS receipt to the buyer's phone. */
export const useSendSmsReceipt = (orderId: string) =>
  useMutation({
    mutationFn: () =>
      unwrap(looseApi.POST<{ message: string }>(`/api/till/sales/${orderId}/sms`, { body: {} })),
  });

export interface ApprovalBody {
  approverId: string;
  pin: string;
  reason: string;
}

/** A void or a refund, approved by a second person's PIN; every till query refreshes after it. */
function useApprovedStep<T extends ApprovalBody>(orderId: string, step: 'void' | 'refund') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) =>
      unwrap(looseApi.POST<SaleAnswer>(`/api/till/sales/${orderId}/${step}`, { body })),
    onSettled: () => refreshQueries(client, tillKeys.all),
  });
}

/** `POST /api/till/sales/:orderId/void`. */
export const useVoidSale = (orderId: string) => useApprovedStep<ApprovalBody>(orderId, 'void');

/** `POST /api/till/sales/:orderId/refund`. */
export const useRefundSale = (orderId: string) =>
  useApprovedStep<ApprovalBody & { amount: number }>(orderId, 'refund');

/**
 * `POST /api/till/sales/:orderId/settle` (issue 47): a sale needing attention (its M-Pesa code not
 * counted) paid for what is unpaid, in cash or by another code, in the clerk's open session.
 */
export const useSettleSale = (orderId: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { sessionId: string; payments: TillPaymentInput[] }) =>
      unwrap(looseApi.POST<SaleAnswer>(`/api/till/sales/${orderId}/settle`, { body })),
    onSettled: () => refreshQueries(client, tillKeys.all),
  });
};
