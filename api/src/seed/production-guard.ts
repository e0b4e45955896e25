import type { AppConfig } from '../config/app-config';

/** The setting that lets demo data into a production database anyway (for a demo server). */
export const FORCE_SETTING = 'SEED_DEMO_DATA_IN_PRODUCTION';

/**
 * Demo data never reaches a production database by default: it holds a staff account that can read
 * every customer's details. Answers the refusal to print and exit with, or null to go on; when
 * forced it goes on with a loud warning (the demo staff password is then random, never the one in
 * the README).
 */
export function demoDataRefusal(
  config: Pick<AppConfig, 'env'>,
  env: Record<string, string | undefined>,
  warn: (message: string) => void = console.warn,
): string | null {
  if (config.env !== 'production') return null;
  if (env[FORCE_SETTING] === 'yes-i-know') {
    warn(
      '\n' +
        '!!! WARNING: seeding DEMO DATA into a PRODUCTION database (SEED_DEMO_DATA_IN_PRODUCTION).\n' +
        '!!! It adds a demo staff account that can read every customer; its random password is printed\n' +
        '!!! below. Deactivate that account in the back office before the shop opens.\n',
    );
    return null;
  }
  return (
    'Refusing to seed demo data: NODE_ENV is production. Demo data adds a staff account that can ' +
    'read every customer. For a demo server only, set SEED_DEMO_DATA_IN_PRODUCTION=yes-i-know.'
  );
}
