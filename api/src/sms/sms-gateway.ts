import type { SmsConfig } from '../config/sms-config';

/** What became of one message handed to the gateway. */
export type SmsSendResult =
  | { ok: true; gatewayId: string; gatewayStatus: string }
  /** `permanent`: sending it again cannot help (a number the network refuses, a blacklist). */
  | { ok: false; permanent: boolean; error: string };

/** The one way the API sends a text message; Africa's Talking, or its local simulator. */
export interface SmsGateway {
  send(to: string, message: string): Promise<SmsSendResult>;
}

/** Africa's Talking recipient status codes meaning the message was accepted. */
const ACCEPTED = new Set([100, 101, 102]);
/** Codes that no retry will change: invalid or unsupported number, blacklisted, do-not-disturb. */
const PERMANENT = new Set([403, 404, 406, 409]);

interface AtRecipient {
  statusCode?: number;
  number?: string;
  status?: string;
  messageId?: string;
}

/**
 * Africa's Talking's bulk SMS API: `POST <base>/version1/messaging`, form fields username, to,
 * message and (when set) from, header `apiKey`; the answer's `SMSMessageData.Recipients[]` says, per
 * number, whether it was accepted (status codes 100-102) and its message id.
 */
export class AfricasTalkingGateway implements SmsGateway {
  constructor(
    private readonly config: SmsConfig,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(to: string, message: string): Promise<SmsSendResult> {
    const form = new URLSearchParams({ username: this.config.username, to, message });
    if (this.config.senderId) form.set('from', this.config.senderId);
    let res: Response;
    try {
      res = await fetch(`${this.config.baseUrl}/version1/messaging`, {
        method: 'POST',
        headers: {
          apiKey: this.config.apiKey,
          Accept: 'application/json',
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: form.toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      return {
        ok: false,
        permanent: false,
        error: `gateway unreachable: ${(error as Error).message}`,
      };
    }
    const text = await res.text().catch(() => '');
    if (!res.ok)
      return {
        ok: false,
        permanent: false,
        error: `gateway answered ${res.status}: ${text.slice(0, 200)}`,
      };
    let recipient: AtRecipient | undefined;
    try {
      const body = JSON.parse(text) as { SMSMessageData?: { Recipients?: AtRecipient[] } };
      recipient = body.SMSMessageData?.Recipients?.[0];
    } catch {
      return {
        ok: false,
        permanent: false,
        error: `gateway answered no JSON: ${text.slice(0, 200)}`,
      };
    }
    if (!recipient)
      return {
        ok: false,
        permanent: false,
        error: `no recipient in the answer: ${text.slice(0, 200)}`,
      };
    const code = Number(recipient.statusCode);
    if (ACCEPTED.has(code))
      return {
        ok: true,
        gatewayId: recipient.messageId ?? '',
        gatewayStatus: recipient.status ?? '',
      };
    return {
      ok: false,
      permanent: PERMANENT.has(code),
      error: `${recipient.status ?? 'refused'} (${code})`,
    };
  }
}
