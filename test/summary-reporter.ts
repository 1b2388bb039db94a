/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own summary, so a CI
 * log reader that knows no vitest still sees how many tests ran. A test that passed only when retried (CI
 * retries once, vitest.config.ts) is named on a `flaky:` line above it and counted in the closing line.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const flaky: string[] = [];
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed' && t.diagnostic()?.flaky)
          flaky.push(`${m.moduleId.replace(process.cwd() + '/', '')} > ${t.fullName}`);
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load (syntax error, failing beforeAll) counts as a failure.
      if (m.state() === 'failed' && ![...m.children.allTests()].some((t) => t.result().state === 'failed')) failed++;
    }
    failed += unhandledErrors.length;
    for (const f of flaky) process.stdout.write(`\nflaky (failed, then passed on its retry): ${f}`);
    const retried = flaky.length ? ` (${flaky.length} only on a retry)` : '';
    process.stdout.write(`\ntests: ${passed} passed${retried}, ${failed} failed, ${skipped} skipped\n`);
  }
}
