import {
  BACKOFFICE_MESSAGES,
  PAGE_SIZE,
  type components,
  type TrancheQueue,
} from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invoiceKeys } from '../../../lib/invoices';
import { downloadPdf } from '../../../lib/pdf';
import { refreshQueries } from '../../../lib/refresh-queries';
import { orderKeys } from './get-orders';

export type OrderTranches = Omit<
  components['schemas']['OrderTranchesResponseDto'],
  'success' | 'message'
>;
export type Tranche = components['schemas']['TrancheDto'];
export type TrancheLineStanding = components['schemas']['TrancheLineStandingDto'];
export type TrancheListItem = components['schemas']['TrancheListItemDto'];
/**
 * A line as a body names it. (The API's document types `batchId` and `subCounty` as objects, not as text or
 * null: the bodies are typed here and handed over as the document's.)
 */
interface LineRef {
  productId: string;
  unitId: string;
  batchId: string | null;
}
export interface PlanTrancheBody {
  site: {
    name: string;
    county: string;
    subCounty?: string;
    contact: { name: string; phone: string };
  };
  date: string;
  lines: (LineRef & { quantity: number })[];
}
export type ChangeTrancheBody = PlanTrancheBody;
export type RecordDeliveryBody = Omit<components['schemas']['RecordDeliveryDto'], 'lines'> & {
  lines: (LineRef & { delivered: number; shortReason?: string })[];
};
type Document = components['schemas'];

/**
 * An order's tranches sit under the orders' key (a tranche's dispatch moves its order, so every
 * order refresh reads them again); the desk's buckets under `tranches`.
 */
export const trancheKeys = {
  ofOrder: (orderId: string) => [...orderKeys.all, 'tranches', orderId] as const,
  desk: ['tranches'] as const,
  queue: () => [...trancheKeys.desk, 'queue'] as const,
  list: (queue: TrancheQueue, page: number) => [...trancheKeys.desk, 'list', queue, page] as const,
};

/** `GET /api/orders/{id}/tranches`: where each line stands, and the tranches by number. */
export async function getOrderTranches(orderId: string): Promise<OrderTranches> {
  return unwrap(await api.GET('/api/orders/{id}/tranches', { params: { path: { id: orderId } } }));
}

export const orderTranchesQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: trancheKeys.ofOrder(orderId),
    queryFn: () => getOrderTranches(orderId),
  });

export const useOrderTranches = (orderId: string) => useQuery(orderTranchesQueryOptions(orderId));

/** `GET /api/tranches/queue`: how many tranches wait in each bucket of the desk. */
export async function getTrancheQueue() {
  return unwrap(await api.GET('/api/tranches/queue'));
}

export const useTrancheQueue = () =>
  useQuery(queryOptions({ queryKey: trancheKeys.queue(), queryFn: getTrancheQueue }));

/** `GET /api/tranches?queue=`: one bucket's tranches, by day. */
export async function getTrancheList(queue: TrancheQueue, page: number) {
  return unwrap(
    await api.GET('/api/tranches', {
      params: { query: { queue, page, limit: PAGE_SIZE.orders } },
    }),
  );
}

export const useTrancheList = (queue: TrancheQueue, page: number) =>
  useQuery(
    queryOptions({
      queryKey: trancheKeys.list(queue, page),
      queryFn: () => getTrancheList(queue, page),
      placeholderData: keepPreviousData,
    }),
  );

/**
 * After a tranche changes: its order (status, timeline, tranches), the desk's buckets, and the
 * invoices (a signed note issues the tranche's invoice).
 */
function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [orderKeys.all, trancheKeys.desk, invoiceKeys.all].map((key) => refreshQueries(client, key)),
    );
}

const path = (orderId: string, number: number) => ({
  params: { path: { id: orderId, number } },
});

/** Every step of a tranche, each a mutation whose success and refusal are toasts. */
export function useTrancheSteps(orderId: string) {
  const refresh = useRefresh();
  const meta = { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong };
  const plan = useMutation({
    mutationFn: async (body: PlanTrancheBody) =>
      unwrap(
        await api.POST('/api/orders/{id}/tranches', {
          params: { path: { id: orderId } },
          body: body as unknown as Document['PlanTrancheDto'],
        }),
      ),
    meta,
    onSettled: refresh,
  });
  const change = useMutation({
    mutationFn: async ({ number, body }: { number: number; body: ChangeTrancheBody }) =>
      unwrap(
        await api.PATCH('/api/orders/{id}/tranches/{number}', {
          ...path(orderId, number),
          body: body as unknown as Document['ChangeTrancheDto'],
        }),
      ),
    meta,
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: async (number: number) =>
      unwrap(await api.POST('/api/orders/{id}/tranches/{number}/cancel', path(orderId, number))),
    meta,
    onSettled: refresh,
  });
  const dispatch = useMutation({
    mutationFn: async (number: number) =>
      unwrap(await api.POST('/api/orders/{id}/tranches/{number}/dispatch', path(orderId, number))),
    meta,
    onSettled: refresh,
  });
  const recordDelivery = useMutation({
    mutationFn: async ({ number, body }: { number: number; body: RecordDeliveryBody }) =>
      unwrap(
        await api.POST('/api/orders/{id}/tranches/{number}/delivery', {
          ...path(orderId, number),
          body: body as unknown as Document['RecordDeliveryDto'],
        }),
      ),
    meta,
    onSettled: refresh,
  });
  return { plan, change, cancel, dispatch, recordDelivery };
}

/** The tranche's delivery note (A4 PDF), fetched signed in and handed to the browser. */
export function downloadDeliveryNote(orderId: string, purchaseNumber: string, number: number) {
  return downloadPdf(
    `/api/orders/${orderId}/tranches/${number}/delivery-note.pdf`,
    `delivery-note-${purchaseNumber}-T${number}.pdf`,
  );
}
