/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own summary, so a CI
 * log reader that knows no vitest still sees how many tests ran.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load (syntax error, failing beforeAll) counts as a failure.
      if (m.state() === 'failed' && ![...m.children.allTests()].some((t) => t.result().state === 'failed')) failed++;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
