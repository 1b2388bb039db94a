import { defineConfig } from 'vitest/config';

/**
 * The fast tier, `npm run test:unit`: the tests that start no server (no sandbox, no HTTP listener), no child
 * process (no CLI bin, Electron, esbuild or LibreOffice) and no browser. `npm test` runs them with all the others
 * (vitest.config.ts). Its setup (test/unit-tier-guard.ts) makes starting any of those throw, so a test listed here
 * or added to one of the folders here that needs one fails at once instead of joining the tier.
 */
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/renderer/**/*.test.{ts,tsx}',
      'test/workbook/**/*.test.ts',
      'test/api/{err-codes,unit}.test.ts',
      'test/ipc/{surface,job-views}.test.ts',
      'test/jobs/{entry-index-read,journal-format,journal-write,resolve-ahead,source-sheets,workbook-rows}.test.ts',
      'test/lca/{model,workbook-golden}.test.ts',
      'test/main/{downloads-dialogs,preload-bridge}.test.ts',
      'test/sandbox/{collection-order,fault-scope,lca-seed,lca-values,lca-years}.test.ts',
    ],
    // in the folders above, the ones that start a sandbox or a child process, and the ones that mock a module
    // (vi.mock: with the module cache shared, a module another file loaded first is not replaced)
    exclude: [
      'test/renderer/issue-text.test.ts',
      'test/unit/unused-exports.test.ts',
      'test/workbook/production-sheet.test.ts',
      'test/workbook/shared-strings-memory.test.ts',
      'test/workbook/suggest-bounds.test.ts',
    ],
    setupFiles: ['./test/unit-tier-setup.ts'],
    environment: 'node',
    retry: process.env.CI ? 1 : 0,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // the files of a worker share their modules (importing them once per file costs more than the tests): a test
    // that changes global state must undo it, or stay out of this tier (test/cli/zod-mode.test.ts sets zod's mode)
    isolate: false,
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
