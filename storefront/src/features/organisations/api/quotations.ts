import type { QuotationShortLine, QuotationSummary, QuotationView } from '@spc/shared-contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LooseApiClient } from '@spc/shared-contracts/client';
import { api, unwrap } from '../../../lib/api-client';

/** The generated API types do not list the quotations' routes yet: the contract types them. */
const looseApi = api as unknown as LooseApiClient;

export const quotationKeys = {
  all: ['quotations'] as const,
  list: (page: number) => ['quotations', 'list', page] as const,
  detail: (id: string) => ['quotations', 'detail', id] as const,
};

export interface QuotationsPage {
  quotations: QuotationSummary[];
  totalQuotations: number;
  totalPages: number;
  page: number;
}

/** The organisation's quotations, latest change first. */
export const useMyQuotations = (page: number) =>
  useQuery({
    queryKey: quotationKeys.list(page),
    queryFn: () =>
      unwrap(
        looseApi.GET<QuotationsPage>('/api/quotations', { params: { query: { page, limit: 10 } } }),
      ),
  });

export const useQuotation = (id: string) =>
  useQuery({
    queryKey: quotationKeys.detail(id),
    queryFn: async () =>
      (await unwrap(looseApi.GET<{ quotation: QuotationView }>(`/api/quotations/${id}`))).quotation,
  });

type Answer = { message: string; quotation: QuotationView };

function useStep<T>(fn: (input: T) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => client.invalidateQueries({ queryKey: quotationKeys.all }),
  });
}

const post = (id: string, step: string, body: object) =>
  unwrap(looseApi.POST<Answer>(`/api/quotations/${id}/${step}`, { body }));

export const useWriteMessage = (id: string) =>
  useStep((text: string) => post(id, 'messages', { text }));

export const useAskChanges = (id: string) =>
  useStep((text: string) => post(id, 'ask-changes', { text }));

export const useDeclineQuotation = (id: string) =>
  useStep((reason: string) => post(id, 'decline', reason ? { reason } : {}));

/** The 409 `SHORT`'s lines (what stock or batches no longer cover, and the batches offered), kept
 * beside the error the acceptance threw. */
const offered = new WeakMap<object, QuotationShortLine[]>();

export function shortLines(error: unknown): QuotationShortLine[] | null {
  return (error instanceof Object && offered.get(error)) || null;
}

/** `POST /api/quotations/{id}/accept`: its answer, or its refusal with the short lines when 409 SHORT. */
async function accept(id: string, body: { version: number; lpoNumber: string }) {
  const result = await looseApi.POST<Answer>(`/api/quotations/${id}/accept`, { body });
  try {
    return unwrap(result);
  } catch (error) {
    const refusal = result.error as { code?: unknown; lines?: unknown } | undefined;
    if (refusal?.code === 'SHORT' && Array.isArray(refusal.lines) && error instanceof Object)
      offered.set(error, refusal.lines as QuotationShortLine[]);
    throw error;
  }
}

/** An approver accepts a version with the LPO number: it becomes an order. */
export const useAcceptQuotation = (id: string) =>
  useStep((body: { version: number; lpoNumber: string }) => accept(id, body));
