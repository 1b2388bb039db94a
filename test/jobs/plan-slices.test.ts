/**
 * The planner decides the rows of the supplier-products and silos sheets in slices, the event loop turning
 * between them: a dry run of 100,000 rows decided at once would hold the process (the app's server: no progress
 * told, no cancel heard, none of V8's collection work that waits for a turn). No timing: every slice is made
 * spent at once, so a turn is offered after each row.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Slicer } from '../../core/throttle.js';
import { catalog, fullWorkbook, planFile, startEnv, writeTestWorkbook, type Env } from './helpers.js';

const order = vi.hoisted(() => ({ steps: [] as string[], armed: false }));
vi.mock('../../core/jobs/plan/decide.js', async (original) => {
  const m = await original<typeof import('../../core/jobs/plan/decide.js')>();
  return {
    ...m,
    decide: (...a: Parameters<typeof m.decide>) => {
      const d = a[1];
      if (d.kind === 'supplier_product') {
        order.steps.push(`decide ${d.externalId}`);
        // the first row's decision asks for a turn: it comes between the rows, not after the last
        if (order.armed) {
          order.armed = false;
          setImmediate(() => order.steps.push('turn'));
        }
      }
      return m.decide(...a);
    },
  };
});

let env: Env;
let path: string;
beforeAll(async () => {
  env = await startEnv('demo');
  path = join(env.dir, 'import.xlsx');
  await writeTestWorkbook(path, fullWorkbook(await catalog(env)));
});
afterAll(async () => {
  await env?.close();
  vi.restoreAllMocks();
});

describe('supplier-product rows decided in slices', () => {
  it('lets the event loop turn between the rows, and plans the same entries', async () => {
    const atOnce = await planFile(path, { client: env.client });
    const due = vi.spyOn(Slicer.prototype, 'due').mockReturnValue(true);
    order.steps.length = 0;
    order.armed = true;
    const sliced = await planFile(path, { client: env.client });
    due.mockRestore();
    const decided = order.steps.filter((s) => s.startsWith('decide'));
    expect(decided.length).toBeGreaterThanOrEqual(3);
    const turn = order.steps.indexOf('turn');
    expect(turn).toBeGreaterThan(0);
    expect(turn).toBeLessThan(order.steps.length - 1);
    expect(sliced.entries).toEqual(atOnce.entries);
  });
});
