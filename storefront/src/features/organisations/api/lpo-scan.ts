import {
  lpoScanFilename,
  signedNoteFilename,
  SCAN_CONTENT_TYPES,
  SCAN_FIELD,
  type ScanContentType,
} from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { documentUrl, fetchPdf, saveBlob } from '../../../lib/pdf';
import { quotationKeys } from './quotations';

/** `PUT /api/orders/{id}/lpo-scan`: the file as multipart (the API tells what it is by its bytes). */
export function uploadLpoScan(orderId: string, file: File) {
  const form = new FormData();
  form.set(SCAN_FIELD, file);
  return unwrap(
    api.PUT('/api/orders/{id}/lpo-scan', {
      params: { path: { id: orderId } },
      body: {} as never,
      bodySerializer: () => form,
    }),
  );
}

export interface AttachLpoScan {
  orderId: string;
  file: File;
  /** Sent right after the acceptance: a failure says the order stands without it. */
  afterAccept?: boolean;
}

/** Attaches (or replaces) the scanned LPO of a quotation's order; the quotation is read again. */
export function useAttachLpoScan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, file }: AttachLpoScan) => uploadLpoScan(orderId, file),
    onSettled: () => client.invalidateQueries({ queryKey: quotationKeys.all }),
  });
}

/**
 * Fetches the scanned LPO signed in (the token goes in a header a link cannot carry) and hands it
 * to the browser as `LPO-<number>.pdf|.jpg`, typed only as a PDF or a JPEG whatever was answered.
 */
export async function downloadLpoScan(orderId: string, lpoNumber: string): Promise<void> {
  const blob = await fetchPdf(documentUrl(`/api/orders/${orderId}/lpo-scan`), true);
  const type = (SCAN_CONTENT_TYPES as readonly string[]).includes(blob.type)
    ? (blob.type as ScanContentType)
    : 'application/pdf';
  saveBlob(new Blob([blob], { type }), lpoScanFilename(lpoNumber, type));
}

/**
 * The photo or scan of the tranche's signed note the shop attached, fetched signed in and saved as
 * `<purchase number>-T<n>-signed.pdf|.jpg`.
 */
export async function downloadSignedNote(
  orderId: string,
  purchaseNumber: string,
  number: number,
): Promise<void> {
  const blob = await fetchPdf(
    documentUrl(`/api/orders/${orderId}/tranches/${number}/signed-note`),
    true,
  );
  const type = (SCAN_CONTENT_TYPES as readonly string[]).includes(blob.type)
    ? (blob.type as ScanContentType)
    : 'application/pdf';
  saveBlob(new Blob([blob], { type }), signedNoteFilename(purchaseNumber, number, type));
}
