import { z } from 'zod';
import { parseDarajaTimestamp } from './daraja.client';

const item = z.object({ Name: z.string(), Value: z.union([z.string(), z.number()]).optional() });

const callbackSchema = z.object({
  Body: z.object({
    stkCallback: z.object({
      MerchantRequestID: z.string().optional(),
      CheckoutRequestID: z.string().min(1).max(100),
      ResultCode: z.union([z.number(), z.string().regex(/^\d+$/)]),
      ResultDesc: z.string().max(500).optional(),
      CallbackMetadata: z.object({ Item: z.array(item).max(20) }).optional(),
    }),
  }),
});

/** A Daraja STK callback, read into what the shop needs from it. */
export interface MpesaCallback {
  checkoutRequestId: string;
  resultCode: number;
  resultDesc: string;
  amount: number | null;
  receipt: string | null;
  transactionDate: Date | null;
}

/** Reads Daraja's `{ Body: { stkCallback } }`; null when the body is not one. */
export function parseMpesaCallback(body: unknown): MpesaCallback | null {
  const parsed = callbackSchema.safeParse(body);
  if (!parsed.success) return null;
  const cb = parsed.data.Body.stkCallback;
  const items = new Map((cb.CallbackMetadata?.Item ?? []).map((i) => [i.Name, i.Value]));
  const amount = Number(items.get('Amount'));
  const receipt = items.get('MpesaReceiptNumber');
  return {
    checkoutRequestId: cb.CheckoutRequestID,
    resultCode: Number(cb.ResultCode),
    resultDesc: cb.ResultDesc ?? '',
    amount: items.has('Amount') && Number.isFinite(amount) ? amount : null,
    receipt: typeof receipt === 'string' && receipt ? receipt : null,
    transactionDate: parseDarajaTimestamp(items.get('TransactionDate')),
  };
}
