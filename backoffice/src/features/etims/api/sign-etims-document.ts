import type { EtimsDocumentView } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { showToast } from '../../../lib/query-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { etimsKeys } from './etims-keys';

export interface EtimsSignatureBody {
  cuInvoiceNumber: string;
  rcptSign: string;
  signedAt: string;
  intrlData?: string;
}

type Answer = { message: string; document: EtimsDocumentView };

/** `POST /api/etims/documents/:source/signature`: a pending document's signature from KRA's portal. */
export function useSignEtimsDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ source, body }: { source: string; body: EtimsSignatureBody }) =>
      unwrap(
        looseApi.POST<Answer>(`/api/etims/documents/${encodeURIComponent(source)}/signature`, {
          body,
        }),
      ),
    meta: { successToast: false },
    onSuccess: ({ document }) => showToast('success', `${document.trdInvcNo} is signed`),
    onSettled: () => refreshQueries(client, etimsKeys.all),
  });
}
