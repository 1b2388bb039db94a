/**
 * The import engine end to end against the in-process sandbox: a workbook with every sheet filled is planned
 * (expected actions, dependencies), run (exactly the expected entities, checked via the API and
 * /__sandbox/state), planned again (all unchanged) and re-run (no write sent); then changed cells show as
 * update/replace with before → after and land; blank never erases, #CLEAR clears; create-only skips updates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { JOURNAL_FILE, jobDir, listJobs } from '../../core/jobs/job-store.js';
import { type RunOptions } from '../../core/jobs/run.js';
import { runPlan } from './job-folder.js';
import type { JobProgress, JobResult, Plan, PlanEntry } from '../../core/jobs/types.js';
import {
  catalog,
  fullWorkbook,
  planFile,
  startEnv,
  writesOf,
  writeTestWorkbook,
  type Catalog,
  type Env,
  type SheetData,
} from './helpers.js';

let env: Env;
let cat: Catalog;
let data: SheetData;
let path: string;
let baseline: Record<string, { active: number; deleted: number }>;

const byKey = (plan: Plan) => new Map(plan.entries.map((e) => [e.key, e]));
const actionsOf = (plan: Plan) => Object.fromEntries(plan.entries.map((e) => [e.key, e.action]));

async function plan(d: SheetData, o: { createOnly?: boolean } = {}): Promise<Plan> {
  await writeTestWorkbook(path, d);
  return planFile(path, { client: env.client, options: o });
}

beforeAll(async () => {
  env = await startEnv('demo');
  cat = await catalog(env);
  data = fullWorkbook(cat);
  path = join(env.dir, 'import.xlsx');
  baseline = await env.state();
});
afterAll(async () => {
  await env?.close();
});

describe('plan → run → plan again → change → run', () => {
  it('plans every row with the expected action, dependencies and bulk resolution', async () => {
    const mark = await env.requestsMark();
    const p = await plan(data);
    expect(actionsOf(p)).toEqual({
      'supplier-companies!2': 'create',
      'supplier-companies!3': 'create',
      'supplier-plants!2': 'create',
      'supplier-plants!3': 'create',
      'supplier-products!2': 'create',
      'supplier-products!3': 'create',
      'supplier-products!4': 'create',
      'silos!2': 'create',
      'product-instances!2': 'create',
      'product-instances!3': 'create',
      'prechain-products!2': 'create',
      'bom:PI-2': 'replace',
      'bom:PI-1': 'replace',
    });
    const e = byKey(p);
    expect(e.get('supplier-plants!2')!.dependsOn).toEqual(['supplier-companies!2']);
    expect(e.get('supplier-plants!2')!.notes).toEqual([
      'after create of supplier company SC-1 (supplier-companies row 2)',
    ]);
    expect(e.get('supplier-plants!2')!.refs).toEqual([
      { path: ['supplier_company_id'], key: 'supplier-companies!2', code: 'SC-1' },
    ]);
    // The hazardous substance is part of its supplier product's body; silo items of their silo.
    const sp3 = e.get('supplier-products!4')!;
    expect(sp3.body).toMatchObject({
      hazardous_substances: [{ cas_number: '14808-60-7', mass_share: 0.05 }],
      transport_route: { train_km: 300 },
      secondary_percentage: 20,
    });
    expect(sp3.rows).toEqual([
      { sheet: 'supplier-products', row: 4 },
      { sheet: 'hazardous-substances', row: 2 },
    ]);
    // Plants: HEID from the workbook's mapping sheet, PL-MUC from the service by code.
    expect(e.get('supplier-products!2')!.body!.plant_id).toBe(idOf(cat, 'plants', 'PL-HEID'));
    expect(sp3.body!.plant_id).toBe(idOf(cat, 'plants', 'PL-MUC'));
    const silo = e.get('silos!2')!;
    expect(silo.rows.map((r) => `${r.sheet}!${r.row}`)).toEqual([
      'silos!2',
      'silo-items!2',
      'silo-items!3',
      'silo-items!4',
    ]);
    expect(silo.body!.items).toEqual([
      {
        supplier_product_id: null,
        annual_items: [
          { year: 2024, amount: 1000 },
          { year: 2025, amount: 1200 },
        ],
      },
      { supplier_product_id: null, annual_items: [{ year: 2025, amount: 800 }] },
    ]);
    expect(silo.dependsOn).toEqual(['supplier-products!2', 'supplier-products!3']);
    const bom2 = e.get('bom:PI-2')!;
    expect(bom2.bomDiff).toEqual({
      added: [
        { type: 'supplier_product', code: 'SP-3', mass_kg: 100 },
        { type: 'silo', code: 'SILO-1', mass_kg: 300 },
        { type: 'prechain_product', code: 'PC-1', mass_kg: 50 },
      ],
      removed: [],
      changed: [],
      unchanged: 0,
    });
    expect(new Set(bom2.dependsOn)).toEqual(
      new Set(['supplier-products!4', 'silos!2', 'prechain-products!2', 'product-instances!3']),
    );
    expect(p.summary.byAction).toEqual({ create: 11, replace: 2 });
    expect(p.summary.rows).toBe(19);
    // Planning reads in bulk and writes nothing.
    const sent = await env.requestsSince(mark);
    expect(writesOf(sent)).toEqual([]);
    expect(sent.length).toBe(p.requests);
    expect(sent.length).toBeLessThanOrEqual(20);
  });

  it('runs: creates exactly the expected entities, in dependency order, with progress', async () => {
    const p = await plan(data);
    const progress: JobProgress[] = [];
    const mark = await env.requestsMark();
    const res = await runPlan(p, { client: env.client, jobsDir: env.jobsDir, onProgress: (x) => progress.push(x) });
    expect(res.status).toBe('completed');
    expect(res.counts).toEqual({ created: 11, replaced: 2 });
    expect(res.bySheet['silo-items']).toEqual({ created: 3 });
    expect(res.bySheet.bom).toEqual({ replaced: 4 });
    const writes = writesOf(await env.requestsSince(mark));
    expect(writes.length).toBe(13);
    // Dependency order per entity (levels are no barriers): no entry's write starts (intent line) before every
    // entry it depends on has its outcome line in the journal.
    const lines = (await readFile(join(jobDir(env.jobsDir, res.jobId), JOURNAL_FILE), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { t: string; key: string });
    const at = (t: string, key: string) => lines.findIndex((l) => l.t === t && l.key === key);
    const withDeps = p.entries.filter((x) => x.dependsOn?.length);
    expect(withDeps.length).toBeGreaterThan(5);
    for (const x of withDeps)
      for (const d of x.dependsOn!) {
        expect(at('outcome', d), `${d} settled`).toBeGreaterThanOrEqual(0);
        expect(at('outcome', d), `${d} before ${x.key}`).toBeLessThan(at('intent', x.key));
      }
    expect(writes.filter((w) => w.path === '/v2/silos')[0].idempotency_key).toMatch(/^[0-9a-f-]{36}$/);

    const state = await env.state();
    const delta = (k: string) => state[k].active - baseline[k].active;
    expect([
      delta('supplier_companies'),
      delta('supplier_plants'),
      delta('supplier_products'),
      delta('silos'),
      delta('product_instances'),
      delta('prechain_products'),
    ]).toEqual([2, 2, 3, 1, 2, 1]);

    const c = env.client;
    const sc1 = (await c.supplierCompanies.findByExternalId('SC-1'))!;
    const spl1 = (await c.supplierPlants.findByExternalId('SPL-1'))!;
    expect(spl1).toMatchObject({
      name: 'Werk Lägerdorf',
      supplier_company_id: sc1.id,
      country: 'DE',
      city: 'Lägerdorf',
    });
    const sp1 = (await c.supplierProducts.findByExternalId('SP-1'))!;
    const sp2 = (await c.supplierProducts.findByExternalId('SP-2'))!;
    const sp3 = (await c.supplierProducts.findByExternalId('SP-3'))!;
    expect(sp1).toMatchObject({
      supplier_plant_id: spl1.id,
      transport_route: { truck_km: 120 },
      material_type: { category: 'elementary', elementary_id: idOf(cat, 'elementaries', 'MAT-CEM1') },
    });
    expect(sp3.hazardous_substances).toEqual([{ cas_number: '14808-60-7', mass_share: 0.05 }]);
    const silo = (await c.silos.findByExternalId('SILO-1'))!;
    expect(silo.items.map((i) => i.supplier_product_id).sort()).toEqual([sp1.id, sp2.id].sort());
    const pi1 = (await c.productInstances.findByExternalId('PI-1'))!;
    const pi2 = (await c.productInstances.findByExternalId('PI-2'))!;
    expect(pi2).toMatchObject({
      produced_from: 2022,
      produced_to: 2030,
      name: 'CEM I 52,5 R München',
      product_id: idOf(cat, 'products', 'ART-10012'),
    });
    const pc1 = (await c.prechainProducts.findByExternalId('PC-1'))!;
    expect(pc1).toMatchObject({ product_instance_id: pi1.id, transport_route: { truck_km: 50 } });
    const bom2 = await c.bom.get(pi2.id);
    expect(bom2.map((x) => `${x.type}:${x.ref}:${x.mass_kg}`).sort()).toEqual(
      [`supplier_product:${sp3.id}:100`, `silo:${silo.id}:300`, `prechain_product:${pc1.id}:50`].sort(),
    );
    expect((await c.bom.get(pi1.id)).map((x) => `${x.type}:${x.ref}:${x.mass_kg}`)).toEqual([`silo:${silo.id}:950`]);

    // Progress: throttled events end with the final count.
    const lastEvent = progress[progress.length - 1];
    expect(lastEvent).toMatchObject({ jobId: res.jobId, status: 'completed', done: 19, total: 19 });
    expect(lastEvent.byOutcome).toEqual({ created: 11, replaced: 2 });
    const jobs = await listJobs(env.jobsDir);
    expect(jobs[0]).toMatchObject({ jobId: res.jobId, status: 'completed', resumable: false, rows: 19 });
  });

  it('a second plan shows everything unchanged and a re-run sends no write', async () => {
    const p = await plan(data);
    expect(new Set(p.entries.map((e) => e.action))).toEqual(new Set(['unchanged']));
    expect(p.entries).toHaveLength(13);
    const mark = await env.requestsMark();
    const res = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(res.status).toBe('completed');
    expect(res.counts).toEqual({ unchanged: 13 });
    expect(await env.requestsSince(mark)).toEqual([]);
  });

  it('changed name, silo yearly amount and BOM mass show as update/replace with before → after and land; blank keeps, #CLEAR clears', async () => {
    const changed = structuredClone(data);
    changed['supplier-companies']![0].name = 'Holcim Deutschland';
    delete changed['supplier-companies']![0].country; // blank: the service keeps DE
    changed['supplier-plants']![0].city = '#CLEAR';
    changed['silo-items']![1].amount = 1300;
    changed.bom![0].mass_kg = 120;
    changed['supplier-products']![0].truck_km = 95;
    const p = await plan(changed);
    const e = byKey(p);
    const updates = p.entries.filter((x) => x.action !== 'unchanged').map((x) => x.key);
    expect(updates.sort()).toEqual(
      ['bom:PI-2', 'silos!2', 'supplier-companies!2', 'supplier-plants!2', 'supplier-products!2'].sort(),
    );
    expect(e.get('supplier-companies!2')).toMatchObject({
      action: 'update',
      changes: [{ field: 'name', before: 'Holcim', after: 'Holcim Deutschland' }],
      body: { name: 'Holcim Deutschland' },
    });
    expect(e.get('supplier-plants!2')).toMatchObject({
      action: 'update',
      changes: [{ field: 'city', before: 'Lägerdorf', after: null }],
      body: { city: null },
    });
    expect(e.get('supplier-products!2')!.changes).toEqual([
      { field: 'transport_route.truck_km', before: 120, after: 95 },
    ]);
    const silo = e.get('silos!2') as PlanEntry;
    expect(silo.changes).toEqual([{ field: 'items[SP-1][2025]', before: 1200, after: 1300 }]);
    expect(silo.body!.items).toHaveLength(2); // items are replaced whole
    expect(e.get('bom:PI-2')).toMatchObject({
      action: 'replace',
      bomDiff: {
        added: [],
        removed: [],
        changed: [{ type: 'supplier_product', code: 'SP-3', before: 100, after: 120 }],
        unchanged: 2,
      },
    });

    const mark = await env.requestsMark();
    const res = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(res.status).toBe('completed');
    expect(res.counts).toEqual({ updated: 4, replaced: 1, unchanged: 8 });
    const writes = writesOf(await env.requestsSince(mark));
    expect(writes.map((w) => w.method).sort()).toEqual(['PATCH', 'PATCH', 'PATCH', 'PATCH', 'PUT']);

    const c = env.client;
    expect(await c.supplierCompanies.findByExternalId('SC-1')).toMatchObject({
      name: 'Holcim Deutschland',
      country: 'DE',
    });
    expect((await c.supplierPlants.findByExternalId('SPL-1'))!.city ?? null).toBeNull();
    expect((await c.supplierProducts.findByExternalId('SP-1'))!.transport_route).toEqual({ truck_km: 95 });
    const sp1 = (await c.supplierProducts.findByExternalId('SP-1'))!;
    const s = (await c.silos.findByExternalId('SILO-1'))!;
    expect(s.items.find((i) => i.supplier_product_id === sp1.id)!.annual_items).toEqual([
      { year: 2024, amount: 1000 },
      { year: 2025, amount: 1300 },
    ]);
    const pi2 = (await c.productInstances.findByExternalId('PI-2'))!;
    expect((await c.bom.get(pi2.id)).find((x) => x.type === 'supplier_product')!.mass_kg).toBe(120);
    // And now everything is unchanged again.
    const again = await plan(changed);
    expect(new Set(again.entries.map((x) => x.action))).toEqual(new Set(['unchanged']));
    data = changed;
  });

  it('create-only: differences become skipped_update, nothing is sent, new rows are created', async () => {
    const changed = structuredClone(data);
    changed['supplier-companies']![1].name = 'Dyckerhoff GmbH';
    changed['supplier-companies']!.push({ external_id: 'SC-3', name: 'Schwenk' });
    changed.bom![3].mass_kg = 900;
    const p = await plan(changed, { createOnly: true });
    const e = byKey(p);
    expect(e.get('supplier-companies!3')).toMatchObject({
      action: 'skipped_update',
      changes: [{ field: 'name', before: 'Dyckerhoff', after: 'Dyckerhoff GmbH' }],
    });
    expect(e.get('supplier-companies!4')!.action).toBe('create');
    expect(e.get('bom:PI-1')!.action).toBe('skipped_update');
    const mark = await env.requestsMark();
    const res = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(res.status).toBe('completed');
    const outcome = new Map(res.entries.map((o) => [o.key, o]));
    expect(outcome.get('supplier-companies!3')).toMatchObject({ outcome: 'skipped', reason: 'create_only' });
    expect(outcome.get('supplier-companies!4')).toMatchObject({ outcome: 'created' });
    expect(writesOf(await env.requestsSince(mark)).map((w) => `${w.method} ${w.path}`)).toEqual([
      'POST /v2/supplier-companies',
    ]);
    expect((await env.client.supplierCompanies.findByExternalId('SC-2'))!.name).toBe('Dyckerhoff');
  });
});

function idOf(cat: Catalog, list: 'plants' | 'elementaries' | 'products', code: string): string {
  return cat[list].find((x) => x.external_id === code)!.id;
}

/** `n` supplier companies with codes `<prefix>-SC-1…n`. */
function companiesOf(prefix: string, n: number): { external_id: string; name: string; country: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    external_id: `${prefix}-SC-${i + 1}`,
    name: `${prefix} company ${i + 1}`,
    country: 'DE',
  }));
}

/** The job run with the sandbox answering every request after `latencyMs`. */
async function runWithLatency(latencyMs: number, p: Plan, o: Partial<RunOptions> = {}): Promise<JobResult> {
  const faults = (latency_ms: number) =>
    env.control('PUT', '/__sandbox/faults', { latency_ms, jitter_ms: 0, error_rate: 0, reset_after_commit_rate: 0 });
  await faults(latencyMs);
  try {
    return await runPlan(p, { client: env.client, jobsDir: env.jobsDir, ...o });
  } finally {
    await faults(0);
  }
}

/** The job's journal lines, in order. */
async function journalOf(jobId: string): Promise<{ t: string; key: string }[]> {
  return (await readFile(join(jobDir(env.jobsDir, jobId), JOURNAL_FILE), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: string; key: string });
}

describe('scheduling', () => {
  it('levels are no barriers: a supplier plant starts once its own company is created, while other companies are still being created', async () => {
    const companies = companiesOf('NB', 12);
    const plants = companies.map((c, i) => ({
      external_id: `NB-SPL-${i + 1}`,
      name: `NB plant ${i + 1}`,
      supplier_company_external_id: c.external_id,
    }));
    const p = await plan({ 'supplier-companies': companies, 'supplier-plants': plants });
    expect(p.entries.filter((e) => e.action === 'create')).toHaveLength(24);
    const res = await runWithLatency(20, p, { concurrency: 2 });
    expect(res.status).toBe('completed');
    const lines = await journalOf(res.jobId);
    const firstPlantIntent = lines.findIndex((l) => l.t === 'intent' && l.key.startsWith('supplier-plants!'));
    const lastCompanyOutcome = lines.findLastIndex((l) => l.t === 'outcome' && l.key.startsWith('supplier-companies!'));
    // With a barrier per level no plant could start before the last company is settled.
    expect(firstPlantIntent).toBeGreaterThan(0);
    expect(firstPlantIntent).toBeLessThan(lastCompanyOutcome);
  });

  it('the entries waiting for a write slot have their intents in the journal already: a freed slot is taken by a request at once', async () => {
    const p = await plan({ 'supplier-companies': companiesOf('WS', 8) });
    const res = await runWithLatency(300, p, { concurrency: 2 });
    expect(res.status).toBe('completed');
    const writes = (await journalOf(res.jobId)).filter((l) => l.t !== 'session');
    // 2 writes in flight and 2 more under way (2 × concurrency): four intents before the first answer's outcome.
    expect(writes.slice(0, 4).map((l) => l.t)).toEqual(['intent', 'intent', 'intent', 'intent']);
    expect(writes[4].t).toBe('outcome');
    // Still: no outcome without its intent before it.
    for (const [k, l] of writes.entries())
      if (l.t === 'outcome') expect(writes.slice(0, k).some((x) => x.t === 'intent' && x.key === l.key)).toBe(true);
  });
});

describe('onWritesUnderway (work beside the job starts once its first writes are out)', () => {
  it('is told once, after the first `concurrency` writes were sent and before any entry settled', async () => {
    const p = await plan({ 'supplier-companies': companiesOf('WU', 10) });
    const before = env.client.stats().requests;
    const told: { sent: number; settled: number }[] = [];
    let settled = 0;
    const res = await runWithLatency(150, p, {
      concurrency: 4,
      onSettled: () => void settled++,
      onWritesUnderway: () => void told.push({ sent: env.client.stats().requests - before, settled }),
    });
    expect(res.status).toBe('completed');
    // The 4 requests of the first round are on their way; none has been answered (150 ms) when it is told.
    expect(told).toEqual([{ sent: 4, settled: 0 }]);
  });

  it('a hook that throws stops the job with its error (never an uncaught exception)', async () => {
    const p = await plan({ 'supplier-companies': companiesOf('WX', 6) });
    await expect(
      runWithLatency(50, p, {
        concurrency: 2,
        onWritesUnderway: () => {
          throw new Error('the work beside the job failed');
        },
      }),
    ).rejects.toThrow('the work beside the job failed');
  });

  it('a job with nothing to send tells it once, at its end', async () => {
    const p = await plan({ 'supplier-companies': companiesOf('WU', 1) });
    expect(p.entries.map((e) => e.action)).toEqual(['unchanged']);
    let told = 0;
    const res = await runPlan(p, { client: env.client, jobsDir: env.jobsDir, onWritesUnderway: () => void told++ });
    expect(res.status).toBe('completed');
    await new Promise((r) => setImmediate(r));
    expect(told).toBe(1);
  });
});
