/**
 * Pacing, once. The progress throttle: progress events and redraws go out at most every PROGRESS_INTERVAL_MS
 * (≤ 10 a second), the first at once, a forced one (the end of a phase) always. The slicer: long work on the main
 * thread done in slices of about SLICE_MS with a turn of the event loop between them. Dependency-free, so the
 * workbook reader and validation, the jobs engine, the CLI's bar and the IPC sessions all use them.
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

/**
 * Work done between two turns of the event loop. Reading and validating a workbook run beside the service walks
 * on the main thread: a page's answer that arrives while the thread is busy waits, and the walk's next page is
 * only asked once it is read.
 */
const SLICE_MS = 4;

/**
 * Rows a loop written for a Slicer does between two points where it may pause (`yield`): a row of the checks
 * across rows takes well under a µs, a point (a generator's turn, a look at the clock) about as much.
 */
export const STEP_ROWS = 16;

export interface SlicerOptions {
  /** The slice in ms (0: a turn at every point the work may pause). */
  sliceMs?: number;
  /** The clock is read at every `every`th point (points closer than a few µs apart need not read it each time). */
  every?: number;
  /** Called after each turn (a cancellation check, progress); may throw to stop the work. */
  onTurn?: () => void;
}

/**
 * Long work in slices. At each point where the work may pause, `due()` says whether the slice is spent;
 * `turn()` lets the event loop turn (setImmediate: timers, I/O and the answers waiting are handled) and starts the
 * next slice. A slice starts when the slicer is made.
 */
export class Slicer {
  private until: number;
  private points = 0;
  private readonly sliceMs: number;
  private readonly every: number;
  private readonly onTurn: (() => void) | undefined;

  constructor(options: SlicerOptions = {}) {
    this.sliceMs = options.sliceMs ?? SLICE_MS;
    this.every = Math.max(1, options.every ?? 1);
    this.onTurn = options.onTurn;
    this.until = performance.now() + this.sliceMs;
  }

  /** True when the slice is spent (the work should call `turn()` or stop for now). */
  due(): boolean {
    if (++this.points < this.every) return false;
    this.points = 0;
    return performance.now() >= this.until;
  }

  /** One turn of the event loop, then a new slice. */
  async turn(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.until = performance.now() + this.sliceMs;
    this.onTurn?.();
  }

  /** A turn if the slice is spent. */
  async pause(): Promise<void> {
    if (this.due()) await this.turn();
  }

  /**
   * Runs work written as a generator (each `yield` a point where it may pause) to its end, turning whenever the
   * slice is spent; its return value.
   */
  async run<R>(steps: Iterator<unknown, R>): Promise<R> {
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      if (this.due()) await this.turn();
    }
  }
}

/** Work written for a Slicer run at once, without pausing (a caller that needs its result now). */
export function runAtOnce<R>(steps: Iterator<unknown, R>): R {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
