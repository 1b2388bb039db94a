/** Progress of a running job: rows settled, rate, ETA and outcomes so far, throttled to ≤ 10 events per second. */
import { Throttle } from '../throttle.js';
import type { EntryOutcome, JobProgress, JobStatus, OutcomeCounts, Plan } from './types.js';

export class ProgressMeter {
  level = 0;
  private readonly rowsOf = new Map<string, number>();
  private readonly total: number;
  private readonly startDone: number;
  private readonly started = Date.now();
  private readonly throttle = new Throttle();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    plan: Plan,
    private readonly jobId: string,
    private readonly outcomes: Map<string, EntryOutcome>,
    private readonly listener?: (p: JobProgress) => void,
  ) {
    let total = 0;
    for (const e of plan.entries) {
      this.rowsOf.set(e.key, e.rows.length);
      total += e.rows.length;
    }
    this.total = total;
    this.startDone = this.done();
  }

  private done(): number {
    let d = 0;
    for (const k of this.outcomes.keys()) d += this.rowsOf.get(k) ?? 0;
    return d;
  }

  /** Something settled: emit now if the last event is old enough, else once the interval is over. */
  tick(): void {
    if (!this.listener || this.timer) return;
    const wait = this.throttle.wait();
    if (wait <= 0) this.emit('running', this.level);
    else {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.emit('running', this.level);
      }, wait);
      this.timer.unref?.();
    }
  }

  emit(status: JobStatus, level: number, force = false): void {
    if (!this.listener) return;
    if (force && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.throttle.pass(true);
    const done = this.done();
    const seconds = (Date.now() - this.started) / 1000;
    const rate = seconds > 0 ? (done - this.startDone) / seconds : 0;
    const byOutcome: OutcomeCounts = {};
    for (const o of this.outcomes.values()) byOutcome[o.outcome] = (byOutcome[o.outcome] ?? 0) + 1;
    this.listener({
      jobId: this.jobId,
      status,
      done,
      total: this.total,
      rowsPerS: Math.round(rate * 10) / 10,
      etaS: rate > 0 ? Math.ceil((this.total - done) / rate) : null,
      byOutcome,
      level,
    });
  }
}
