/** Turns of the event loop for long work (core/throttle.ts nextTurn, turnEvery), seen by a setImmediate ticker. */
import { describe, expect, it } from 'vitest';
import { nextTurn, turnEvery } from '../../core/throttle.js';

/** `work` run beside a ticker: its log with a `|` for each turn of the event loop. */
async function withTicker(work: (log: string[]) => Promise<unknown>): Promise<string> {
  const log: string[] = [];
  let on = true;
  const tick = () => {
    log.push('|');
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  await work(log);
  on = false;
  return log.join('');
}

describe('turns of the event loop', () => {
  it('works waiting for a turn go on one per turn, in the order they asked', async () => {
    const log = await withTicker((log) => {
      const work = async (name: string) => {
        for (let i = 0; i < 3; i++) {
          await nextTurn();
          log.push(name);
        }
      };
      return Promise.all([work('a'), work('b')]);
    });
    const slices = log.split('|').filter((s) => s !== '');
    expect(slices).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
  });

  it('turnEvery(n) asks for a turn on every nth call only', async () => {
    const turn = turnEvery(3);
    const asked = Array.from({ length: 7 }, () => turn() !== null);
    expect(asked).toEqual([false, false, true, false, false, true, false]);
    const log = await withTicker(async (log) => {
      const every = turnEvery(4);
      for (let i = 0; i < 10; i++) {
        const t = every();
        if (t) await t;
        log.push('r');
      }
    });
    expect(log.split('|').filter((s) => s !== '')).toEqual(['rrr', 'rrrr', 'rrr']);
  });
});
