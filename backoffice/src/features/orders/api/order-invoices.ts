import { BACKOFFICE_MESSAGES, type InvoiceView } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { invoiceKeys } from '../../../lib/invoices';
import { showToast } from '../../../lib/query-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { orderKeys } from './get-orders';

/** `GET /api/orders/:id/invoices`: the invoices of an order from a quotation. */
export const getOrderInvoices = async (orderId: string) =>
  (await unwrap(looseApi.GET<{ invoices: InvoiceView[] }>(`/api/orders/${orderId}/invoices`)))
    .invoices;

export const orderInvoicesQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: invoiceKeys.ofOrder(orderId),
    queryFn: () => getOrderInvoices(orderId),
  });

export const useOrderInvoices = (orderId: string) => useQuery(orderInvoicesQueryOptions(orderId));

/**
 * `POST /api/orders/:id/invoices`: issues a delivered tranche's invoice (`{ tranche }`) or the
 * whole order's (`{}`); the API answers the existing one when it was issued already.
 */
export function useIssueInvoice(orderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tranche: number | null) =>
      unwrap(
        looseApi.POST<{ message: string; invoice: InvoiceView }>(
          `/api/orders/${orderId}/invoices`,
          { body: tranche === null ? {} : { tranche } },
        ),
      ),
    meta: { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong, successToast: false },
    onSuccess: (answer) =>
      showToast('success', answer.message || `Invoice ${answer.invoice.number} issued`),
    onSettled: () =>
      Promise.all([invoiceKeys.all, orderKeys.all].map((key) => refreshQueries(client, key))),
  });
}
