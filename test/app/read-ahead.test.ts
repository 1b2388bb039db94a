/**
 * The re-sync's service reads beside the read (app/read-ahead.ts, jobs/service-walks.ts): the walks of the
 * collections the fed sheets ask codes of start before the rows are read and are still open when reading and
 * validating finished (no timing: a walk held until released); the plan made with them equals the plan made
 * after the read; a re-sync plan's requests stay within Σ⌈collection/200⌉ + the reads that follow the walks + 5.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../core/api/index.js';
import { planJob } from '../../core/app/import-job.js';
import { fedSheets, readWhileWalking } from '../../core/app/read-ahead.js';
import { readAndValidate } from '../../core/app/validate.js';
import { CollectionWalk, kindsToWalk } from '../../core/jobs/service-walks.js';
import { buildDataset } from '../fixtures/dataset.js';
import { entriesOf, planAfterRead, runPlan, planInMemory } from '../jobs/job-folder.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { startEnv, writeTestWorkbook, type Env } from '../jobs/helpers.js';

let env: Env;
let file: string;
let data: ReturnType<typeof buildDataset>;

beforeAll(async () => {
  env = await startEnv('demo');
  // Every sheet, 450 supplier products (3 pages of 200): imported once, so planning it again is a re-sync.
  data = buildDataset({ companies: 30, products: 450, silos: 12, instances: 9, prechain: 4 }, 'RS');
  file = join(env.dir, 'resync.xlsx');
  await writeDataWorkbook(file, data); // declares each sheet's size, as Excel does
  const checked = await readAndValidate([file]);
  expect(checked.report.errors).toBe(0);
  const first = await planInMemory(checked.parsed, { client: env.client, validation: checked.report });
  const run = await runPlan(first, { client: env.client, jobsDir: env.jobsDir, concurrency: 16 });
  expect(run.status).toBe('completed');
}, 120_000);
afterAll(async () => {
  await env?.close();
});

/** The client with the supplier-product walk held (its first page is not sent) until `release()`. */
function heldWalk(c: ApiClient): {
  client: ApiClient;
  started: () => boolean;
  release: () => void;
  options: () => Parameters<ApiClient['supplierProducts']['walk']>[1];
} {
  let started = false;
  let options: Parameters<ApiClient['supplierProducts']['walk']>[1];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const walk: ApiClient['supplierProducts']['walk'] = (q, o) => ({
    async *[Symbol.asyncIterator]() {
      started = true;
      options = o;
      await gate;
      yield* c.supplierProducts.walk(q, o);
    },
  });
  return {
    client: { ...c, supplierProducts: { ...c.supplierProducts, walk } },
    started: () => started,
    release,
    options: () => options,
  };
}

describe('walks beside the read', () => {
  it('knows the fed sheets and their rows from the sheet list, and walks the collections their codes name', async () => {
    const fed = await fedSheets([file]);
    expect(fed?.get('supplier-products')).toBe(450);
    expect(fed?.get('supplier-companies')).toBe(30);
    expect(kindsToWalk(fed!)).toEqual(
      expect.arrayContaining([
        'supplier_company',
        'supplier_plant',
        'supplier_product',
        'silo',
        'product_instance',
        'plant',
        'material',
      ]),
    );
    // a sheet of a few rows: its codes are looked up one by one, not walked
    expect(kindsToWalk(new Map([['supplier-companies', 3]]))).toEqual([]);
    expect(await fedSheets([join(env.dir, 'rows.csv')])).toBeNull();
    // a sheet that does not declare its size (exceljs's streaming writer): read first, nothing walked ahead
    const streamed = join(env.dir, 'streamed.xlsx');
    await writeTestWorkbook(streamed, { 'supplier-products': data['supplier-products'] });
    expect(kindsToWalk((await fedSheets([streamed]))!)).toEqual([]);
  });

  it('reads and validates the whole workbook while the walk of supplier products is still open', async () => {
    const held = heldWalk(env.client);
    // when the last row has been read: had the walk started?
    let startedWhenRead: boolean | undefined;
    const w = await readWhileWalking([file], held.client, {
      onRead: (p) => {
        if (p.phase === 'reading' && p.fraction === 1) startedWhenRead = held.started();
      },
    });
    expect(startedWhenRead).toBe(true);
    // reading and validating finished; the walk has not been answered
    expect(held.started()).toBe(true);
    // each next page asked as soon as its cursor is known (the walk is read to its end)
    expect(held.options()?.ahead).toBe(true);
    expect(w.walks?.walks.supplier_product?.ended).toBe(false);
    expect(w.parsed.sheets.find((s) => s.name === 'supplier-products')?.rows).toHaveLength(450);
    held.release();
    const ahead = await planJob(
      env.jobsDir,
      w,
      { client: held.client, ...(w.walks && { walks: w.walks }) },
      {
        createOnly: false,
      },
    );
    // the same plan as one made after the read
    const after = await planAfterRead(env, file);
    expect(entriesOf(ahead)).toEqual(entriesOf(after));
    expect(ahead.plan.summary.byAction).toEqual({ unchanged: expect.any(Number) });
  });

  it('stops the walks when the workbook cannot be read', async () => {
    const held = heldWalk(env.client);
    const broken = join(env.dir, 'broken.xlsx');
    await import('node:fs/promises').then((fs) => fs.writeFile(broken, 'not a zip'));
    const w = await readWhileWalking([broken], held.client);
    expect(w.parsed.readable).toBe(false);
    expect(w.walks).toBeUndefined();
    expect(held.started()).toBe(false); // the sheet list could not be read: nothing walked
  });

  it('a re-sync plan costs at most Σ⌈collection/200⌉ + the reads after the walks + 5 requests', async () => {
    const state = await env.state();
    const collections = [
      'supplier_companies',
      'supplier_plants',
      'supplier_products',
      'silos',
      'product_instances',
      'prechain_products',
    ];
    const walks = collections.reduce((n, k) => n + Math.ceil((state[k]?.active ?? 0) / 200), 0);
    const instances = (sheet: 'bom' | 'production') =>
      new Set((data[sheet] ?? []).map((r) => r.product_instance_external_id)).size;
    const after = instances('bom') + instances('production');
    const mark = await env.requestsMark();
    const w = await readWhileWalking([file], env.client);
    const planned = await planJob(
      env.jobsDir,
      w,
      { client: env.client, ...(w.walks && { walks: w.walks }) },
      {
        createOnly: false,
      },
    );
    const sent = await env.requestsSince(mark);
    expect(planned.plan.summary.byAction).toEqual({ unchanged: expect.any(Number) });
    expect(sent.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(sent.length).toBe(planned.plan.requests);
    expect(sent.length).toBeLessThanOrEqual(walks + after + 5);
    // supplier products: one walk of 3 pages, not one lookup per row
    expect(sent.filter((r) => r.path === '/v2/supplier-products').length).toBeLessThanOrEqual(3);
  });
});

describe('CollectionWalk', () => {
  const entities = Array.from({ length: 10 }, (_, i) => ({ id: `id-${i}`, external_id: `C-${i}` }));
  /** A walk over `entities`, counting the items handed out. */
  function walkOf(fail?: Error) {
    let handed = 0;
    const walk = new CollectionWalk(async function* () {
      for (const e of entities) {
        await new Promise((r) => setImmediate(r));
        handed++;
        yield e;
      }
      if (fail) throw fail;
    });
    return { walk, handed: () => handed };
  }

  it('answers the codes asked for and stops once every one is found', async () => {
    const { walk, handed } = walkOf();
    const found = await walk.pick(new Set(['C-1', 'C-2', 'C-3', 'MISSING']));
    expect([...found.keys()].sort()).toEqual(['C-1', 'C-2', 'C-3']);
    const full = walkOf();
    const some = await full.walk.pick(new Set(['C-0', 'C-2']));
    expect([...some.keys()]).toEqual(['C-0', 'C-2']);
    expect(full.handed()).toBe(3); // stopped after C-2, not walked to the end
    expect(handed()).toBe(10); // a code not on the service: the whole walk
  });

  it('keeps what was met before the codes were known, and tells the walk error', async () => {
    const { walk } = walkOf();
    await new Promise((r) => setTimeout(r, 20));
    expect([...(await walk.pick(new Set(['C-9', 'C-0']))).keys()].sort()).toEqual(['C-0', 'C-9']);
    const failing = walkOf(new Error('page refused'));
    await expect(failing.walk.pick(new Set(['NOT-THERE']))).rejects.toThrow('page refused');
  });

  it("stops on the caller's signal, also one aborted before it started: the pick is refused", async () => {
    const asked: AbortSignal[] = [];
    const pages = (s: AbortSignal) => ({
      async *[Symbol.asyncIterator]() {
        asked.push(s);
        for (const e of entities) {
          s.throwIfAborted();
          await new Promise((r) => setImmediate(r));
          yield e;
        }
      },
    });
    const early = new CollectionWalk(pages, AbortSignal.abort(new Error('cancelled before')));
    await expect(early.pick(new Set(['C-1']))).rejects.toThrow('cancelled before');
    const later = new AbortController();
    const walk = new CollectionWalk(pages, later.signal);
    later.abort(new Error('cancelled'));
    await expect(walk.pick(new Set(['C-9']))).rejects.toThrow('cancelled');
    expect(asked.every((s) => s.aborted)).toBe(true);
  });
});
