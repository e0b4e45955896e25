const path = require('node:path');
const preset = require('../../jest.preset');

/** e2e tests: the real API against the real database the launcher gives, a fresh database per file. */
module.exports = {
  ...preset,
  displayName: 'api-e2e',
  rootDir: path.join(__dirname, '..'),
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // A noisy shared machine has run a 3 s test past 60 s (CI, bookings): a hang still fails.
  testTimeout: 120_000,
  setupFilesAfterEnv: ['<rootDir>/test/support/status-messages.ts'],
  maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
};
