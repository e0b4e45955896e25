/**
 * A local stand-in for Safaricom Daraja's M-Pesa Express (STK push); its paybill half (C2B, status
 * query, reversal, B2C) is simulator-c2b.ts, for the tests, the browser
 * journeys and `npm start` with MPESA_ENV=sandbox-local. It answers the three endpoints the API uses
 * with Daraja's shapes and errors:
 *
 *   GET  /oauth/v1/generate?grant_type=client_credentials   (Basic consumer key:secret)
 *   POST /mpesa/stkpush/v1/processrequest                   (Bearer token)
 *   POST /mpesa/stkpushquery/v1/query                       (Bearer token)
 *
 * and, like the real service, calls the request's CallBackURL a little later with the outcome. What
 * happens to a prompt is chosen per phone number (or for all) by whoever drives the test:
 *
 *   POST /__simulator/scenarios  { "phoneNumber": "254712345678", "scenario": "cancelled" }
 *   POST /__simulator/scenarios  { "scenario": { "result": "success", "callback": "none" } }  (all)
 *   GET  /__simulator/pushes     what the API sent, and what came of it
 *
 * Scenarios: success, cancelled (1032), timeout (1037), wrong-pin (2001), insufficient (1),
 * no-callback (paid, but the callback never comes), duplicate-callback (paid, callback sent twice at
 * once), late-callback (paid; the callback comes 2.5 s after the query knows), wrong-amount (paid,
 * but the callback names another amount), failed-then-paid (the query answers a timeout until the
 * shopper pays, later). Until the outcome is known the query answers Daraja's "The transaction is
 * being processed" error, as the real one does (or the scenario's `queryFirst` result).
 *
 * Run alone: npx tsx tools/mpesa/simulator.ts  (MPESA_SIMULATOR_PORT, default 4010;
 * MPESA_SIMULATOR_DELAY_MS, default 3000)
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createC2bSimulator,
  type C2bSimulatorState,
  type ResultKind,
  type ResultOutcome,
  type SimulatedC2bPayment,
} from './simulator-c2b';

export type SimulatedResult = 'success' | 'cancelled' | 'timeout' | 'wrong-pin' | 'insufficient';

export interface Scenario {
  result: SimulatedResult;
  /** How many callbacks are sent: none, one, or two at the same moment. */
  callback?: 'none' | 'once' | 'twice';
  /** Added to the amount the callback reports (a tampered or mismatched callback). */
  amountDelta?: number;
  /** From the prompt to its outcome (and callback); the simulator's default when unset. */
  delayMs?: number;
  /** The callback comes this long after the outcome (which the query already reports). */
  lateCallbackMs?: number;
  /**
   * What the status query answers until the outcome, instead of "being processed": Daraja has
   * answered a failure (such as a timeout) for a prompt the shopper then paid.
   */
  queryFirst?: SimulatedResult;
}

export type ScenarioName =
  | SimulatedResult
  | 'no-callback'
  | 'duplicate-callback'
  | 'late-callback'
  | 'wrong-amount'
  | 'failed-then-paid';

const NAMED: Record<ScenarioName, Scenario> = {
  success: { result: 'success' },
  cancelled: { result: 'cancelled' },
  timeout: { result: 'timeout' },
  'wrong-pin': { result: 'wrong-pin' },
  insufficient: { result: 'insufficient' },
  'no-callback': { result: 'success', callback: 'none' },
  'duplicate-callback': { result: 'success', callback: 'twice' },
  'late-callback': { result: 'success', lateCallbackMs: 2500 },
  'wrong-amount': { result: 'success', amountDelta: 1 },
  'failed-then-paid': { result: 'success', queryFirst: 'timeout', callback: 'none', delayMs: 2500 },
};

const RESULTS: Record<SimulatedResult, { code: number; desc: string }> = {
  success: { code: 0, desc: 'The service request is processed successfully.' },
  cancelled: { code: 1032, desc: 'Request cancelled by user' },
  timeout: { code: 1037, desc: 'DS timeout user cannot be reached' },
  'wrong-pin': { code: 2001, desc: 'The initiator information is invalid.' },
  insufficient: { code: 1, desc: 'The balance is insufficient for the transaction.' },
};

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** When set, the OAuth call must carry exactly these credentials. */
  consumerKey?: string;
  consumerSecret?: string;
  /** When set, pushes and queries must use this shortcode and a password made with this passkey. */
  shortcode?: string;
  passkey?: string;
  /** Default time from a prompt to its outcome. */
  delayMs?: number;
  tokenTtlSeconds?: number;
  log?: (message: string) => void;
}

export interface SimulatedPush {
  checkoutRequestId: string;
  merchantRequestId: string;
  request: Record<string, unknown>;
  scenario: Scenario;
  /** Set once the shopper has "answered" the prompt. */
  outcome: { code: number; desc: string; receipt: string | null; transactionDate: number } | null;
  callbacksSent: number;
  callbackStatuses: number[];
}

export interface DarajaSimulator {
  url: string;
  port: number;
  pushes: SimulatedPush[];
  /** OAuth tokens handed out so far (the API is expected to cache them). */
  tokensIssued: () => number;
  /** The paybill half: registrations, paybill payments, reversals and B2C payments (simulator-c2b.ts). */
  c2b: C2bSimulatorState;
  /** A customer pays the paybill (validation, then the confirmation `replays` times). */
  payBill(payment: {
    account: string;
    amount: number;
    phone?: string;
    transId?: string;
    replays?: number;
    /** False: the shortcode has no external validation (Daraja confirms without asking). */
    validate?: boolean;
  }): Promise<SimulatedC2bPayment>;
  /** What the next reversals, B2C payments, status queries or registrations come to, in turn. */
  setResultScenario(kind: ResultKind, outcomes: ResultOutcome[]): void;
  setScenario(scenario: ScenarioName | Scenario, phoneNumber?: string): void;
  /** Resolves when the push has its outcome and its callbacks were answered. */
  settled(checkoutRequestId: string, timeoutMs?: number): Promise<SimulatedPush>;
  close(): Promise<void>;
}

/** Daraja's error body. */
const darajaError = (errorCode: string, errorMessage: string) => ({
  requestId: `${randomBytes(4).toString('hex')}-${Date.now()}`,
  errorCode,
  errorMessage,
});

/** `yyyyMMddHHmmss` in Nairobi time (UTC+3, no daylight saving), as Daraja writes dates. */
export function darajaTimestamp(at = new Date()): string {
  return new Date(at.getTime() + 3 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
}

const RECEIPT_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
function receiptNumber(): string {
  const bytes = randomBytes(9);
  return 'T' + [...bytes].map((b) => RECEIPT_ALPHABET[b % RECEIPT_ALPHABET.length]).join('');
}

function toScenario(s: ScenarioName | Scenario): Scenario {
  if (typeof s !== 'string') return s;
  const named = NAMED[s];
  if (!named) throw new Error(`unknown scenario ${s}`);
  return named;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startDarajaSimulator(
  options: SimulatorOptions = {},
): Promise<DarajaSimulator> {
  const log = options.log ?? (() => undefined);
  const defaultDelay = options.delayMs ?? 300;
  const ttl = options.tokenTtlSeconds ?? 3599;
  const tokens = new Map<string, number>();
  let tokensIssued = 0;
  const scenarios = new Map<string, Scenario>();
  let fallback: Scenario = NAMED.success;
  const pushes: SimulatedPush[] = [];
  const byId = new Map<string, SimulatedPush>();
  const waiters = new Map<string, (() => void)[]>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (fn: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const authorised = (req: IncomingMessage) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expires = token ? tokens.get(token) : undefined;
    return expires !== undefined && expires > Date.now();
  };

  /** Checks the shortcode, timestamp and password shared by push and query; an error message or null. */
  const credentialsProblem = (body: Record<string, unknown>): string | null => {
    const { BusinessShortCode: code, Password: password, Timestamp: timestamp } = body;
    if (typeof code !== 'string' && typeof code !== 'number')
      return 'Bad Request - Invalid BusinessShortCode';
    if (options.shortcode && String(code) !== options.shortcode)
      return 'Bad Request - Invalid BusinessShortCode';
    if (typeof timestamp !== 'string' || !/^\d{14}$/.test(timestamp))
      return 'Bad Request - Invalid Timestamp';
    if (typeof password !== 'string') return 'Bad Request - Invalid Password';
    if (options.passkey) {
      const expected = Buffer.from(`${String(code)}${options.passkey}${timestamp}`).toString(
        'base64',
      );
      if (password !== expected) return 'Bad Request - Invalid Password';
    }
    return null;
  };

  const c2b = createC2bSimulator({
    authorised,
    readJson,
    send,
    darajaError,
    timestamp: () => darajaTimestamp(),
    receipt: receiptNumber,
    delayMs: () => Math.min(defaultDelay, 300),
    log,
    later,
  });

  const notify = (push: SimulatedPush) => {
    for (const resolve of waiters.get(push.checkoutRequestId) ?? []) resolve();
    waiters.delete(push.checkoutRequestId);
  };

  const complete = async (push: SimulatedPush) => {
    const { code, desc } = RESULTS[push.scenario.result];
    const request = push.request;
    const paid = code === 0;
    const transactionDate = Number(darajaTimestamp());
    push.outcome = { code, desc, receipt: paid ? receiptNumber() : null, transactionDate };
    if (push.outcome.receipt)
      c2b.recordStk(
        push.outcome.receipt,
        Number(request.Amount),
        String(request.PhoneNumber),
        String(request.AccountReference),
      );
    const callbacks = { none: 0, once: 1, twice: 2 }[push.scenario.callback ?? 'once'];
    const stkCallback: Record<string, unknown> = {
      MerchantRequestID: push.merchantRequestId,
      CheckoutRequestID: push.checkoutRequestId,
      ResultCode: code,
      ResultDesc: desc,
    };
    if (paid) {
      stkCallback.CallbackMetadata = {
        Item: [
          { Name: 'Amount', Value: Number(request.Amount) + (push.scenario.amountDelta ?? 0) },
          { Name: 'MpesaReceiptNumber', Value: push.outcome.receipt },
          { Name: 'Balance' },
          { Name: 'TransactionDate', Value: transactionDate },
          { Name: 'PhoneNumber', Value: Number(request.PhoneNumber) },
        ],
      };
    }
    const body = JSON.stringify({ Body: { stkCallback } });
    if (push.scenario.lateCallbackMs)
      await new Promise((r) => setTimeout(r, push.scenario.lateCallbackMs));
    await Promise.all(
      Array.from({ length: callbacks }, async () => {
        try {
          const res = await fetch(String(request.CallBackURL), {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body,
            signal: AbortSignal.timeout(10_000),
          });
          push.callbackStatuses.push(res.status);
        } catch (error) {
          log(`callback to ${String(request.CallBackURL)} failed: ${(error as Error).message}`);
          push.callbackStatuses.push(0);
        }
        push.callbacksSent += 1;
      }),
    );
    log(`${push.checkoutRequestId}: ${push.scenario.result}, ${callbacks} callback(s)`);
    notify(push);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const route = `${req.method} ${url.pathname}`;

    if (route === 'GET /oauth/v1/generate') {
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [key, secret] = basic ? Buffer.from(basic, 'base64').toString().split(':') : [];
      const wrong =
        !basic ||
        (options.consumerKey !== undefined &&
          (key !== options.consumerKey || secret !== options.consumerSecret));
      if (url.searchParams.get('grant_type') !== 'client_credentials' || wrong)
        return send(res, 400, darajaError('400.008.01', 'Invalid Authentication passed'));
      const token = randomBytes(16).toString('base64url');
      tokens.set(token, Date.now() + ttl * 1000);
      tokensIssued += 1;
      return send(res, 200, { access_token: token, expires_in: String(ttl) });
    }

    if (route === 'POST /mpesa/stkpush/v1/processrequest') {
      if (!authorised(req))
        return send(res, 401, darajaError('404.001.03', 'Invalid Access Token'));
      const body = await readJson(req);
      if (!body) return send(res, 400, darajaError('400.002.02', 'Bad Request - Invalid Body'));
      const problem =
        credentialsProblem(body) ??
        (!['CustomerPayBillOnline', 'CustomerBuyGoodsOnline'].includes(String(body.TransactionType))
          ? 'Bad Request - Invalid TransactionType'
          : !Number.isInteger(body.Amount) || (body.Amount as number) < 1
            ? 'Bad Request - Invalid Amount'
            : !/^254[17]\d{8}$/.test(String(body.PartyA))
              ? 'Bad Request - Invalid PartyA'
              : !/^254[17]\d{8}$/.test(String(body.PhoneNumber))
                ? 'Bad Request - Invalid PhoneNumber'
                : !/^\d{5,7}$/.test(String(body.PartyB))
                  ? 'Bad Request - Invalid PartyB'
                  : !/^https?:\/\/.+/.test(String(body.CallBackURL))
                    ? 'Bad Request - Invalid CallBackURL'
                    : typeof body.AccountReference !== 'string' ||
                        !body.AccountReference ||
                        body.AccountReference.length > 12
                      ? 'Bad Request - Invalid AccountReference'
                      : typeof body.TransactionDesc !== 'string' ||
                          !body.TransactionDesc ||
                          body.TransactionDesc.length > 13
                        ? 'Bad Request - Invalid TransactionDesc'
                        : null);
      if (problem) return send(res, 400, darajaError('400.002.02', problem));
      const phone = String(body.PhoneNumber);
      const scenario = scenarios.get(phone) ?? fallback;
      const push: SimulatedPush = {
        checkoutRequestId: `ws_CO_${darajaTimestamp()}${randomBytes(5).toString('hex')}`,
        merchantRequestId: `${randomBytes(2).toString('hex')}-${randomBytes(4).toString('hex')}-1`,
        request: body,
        scenario,
        outcome: null,
        callbacksSent: 0,
        callbackStatuses: [],
      };
      pushes.push(push);
      byId.set(push.checkoutRequestId, push);
      const timer = setTimeout(() => {
        timers.delete(timer);
        void complete(push);
      }, scenario.delayMs ?? defaultDelay);
      timers.add(timer);
      log(`prompt ${push.checkoutRequestId} to ${phone} for KES ${String(body.Amount)}`);
      return send(res, 200, {
        MerchantRequestID: push.merchantRequestId,
        CheckoutRequestID: push.checkoutRequestId,
        ResponseCode: '0',
        ResponseDescription: 'Success. Request accepted for processing',
        CustomerMessage: 'Success. Request accepted for processing',
      });
    }

    if (route === 'POST /mpesa/stkpushquery/v1/query') {
      if (!authorised(req))
        return send(res, 401, darajaError('404.001.03', 'Invalid Access Token'));
      const body = await readJson(req);
      if (!body) return send(res, 400, darajaError('400.002.02', 'Bad Request - Invalid Body'));
      const problem = credentialsProblem(body);
      if (problem) return send(res, 400, darajaError('400.002.02', problem));
      const push = byId.get(String(body.CheckoutRequestID));
      if (!push)
        return send(res, 400, darajaError('400.002.02', 'Bad Request - Invalid CheckoutRequestID'));
      const first = push.scenario.queryFirst;
      if (!push.outcome && first)
        return send(res, 200, {
          ResponseCode: '0',
          ResponseDescription: 'The service request has been accepted successsfully',
          MerchantRequestID: push.merchantRequestId,
          CheckoutRequestID: push.checkoutRequestId,
          ResultCode: String(RESULTS[first].code),
          ResultDesc: RESULTS[first].desc,
        });
      if (!push.outcome)
        return send(res, 500, darajaError('500.001.1001', 'The transaction is being processed'));
      return send(res, 200, {
        ResponseCode: '0',
        ResponseDescription: 'The service request has been accepted successsfully',
        MerchantRequestID: push.merchantRequestId,
        CheckoutRequestID: push.checkoutRequestId,
        ResultCode: String(push.outcome.code),
        ResultDesc: push.outcome.desc,
      });
    }

    if (route === 'POST /__simulator/scenarios') {
      const body = await readJson(req);
      try {
        const scenario = toScenario(body?.scenario as ScenarioName | Scenario);
        if (typeof body?.phoneNumber === 'string') scenarios.set(body.phoneNumber, scenario);
        else fallback = scenario;
        return send(res, 200, { ok: true, scenario });
      } catch (error) {
        return send(res, 400, { ok: false, message: (error as Error).message });
      }
    }
    if (route === 'GET /__simulator/pushes') return send(res, 200, { pushes });
    if (await c2b.handle(req, res, route)) return;

    return send(res, 404, darajaError('404.001.01', 'Resource not found'));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      log(`error: ${error.message}`);
      if (!res.headersSent) send(res, 500, darajaError('500.003.02', 'Internal Server Error'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    pushes,
    tokensIssued: () => tokensIssued,
    c2b: c2b.state,
    payBill: (payment) => c2b.pay(payment as unknown as Record<string, unknown>),
    setResultScenario: c2b.setResultScenario,
    setScenario(scenario, phoneNumber) {
      if (phoneNumber) scenarios.set(phoneNumber, toScenario(scenario));
      else fallback = toScenario(scenario);
    },
    settled(checkoutRequestId, timeoutMs = 20_000) {
      const push = byId.get(checkoutRequestId);
      const done = () => push && push.outcome && push.callbacksSent === expectedCallbacks(push);
      if (done()) return Promise.resolve(push!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`push ${checkoutRequestId} did not settle in ${timeoutMs} ms`)),
          timeoutMs,
        );
        const list = waiters.get(checkoutRequestId) ?? [];
        list.push(() => {
          clearTimeout(timer);
          resolve(byId.get(checkoutRequestId)!);
        });
        waiters.set(checkoutRequestId, list);
      });
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function expectedCallbacks(push: SimulatedPush): number {
  return { none: 0, once: 1, twice: 2 }[push.scenario.callback ?? 'once'];
}

if (require.main === module) {
  const port = Number(process.env.MPESA_SIMULATOR_PORT ?? 4010);
  // A few seconds, like a person reaching for their phone; the journeys set their own per prompt.
  const delayMs = Number(process.env.MPESA_SIMULATOR_DELAY_MS ?? 3000);
  startDarajaSimulator({ port, delayMs, log: (m) => console.log(`[mpesa] ${m}`) })
    .then((sim) => console.log(`[mpesa] Daraja simulator at ${sim.url}`))
    .catch((error: Error) => {
      console.error(`[mpesa] ${error.message}`);
      process.exit(1);
    });
}
