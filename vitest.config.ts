import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    // Builds the CLI bundle once when stale, so the tests that spawn bin/supply-loader.cjs run the bundle as
    // installed (no rebuild notice, no rebuild race between workers).
    globalSetup: ['./test/global-setup.ts'],
    // In CI a failed test runs once more; one that passes only then is named as flaky in the closing summary
    // (test/summary-reporter.ts), never hidden. Locally a failure is a failure at once.
    retry: process.env.CI ? 1 : 0,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
