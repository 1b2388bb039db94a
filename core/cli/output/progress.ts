/**
 * A progress bar for a terminal: drawn on stderr only when it is a TTY (and not --json), redrawn at most
 * 10 times a second, with count, rate and ETA. Elsewhere it is a no-op, so piped output stays clean.
 */
import { Throttle } from '../../throttle.js';
import type { CliProgress } from '../shared/types.js';

export const NO_PROGRESS: CliProgress = { tick() {}, done() {} };

export interface ProgressBarOptions {
  write: (s: string) => void;
  total: number;
  label: string;
  columns?: number;
  now?: () => number;
  /** Minimum ms between redraws. */
  intervalMs?: number;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(sec).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

export class ProgressBar implements CliProgress {
  private done_ = 0;
  private note = '';
  private readonly throttle: Throttle;
  private finished = false;
  private readonly started: number;
  private readonly now: () => number;

  constructor(private readonly o: ProgressBarOptions) {
    this.now = o.now ?? (() => performance.now());
    this.started = this.now();
    this.throttle = new Throttle(o.intervalMs, this.now);
    this.draw(true);
  }

  tick(n = 1, note?: string): void {
    if (this.finished) return;
    this.done_ += n;
    if (note !== undefined) this.note = note;
    this.draw(false);
  }

  done(): void {
    if (this.finished) return;
    this.draw(true);
    this.finished = true;
    this.o.write('\n');
  }

  /** The bar line as it is drawn (exposed for tests). */
  line(): string {
    const { total, label } = this.o;
    const width = Math.max(40, this.o.columns ?? 80);
    const elapsed = (this.now() - this.started) / 1000;
    const rate = elapsed > 0 ? this.done_ / elapsed : 0;
    const frac = total > 0 ? Math.min(1, this.done_ / total) : 0;
    const eta = rate > 0 && total > 0 ? (total - this.done_) / rate : NaN;
    // Unknown total (0): a count and a rate, no percentage or ETA.
    const stats =
      total > 0
        ? `${this.done_}/${total} ${Math.round(frac * 100)}% ${rate.toFixed(1)}/s ETA ${formatDuration(eta)}`
        : `${this.done_} ${rate.toFixed(1)}/s`;
    const barWidth = Math.max(10, Math.min(30, width - label.length - stats.length - 6));
    const filled = Math.round(frac * barWidth);
    let line =
      total > 0 ? `${label} [${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${stats}` : `${label} ${stats}`;
    if (this.note) line += ` ${this.note}`;
    return line.length > width - 1 ? line.slice(0, width - 1) : line;
  }

  private draw(force: boolean): void {
    if (!this.throttle.pass(force)) return;
    // \r + clear to end of line: redraw in place.
    this.o.write(`\r${this.line()}\x1b[K`);
  }
}
