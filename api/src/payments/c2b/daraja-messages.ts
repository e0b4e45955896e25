import { z } from 'zod';
import { parseDarajaTimestamp } from '../daraja.client';

const amount = z.union([z.number(), z.string().regex(/^\d+(\.\d{1,2})?$/)]).transform(Number);

const confirmationSchema = z.object({
  TransID: z.string().regex(/^[A-Za-z0-9]{6,20}$/),
  TransTime: z.union([z.string(), z.number()]).optional(),
  TransAmount: amount,
  BusinessShortCode: z.union([z.string(), z.number()]).optional(),
  BillRefNumber: z.string().max(100).optional().default(''),
  MSISDN: z.union([z.string(), z.number()]).optional(),
  FirstName: z.string().max(100).optional(),
});

/** A C2B validation or confirmation request, read into what the shop needs. */
export interface C2bNotice {
  transId: string;
  amount: number;
  account: string;
  phone: string;
  payerName: string;
  paidAt: Date;
  shortcode: string;
}

/** Reads Daraja's C2B validation/confirmation body; null when it is not one. */
export function parseC2bNotice(body: unknown): C2bNotice | null {
  const parsed = confirmationSchema.safeParse(body);
  if (!parsed.success || !(parsed.data.TransAmount > 0)) return null;
  const d = parsed.data;
  return {
    transId: d.TransID.toUpperCase(),
    amount: d.TransAmount,
    account: d.BillRefNumber,
    phone: String(d.MSISDN ?? ''),
    payerName: d.FirstName ?? '',
    paidAt: parseDarajaTimestamp(d.TransTime) ?? new Date(),
    shortcode: String(d.BusinessShortCode ?? ''),
  };
}

const parameter = z.object({ Key: z.string(), Value: z.unknown().optional() });
const resultSchema = z.object({
  Result: z.object({
    ResultCode: z.union([z.number(), z.string()]),
    ResultDesc: z.string().max(500).optional(),
    OriginatorConversationID: z.string().max(100).optional(),
    ConversationID: z.string().max(100).optional(),
    TransactionID: z.string().max(100).optional(),
    ResultParameters: z
      .object({ ResultParameter: z.union([z.array(parameter), parameter]) })
      .optional(),
  }),
});

/** The result of a status query, reversal or B2C payment that Daraja posts to the ResultURL. */
export interface DarajaResult {
  success: boolean;
  resultCode: string;
  resultDesc: string;
  originatorConversationId: string;
  conversationId: string;
  transactionId: string;
  parameters: Map<string, unknown>;
}

export function parseDarajaResult(body: unknown): DarajaResult | null {
  const parsed = resultSchema.safeParse(body);
  if (!parsed.success) return null;
  const r = parsed.data.Result;
  const list = r.ResultParameters?.ResultParameter;
  const items = Array.isArray(list) ? list : list ? [list] : [];
  return {
    success: String(r.ResultCode) === '0',
    resultCode: String(r.ResultCode),
    resultDesc: r.ResultDesc ?? '',
    originatorConversationId: r.OriginatorConversationID ?? '',
    conversationId: r.ConversationID ?? '',
    transactionId: r.TransactionID ?? '',
    parameters: new Map(items.map((i) => [i.Key, i.Value])),
  };
}
