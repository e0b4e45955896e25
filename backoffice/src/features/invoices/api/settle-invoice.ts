import {
  BACKOFFICE_MESSAGES,
  type CreditNoteReason,
  type InvoiceView,
} from '@spc/shared-contracts';
import { unwrap } from '@spc/shared-contracts/web-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { looseApi } from '../../../lib/api-client';
import { invoiceKeys } from '../../../lib/invoices';
import { showToast } from '../../../lib/query-client';
import { refreshQueries } from '../../../lib/refresh-queries';

export interface BankPaymentBody {
  amount: number;
  reference: string;
  /** YYYY-MM-DD, the shop's day. */
  paidOn: string;
  excess?: boolean;
}
export interface WithholdingBody {
  amount: number;
  certificate: string;
}
export interface CreditNoteBody {
  reason: CreditNoteReason;
  amount: number;
  note: string;
}

/** Each step answers `{ message, invoice }`: the toast says the message, every invoice refreshes. */
type Answer = { message: string; invoice: InvoiceView };

function useSettle<T>(id: string, step: string, done: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) => unwrap(looseApi.POST<Answer>(`/api/invoices/${id}/${step}`, { body })),
    // The form shows the API's words under it; the toast says so too.
    meta: { errorMessage: BACKOFFICE_MESSAGES.somethingWentWrong, successToast: false },
    onSuccess: (answer) => showToast('success', answer.message || done),
    onSettled: () => refreshQueries(client, invoiceKeys.all),
  });
}

/** `POST /api/invoices/:id/payments`: a bank transfer a clerk records. */
export const useRecordBankPayment = (id: string) =>
  useSettle<BankPaymentBody>(id, 'payments', 'Payment recorded');

/** `POST /api/invoices/:id/withholding`: tax a public body withheld, by its certificate. */
export const useRecordWithholding = (id: string) =>
  useSettle<WithholdingBody>(id, 'withholding', 'Tax withheld recorded');

/** `POST /api/invoices/:id/credit-notes`: a short delivery, a return, a price correction. */
export const useIssueCreditNote = (id: string) =>
  useSettle<CreditNoteBody>(id, 'credit-notes', 'Credit note issued');
