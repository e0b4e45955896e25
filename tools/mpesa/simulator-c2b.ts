/**
 * The Daraja simulator's paybill half (see simulator.ts): C2B URL registration and payments, and
 * the calls answered by a result callback later (transaction status query, reversal, B2C), with
 * Daraja's field names:
 *
 *   POST /mpesa/c2b/v2/registerurl                 { ShortCode, ResponseType, ConfirmationURL, ValidationURL }
 *   POST /mpesa/transactionstatus/v1/query         { Initiator, SecurityCredential, CommandID, TransactionID, ... ResultURL, QueueTimeOutURL }
 *   POST /mpesa/reversal/v1/request                { Initiator, SecurityCredential, CommandID, TransactionID, Amount, ReceiverParty, ... }
 *   POST /mpesa/b2c/v3/paymentrequest              { OriginatorConversationID, InitiatorName, SecurityCredential, CommandID, Amount, PartyA, PartyB, ... }
 *
 * Driven by whoever runs the test:
 *
 *   POST /__simulator/c2b               { "account": "SPD…", "amount": 1200, "phone": "254712345678", "replays": 1 }
 *                                       a customer pays the paybill: validation (unless "validate":
 *                                       false, a shortcode without external validation), then the
 *                                       confirmation (sent `replays` times); answers the payment
 *   GET  /__simulator/c2b               the registrations and every paybill payment
 *   POST /__simulator/result-scenarios  { "kind": "reversal" | "b2c" | "status" | "register",
 *                                         "outcomes": ["failed", "success", "no-result"] }
 *                                       what the next calls of that kind come to, in turn (then success)
 *   GET  /__simulator/refunds           every reversal and B2C payment, and what came of it
 *
 * Money moves once here too: a transaction is reversed at most once, and a B2C request repeating an
 * OriginatorConversationID is refused.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type ResultOutcome = 'success' | 'failed' | 'no-result';
export type ResultKind = 'reversal' | 'b2c' | 'status' | 'register';

export interface SimulatedTransaction {
  transId: string;
  kind: 'c2b' | 'stk';
  amount: number;
  phone: string;
  account: string;
  at: string;
  reversed: boolean;
}

export interface SimulatedC2bPayment extends SimulatedTransaction {
  validation: { status: number; body: unknown } | null;
  confirmationStatuses: number[];
  /** False when the shop's validation refused it (the customer's money never left). */
  completed: boolean;
}

export interface SimulatedRefund {
  kind: 'reversal' | 'b2c';
  originatorConversationId: string;
  conversationId: string;
  request: Record<string, unknown>;
  outcome: ResultOutcome;
  /** Set when the money moved: the reversal's or the payment's own transaction id. */
  transactionId: string | null;
  resultStatuses: number[];
}

export interface C2bSimulatorState {
  registrations: Record<string, unknown>[];
  payments: SimulatedC2bPayment[];
  refunds: SimulatedRefund[];
  statusQueries: Record<string, unknown>[];
  /** Every transaction the simulated M-Pesa knows, by its id (paybill payments and paid prompts). */
  transactions: Map<string, SimulatedTransaction>;
}

interface Helpers {
  authorised: (req: IncomingMessage) => boolean;
  readJson: (req: IncomingMessage) => Promise<Record<string, unknown> | null>;
  send: (res: ServerResponse, status: number, body: unknown) => void;
  darajaError: (code: string, message: string) => unknown;
  timestamp: () => string;
  receipt: () => string;
  delayMs: () => number;
  log: (message: string) => void;
  later: (fn: () => void, ms: number) => void;
}

const FAILURES: Record<Exclude<ResultKind, 'register'>, { code: number | string; desc: string }> = {
  reversal: { code: 'R000002', desc: 'The OriginalTransactionID is invalid.' },
  b2c: { code: 2001, desc: 'The initiator information is invalid.' },
  status: { code: 2032, desc: 'The transaction receipt number does not exist.' },
};

const url = (value: unknown) => typeof value === 'string' && /^https?:\/\/.+/.test(value);

async function post(target: string, body: unknown, log: (m: string) => void): Promise<number> {
  try {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    await res.text();
    return res.status;
  } catch (error) {
    log(`call to ${target} failed: ${(error as Error).message}`);
    return 0;
  }
}

export function createC2bSimulator(h: Helpers) {
  const state: C2bSimulatorState = {
    registrations: [],
    payments: [],
    refunds: [],
    statusQueries: [],
    transactions: new Map(),
  };
  const queues = new Map<ResultKind, ResultOutcome[]>();
  const next = (kind: ResultKind): ResultOutcome => queues.get(kind)?.shift() ?? 'success';
  const seenOriginators = new Set<string>();

  const accepted = () => ({
    OriginatorConversationID: randomUUID(),
    ConversationID: `AG_${h.timestamp()}_${randomBytes(8).toString('hex')}`,
    ResponseCode: '0',
    ResponseDescription: 'Accept the service request successfully.',
  });

  const result = (
    ids: { OriginatorConversationID: string; ConversationID: string },
    code: number | string,
    desc: string,
    transactionId: string,
    parameters: { Key: string; Value: unknown }[],
    queueTimeOutUrl: unknown,
  ) => ({
    Result: {
      ResultType: 0,
      ResultCode: code,
      ResultDesc: desc,
      OriginatorConversationID: ids.OriginatorConversationID,
      ConversationID: ids.ConversationID,
      TransactionID: transactionId,
      ResultParameters: { ResultParameter: parameters },
      ReferenceData: { ReferenceItem: { Key: 'QueueTimeoutURL', Value: queueTimeOutUrl } },
    },
  });

  /** A paid STK prompt is a transaction M-Pesa can reverse or be asked about. */
  function recordStk(receipt: string, amount: number, phone: string, account: string): void {
    state.transactions.set(receipt, {
      transId: receipt,
      kind: 'stk',
      amount,
      phone,
      account,
      at: new Date().toISOString(),
      reversed: false,
    });
  }

  async function pay(body: Record<string, unknown>): Promise<SimulatedC2bPayment> {
    const shortcode = String(body.shortcode ?? state.registrations.at(-1)?.ShortCode ?? '');
    const registration = [...state.registrations].reverse().find((r) => r.ShortCode === shortcode);
    if (!registration) throw new Error(`no URLs are registered for shortcode ${shortcode}`);
    const amount = Number(body.amount);
    if (!Number.isFinite(amount) || amount < 1) throw new Error('amount must be at least 1');
    const transId = typeof body.transId === 'string' ? body.transId : h.receipt();
    const payload = {
      TransactionType: 'Pay Bill',
      TransID: transId,
      TransTime: h.timestamp(),
      TransAmount: amount.toFixed(2),
      BusinessShortCode: shortcode,
      BillRefNumber: String(body.account ?? ''),
      InvoiceNumber: '',
      OrgAccountBalance: '',
      ThirdPartyTransID: '',
      MSISDN: String(body.phone ?? '254708374149'),
      FirstName: String(body.firstName ?? 'John'),
      MiddleName: '',
      LastName: '',
    };
    const payment: SimulatedC2bPayment = {
      transId,
      kind: 'c2b',
      amount,
      phone: payload.MSISDN,
      account: payload.BillRefNumber,
      at: new Date().toISOString(),
      reversed: false,
      validation: null,
      confirmationStatuses: [],
      completed: false,
    };
    state.payments.push(payment);
    const validates = body.validate !== false && url(registration.ValidationURL);
    let allowed = !validates || registration.ResponseType === 'Completed';
    // Daraja calls the validation URL only where external validation is on for the shortcode.
    if (validates) {
      try {
        const res = await fetch(String(registration.ValidationURL), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(payload),
          signal: AbortSignal.timeout(8_000),
        });
        const answer: unknown = await res.json().catch(() => null);
        payment.validation = { status: res.status, body: answer };
        const code = (answer as { ResultCode?: unknown } | null)?.ResultCode;
        allowed = res.ok && String(code) === '0';
      } catch (error) {
        // No answer: Daraja does what the registration's ResponseType says.
        h.log(`validation failed: ${(error as Error).message}`);
      }
    }
    if (!allowed) {
      h.log(`paybill payment ${transId} refused by the shop's validation`);
      return payment;
    }
    payment.completed = true;
    state.transactions.set(transId, payment);
    const replays = Math.max(1, Math.min(20, Number(body.replays ?? 1) || 1));
    for (let i = 0; i < replays; i += 1)
      payment.confirmationStatuses.push(
        await post(String(registration.ConfirmationURL), payload, h.log),
      );
    h.log(`paybill payment ${transId}: KES ${amount} to account "${payload.BillRefNumber}"`);
    return payment;
  }

  /** Sends a result callback a little later, as Daraja does. */
  function callBack(target: unknown, body: unknown, statuses: number[]): void {
    h.later(() => {
      void post(String(target), body, h.log).then((status) => statuses.push(status));
    }, h.delayMs());
  }

  async function handle(req: IncomingMessage, res: ServerResponse, route: string) {
    const daraja = route.startsWith('POST /mpesa/');
    if (daraja && !h.authorised(req))
      return (h.send(res, 401, h.darajaError('404.001.03', 'Invalid Access Token')), true);
    const body = route.startsWith('POST ') ? await h.readJson(req) : {};
    if (!body)
      return (h.send(res, 400, h.darajaError('400.002.02', 'Bad Request - Invalid Body')), true);
    const bad = (message: string) => (h.send(res, 400, h.darajaError('400.002.02', message)), true);

    switch (route) {
      case 'POST /mpesa/c2b/v2/registerurl': {
        if (!/^\d{5,7}$/.test(String(body.ShortCode)))
          return bad('Bad Request - Invalid ShortCode');
        if (!['Completed', 'Cancelled'].includes(String(body.ResponseType)))
          return bad('Bad Request - Invalid ResponseType');
        if (!url(body.ConfirmationURL)) return bad('Bad Request - Invalid ConfirmationURL');
        if (!url(body.ValidationURL)) return bad('Bad Request - Invalid ValidationURL');
        if (next('register') !== 'success')
          return (h.send(res, 500, h.darajaError('500.003.1001', 'Internal Server Error')), true);
        state.registrations.push(body);
        h.send(res, 200, {
          OriginatorCoversationID: randomUUID(),
          ResponseCode: '0',
          ResponseDescription: 'Success',
        });
        return true;
      }
      case 'POST /mpesa/transactionstatus/v1/query': {
        if (body.CommandID !== 'TransactionStatusQuery')
          return bad('Bad Request - Invalid CommandID');
        if (!url(body.ResultURL)) return bad('Bad Request - Invalid ResultURL');
        if (!body.Initiator || !body.SecurityCredential)
          return bad('Bad Request - Invalid Initiator');
        const ids = accepted();
        state.statusQueries.push(body);
        const outcome = next('status');
        const tx = state.transactions.get(String(body.TransactionID));
        h.send(res, 200, ids);
        if (outcome === 'no-result') return true;
        const answer =
          outcome === 'success' && tx
            ? result(
                ids,
                0,
                'The service request is processed successfully.',
                randomBytes(5).toString('hex').toUpperCase(),
                [
                  { Key: 'ReceiptNo', Value: tx.transId },
                  { Key: 'Amount', Value: tx.amount },
                  { Key: 'TransactionStatus', Value: tx.reversed ? 'Reversed' : 'Completed' },
                  { Key: 'DebitPartyName', Value: `${tx.phone} - John` },
                  { Key: 'CreditPartyName', Value: String(body.PartyA) },
                  { Key: 'FinalisedTime', Value: Number(h.timestamp()) },
                ],
                body.QueueTimeOutURL,
              )
            : result(ids, FAILURES.status.code, FAILURES.status.desc, '', [], body.QueueTimeOutURL);
        callBack(body.ResultURL, answer, []);
        return true;
      }
      case 'POST /mpesa/reversal/v1/request': {
        if (body.CommandID !== 'TransactionReversal') return bad('Bad Request - Invalid CommandID');
        if (!url(body.ResultURL)) return bad('Bad Request - Invalid ResultURL');
        if (!body.Initiator || !body.SecurityCredential)
          return bad('Bad Request - Invalid Initiator');
        const ids = accepted();
        const refund: SimulatedRefund = {
          kind: 'reversal',
          originatorConversationId: ids.OriginatorConversationID,
          conversationId: ids.ConversationID,
          request: body,
          outcome: next('reversal'),
          transactionId: null,
          resultStatuses: [],
        };
        state.refunds.push(refund);
        h.log(
          `reversal of ${String(body.TransactionID)} (KES ${String(body.Amount)}): ${refund.outcome}`,
        );
        h.send(res, 200, ids);
        const tx = state.transactions.get(String(body.TransactionID));
        if (refund.outcome === 'no-result') return true;
        if (
          refund.outcome === 'success' &&
          tx &&
          !tx.reversed &&
          Number(body.Amount) === tx.amount
        ) {
          tx.reversed = true;
          refund.transactionId = h.receipt();
          callBack(
            body.ResultURL,
            result(
              ids,
              0,
              'The service request is processed successfully.',
              refund.transactionId,
              [
                { Key: 'Amount', Value: tx.amount },
                { Key: 'OriginalTransactionID', Value: tx.transId },
                { Key: 'CreditPartyPublicName', Value: `${tx.phone} - John` },
                { Key: 'TransCompletedTime', Value: Number(h.timestamp()) },
              ],
              body.QueueTimeOutURL,
            ),
            refund.resultStatuses,
          );
        } else {
          if (refund.outcome === 'success') refund.outcome = 'failed';
          const failure = tx?.reversed
            ? { code: 'R000001', desc: 'The transaction has already been reversed.' }
            : FAILURES.reversal;
          callBack(
            body.ResultURL,
            result(ids, failure.code, failure.desc, '', [], body.QueueTimeOutURL),
            refund.resultStatuses,
          );
        }
        return true;
      }
      case 'POST /mpesa/b2c/v3/paymentrequest': {
        const originator = String(body.OriginatorConversationID ?? '');
        if (!originator) return bad('Bad Request - Invalid OriginatorConversationID');
        if (seenOriginators.has(originator))
          return (
            h.send(res, 409, h.darajaError('409.001.01', 'Duplicate OriginatorConversationID')),
            true
          );
        if (
          !['BusinessPayment', 'SalaryPayment', 'PromotionPayment'].includes(String(body.CommandID))
        )
          return bad('Bad Request - Invalid CommandID');
        if (!/^254[17]\d{8}$/.test(String(body.PartyB))) return bad('Bad Request - Invalid PartyB');
        if (!Number.isInteger(Number(body.Amount)) || Number(body.Amount) < 10)
          return bad('Bad Request - Invalid Amount');
        if (!url(body.ResultURL)) return bad('Bad Request - Invalid ResultURL');
        seenOriginators.add(originator);
        const ids = { ...accepted(), OriginatorConversationID: originator };
        const refund: SimulatedRefund = {
          kind: 'b2c',
          originatorConversationId: originator,
          conversationId: ids.ConversationID,
          request: body,
          outcome: next('b2c'),
          transactionId: null,
          resultStatuses: [],
        };
        state.refunds.push(refund);
        h.log(`B2C of KES ${String(body.Amount)} to ${String(body.PartyB)}: ${refund.outcome}`);
        h.send(res, 200, ids);
        if (refund.outcome === 'no-result') return true;
        if (refund.outcome === 'success') {
          refund.transactionId = h.receipt();
          callBack(
            body.ResultURL,
            result(
              ids,
              0,
              'The service request is processed successfully.',
              refund.transactionId,
              [
                { Key: 'TransactionAmount', Value: Number(body.Amount) },
                { Key: 'TransactionReceipt', Value: refund.transactionId },
                { Key: 'ReceiverPartyPublicName', Value: `${String(body.PartyB)} - John` },
                { Key: 'TransactionCompletedDateTime', Value: new Date().toISOString() },
              ],
              body.QueueTimeOutURL,
            ),
            refund.resultStatuses,
          );
        } else {
          callBack(
            body.ResultURL,
            result(ids, FAILURES.b2c.code, FAILURES.b2c.desc, '', [], body.QueueTimeOutURL),
            refund.resultStatuses,
          );
        }
        return true;
      }
      case 'POST /__simulator/c2b':
        try {
          h.send(res, 200, { payment: await pay(body) });
        } catch (error) {
          h.send(res, 400, { ok: false, message: (error as Error).message });
        }
        return true;
      case 'GET /__simulator/c2b':
        h.send(res, 200, { registrations: state.registrations, payments: state.payments });
        return true;
      case 'POST /__simulator/result-scenarios': {
        const kind = body.kind as ResultKind;
        const outcomes = body.outcomes;
        if (
          !['reversal', 'b2c', 'status', 'register'].includes(kind) ||
          !Array.isArray(outcomes) ||
          !outcomes.every((o) => ['success', 'failed', 'no-result'].includes(String(o)))
        ) {
          h.send(res, 400, {
            ok: false,
            message: 'kind and outcomes (success, failed, no-result)',
          });
          return true;
        }
        queues.set(kind, [...(outcomes as ResultOutcome[])]);
        h.send(res, 200, { ok: true });
        return true;
      }
      case 'GET /__simulator/refunds':
        h.send(res, 200, { refunds: state.refunds, statusQueries: state.statusQueries });
        return true;
      default:
        return false;
    }
  }

  return {
    state,
    handle,
    recordStk,
    pay,
    setResultScenario(kind: ResultKind, outcomes: ResultOutcome[]) {
      queues.set(kind, [...outcomes]);
    },
  };
}
