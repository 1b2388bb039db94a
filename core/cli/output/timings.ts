/**
 * Phase timings for measuring where a CLI run's time goes (bench/e2e.bench.ts): with SUPPLY_LOADER_TIMINGS=1 each
 * `mark` writes one line `timing <phase> <ms since the process started>` to stderr. Off otherwise (no output).
 */
const ON = process.env.SUPPLY_LOADER_TIMINGS === '1';

export function mark(phase: string): void {
  if (ON) process.stderr.write(`timing ${phase} ${Math.round(performance.now())}\n`);
}
