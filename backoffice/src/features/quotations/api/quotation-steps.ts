import {
  BACKOFFICE_MESSAGES,
  type QuotationDraftForm,
  type QuotationView,
} from '@spc/shared-contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '@spc/shared-contracts/web-client';
import { looseApi } from '../../../lib/api-client';
import { quotationKeys } from '../../../lib/quotation-keys';
import { refreshQueries } from '../../../lib/refresh-queries';

/** Every step answers `{ message, quotation }`: the toast says the message, the lists refresh. */
type Answer = { message: string; quotation: QuotationView };

const post = (id: string, step: string, body?: unknown) =>
  unwrap(looseApi.POST<Answer>(`/api/quotations/${id}/${step}`, { body: body ?? {} }));

const meta = { errorMessage: BACKOFFICE_MESSAGES.genericError };

function useStep<T>(fn: (input: T) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    meta,
    onSettled: () => refreshQueries(client, quotationKeys.all),
  });
}

/** `PUT /api/quotations/{id}/draft`: an empty source is ready stock; an empty price, the API's. */
export const useSaveDraft = (id: string) =>
  useStep((form: QuotationDraftForm) =>
    unwrap(
      looseApi.PUT<Answer>(`/api/quotations/${id}/draft`, {
        body: {
          ...form,
          lines: form.lines.map(({ batchId, unitPrice, ...line }) => ({
            ...line,
            batchId: batchId || null,
            ...(unitPrice === undefined ? {} : { unitPrice }),
          })),
          delivery: { ...form.delivery, subCounty: form.delivery.subCounty || null },
        },
      }),
    ),
  );

export const useSendQuotation = (id: string) => useStep(() => post(id, 'send'));

export const useWithdrawQuotation = (id: string) =>
  useStep((reason: string) => post(id, 'withdraw', reason ? { reason } : {}));

export const useWriteMessage = (id: string) =>
  useStep((text: string) => post(id, 'messages', { text }));
