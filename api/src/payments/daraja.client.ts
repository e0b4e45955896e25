import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { MpesaConfig } from '../config/mpesa-config';

const TIMEOUT_MS = 15_000;
/** Renew the OAuth token this long before Daraja says it expires. */
const TOKEN_MARGIN_MS = 60_000;
/** Daraja's answer to a query about a prompt the shopper has not answered yet. */
const STILL_PROCESSING = '500.001.1001';

/** Daraja refused or could not be reached; `status` 0 means no answer at all. */
export class DarajaError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errorCode?: string,
  ) {
    super(message);
    this.name = 'DarajaError';
  }
}

export interface StkPushRequest {
  /** Whole KES. */
  amount: number;
  /** 2547XXXXXXXX / 2541XXXXXXXX. */
  phone: string;
  /** At most 12 characters: the purchase number. */
  accountReference: string;
  /** At most 13 characters. */
  description: string;
}

export type StkQueryResult =
  { state: 'processing' } | { state: 'done'; resultCode: number; resultDesc: string };

/** `yyyyMMddHHmmss` in Nairobi time (UTC+3, no daylight saving), as Daraja wants its Timestamp. */
export function darajaTimestamp(at = new Date()): string {
  return new Date(at.getTime() + 3 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
}

/** Daraja's `yyyyMMddHHmmss` (Nairobi time) as an instant; null when it is not one. */
export function parseDarajaTimestamp(value: unknown): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(String(value ?? ''));
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h! - 3, mi!, s!));
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Safaricom Daraja's M-Pesa Express: the OAuth token (client credentials, cached until shortly
 * before it expires), the STK push and the STK push query.
 */
@Injectable()
export class DarajaClient {
  private readonly logger = new Logger(DarajaClient.name);
  private readonly settings: MpesaConfig | null;
  private token: { value: string; expiresAt: number } | null = null;
  private tokenRequest: Promise<string> | null = null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.settings = config.mpesa;
  }

  get enabled(): boolean {
    return this.settings !== null;
  }

  async stkPush(request: StkPushRequest): Promise<{
    checkoutRequestId: string;
    merchantRequestId: string;
  }> {
    const s = this.mustHaveSettings();
    const timestamp = darajaTimestamp();
    const body = await this.post('/mpesa/stkpush/v1/processrequest', {
      BusinessShortCode: s.shortcode,
      Password: this.password(timestamp),
      Timestamp: timestamp,
      TransactionType: s.transactionType,
      Amount: request.amount,
      PartyA: request.phone,
      PartyB: s.partyB,
      PhoneNumber: request.phone,
      CallBackURL: s.callbackUrl,
      AccountReference: request.accountReference.slice(0, 12),
      TransactionDesc: request.description.slice(0, 13),
    });
    if (String(body.ResponseCode) !== '0' || typeof body.CheckoutRequestID !== 'string') {
      throw new DarajaError(
        String(body.ResponseDescription ?? body.errorMessage ?? 'The prompt was not accepted'),
        200,
      );
    }
    return {
      checkoutRequestId: body.CheckoutRequestID,
      merchantRequestId: String(body.MerchantRequestID ?? ''),
    };
  }

  /** The outcome of a prompt, or `processing` while the shopper has not answered it. */
  async stkQuery(checkoutRequestId: string): Promise<StkQueryResult> {
    const s = this.mustHaveSettings();
    const timestamp = darajaTimestamp();
    try {
      const body = await this.post('/mpesa/stkpushquery/v1/query', {
        BusinessShortCode: s.shortcode,
        Password: this.password(timestamp),
        Timestamp: timestamp,
        CheckoutRequestID: checkoutRequestId,
      });
      const resultCode = Number(body.ResultCode);
      if (body.ResultCode === undefined || Number.isNaN(resultCode))
        throw new DarajaError('The query answer carries no ResultCode', 200);
      return { state: 'done', resultCode, resultDesc: String(body.ResultDesc ?? '') };
    } catch (error) {
      if (error instanceof DarajaError && error.errorCode === STILL_PROCESSING)
        return { state: 'processing' };
      throw error;
    }
  }

  /** Registers the paybill's validation and confirmation URLs (C2B v2); Daraja keeps the last. */
  async registerC2bUrls(): Promise<void> {
    const s = this.mustHaveSettings();
    const body = await this.post('/mpesa/c2b/v2/registerurl', {
      ShortCode: s.shortcode,
      // When the validation URL does not answer, the payment is refused (the money stays with the payer).
      ResponseType: 'Cancelled',
      ConfirmationURL: s.c2b.confirmationUrl,
      ValidationURL: s.c2b.validationUrl,
    });
    if (String(body.ResponseCode) !== '0')
      throw new DarajaError(String(body.ResponseDescription ?? 'Not registered'), 200);
  }

  /**
   * An operation answered later on a result URL (status query, reversal, B2C): Daraja's
   * acknowledgement carries the conversation ids the result will name.
   */
  async resultRequest(
    kind: 'status' | 'reversal' | 'b2c',
    fields: Record<string, unknown>,
  ): Promise<{ originatorConversationId: string; conversationId: string }> {
    const s = this.mustHaveSettings();
    if (!s.c2b.initiatorName || !s.c2b.securityCredential)
      throw new DarajaError('MPESA_INITIATOR_NAME and MPESA_SECURITY_CREDENTIAL are not set', 400);
    const path = {
      status: '/mpesa/transactionstatus/v1/query',
      reversal: '/mpesa/reversal/v1/request',
      b2c: '/mpesa/b2c/v3/paymentrequest',
    }[kind];
    const body = await this.post(path, {
      ...(kind === 'b2c'
        ? { InitiatorName: s.c2b.initiatorName }
        : { Initiator: s.c2b.initiatorName }),
      SecurityCredential: s.c2b.securityCredential,
      ...fields,
      ResultURL: s.c2b.resultUrl(kind),
      QueueTimeOutURL: s.c2b.timeoutUrl,
    });
    if (String(body.ResponseCode) !== '0')
      throw new DarajaError(String(body.ResponseDescription ?? 'Not accepted'), 200);
    return {
      originatorConversationId: String(body.OriginatorConversationID ?? ''),
      conversationId: String(body.ConversationID ?? ''),
    };
  }

  private password(timestamp: string): string {
    const s = this.mustHaveSettings();
    return Buffer.from(`${s.shortcode}${s.passkey}${timestamp}`).toString('base64');
  }

  private async post(
    path: string,
    payload: Record<string, unknown>,
    retried = false,
  ): Promise<Record<string, unknown>> {
    const token = await this.accessToken();
    const { status, body } = await this.fetchJson(path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(payload),
    });
    if (status === 401 && !retried) {
      // Daraja forgot the token before its time (it happens after their restarts): fetch a new one.
      this.token = null;
      return this.post(path, payload, true);
    }
    if (status < 200 || status >= 300) {
      throw new DarajaError(
        String(body.errorMessage ?? `Daraja answered ${status}`),
        status,
        typeof body.errorCode === 'string' ? body.errorCode : undefined,
      );
    }
    return body;
  }

  private accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return Promise.resolve(this.token.value);
    // Concurrent callers share one token request.
    this.tokenRequest ??= (async () => {
      const s = this.mustHaveSettings();
      const basic = Buffer.from(`${s.consumerKey}:${s.consumerSecret}`).toString('base64');
      const { status, body } = await this.fetchJson(
        '/oauth/v1/generate?grant_type=client_credentials',
        { method: 'GET', headers: { Authorization: `Basic ${basic}` } },
      );
      if (status !== 200 || typeof body.access_token !== 'string') {
        throw new DarajaError(
          `M-Pesa refused the credentials: ${String(body.errorMessage ?? status)}`,
          status,
        );
      }
      const seconds = Number(body.expires_in) || 3599;
      this.token = {
        value: body.access_token,
        expiresAt: Date.now() + Math.max(seconds * 1000 - TOKEN_MARGIN_MS, 1000),
      };
      return body.access_token;
    })().finally(() => {
      this.tokenRequest = null;
    });
    return this.tokenRequest;
  }

  private async fetchJson(
    path: string,
    init: RequestInit,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const url = `${this.mustHaveSettings().baseUrl}${path}`;
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      this.logger.warn(`Daraja did not answer ${path}: ${(error as Error).message}`);
      throw new DarajaError('M-Pesa could not be reached', 0);
    }
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
    } catch {
      // Daraja's gateway sometimes answers HTML; the status says enough.
    }
    return { status: response.status, body };
  }

  private mustHaveSettings(): MpesaConfig {
    if (!this.settings) throw new Error('M-Pesa Express is not configured');
    return this.settings;
  }
}
