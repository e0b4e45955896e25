import { trancheLabel, type components, type TrancheState } from '@spc/shared-contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { documentUrl, fetchPdf, saveBlob } from '../../../lib/pdf';

export type TrancheView = components['schemas']['TrancheDto'];
export type TrancheListItem = components['schemas']['TrancheListItemDto'];
export type TrancheLineStanding = components['schemas']['TrancheLineStandingDto'];
export type OrderTranches = Omit<
  components['schemas']['OrderTranchesResponseDto'],
  'success' | 'message'
>;

export const trancheKeys = {
  all: ['tranches'] as const,
  ofOrder: (orderId: string) => ['tranches', 'order', orderId] as const,
  list: (filter: { state?: TrancheState; queue?: 'awaitingSignature' }) =>
    ['tranches', 'list', filter] as const,
};

/** `GET /api/orders/{id}/tranches`: the order's tranches and where each of its lines stands. */
export const orderTranchesQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: trancheKeys.ofOrder(orderId),
    queryFn: (): Promise<OrderTranches> =>
      unwrap(api.GET('/api/orders/{id}/tranches', { params: { path: { id: orderId } } })),
  });

export const useOrderTranches = (orderId: string) => useQuery(orderTranchesQueryOptions(orderId));

/**
 * `GET /api/tranches`: the organisation's tranches by day (a customer sees only theirs): those
 * planned, or on their way and awaiting the signed note.
 */
export const useMyTranches = (filter: { state?: TrancheState; queue?: 'awaitingSignature' }) =>
  useQuery({
    queryKey: trancheKeys.list(filter),
    queryFn: () =>
      unwrap(api.GET('/api/tranches', { params: { query: { ...filter, page: 1, limit: 5 } } })),
  });

/** The tranche's delivery note (signed for or not), fetched signed in and saved as a PDF. */
export async function downloadDeliveryNote(
  orderId: string,
  purchaseNumber: string,
  number: number,
): Promise<void> {
  const blob = await fetchPdf(
    documentUrl(`/api/orders/${orderId}/tranches/${number}/delivery-note.pdf`),
    true,
  );
  saveBlob(
    new Blob([blob], { type: 'application/pdf' }),
    `delivery-note-${purchaseNumber}-${trancheLabel(number)}.pdf`,
  );
}
