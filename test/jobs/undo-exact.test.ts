/**
 * Undo puts back exactly what the job changed, whatever happened during the job: a deleted product instance with
 * its BOM and production figures; a create whose answer was lost; a delete sent by a session that was stopped
 * before it heard the answer; an undo of an undo; a silo created, deleted and created again. Each scenario is
 * compared with the whole service state it must leave (ids of re-created entities aside).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runPlan, resumeToResult, undoPlan, undoToResult } from './job-folder.js';
import { createApiClient } from '../../core/api/index.js';
import type { Plan } from '../../core/jobs/types.js';
import {
  catalog,
  planFile,
  startEnv,
  writesOf,
  writeTestWorkbook,
  type Catalog,
  type Env,
  type SheetData,
} from './helpers.js';
import { seedData as seedOf, serviceState } from './service-state.js';

let env: Env;
let cat: Catalog;
let n = 0;

beforeAll(async () => {
  env = await startEnv('empty');
});
afterAll(async () => {
  await env?.close();
});
// Each scenario on a service of its own: a mirror deletes whatever its sheet does not have.
beforeEach(async () => {
  await env.control('PUT', '/__sandbox/faults', {});
  await env.control('POST', '/__sandbox/reset', { seed: 'empty' });
  cat = await catalog(env);
});

async function plan(
  d: SheetData,
  options?: { mirror?: ('product-instances' | 'silos' | 'supplier-products')[] },
): Promise<Plan> {
  const path = join(env.dir, `undo-exact-${++n}.xlsx`);
  await writeTestWorkbook(path, d);
  return planFile(path, { client: env.client, ...(options ? { options } : {}) });
}
const run = (p: Plan) => runPlan(p, { client: env.client, jobsDir: env.jobsDir });
const outcomes = (r: Awaited<ReturnType<typeof runPlan>>) =>
  Object.fromEntries(r.entries.map((e) => [e.key, e.outcome]));
const undo = async (jobId: string) => {
  const r = await undoToResult(jobId, { client: env.client, jobsDir: env.jobsDir });
  if (r.stage !== 'run')
    throw new Error(`undo ${r.stage}: ${r.blocked.map((b) => b.problems?.[0]?.message).join('; ')}`);
  expect(r.result.status).toBe('completed');
  expect(r.result.counts.failed ?? 0).toBe(0);
  return r;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const seedData = (prefix: string): SheetData => seedOf(cat, prefix);
async function seed(prefix: string): Promise<void> {
  const r = await run(await plan(seedData(prefix)));
  expect(r.counts.failed ?? 0).toBe(0);
  expect(r.counts.skipped ?? 0).toBe(0);
}
const refs = (d: SheetData): SheetData => ({ plants: d.plants, materials: d.materials });

describe('undo restores exactly what the job changed', () => {
  it('a deleted product instance comes back with its BOM and its production figures', async () => {
    await seed('A');
    const before = await serviceState(env.client);
    const job = await run(await plan({ 'product-instances': [{ external_id: 'API-2', action: 'delete' }] }));
    expect(outcomes(job)).toEqual({ 'product-instances!2': 'deleted' });
    expect((await serviceState(env.client)).boms.map((b) => b.instance)).not.toContain('API-2');

    const u = await undo(job.jobId);
    const actions = Object.fromEntries(u.plan.entries.map((e) => [e.key, e.action]));
    expect(actions).toEqual({
      'undo:product-instances!2': 'create',
      'undo:product-instances!2:bom': 'replace',
      'undo:product-instances!2:production': 'create',
    });
    expect(await serviceState(env.client)).toEqual(before);
  });

  it('a mirror that deletes a product instance and changes a BOM is undone exactly', async () => {
    await seed('M');
    const before = await serviceState(env.client);
    // The mirrored sheets keep only PI-1 (so PI-2 goes), and the BOM of PI-1 loses its silo.
    const d = seedData('M');
    const job = await run(
      await plan(
        {
          ...refs(d),
          'product-instances': d['product-instances']!.filter((r) => r.external_id === 'MPI-1'),
          bom: [
            {
              product_instance_external_id: 'MPI-1',
              component_type: 'supplier_product',
              component_external_id: 'MSP-1',
              mass_kg: 950,
            },
          ],
        },
        { mirror: ['product-instances'] },
      ),
    );
    expect(job.counts.failed ?? 0).toBe(0);
    expect(outcomes(job)).toMatchObject({ 'mirror:product-instances:MPI-2': 'deleted', 'bom:MPI-1': 'replaced' });
    await undo(job.jobId);
    expect(await serviceState(env.client)).toEqual(before);
  });

  it('a mirror that deletes a supplier product (route, hazardous substances, material) used by a BOM it changes is undone exactly', async () => {
    await seed('S');
    const before = await serviceState(env.client);
    const d = seedData('S');
    const job = await run(
      await plan(
        {
          ...refs(d),
          'supplier-products': d['supplier-products']!.filter((r) => r.external_id !== 'SSP-3'),
          bom: d.bom!.filter((r) => r.component_external_id !== 'SSP-3'),
        },
        { mirror: ['supplier-products'] },
      ),
    );
    expect(job.counts.failed ?? 0).toBe(0);
    expect(outcomes(job)).toMatchObject({ 'mirror:supplier-products:SSP-3': 'deleted', 'bom:SPI-2': 'replaced' });
    const u = await undo(job.jobId);
    // The BOM takes the re-created supplier product's new id.
    expect(u.plan.entries.find((e) => e.key === 'undo:bom:SPI-2')!.dependsOn).toEqual([
      'undo:mirror:supplier-products:SSP-3',
    ]);
    expect(await serviceState(env.client)).toEqual(before);
  });

  it('an entity whose create answer was lost (found again by its external_id) is deleted by the undo', async () => {
    await seed('L');
    const before = await serviceState(env.client);
    await env.control('PUT', '/__sandbox/faults', {
      reset_after_commit_rate: 1,
      only: { method: 'POST', path_suffix: '/supplier-companies' },
    });
    const job = await run(await plan({ 'supplier-companies': [{ external_id: 'LSC-NEW', name: 'Lost answer' }] }));
    await env.control('PUT', '/__sandbox/faults', {});
    expect(outcomes(job)).toEqual({ 'supplier-companies!2': 'already_existed' });
    const u = await undo(job.jobId);
    expect(u.plan.entries.map((e) => [e.key, e.action])).toEqual([['undo:supplier-companies!2', 'delete']]);
    expect(await serviceState(env.client)).toEqual(before);
  });

  it('an entity deleted by a session stopped before it heard the answer is re-created by the undo', async () => {
    await seed('D');
    const before = await serviceState(env.client);
    const p = await plan({ 'product-instances': [{ external_id: 'DPI-2', action: 'delete' }] });
    // The DELETE is applied and its answer never comes; the job is stopped while it waits.
    await env.control('PUT', '/__sandbox/faults', { stall_after_commit_rate: 1, only: { method: 'DELETE' } });
    const mark = await env.requestsMark();
    const ac = new AbortController();
    const running = runPlan(p, { client: env.client, jobsDir: env.jobsDir, signal: ac.signal });
    while (writesOf(await env.requestsSince(mark)).length === 0) await sleep(10);
    ac.abort();
    const first = await running;
    await env.control('PUT', '/__sandbox/faults', {});
    expect(first.status).toBe('cancelled');
    expect(await env.client.productInstances.findByExternalId('DPI-2')).toBeNull();

    const resumed = await resumeToResult(first.jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(outcomes(resumed)).toEqual({ 'product-instances!2': 'deleted' });
    const u = await undo(first.jobId);
    expect(u.plan.entries.map((e) => [e.key, e.action])).toEqual([
      ['undo:product-instances!2', 'create'],
      ['undo:product-instances!2:bom', 'replace'],
      ['undo:product-instances!2:production', 'create'],
    ]);
    expect(await serviceState(env.client)).toEqual(before);
  });

  it('an undo of an undo restores the state the job left, BOMs and production figures included', async () => {
    await seed('U');
    const d = seedData('U');
    const job = await run(
      await plan({
        ...refs(d),
        'supplier-companies': [
          { external_id: 'USC-NEW', name: 'Brand new', country: 'NL' },
          { external_id: 'USC-1', name: 'Holcim AG', country: 'CH' },
        ],
        'supplier-products': [
          {
            external_id: 'USP-NEW',
            name: 'Flugasche',
            plant_code: 'PL-MUC',
            material_code: 'MAT-CLINKER',
            unit: 'KG',
            truck_km: 80,
          },
        ],
        bom: [
          {
            product_instance_external_id: 'UPI-2',
            component_type: 'supplier_product',
            component_external_id: 'USP-NEW',
            mass_kg: 120,
          },
          {
            product_instance_external_id: 'UPI-2',
            component_type: 'silo',
            component_external_id: 'USILO-1',
            mass_kg: 310,
          },
          {
            product_instance_external_id: 'UPI-1',
            component_type: 'silo',
            component_external_id: 'USILO-1',
            mass_kg: 900,
          },
        ],
        production: [{ product_instance_external_id: 'UPI-2', year: 2024, quantity: 1300 }],
        'prechain-products': [{ external_id: 'UPC-1', action: 'delete' }],
      }),
    );
    expect(job.counts.failed ?? 0).toBe(0);
    const afterJob = await serviceState(env.client);

    const first = await undo(job.jobId);
    const second = await undo(first.result.jobId);
    // Every entry of the first undo carried the before-state its own undo needed: nothing emptied.
    expect(
      second.plan.entries.filter((e) => e.kind === 'bom').every((e) => (e.body?.bom as unknown[]).length > 0),
    ).toBe(true);
    expect(await serviceState(env.client)).toEqual(afterJob);
  });

  it('production figures the job changed are set back; years it added block the undo with the reason', async () => {
    await seed('P');
    const before = await serviceState(env.client);
    const changed = await run(
      await plan({ production: [{ product_instance_external_id: 'PPI-2', year: 2024, quantity: 9 }] }),
    );
    expect(outcomes(changed)).toEqual({ 'production:PPI-2': 'updated' });
    await undo(changed.jobId);
    expect(await serviceState(env.client)).toEqual(before);

    const added = await run(
      await plan({ production: [{ product_instance_external_id: 'PPI-2', year: 2025, quantity: 7 }] }),
    );
    const r = await undoToResult(added.jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(r.stage).toBe('blocked');
    expect(r.blocked[0].problems![0].message).toMatch(/2025 were added by job .* cannot take one back/);
    // A rule carries its code and values for a UI to word it, the message as its detail.
    const message = r.blocked[0].problems![0].message;
    expect(r.blocked[0].problems).toEqual([
      {
        kind: 'rule',
        sheet: 'production',
        cell: null,
        row: 2,
        field: null,
        message,
        code: 'row_rule',
        params: { detail: message, jobId: added.jobId, variant: 'undo_figures_added', years: '2025' },
      },
    ]);
  });

  it('an instance the job created is deleted with its production figures: nothing blocks the undo', async () => {
    await seed('C');
    const before = await serviceState(env.client);
    const job = await run(
      await plan({
        ...refs(seedData('C')),
        'product-instances': [
          { external_id: 'CPI-NEW', product_external_id: 'ART-10011', plant_code: 'HEID', produced_from: 2023 },
        ],
        production: [{ product_instance_external_id: 'CPI-NEW', year: 2024, quantity: 5 }],
        bom: [
          {
            product_instance_external_id: 'CPI-NEW',
            component_type: 'silo',
            component_external_id: 'CSILO-1',
            mass_kg: 5,
          },
        ],
      }),
    );
    expect(job.counts.failed ?? 0).toBe(0);
    const u = await undo(job.jobId);
    expect(u.plan.entries.map((e) => [e.key, e.action])).toEqual([['undo:product-instances!2', 'delete']]);
    expect(await serviceState(env.client)).toEqual(before);
  });
});

describe('re-creating what was deleted', () => {
  it('a silo and a prechain product created, deleted, then created again are created (not a replay of the first create)', async () => {
    await seed('R');
    const d = seedData('R');
    const again = {
      ...refs(d),
      silos: [{ external_id: 'RSILO-9', name: 'Silo neu', plant_code: 'HEID' }],
      'silo-items': [{ silo_external_id: 'RSILO-9', supplier_product_external_id: 'RSP-1', year: 2025, amount: 5 }],
      'prechain-products': [
        { external_id: 'RPC-9', product_instance_external_id: 'RPI-2', plant_code: 'HEID', truck_km: 10 },
      ],
    };
    const created = await run(await plan(again));
    expect(outcomes(created)).toMatchObject({ 'silos!2': 'created', 'prechain-products!2': 'created' });
    const deleted = await run(
      await plan({
        silos: [{ external_id: 'RSILO-9', action: 'delete' }],
        'prechain-products': [{ external_id: 'RPC-9', action: 'delete' }],
      }),
    );
    expect(deleted.counts.deleted).toBe(2);
    // By a re-import: the same bodies as the first create, within the Idempotency-Key retention.
    const recreated = await run(await plan(again));
    expect(outcomes(recreated)).toMatchObject({ 'silos!2': 'created', 'prechain-products!2': 'created' });
    expect(await env.client.silos.findByExternalId('RSILO-9')).not.toBeNull();
    expect(await env.client.prechainProducts.findByExternalId('RPC-9')).not.toBeNull();

    // By an undo: delete them again, then undo that delete.
    const deletedAgain = await run(
      await plan({
        silos: [{ external_id: 'RSILO-9', action: 'delete' }],
        'prechain-products': [{ external_id: 'RPC-9', action: 'delete' }],
      }),
    );
    const state = await serviceState(env.client);
    const u = await undo(deletedAgain.jobId);
    expect(Object.values(outcomes(u.result))).toEqual(['created', 'created']);
    expect(await env.client.silos.findByExternalId('RSILO-9')).not.toBeNull();
    expect(await env.client.prechainProducts.findByExternalId('RPC-9')).not.toBeNull();
    expect(await serviceState(env.client)).not.toEqual(state);
  });

  it('a create sent by another job with the same body carries another Idempotency-Key', async () => {
    await seed('K');
    const d = seedData('K');
    const silo = {
      ...refs(d),
      silos: [{ name: 'Ohne Code', plant_code: 'HEID', external_id: 'KSILO-7' }],
      'silo-items': [{ silo_external_id: 'KSILO-7', supplier_product_external_id: 'KSP-1', year: 2025, amount: 1 }],
    };
    const mark = await env.requestsMark();
    const a = await run(await plan(silo));
    expect(outcomes(a)).toMatchObject({ 'silos!2': 'created' });
    await run(await plan({ silos: [{ external_id: 'KSILO-7', action: 'delete' }] }));
    await run(await plan(silo));
    const keys = writesOf(await env.requestsSince(mark))
      .filter((w) => w.method === 'POST' && w.path === '/v2/silos')
      .map((w) => w.idempotency_key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toEqual(keys[1]);
  });
});

describe('undo refuses, with the reason', () => {
  it('a job already undone (undo the undo instead), and a job made against another service', async () => {
    await seed('Z');
    const job = await run(await plan({ 'supplier-companies': [{ external_id: 'ZSC-NEW', name: 'Z' }] }));
    const first = await undo(job.jobId);
    await expect(undoPlan(job.jobId, { client: env.client, jobsDir: env.jobsDir })).rejects.toThrow(
      new RegExp(`already undone by job ${first.result.jobId}`),
    );
    const second = await undo(first.result.jobId);
    await expect(undoPlan(job.jobId, { client: env.client, jobsDir: env.jobsDir })).rejects.toThrow(
      new RegExp(`undo job ${second.result.jobId} to take`),
    );

    const other = createApiClient({
      baseUrl: env.sb.baseUrl.replace('127.0.0.1', 'localhost'),
      apiKey: env.sb.ownerKey,
    });
    try {
      const job2 = await run(await plan({ 'supplier-companies': [{ external_id: 'ZSC-TWO', name: 'Z2' }] }));
      await expect(undoPlan(job2.jobId, { client: other, jobsDir: env.jobsDir })).rejects.toThrow(
        /made against another service/,
      );
    } finally {
      await other.close();
    }
  });
});
