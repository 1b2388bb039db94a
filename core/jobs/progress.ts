/** Progress of a running job: rows settled, rate, ETA and outcomes so far, throttled to ≤ 10 events per second. */
import { Throttle } from '../throttle.js';
import type { JobProgress, JobStatus, OutcomeCounts } from './types.js';

/** What the meter reads of a job: the worksheet rows in all and settled, the entries per outcome (EntryIndex). */
export interface ProgressSource {
  readonly totalRows: number;
  readonly settledRows: number;
  outcomeCounts(): OutcomeCounts;
}

export class ProgressMeter {
  level = 0;
  private readonly total: number;
  private readonly startDone: number;
  private readonly started = Date.now();
  private readonly throttle = new Throttle();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly source: ProgressSource,
    private readonly jobId: string,
    private readonly listener?: (p: JobProgress) => void,
  ) {
    this.total = source.totalRows;
    this.startDone = this.done();
  }

  private done(): number {
    return this.source.settledRows;
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
    const { pending: _pending, ...byOutcome } = this.source.outcomeCounts();
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
