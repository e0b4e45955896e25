// Shared Jest settings: TypeScript through SWC (with the decorator metadata Nest needs), JSX with the
// automatic runtime, and shared-contracts resolved to its source so tests never need a build first.
const path = require('node:path');

const sharedContracts = path.join(__dirname, 'shared-contracts/src');

module.exports = {
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true, decorators: true },
          transform: {
            legacyDecorator: true,
            decoratorMetadata: true,
            react: { runtime: 'automatic' },
          },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleNameMapper: {
    '^@spc/shared-contracts$': `${sharedContracts}/index.ts`,
    '^@spc/shared-contracts/client$': `${sharedContracts}/client.ts`,
    '^@spc/shared-contracts/locations$': `${sharedContracts}/locations.ts`,
    '^@spc/shared-contracts/web-client$': `${sharedContracts}/web-client.ts`,
  },
  // A few dependencies ship only ES modules (Node 20.19+ can require them, Jest cannot); SWC turns
  // them into CommonJS for the tests.
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition)/)'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'jsx', 'json'],
  // A test's steps wait for what a user would see, not for a clock; on a busy shared machine a
  // rendered screen can take longer than Jest's default 5 s, which would fail a correct test.
  testTimeout: 30_000,
};
