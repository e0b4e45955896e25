import { BadRequestException, ConflictException } from '@nestjs/common';
import { canonicalReceiptCode, isReceiptCode } from '../common/identifiers';
import type { MoneyEntryRecord } from '../money/money-ledger.repository';
import type { OrderRecord } from './order.types';

/** The 409 for a code already on an entry: which order has it, or that it waits in the inbox. */
export function codeTaken(
  code: string,
  entry: Pick<MoneyEntryRecord, 'purchaseNumber'>,
): ConflictException {
  return new ConflictException({
    message: `The transaction code ${code} is already recorded ${entry.purchaseNumber ? `for order ${entry.purchaseNumber}` : 'as a payment waiting in the payments inbox'}. Check the code on the M-Pesa message.`,
    code: 'CODE_TAKEN',
  });
}

/**
 * The one spelling of a transaction code typed by a clerk (upper case; blanks, punctuation and
 * invisible characters removed), refusing (400) one with other letters than A-Z (a look-alike).
 */
export function deskCode(typed: string | undefined): string {
  const code = canonicalReceiptCode(typed ?? '');
  // An M-Pesa Express prompt's reference (`ws_CO_…`) is the shop's, not a code M-Pesa sent anyone.
  if (/^WSCO/.test(code))
    throw new BadRequestException({
      message:
        "That is an M-Pesa Express prompt's reference, not an M-Pesa transaction code: use the code on the M-Pesa message",
      errors: [
        {
          field: 'paymentDetails.transactionCode',
          messages: ['Not a prompt reference (ws_CO_…)'],
        },
      ],
    });
  if (!code || !isReceiptCode(code)) {
    throw new BadRequestException({
      message: 'The transaction code must be the letters and digits of the M-Pesa message',
      errors: [
        {
          field: 'paymentDetails.transactionCode',
          messages: ['Only the letters A-Z and digits 0-9'],
        },
      ],
    });
  }
  return code;
}

/** Allowance for a payment device's clock running a little ahead of or behind the server's. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Refuses (400) a payment time before the order was placed or in the future. */
export function checkTimePaid(
  order: Pick<OrderRecord, 'orderDate'>,
  paid: Date,
  now = new Date(),
): void {
  if (Number.isNaN(paid.getTime()))
    throw new BadRequestException('Time paid must be a date and time');
  if (paid.getTime() > now.getTime() + CLOCK_SKEW_MS)
    throw new BadRequestException('Time paid cannot be in the future');
  const placed = new Date(order.orderDate);
  if (paid.getTime() < placed.getTime() - CLOCK_SKEW_MS)
    throw new BadRequestException(
      `Time paid cannot be before the order was placed (${placed.toISOString()})`,
    );
}
