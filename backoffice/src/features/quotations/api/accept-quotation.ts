import {
  BACKOFFICE_MESSAGES,
  type QuotationShortLine,
  type QuotationView,
} from '@spc/shared-contracts';
import { ApiError } from '@spc/shared-contracts/web-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { webClient } from '../../../lib/api-client';
import { quotationKeys } from '../../../lib/quotation-keys';
import { refreshQueries } from '../../../lib/refresh-queries';

export interface AcceptAnswer {
  message: string;
  quotation: QuotationView;
  order: { _id: string; purchaseNumber?: string };
}

/** The 409 `SHORT`'s lines: what stock or batches no longer cover, and the batches offered. */
export function shortLines(error: unknown): QuotationShortLine[] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as { code?: unknown; lines?: unknown } | undefined;
  return body?.code === 'SHORT' && Array.isArray(body.lines)
    ? (body.lines as QuotationShortLine[])
    : null;
}

/** `POST /api/quotations/{id}/accept` on the buyer's written word: the version and its LPO. */
export function useAcceptQuotation(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { version: number; lpoNumber: string }) =>
      webClient.request<AcceptAnswer>('POST', `/api/quotations/${id}/accept`, { body }),
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSettled: () => refreshQueries(client, quotationKeys.all),
  });
}
