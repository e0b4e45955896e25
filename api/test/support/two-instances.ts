import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSmsSimulator, type SmsSimulator } from '../../../tools/sms/simulator';
import { UNTHROTTLED } from './identity';
import { createShopWorld, type ShopWorld } from './shop-world';
import { SMS_TEST_SETTINGS } from './sms';
import { createTestApp, type TestApp } from './test-app';

/** Two API instances on one database, writing e-mail to one outbox folder, texting through one gateway. */
export interface TwoInstances {
  a: TestApp;
  b: TestApp;
  /** A shop (staff, a product of KES 500 with 10,000 in stock) made through `a`. */
  world: ShopWorld;
  /** The outbox folder both write their e-mail files to. */
  dataDir: string;
  sms: SmsSimulator;
  close(): Promise<void>;
}

/**
 * Two Nest applications in this process on one fresh database (`name` names it), bookings at a 30%
 * deposit and a week for the balance, their sweeps left to the test (the reconcilers' window is ten
 * minutes), with `env` on top.
 */
export async function startTwoInstances(
  name: string,
  env: Record<string, string> = {},
): Promise<TwoInstances> {
  const sms = await startSmsSimulator({
    username: SMS_TEST_SETTINGS.AT_USERNAME,
    apiKey: SMS_TEST_SETTINGS.AT_API_KEY,
  });
  const dataDir = await mkdtemp(path.join(tmpdir(), `spc-${name}-`));
  const settings = {
    ...UNTHROTTLED,
    ...SMS_TEST_SETTINGS,
    SMS_PROVIDER: 'simulator',
    SMS_BASE_URL: sms.url,
    SMS_RETRY_INTERVAL_MS: '200',
    DATA_DIR: dataDir,
    BOOKING_DEPOSIT_PERCENT: '30',
    BOOKING_BALANCE_DAYS: '7',
    // The sweeps and the reconcilers fall due when the test says, not on their timers.
    ORDER_RECONCILE_AFTER_MS: '600000',
    ...env,
  };
  const a = await createTestApp({ name, env: settings });
  const b = await createTestApp({ name, env: settings, databaseName: a.databaseName });
  const world = await createShopWorld(a, { product: { price: 500, quantity: 10_000 } });
  return {
    a,
    b,
    world,
    dataDir,
    sms,
    close: async () => {
      await b.app.close();
      await a.close();
      await sms.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
