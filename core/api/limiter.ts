/**
 * Adaptive concurrency limiter (AIMD): the service publishes no rate limits, so the client finds a level the
 * service sustains. Additive increase (+1 slot per window of successes), multiplicative decrease (halve) on a
 * 500 or a timeout — at most once per "epoch", so a burst of failures from requests that were already in flight
 * halves the limit once, not N times. A Retry-After pauses new requests until it has passed. Never above `cap`.
 */
import { abortReason } from './backoff.js';

export type SlotOutcome = 'ok' | 'overload' | 'neutral';

export interface LimiterSlot {
  release(outcome: SlotOutcome): void;
}

export interface AdaptiveLimiterOptions {
  cap: number;
  /**
   * Starting limit; default the cap. The cap is the user's stated bound (default 16), so starting there costs
   * nothing on a healthy service and the first 500/timeout halves it at once; starting lower only wastes the
   * first rounds of a job ramping up.
   */
  initial?: number;
  min?: number;
  now?: () => number;
}

interface Waiter {
  resolve: (slot: LimiterSlot) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class AdaptiveLimiter {
  readonly cap: number;
  readonly min: number;
  private current: number;
  private active = 0;
  private epoch = 0;
  private pausedUntil = 0;
  private pauseTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly queue: Waiter[] = [];
  private readonly now: () => number;
  decreases = 0;

  constructor(opts: AdaptiveLimiterOptions) {
    if (!Number.isInteger(opts.cap) || opts.cap < 1) throw new RangeError('maxConcurrency must be an integer ≥ 1');
    this.cap = opts.cap;
    this.min = Math.max(1, Math.min(opts.min ?? 1, this.cap));
    this.current = Math.min(this.cap, Math.max(this.min, opts.initial ?? this.cap));
    this.now = opts.now ?? Date.now;
  }

  /** The current concurrency limit (integer part is what is granted). */
  get limit(): number {
    return Math.floor(this.current);
  }

  get inFlight(): number {
    return this.active;
  }

  get waiting(): number {
    return this.queue.length;
  }

  acquire(signal?: AbortSignal): Promise<LimiterSlot> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.queue.length === 0 && this.canGrant()) return Promise.resolve(this.grant());
    return new Promise<LimiterSlot>((resolve, reject) => {
      const w: Waiter = { resolve, reject, signal };
      if (signal) {
        w.onAbort = () => {
          const i = this.queue.indexOf(w);
          if (i >= 0) this.queue.splice(i, 1);
          reject(abortReason(signal));
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.queue.push(w);
      this.schedulePauseEnd();
    });
  }

  /** Honour a server's Retry-After: no new request starts before `ms` from now. */
  pauseFor(ms: number): void {
    if (!(ms > 0)) return;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
    this.schedulePauseEnd();
  }

  private canGrant(): boolean {
    return this.active < this.limit && this.now() >= this.pausedUntil;
  }

  private grant(): LimiterSlot {
    this.active++;
    const epoch = this.epoch;
    let released = false;
    return {
      release: (outcome: SlotOutcome) => {
        if (released) return;
        released = true;
        this.active--;
        if (outcome === 'ok') {
          this.current = Math.min(this.cap, this.current + 1 / Math.max(1, this.current));
        } else if (outcome === 'overload' && epoch === this.epoch) {
          this.current = Math.max(this.min, this.current / 2);
          this.epoch++;
          this.decreases++;
        }
        this.drain();
      },
    };
  }

  private drain(): void {
    while (this.queue.length > 0 && this.canGrant()) {
      const w = this.queue.shift() as Waiter;
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.resolve(this.grant());
    }
    this.schedulePauseEnd();
  }

  private schedulePauseEnd(): void {
    const wait = this.pausedUntil - this.now();
    if (wait <= 0 || this.queue.length === 0 || this.pauseTimer) return;
    this.pauseTimer = setTimeout(() => {
      this.pauseTimer = undefined;
      this.drain();
    }, wait);
  }

  /** Stop timers (client close). Waiting acquirers are rejected. */
  dispose(): void {
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
    for (const w of this.queue.splice(0)) w.reject(new Error('API client closed'));
  }
}
