/**
 * The progress throttle, once: progress events and redraws go out at most every PROGRESS_INTERVAL_MS (≤ 10 a
 * second), the first at once, a forced one (the end of a phase) always. Dependency-free, so the workbook
 * reader, the jobs engine, the CLI's bar and the IPC sessions all use it.
 */
const PROGRESS_INTERVAL_MS = 100;

export class Throttle {
  private last = -Infinity;
  constructor(
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when the last pass is at least the interval ago, or `force`; a pass restarts the interval. */
  pass(force = false): boolean {
    const t = this.now();
    if (!force && t - this.last < this.intervalMs) return false;
    this.last = t;
    return true;
  }

  /** Milliseconds until a pass would be let through (0: now). */
  wait(): number {
    return Math.max(0, this.last + this.intervalMs - this.now());
  }
}
