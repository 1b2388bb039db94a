/** The one progress throttle (core/throttle.ts), on an injected clock and on vitest's fake timers. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Throttle } from '../../core/throttle.js';
import { ProgressBar } from '../../core/cli/output/progress.js';

describe('Throttle', () => {
  it('lets the first call through, then at most one per interval; a forced call always', () => {
    let t = 1_000;
    const th = new Throttle(100, () => t);
    expect(th.pass()).toBe(true);
    t += 50;
    expect(th.pass()).toBe(false);
    expect(th.wait()).toBe(50);
    t += 49;
    expect(th.pass()).toBe(false);
    t += 1;
    expect(th.wait()).toBe(0);
    expect(th.pass()).toBe(true);
    t += 10;
    expect(th.pass(true)).toBe(true);
    // the forced pass restarted the interval
    t += 90;
    expect(th.pass()).toBe(false);
    t += 10;
    expect(th.pass()).toBe(true);
  });

  it('defaults to ≤ 10 a second on Date.now (fake timers)', () => {
    vi.useFakeTimers({ now: 0 });
    const th = new Throttle();
    let passed = 0;
    for (let ms = 0; ms < 1000; ms += 10) {
      if (th.pass()) passed++;
      vi.advanceTimersByTime(10);
    }
    expect(passed).toBe(10);
  });

  afterEach(() => vi.useRealTimers());
});

describe('the CLI progress bar uses it', () => {
  it('redraws at most once per interval, and always at the end', () => {
    let t = 0;
    const writes: string[] = [];
    const bar = new ProgressBar({
      write: (s) => writes.push(s),
      total: 100,
      label: 'rows',
      now: () => t,
      intervalMs: 100,
    });
    expect(writes).toHaveLength(1); // the first draw
    for (let k = 0; k < 10; k++) {
      t += 20;
      bar.tick();
    }
    expect(writes).toHaveLength(3); // at 100 ms and at 200 ms
    bar.done();
    expect(writes.at(-2)).toContain('10/100');
  });
});
