import { Logger } from '@nestjs/common';
import {
  OSCU_PATHS,
  OSCU_RESULT,
  type OscuCodeClass,
  type OscuCodeListData,
  type OscuEnvelope,
  type OscuInitData,
  type OscuInitInfo,
  type OscuItemClass,
  type OscuItemClassData,
  type OscuItemRequest,
  type OscuSalesData,
  type OscuSalesRequest,
  type OscuStockIoRequest,
  type OscuStockMasterRequest,
} from './oscu.types';

const DEFAULT_TIMEOUT_MS = 30_000;
/** Renew the OAuth token this long before it is said to expire. */
const TOKEN_MARGIN_MS = 60_000;

/** Where and as whom the client talks to OSCU (docs/etims.md, Settings). */
export interface OscuClientSettings {
  /** OSCU's base URL, ending before the endpoint names: `https://etims-api-sbx.kra.go.ke/etims-api`. */
  baseUrl: string;
  /** KRA's OAuth token URL (GavaConnect); null sends no `Authorization` header. */
  tokenUrl: string | null;
  consumerKey: string | null;
  consumerSecret: string | null;
  /** The shop's KRA PIN. */
  tin: string;
  /** The branch (`00` head office). */
  bhfId: string;
  deviceSerial: string;
  /** The communication key, when it is known already; `initialise()` sets it. */
  cmcKey: string | null;
  timeoutMs?: number;
}

/** What KRA gave a signed sale or credit note: printed on the document, and its QR link. */
export interface OscuSignature {
  invcNo: number;
  /** The control unit's number for this receipt type (sales and credit notes count apart). */
  rcptNo: number;
  /** The control unit's number over all receipts. */
  totRcptNo: number;
  intrlData: string;
  rcptSign: string;
  /** When OSCU signed it, as OSCU wrote it (`yyyyMMddHHmmss`, Nairobi time). */
  signedAt: string;
  /** The control unit id and machine registration code (from the answer, else the initialisation). */
  sdcId: string | null;
  mrcNo: string | null;
}

/** KRA answered and refused: `code` is its result code, `message` its text. Fix the data, resend. */
export interface OscuRejected {
  kind: 'rejected';
  code: string;
  message: string;
}

/**
 * No usable answer: no connection, a timeout, an HTTP error or an answer that is not OSCU's.
 * `status` is the HTTP status, 0 when there was none. KRA may still have received the request:
 * resend the same numbers (a sale already received is answered as a duplicate, with its signature).
 */
export interface OscuUnreachable {
  kind: 'unreachable';
  status: number;
  message: string;
}

export type OscuOutcome<T> =
  | { kind: 'ok'; data: T }
  /** The record (a stock movement number) was received before; nothing new was saved. */
  | { kind: 'duplicate'; message: string }
  | OscuRejected
  | OscuUnreachable;

export type OscuInitOutcome =
  | { kind: 'ok'; data: OscuInitInfo }
  /** KRA had initialised this device before and gives no key again: the configured key stays. */
  | { kind: 'installed'; message: string }
  | OscuRejected
  | OscuUnreachable;

export type OscuSaleOutcome =
  | { kind: 'signed'; signature: OscuSignature }
  /**
   * KRA had received this invoice number before and did not sign it again. The signature is the
   * one it gave then, when the answer carries it.
   */
  | { kind: 'duplicate'; signature: OscuSignature | null; message: string }
  | OscuRejected
  | OscuUnreachable;

type Answer<T> = { kind: 'answer'; envelope: OscuEnvelope<T> } | OscuUnreachable;

/** `yyyyMMddHHmmss` in Nairobi time (UTC+3, no daylight saving), as OSCU writes times. */
export function oscuTimestamp(at = new Date()): string {
  return new Date(at.getTime() + 3 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
}

/** `yyyyMMdd` in Nairobi time, as OSCU writes days. */
export function oscuDate(at = new Date()): string {
  return oscuTimestamp(at).slice(0, 8);
}

/** OSCU's `yyyyMMddHHmmss` (Nairobi time) as an instant; null when it is not one. */
export function parseOscuTimestamp(value: unknown): Date | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(String(value ?? ''));
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h! - 3, mi!, s!));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** KRA's receipt check pages (the QR link's origin). */
export const ETIMS_PORTALS = {
  sandbox: 'https://etims-sbx.kra.go.ke',
  production: 'https://etims.kra.go.ke',
} as const;

/**
 * The link a receipt's QR code carries: KRA's page showing the signed invoice. `Data` is the PIN
 * (11 characters), the branch (2) and the receipt signature (16), with nothing between them.
 */
export function receiptVerificationUrl(
  portal: string,
  tin: string,
  bhfId: string,
  rcptSign: string,
): string {
  return `${portal.replace(/\/$/, '')}/common/link/etims/receipt/indexEtimsReceiptData?Data=${tin}${bhfId}${rcptSign}`;
}

/** KRA writes its codes as three characters; a few gateways have answered `0` or `0000` for success. */
function resultCode(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const code = String(value).trim();
  if (/^0+$/.test(code)) return OSCU_RESULT.success;
  return /^\d{3}$/.test(code) ? code : null;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * KRA eTIMS OSCU (specification v2.0): the device's initialisation, the code lists, item
 * registration, sales and credit notes, and stock. Every answer becomes a typed outcome; the
 * client never throws for what KRA or the network did.
 */
export class OscuClient {
  private readonly logger = new Logger(OscuClient.name);
  private cmcKey: string | null;
  private unit: { sdcId: string | null; mrcNo: string | null } = { sdcId: null, mrcNo: null };
  private token: { value: string; expiresAt: number } | null = null;
  private tokenRequest: Promise<string | OscuUnreachable> | null = null;

  constructor(private readonly settings: OscuClientSettings) {
    this.cmcKey = settings.cmcKey;
  }

  /** The communication key in use (from the settings or the last initialisation). */
  get communicationKey(): string | null {
    return this.cmcKey;
  }

  /** The control unit's id and machine code from the last initialisation, to print on receipts. */
  get controlUnit(): { sdcId: string | null; mrcNo: string | null } {
    return { ...this.unit };
  }

  /** Initialises the device with the PIN, branch and serial; on success keeps the communication key. */
  async initialise(): Promise<OscuInitOutcome> {
    const { tin, bhfId, deviceSerial } = this.settings;
    const answer = await this.call<OscuInitData>(
      OSCU_PATHS.init,
      { tin, bhfId, dvcSrlNo: deviceSerial },
      false,
    );
    if (answer.kind !== 'answer') return answer;
    const { resultCd, resultMsg, data } = answer.envelope;
    if (resultCd === OSCU_RESULT.deviceInstalled) return { kind: 'installed', message: resultMsg };
    if (resultCd !== OSCU_RESULT.success)
      return { kind: 'rejected', code: resultCd, message: resultMsg };
    // A sandbox has answered the device's fields without the `info` wrapper.
    const info = data?.info ?? (data as unknown as OscuInitInfo | null);
    if (!info || !text(info.cmcKey))
      return this.unusable(OSCU_PATHS.init, 'The initialisation answer carries no cmcKey');
    this.cmcKey = info.cmcKey;
    this.unit = { sdcId: text(info.sdcId), mrcNo: text(info.mrcNo) };
    return { kind: 'ok', data: info };
  }

  /** KRA's code classes changed after `since` (tax types, units, payment types…); none is `[]`. */
  async codeList(since: Date): Promise<OscuOutcome<OscuCodeClass[]>> {
    const answer = await this.call<OscuCodeListData>(OSCU_PATHS.codeList, {
      lastReqDt: oscuTimestamp(since),
    });
    return this.list(answer, (data) => data.clsList);
  }

  /** KRA's item classifications changed after `since`; none is `[]`. */
  async itemClasses(since: Date): Promise<OscuOutcome<OscuItemClass[]>> {
    const answer = await this.call<OscuItemClassData>(OSCU_PATHS.itemClasses, {
      lastReqDt: oscuTimestamp(since),
    });
    return this.list(answer, (data) => data.itemClsList);
  }

  /** Registers an item (a sale unit of a product), or changes one registered before. */
  async saveItem(item: OscuItemRequest): Promise<OscuOutcome<null>> {
    return this.save(await this.call<null>(OSCU_PATHS.saveItem, item));
  }

  /** Records a stock movement; its `sarNo` received before is a duplicate. */
  async saveStockIo(movement: OscuStockIoRequest): Promise<OscuOutcome<null>> {
    return this.save(await this.call<null>(OSCU_PATHS.stockIo, movement));
  }

  /** Sets what is left of an item at the branch. */
  async saveStockMaster(stock: OscuStockMasterRequest): Promise<OscuOutcome<null>> {
    return this.save(await this.call<null>(OSCU_PATHS.stockMaster, stock));
  }

  /**
   * Sends a sale (`rcptTyCd` S) or a credit note (R) to be signed. The same `invcNo` sent again is
   * never signed twice: KRA answers it as a duplicate.
   */
  async sendSale(sale: OscuSalesRequest): Promise<OscuSaleOutcome> {
    const answer = await this.call<OscuSalesData>(OSCU_PATHS.sale, sale);
    if (answer.kind !== 'answer') return answer;
    const { resultCd, resultMsg, data } = answer.envelope;
    const signature = data ? this.signature(sale.invcNo, data) : null;
    if (resultCd === OSCU_RESULT.duplicate)
      return { kind: 'duplicate', signature, message: resultMsg };
    if (resultCd !== OSCU_RESULT.success)
      return { kind: 'rejected', code: resultCd, message: resultMsg };
    if (!signature) return this.unusable(OSCU_PATHS.sale, 'The answer carries no signature');
    return { kind: 'signed', signature };
  }

  private signature(invcNo: number, data: OscuSalesData): OscuSignature | null {
    const rcptNo = Number(data.curRcptNo ?? data.rcptNo);
    const totRcptNo = Number(data.totRcptNo);
    const signedAt = text(data.sdcDateTime) ?? text(data.vsdcRcptPbctDate);
    if (
      !Number.isInteger(rcptNo) ||
      !Number.isInteger(totRcptNo) ||
      !text(data.rcptSign) ||
      !text(data.intrlData) ||
      !signedAt
    )
      return null;
    return {
      invcNo,
      rcptNo,
      totRcptNo,
      intrlData: data.intrlData,
      rcptSign: data.rcptSign,
      signedAt,
      sdcId: text(data.sdcId) ?? this.unit.sdcId,
      mrcNo: text(data.mrcNo) ?? this.unit.mrcNo,
    };
  }

  private list<T, L>(answer: Answer<T>, pick: (data: T) => L[] | undefined): OscuOutcome<L[]> {
    if (answer.kind !== 'answer') return answer;
    const { resultCd, resultMsg, data } = answer.envelope;
    if (resultCd === OSCU_RESULT.noSearchResult) return { kind: 'ok', data: [] };
    if (resultCd !== OSCU_RESULT.success)
      return { kind: 'rejected', code: resultCd, message: resultMsg };
    const list = data ? pick(data) : undefined;
    return { kind: 'ok', data: Array.isArray(list) ? list : [] };
  }

  private save(answer: Answer<null>): OscuOutcome<null> {
    if (answer.kind !== 'answer') return answer;
    const { resultCd, resultMsg } = answer.envelope;
    if (resultCd === OSCU_RESULT.duplicate) return { kind: 'duplicate', message: resultMsg };
    if (resultCd !== OSCU_RESULT.success)
      return { kind: 'rejected', code: resultCd, message: resultMsg };
    return { kind: 'ok', data: null };
  }

  private unusable(path: string, message: string): OscuUnreachable {
    this.logger.warn(`OSCU ${path}: ${message}`);
    return { kind: 'unreachable', status: 200, message };
  }

  /** One OSCU call: the token, KRA's headers, the answer read as an envelope. */
  private async call<T>(path: string, body: object, businessHeaders = true): Promise<Answer<T>> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
    };
    if (businessHeaders) {
      if (!this.cmcKey)
        return {
          kind: 'unreachable',
          status: 0,
          message: 'The device is not initialised: there is no communication key (cmcKey)',
        };
      headers.tin = this.settings.tin;
      headers.bhfId = this.settings.bhfId;
      headers.cmcKey = this.cmcKey;
    }
    for (let attempt = 0; ; attempt++) {
      if (this.settings.tokenUrl) {
        const token = await this.accessToken();
        if (typeof token !== 'string') return token;
        headers.Authorization = `Bearer ${token}`;
      }
      const response = await this.fetchJson(`${this.settings.baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      if (response.kind !== 'http') return response;
      // The gateway forgot the token before its time: fetch a new one, once.
      if (response.status === 401 && this.settings.tokenUrl && attempt === 0) {
        this.token = null;
        continue;
      }
      if (response.status < 200 || response.status >= 300)
        return {
          kind: 'unreachable',
          status: response.status,
          message: `OSCU answered HTTP ${response.status}`,
        };
      const code = resultCode(response.body?.resultCd);
      if (!response.body || !code)
        return this.unusable(path, 'The answer is not an OSCU answer (no resultCd)');
      return {
        kind: 'answer',
        envelope: {
          resultCd: code,
          resultMsg: text(response.body.resultMsg) ?? '',
          resultDt: text(response.body.resultDt) ?? '',
          data: (response.body.data ?? null) as T | null,
        },
      };
    }
  }

  private accessToken(): Promise<string | OscuUnreachable> {
    if (this.token && this.token.expiresAt > Date.now()) return Promise.resolve(this.token.value);
    // Concurrent callers share one token request.
    this.tokenRequest ??= (async (): Promise<string | OscuUnreachable> => {
      const { tokenUrl, consumerKey, consumerSecret } = this.settings;
      const basic = Buffer.from(`${consumerKey ?? ''}:${consumerSecret ?? ''}`).toString('base64');
      const response = await this.fetchJson(`${tokenUrl!}?grant_type=client_credentials`, {
        method: 'GET',
        headers: { Authorization: `Basic ${basic}`, Accept: 'application/json' },
      });
      if (response.kind !== 'http') return response;
      const value = response.body?.access_token;
      if (response.status !== 200 || typeof value !== 'string' || !value)
        return {
          kind: 'unreachable',
          status: response.status,
          message: `KRA refused the eTIMS credentials: ${String(response.body?.errorMessage ?? `HTTP ${response.status}`)}`,
        };
      const seconds = Number(response.body?.expires_in) || 3599;
      this.token = {
        value,
        expiresAt: Date.now() + Math.max(seconds * 1000 - TOKEN_MARGIN_MS, 1000),
      };
      return value;
    })().finally(() => {
      this.tokenRequest = null;
    });
    return this.tokenRequest;
  }

  private async fetchJson(
    url: string,
    init: RequestInit,
  ): Promise<
    { kind: 'http'; status: number; body: Record<string, unknown> | null } | OscuUnreachable
  > {
    let response: Response;
    let raw: string;
    try {
      response = await fetch(url, {
        ...init,
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      raw = await response.text();
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      const message = timedOut
        ? 'OSCU did not answer in time'
        : `OSCU could not be reached: ${(error as Error).message}`;
      this.logger.warn(`${message} (${new URL(url).pathname})`);
      return { kind: 'unreachable', status: 0, message };
    }
    let body: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
    } catch {
      // A gateway's HTML error page: the status says enough.
    }
    return { kind: 'http', status: response.status, body };
  }
}
