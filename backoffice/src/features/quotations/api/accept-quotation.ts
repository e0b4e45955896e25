import {
  BACKOFFICE_MESSAGES,
  LPO_SCAN_MESSAGES,
  type QuotationShortLine,
  type QuotationView,
} from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { uploadLpoScan } from '../../../lib/lpo-scan';
import { quotationKeys } from '../../../lib/quotation-keys';
import { refreshQueries } from '../../../lib/refresh-queries';

export interface AcceptAnswer {
  message: string;
  quotation: QuotationView;
  order: { _id: string; purchaseNumber?: string };
}

/** The 409 `SHORT`'s lines (what stock or batches no longer cover, and the batches offered), kept
 * beside the error the acceptance threw. */
const offered = new WeakMap<object, QuotationShortLine[]>();

export function shortLines(error: unknown): QuotationShortLine[] | null {
  return (error instanceof Object && offered.get(error)) || null;
}

/** `POST /api/quotations/{id}/accept`: its answer, or its refusal with the short lines when 409 SHORT. */
async function accept(id: string, body: { version: number; lpoNumber: string }) {
  const result = await looseApi.POST<AcceptAnswer>(`/api/quotations/${id}/accept`, { body });
  try {
    return unwrap(result);
  } catch (error) {
    const refusal = result.error as { code?: unknown; lines?: unknown } | undefined;
    if (refusal?.code === 'SHORT' && Array.isArray(refusal.lines) && error instanceof Object)
      offered.set(error, refusal.lines as QuotationShortLine[]);
    throw error;
  }
}

/** `POST /api/quotations/{id}/accept` on the buyer's written word: the version and its LPO. */
export function useAcceptQuotation(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { version: number; lpoNumber: string }) => accept(id, body),
    meta: { errorMessage: BACKOFFICE_MESSAGES.genericError },
    onSettled: () => refreshQueries(client, quotationKeys.all),
  });
}

/**
 * The scanned LPO picked with an acceptance, sent to the order it made. Its failure leaves the
 * order standing (the page says so and links to the order, where it can be attached again).
 */
export function useAttachLpoScanAfterAccept() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, file }: { orderId: string; file: File }) =>
      uploadLpoScan(orderId, file),
    meta: { errorMessage: LPO_SCAN_MESSAGES.notAttached },
    onSettled: () => refreshQueries(client, quotationKeys.all),
  });
}
