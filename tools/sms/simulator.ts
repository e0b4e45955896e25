/**
 * A local stand-in for Africa's Talking's SMS API, for the tests, the browser journeys and
 * `SMS_PROVIDER=simulator`. It accepts what the API sends, as the real gateway does:
 *
 *   POST /version1/messaging   form fields username, to (comma-separated), message, from;
 *                              header apiKey; answers 201 with SMSMessageData.Recipients[]
 *
 * and keeps every accepted message in an outbox anyone can read over HTTP:
 *
 *   GET  /outbox?to=+254712345678     the messages sent to that number (all without `to`)
 *   POST /__simulator/fail {"count":2} the next 2 sends fail (HTTP 500, as a gateway outage)
 *   POST /__simulator/reset            empties the outbox and forgets pending failures
 *   POST /__simulator/reply {"from":"+254712345678","text":"STOP"}
 *                                      a customer replies: the simulator posts it to the API's
 *                                      inbound callback (`inboundUrl`, which carries the API's
 *                                      SMS_INBOUND_TOKEN) as Africa's Talking does (form fields
 *                                      from, to, text, date, id, linkId)
 *
 * Run alone: npx tsx tools/sms/simulator.ts  (SMS_SIMULATOR_PORT, default 4020; SMS_INBOUND_URL,
 * default the API on port 3000 with the token it uses with the simulator when none is set)
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SimulatedSms {
  messageId: string;
  to: string;
  from: string;
  message: string;
  username: string;
  at: string;
}

export interface SmsSimulator {
  url: string;
  port: number;
  outbox: SimulatedSms[];
  /** Requests that were refused on purpose (`failNext`). */
  failures: () => number;
  /** The next `count` sends answer HTTP 500 and are not kept. */
  failNext(count: number): void;
  /** A customer's reply, posted to the inbound callback; answers the callback's HTTP status. */
  reply(from: string, text: string): Promise<number>;
  /** Where replies go (when the API's address is known only after the simulator started). */
  setInboundUrl(url: string): void;
  close(): Promise<void>;
}

export interface SmsSimulatorOptions {
  port?: number;
  host?: string;
  /** When set, requests must carry exactly this username and apiKey (401 otherwise). */
  username?: string;
  apiKey?: string;
  log?: (message: string) => void;
  /** The API's inbound-message callback (e.g. http://localhost:3000/api/sms/inbound/<token>). */
  inboundUrl?: string;
  /** The shortcode or number customers reply to. */
  shortCode?: string;
}

/**
 * The API's SMS_INBOUND_TOKEN with the simulator when none is set (api/src/config/sms-config.ts
 * says the same): not a secret, for development and tests only.
 */
export const LOCAL_INBOUND_TOKEN = 'local-sms-inbound-token-not-secret';

/** Kenyan mobile numbers in the form the gateway wants: +2547… or +2541…. */
const MSISDN = /^\+254[17]\d{8}$/;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json',
  });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startSmsSimulator(options: SmsSimulatorOptions = {}): Promise<SmsSimulator> {
  const log = options.log ?? (() => undefined);
  const outbox: SimulatedSms[] = [];
  let failNext = 0;
  let failures = 0;
  let inboundUrl = options.inboundUrl;

  /** Posts a reply to the API as Africa's Talking's incoming-message callback does. */
  const reply = async (from: string, text: string): Promise<number> => {
    if (!inboundUrl) throw new Error('the simulator was started without inboundUrl');
    const form = new URLSearchParams({
      from,
      to: options.shortCode ?? '20880',
      text,
      date: new Date().toISOString().replace('T', ' ').slice(0, 19),
      id: randomBytes(16).toString('hex'),
      linkId: '',
    });
    const res = await fetch(inboundUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    log(`reply from ${from} "${text}" posted: ${res.status}`);
    return res.status;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const route = `${req.method} ${url.pathname}`;

    if (route === 'POST /version1/messaging') {
      const form = new URLSearchParams(await readBody(req));
      const username = form.get('username') ?? '';
      const apiKey = String(req.headers.apikey ?? '');
      if (!apiKey || (options.apiKey && apiKey !== options.apiKey))
        return send(res, 401, 'The supplied authentication is invalid');
      if (!username || (options.username && username !== options.username))
        return send(res, 401, 'The supplied authentication is invalid');
      const message = form.get('message') ?? '';
      const to = (form.get('to') ?? '').split(',').map((n) => n.trim());
      if (!message || !to[0]) return send(res, 400, 'Missing required parameters: to, message');
      if (failNext > 0) {
        failNext--;
        failures++;
        log(`refused a send to ${to.join(',')} on purpose`);
        return send(res, 500, 'Internal Server Error');
      }
      const recipients = to.map((number) => {
        if (!MSISDN.test(number))
          return {
            statusCode: 403,
            number,
            status: 'InvalidPhoneNumber',
            cost: '0',
            messageId: 'None',
          };
        const messageId = `ATXid_${randomBytes(12).toString('hex')}`;
        outbox.push({
          messageId,
          to: number,
          from: form.get('from') ?? '',
          message,
          username,
          at: new Date().toISOString(),
        });
        log(`to ${number}: ${message}`);
        return { statusCode: 101, number, status: 'Success', cost: 'KES 0.8000', messageId };
      });
      const sent = recipients.filter((r) => r.statusCode === 101).length;
      return send(res, 201, {
        SMSMessageData: {
          Message: `Sent to ${sent}/${recipients.length} Total Cost: KES ${(sent * 0.8).toFixed(4)}`,
          Recipients: recipients,
        },
      });
    }

    if (route === 'GET /outbox') {
      const to = url.searchParams.get('to');
      return send(res, 200, { messages: to ? outbox.filter((m) => m.to === to) : outbox });
    }
    if (route === 'POST /__simulator/fail') {
      let count = 1;
      try {
        count = Number(
          (JSON.parse((await readBody(req)) || '{}') as { count?: unknown }).count ?? 1,
        );
      } catch {
        return send(res, 400, { ok: false, message: 'the body must be JSON: {"count": 2}' });
      }
      if (!Number.isInteger(count) || count < 0)
        return send(res, 400, { ok: false, message: 'count must be a whole number' });
      failNext = count;
      return send(res, 200, { ok: true, failNext });
    }
    if (route === 'POST /__simulator/reply') {
      let body: { from?: unknown; text?: unknown };
      try {
        body = JSON.parse((await readBody(req)) || '{}') as typeof body;
      } catch {
        return send(res, 400, { ok: false, message: 'the body must be JSON: {"from","text"}' });
      }
      if (typeof body.from !== 'string' || typeof body.text !== 'string')
        return send(res, 400, { ok: false, message: 'from and text are required' });
      if (!inboundUrl)
        return send(res, 409, { ok: false, message: 'no inbound callback URL was configured' });
      const status = await reply(body.from, body.text);
      return send(res, 200, { ok: true, callbackStatus: status });
    }
    if (route === 'POST /__simulator/reset') {
      outbox.length = 0;
      failNext = 0;
      return send(res, 200, { ok: true });
    }
    return send(res, 404, 'Not found');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      log(`error: ${error.message}`);
      if (!res.headersSent) send(res, 500, 'Internal Server Error');
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
    outbox,
    failures: () => failures,
    failNext(count) {
      failNext = count;
    },
    reply,
    setInboundUrl(url) {
      inboundUrl = url;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

if (require.main === module) {
  const port = Number(process.env.SMS_SIMULATOR_PORT ?? 4020);
  startSmsSimulator({
    port,
    inboundUrl:
      process.env.SMS_INBOUND_URL ?? `http://localhost:3000/api/sms/inbound/${LOCAL_INBOUND_TOKEN}`,
    log: (m) => console.log(`[sms] ${m}`),
  })
    .then((sim) => console.log(`[sms] Africa's Talking simulator at ${sim.url}`))
    .catch((error: Error) => {
      console.error(`[sms] ${error.message}`);
      process.exit(1);
    });
}
