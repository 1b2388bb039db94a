/**
 * Supplier-product rows decided while their walk still runs (jobs/plan/ahead.ts): with the walk held before its
 * last items, rows whose entity was found are decided already; the plan equals, entry for entry, the plan made
 * after the read without walks ahead — for unchanged, updated, duplicated and unknown-code rows, with hazardous
 * substances — and when the walk fails part-way (its list unreadable) every decision made ahead is dropped.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiClient } from '../../core/api/index.js';
import { planJob, plannedEntries } from '../../core/app/import-job.js';
import { readWhileWalking } from '../../core/app/read-ahead.js';
import { readAndValidate } from '../../core/app/validate.js';
import { DecisionsAhead } from '../../core/jobs/plan/ahead.js';
import { PlanState } from '../../core/jobs/plan/context.js';
import { buildDataset } from '../fixtures/dataset.js';
import { entriesOf, planAfterRead, runPlan, planInMemory } from './job-folder.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { startEnv, type Env } from './helpers.js';

let env: Env;
let file: string;

const PRODUCTS = 450;

beforeAll(async () => {
  env = await startEnv('demo');
  const data = buildDataset({ companies: 20, products: PRODUCTS, silos: 6, instances: 4, prechain: 2 }, 'AH');
  const seed = join(env.dir, 'seed.xlsx');
  await writeDataWorkbook(seed, data);
  const checked = await readAndValidate([seed]);
  expect(checked.report.errors).toBe(0);
  const first = await planInMemory(checked.parsed, { client: env.client, validation: checked.report });
  expect((await runPlan(first, { client: env.client, jobsDir: env.jobsDir, concurrency: 16 })).status).toBe(
    'completed',
  );
  // The night after: a few rows changed, one code twice, one unknown material, a hazardous substance changed.
  const next = structuredClone(data);
  const products = next['supplier-products']!;
  products[5].name = 'renamed';
  products[40].truck_km = 999;
  products[77].material_code = 'MAT-NOPE';
  products.push({ ...products[120], name: 'second row of the same code' });
  next['hazardous-substances']![3].mass_share = 0.02;
  file = join(env.dir, 'resync.xlsx');
  await writeDataWorkbook(file, next);
}, 120_000);
afterAll(async () => {
  await env?.close();
  vi.restoreAllMocks();
});

/**
 * The client with the supplier-product walk held before its item `holdAt` until `release()` (`held` resolves
 * when it waits there); with `fail` it then fails there with a refused read.
 */
function walkStoppedAt(c: ApiClient, holdAt: number, fail = false) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const held = new Promise<void>((r) => (reached = r));
  const walk: ApiClient['supplierProducts']['walk'] = (q, o) => ({
    async *[Symbol.asyncIterator]() {
      let n = 0;
      for await (const e of c.supplierProducts.walk(q, o)) {
        if (n++ === holdAt) {
          reached();
          await gate;
          if (fail)
            throw new ApiError({
              status: 403,
              err_code: 'err_permission_denied',
              msg: 'no view:supplier_products',
              endpoint: 'GET /v2/supplier-products',
            });
        }
        yield e;
      }
    },
  });
  return { client: { ...c, supplierProducts: { ...c.supplierProducts, walk } }, release, held };
}

describe('supplier-product rows decided while their walk runs', () => {
  it('decides the rows found before the walk ends, and the plan is the one made after the read', async () => {
    const trials = vi.spyOn(PlanState.prototype, 'trial');
    const taken = vi.spyOn(DecisionsAhead.prototype, 'take');
    const stopped = walkStoppedAt(env.client, PRODUCTS - 50);
    const w = await readWhileWalking([file], stopped.client);
    expect(w.walks?.walks.supplier_product).toBeDefined();
    const planning = planJob(
      env.jobsDir,
      w,
      { client: stopped.client, ...(w.walks && { walks: w.walks }) },
      {
        createOnly: false,
      },
    );
    await stopped.held;
    // the walk waits before its last 50 items: rows it found are being decided (no timing: until some are)
    await vi.waitFor(() => expect(trials.mock.calls.length).toBeGreaterThan(100), { timeout: 10_000 });
    expect(w.walks?.walks.supplier_product?.ended).toBe(false);
    stopped.release();
    const ahead = await planning;
    const decidedAhead = taken.mock.results.filter((r) => r.value === true).length;
    trials.mockRestore();
    taken.mockRestore();

    const after = await planAfterRead(env, file);
    expect(entriesOf(ahead)).toEqual(entriesOf(after));
    expect(ahead.plan.summary).toEqual(after.plan.summary);
    expect(ahead.plan.unknownCodes).toEqual(after.plan.unknownCodes);
    expect(ahead.plan.preflight).toEqual(after.plan.preflight);
    // what the rows were: 2 updates by fields, 1 by its hazardous substance, 1 unknown material, 2 rows of one code
    const sp = after.plan.summary.bySheet['supplier-products'];
    expect(sp).toEqual({ unchanged: PRODUCTS - 5, update: 3, blocked: 3 });
    // only unchanged rows of a code of one row are decided ahead, at most all of them
    expect(decidedAhead).toBeGreaterThan(100);
    expect(decidedAhead).toBeLessThanOrEqual(PRODUCTS - 5);
  }, 120_000);

  it('drops every decision made ahead when the walk fails part-way: the list is unreadable', async () => {
    const trials = vi.spyOn(PlanState.prototype, 'trial');
    const taken = vi.spyOn(DecisionsAhead.prototype, 'take');
    const failing = walkStoppedAt(env.client, PRODUCTS - 50, true);
    const w = await readWhileWalking([file], failing.client);
    const planning = planJob(
      env.jobsDir,
      w,
      { client: failing.client, ...(w.walks && { walks: w.walks }) },
      {
        createOnly: false,
      },
    );
    await failing.held;
    await vi.waitFor(() => expect(trials.mock.calls.length).toBeGreaterThan(100), { timeout: 10_000 });
    failing.release();
    const ahead = await planning;
    expect(taken.mock.results.filter((r) => r.value === true)).toEqual([]);
    trials.mockRestore();
    taken.mockRestore();
    // as when the list is refused before anything is used: no row is unchanged, each is blocked as unreadable
    const sp = ahead.plan.summary.bySheet['supplier-products'];
    expect(sp).toEqual({ blocked: PRODUCTS + 1 });
    const rows = [...plannedEntries(ahead)].filter((e) => e.kind === 'supplier_product');
    expect(rows.filter((e) => e.problems?.some((p) => p.code === 'service_unreadable'))).toHaveLength(PRODUCTS + 1);
  }, 120_000);
});
