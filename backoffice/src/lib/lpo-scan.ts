import { lpoScanFilename, SCAN_FIELD, type ScanContentType } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { api } from './api-client';
import { downloadPdf } from './pdf';

/**
 * `PUT /api/orders/{id}/lpo-scan`: the scanned LPO of an order from a quotation, as multipart (the
 * API tells a PDF from a photo by its bytes). The quote desk sends it after an acceptance, the
 * order page attaches or replaces it.
 */
export async function uploadLpoScan(orderId: string, file: File) {
  const form = new FormData();
  form.set(SCAN_FIELD, file);
  return unwrap(
    await api.PUT('/api/orders/{id}/lpo-scan', {
      params: { path: { id: orderId } },
      body: {} as never,
      bodySerializer: () => form,
    }),
  );
}

/** Downloads the order's scanned LPO signed in, as `LPO-<number>.pdf|.jpg`. */
export function downloadLpoScan(orderId: string, lpoNumber: string, contentType: ScanContentType) {
  return downloadPdf(`/api/orders/${orderId}/lpo-scan`, lpoScanFilename(lpoNumber, contentType));
}
