/** Order SMS test helpers: the API wired to an Africa's Talking simulator of its own. */
import {
  startSmsSimulator,
  type SimulatedSms,
  type SmsSimulator,
} from '../../../tools/sms/simulator';
import { UNTHROTTLED } from './identity';
import { createTestApp, type TestApp } from './test-app';
import { waitFor } from './wait';

export const SMS_TEST_SETTINGS = {
  AT_USERNAME: 'sandbox',
  AT_API_KEY: 'test-at-api-key-0123456789abcdef',
  AT_SENDER_ID: 'SPC',
  SMS_INBOUND_TOKEN: 'test-sms-inbound-token-0123456789',
};

/** The API's incoming-messages callback at `base` (its origin), with the tests' token. */
export const smsInboundUrl = (base: string) =>
  `${base}/api/sms/inbound/${SMS_TEST_SETTINGS.SMS_INBOUND_TOKEN}`;

export interface SmsTestApp {
  t: TestApp;
  sim: SmsSimulator;
  /** What the simulator holds for this number (+254…), once `count` messages have arrived. */
  messagesTo(to: string, count: number, timeoutMs?: number): Promise<SimulatedSms[]>;
  close(): Promise<void>;
}

/** The API with SMS_PROVIDER=simulator against a fresh simulator; retries come quickly. */
export async function createSmsTestApp(
  name: string,
  env: Record<string, string> = {},
): Promise<SmsTestApp> {
  const sim = await startSmsSimulator({
    username: SMS_TEST_SETTINGS.AT_USERNAME,
    apiKey: SMS_TEST_SETTINGS.AT_API_KEY,
  });
  const t = await createTestApp({
    name,
    env: {
      ...UNTHROTTLED,
      ...SMS_TEST_SETTINGS,
      SMS_PROVIDER: 'simulator',
      SMS_BASE_URL: sim.url,
      SMS_RETRY_INTERVAL_MS: '200',
      ...env,
    },
  });
  const messagesTo = (to: string, count: number, timeoutMs = 10_000) =>
    waitFor(
      async () => sim.outbox.filter((m) => m.to === to),
      (list) => list.length >= count,
      timeoutMs,
    );
  return {
    t,
    sim,
    messagesTo,
    close: async () => {
      await t.close();
      await sim.close();
    },
  };
}
