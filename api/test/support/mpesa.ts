/** M-Pesa Express test helpers: the API wired to a Daraja simulator of its own, listening for callbacks. */
import { freePort } from '../../../tools/db/launcher';
import { startDarajaSimulator, type DarajaSimulator } from '../../../tools/mpesa/simulator';
import { UNTHROTTLED } from './identity';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app';

/** Every payments route as the OpenAPI document names it (their access is tested in payments-mpesa). */
export const PAYMENT_ROUTES = [
  'GET /api/payments/options',
  'POST /api/payments/mpesa/stk-push',
  'GET /api/payments/mpesa/status/{checkoutRequestId}',
  'POST /api/payments/mpesa/callback/{token}',
  'GET /api/payments/mpesa/pay-info/{purchaseNumber}',
] as const;

/** The paybill, inbox and refund routes and who may call them (tested in payments-paybill). */
export const PAYBILL_ROUTES = {
  'POST /api/payments/mpesa/c2b/validation/{token}': 'daraja',
  'POST /api/payments/mpesa/c2b/confirmation/{token}': 'daraja',
  'POST /api/payments/mpesa/result/{kind}/{token}': 'daraja',
  'POST /api/payments/mpesa/c2b/register': 'admin',
  'GET /api/payments/mpesa/inbox': 'staff',
  'GET /api/payments/mpesa/inbox/count': 'staff',
  'POST /api/payments/mpesa/c2b/{transId}/assign': 'staff',
  'POST /api/payments/mpesa/c2b/{transId}/refund': 'staff',
  'GET /api/payments/mpesa/orders/{orderId}': 'staff',
  'POST /api/payments/mpesa/c2b/{transId}/check': 'staff',
  'POST /api/payments/mpesa/refunds/{refundId}/retry': 'staff',
} as const;

export const MPESA_TEST_SETTINGS = {
  MPESA_CONSUMER_KEY: 'test-consumer-key',
  MPESA_CONSUMER_SECRET: 'test-consumer-secret',
  MPESA_SHORTCODE: '174379',
  MPESA_PASSKEY: 'test-passkey-0123456789',
  MPESA_CALLBACK_TOKEN: 'test-callback-token-0123456789abcdef',
};

export interface MpesaTestApp {
  t: TestApp;
  sim: DarajaSimulator;
  /** The callback URL the API gives Daraja. */
  callbackUrl: string;
  close(): Promise<void>;
}

/** The API with MPESA_ENV=sandbox-local against a fresh simulator, listening on a real port. */
export async function createMpesaTestApp(
  name: string,
  env: Record<string, string> = {},
  imports?: TestAppOptions['imports'],
): Promise<MpesaTestApp> {
  const sim = await startDarajaSimulator({
    consumerKey: MPESA_TEST_SETTINGS.MPESA_CONSUMER_KEY,
    consumerSecret: MPESA_TEST_SETTINGS.MPESA_CONSUMER_SECRET,
    shortcode: MPESA_TEST_SETTINGS.MPESA_SHORTCODE,
    passkey: MPESA_TEST_SETTINGS.MPESA_PASSKEY,
    delayMs: 200,
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    name,
    env: {
      ...UNTHROTTLED,
      ...MPESA_TEST_SETTINGS,
      MPESA_ENV: 'sandbox-local',
      MPESA_BASE_URL: sim.url,
      MPESA_CALLBACK_BASE_URL: base,
      MPESA_RECONCILE_AFTER_MS: '1000',
      PORT: String(port),
      ...env,
    },
    imports,
  });
  await t.app.listen(port, '127.0.0.1');
  return {
    t,
    sim,
    callbackUrl: `/api/payments/mpesa/callback/${MPESA_TEST_SETTINGS.MPESA_CALLBACK_TOKEN}`,
    close: async () => {
      await sim.close();
      await t.close();
    },
  };
}
