import type { EtimsDocumentView } from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { showToast } from '../../../lib/query-client';
import { refreshQueries } from '../../../lib/refresh-queries';
import { etimsKeys } from './etims-keys';

export interface ResendEtimsBody {
  buyerPin?: string;
  buyerName?: string;
}

type Answer = { message: string; document: EtimsDocumentView };

/** `POST /api/etims/documents/:source/resend`: as it is, or with the buyer's PIN or name fixed. */
export const resendEtimsDocument = (source: string, body: ResendEtimsBody) =>
  unwrap(
    looseApi.POST<Answer>(`/api/etims/documents/${encodeURIComponent(source)}/resend`, { body }),
  );

/** The resend: a toast names the document sent again; the API's refusal is the error toast. */
export function useResendEtimsDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ source, body }: { source: string; body: ResendEtimsBody }) =>
      resendEtimsDocument(source, body),
    meta: { successToast: false },
    onSuccess: ({ document }) =>
      showToast('success', `${document.trdInvcNo} is on its way to KRA again`),
    onSettled: () => refreshQueries(client, etimsKeys.all),
  });
}
