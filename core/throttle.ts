/**
 * Pacing, once. The progress throttle: progress events and redraws go out at most every PROGRESS_INTERVAL_MS
 * (≤ 10 a second), the first at once, a forced one (the end of a phase) always. The slicer: long work on the main
 * thread done in slices of about SLICE_MS (or every n rows: turnEvery) with a turn of the event loop between them,
 * the works waiting for one taking turns (nextTurn). Dependency-free, so the
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

/*
 * Turns of the event loop inside long work on the main thread: `nextTurn` lets what arrived meanwhile (an answer
 * on a socket, a timer) be handled before the work goes on. The works waiting for a turn go on one per turn, in the
 * order they asked: two works side by side (a read and a validation, the results and the failed-rows workbooks
 * written beside a job) never put their slices into the same turn, so what arrives waits for one slice at most.
 */
const waiting: (() => void)[] = [];
let scheduled = false;

/** The next waiting work goes on; the one after it on the next turn (setImmediate: I/O that is ready runs first). */
function goOn(): void {
  const next = waiting.shift();
  scheduled = waiting.length > 0;
  if (scheduled) setImmediate(goOn);
  next?.();
}

/** One turn of the event loop, or as many as the works that asked before this one need. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(goOn);
    }
  });
}

/**
 * A counter of rows that asks for a turn of the event loop every `n` rows: a promise to await on the nth call, null
 * otherwise (no await, so the rows between turns cost nothing more).
 */
export function turnEvery(n: number): () => Promise<void> | null {
  let count = 0;
  return () => (++count % n === 0 ? nextTurn() : null);
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

  /** One turn of the event loop (nextTurn), then a new slice. */
  async turn(): Promise<void> {
    await nextTurn();
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
