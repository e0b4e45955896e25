const preset = require('../jest.preset');

module.exports = {
  ...preset,
  displayName: 'shared-contracts',
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts'],
};
