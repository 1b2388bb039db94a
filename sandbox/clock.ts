/**
 * The sandbox clock: real time plus an offset that tests move with PUT /__sandbox/clock. Time keeps flowing
 * after a set or an advance, so background jobs (LCA) still finish without a test touching the clock.
 */
export class SandboxClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  date(): Date {
    return new Date(this.now());
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  set(nowMs: number): void {
    this.offsetMs = nowMs - Date.now();
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  get offset(): number {
    return this.offsetMs;
  }

  restoreOffset(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }
}
