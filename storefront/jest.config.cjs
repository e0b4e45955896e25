const preset = require('../jest.preset');

/** Component and store tests in jsdom; the Vite-only env module is swapped for its test twin. */
module.exports = {
  ...preset,
  displayName: require('./package.json').name,
  rootDir: __dirname,
  testEnvironment: 'jest-fixed-jsdom',
  testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
  setupFilesAfterEnv: ['<rootDir>/src/testing/setup.ts'],
  moduleNameMapper: {
    ...preset.moduleNameMapper,
    '^(.*)/config/env$': '$1/config/env.jest',
    '\\.(css)$': '<rootDir>/../tools/jest/style-stub.cjs',
    '\\.(svg|png|webp|jpg)$': '<rootDir>/src/testing/file-stub.cjs',
  },
};
