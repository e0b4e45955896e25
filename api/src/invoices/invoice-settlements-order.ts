import { formatMoney } from '@spc/shared-contracts';
import type { OrderStep } from '../orders/order-actions';

/** What marks an order on account paid: the invoices that settled it. */
export interface InvoicesSettledInput {
  numbers: string[];
  total: number;
}

/**
 * An order on account whose invoices are all settled (issue 44) is Paid: the order's steps' one
 * conditional write (still unpaid; `completePayment`'s starting statuses), announced as
 * `order.paid`, which gives its credit-limit claim back and writes the audit entry. Its money is
 * on the invoices' settlements and the ledger entries credited to them (not the order's
 * `moneyCredits`), so `amountPaid` stays what the order itself received; money:check reads an
 * order paid by its invoices as such. No e-mail or text: the invoices were the customer's news.
 */
export const INVOICES_SETTLED: OrderStep<InvoicesSettledInput> = {
  rule: 'completePayment',
  by: ['system', 'staff', 'admin'],
  event: 'order.paid',
  guard: () => ({ paymentStatus: 'Pending', onAccount: true }),
  prepare: ({ now }) => ({ $set: { paymentStatus: 'Paid', paidAt: now } }),
  audit: {
    action: 'order.payment',
    text: ({ order, input }) =>
      `Order ${order.purchaseNumber} is paid: its invoices ${input.numbers.join(', ')} (${formatMoney(input.total)}) are settled`,
  },
};
