import { MPESA_RESULT_CODES } from '@spc/shared-contracts';
import { canonicalReceiptCode, isReceiptCode } from '../common/identifiers';
import type { MpesaPushRecord } from './mpesa-pushes.repository';

/** How a prompt ended, as settled. */
export type Outcome =
  | { status: 'paid'; transactionCode: string; receipt: string | null; timePaid: Date }
  | { status: 'failed'; resultCode: number | null; resultDesc: string; message: string };

/** What Daraja's status query says of a prompt. */
export type Confirmation =
  | { state: 'unknown' }
  | { state: 'paid' }
  | { state: 'failed'; resultCode: number; resultDesc: string };

/** A receipt number in its one spelling (`canonicalReceiptCode`); null if none or not a code. */
export function canonicalReceipt(value: string | null): string | null {
  const code = value ? canonicalReceiptCode(value) : '';
  return code && isReceiptCode(code) ? code : null;
}

/**
 * A payment Daraja confirmed. Its transaction code is the one receipt the trusted callbacks
 * named; with none (the query carries no receipt) or with two different ones, the prompt's
 * reference stands in.
 */
export function paidOutcome(push: MpesaPushRecord): Outcome {
  const receipt = push.receipts?.length === 1 && !push.receiptDisputed ? push.receipts[0]! : null;
  const cb = push.callback?.resultCode === MPESA_RESULT_CODES.success ? push.callback : null;
  return {
    status: 'paid',
    transactionCode: receipt ?? push._id,
    receipt,
    timePaid: cb?.transactionDate ? new Date(cb.transactionDate) : new Date(),
  };
}
