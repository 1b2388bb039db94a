/**
 * The import engine when things go wrong, against the in-process sandbox: rows blocked at plan time (an
 * unresolved code at its cell, a row depending on a blocked row, preflight scope/plant problems), a row that
 * fails at run time and its dependents skipped, a 401 mid-run (aborted → resumed with a new key → exact
 * state), the daily limit (paused → resumed), the entitlement limit (instance creates skipped with
 * usage/limit), pause and cancel (resumable).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { listJobs } from '../../core/jobs/job-store.js';
import { JobControl } from '../../core/jobs/run.js';
import { runPlan, resumeToResult } from './job-folder.js';
import type { EntryOutcome, JobResult, Plan } from '../../core/jobs/types.js';
import type { ApiClient } from '../../core/api/index.js';
import { SCOPES } from '../../core/spec/scopes.js';
import {
  bulkWorkbook,
  catalog,
  fullWorkbook,
  idOf,
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
let n = 0;

beforeAll(async () => {
  env = await startEnv('demo');
  cat = await catalog(env);
});
afterAll(async () => {
  await env?.close();
});

async function plan(d: SheetData, client: ApiClient = env.client): Promise<Plan> {
  const path = join(env.dir, `wb-${++n}.xlsx`);
  await writeTestWorkbook(path, d);
  return planFile(path, { client });
}

const outcomes = (r: JobResult) => new Map(r.entries.map((o) => [o.key, o as EntryOutcome]));
const byKey = (p: Plan) => new Map(p.entries.map((e) => [e.key, e]));

async function newKey(
  scopes?: string[],
  plantIds: string[] | null = null,
): Promise<{ key: string; api_key_id: string }> {
  return env.control('POST', '/__sandbox/keys', { scopes: scopes ?? [...SCOPES], plant_ids: plantIds });
}

/** Every code of the bulk workbook is on the service exactly once, and the counts grew by exactly that. */
async function expectBulkOnService(prefix: string, products: number, silos: number, instances = 0): Promise<void> {
  const c = env.client;
  const sps = await c.supplierProducts.resolveExternalIds(
    Array.from({ length: products }, (_, i) => `${prefix}-SP-${String(i + 1).padStart(4, '0')}`),
  );
  expect(sps.size).toBe(products);
  const ss = await c.silos.resolveExternalIds(Array.from({ length: silos }, (_, i) => `${prefix}-SILO-${i + 1}`));
  expect(ss.size).toBe(silos);
  for (const s of ss.values()) expect(s.items).toHaveLength(3);
  if (instances) {
    const pis = await c.productInstances.resolveExternalIds(
      Array.from({ length: instances }, (_, i) => `${prefix}-PI-${i + 1}`),
    );
    expect(pis.size).toBe(instances);
    for (const pi of pis.values()) expect(await c.bom.get(pi.id)).toHaveLength(3);
  }
}

describe('blocked at plan time', () => {
  it('an unresolved code is blocked at its cell, rows depending on it are blocked, the rest is planned', async () => {
    const d = fullWorkbook(cat);
    for (const s of Object.values(d))
      for (const r of s)
        for (const k of Object.keys(r))
          if (typeof r[k] === 'string') r[k] = (r[k] as string).replace(/^(SC|SPL|SP|SILO|PI|PC)-/, 'U$1-');
    d['supplier-products']![0].material_code = 'NO-SUCH-MATERIAL';
    d['product-instances']![1].product_external_id = 'ART-NOPE';
    const p = await plan(d);
    const e = byKey(p);
    expect(e.get('supplier-products!2')).toMatchObject({
      action: 'blocked',
      problems: [{ kind: 'unresolved', sheet: 'supplier-products', cell: 'D2', row: 2, field: 'material_code' }],
    });
    expect(e.get('supplier-products!2')!.problems![0].message).toContain('NO-SUCH-MATERIAL');
    // The silo holds USP-1: blocked because its dependency is, pointing at the silo-items cell.
    expect(e.get('silos!2')!.action).toBe('blocked');
    expect(e.get('silos!2')!.problems!.filter((x) => x.kind === 'dependency_blocked')).toMatchObject([
      { sheet: 'silo-items', cell: 'B2', field: 'supplier_product_external_id' },
      { sheet: 'silo-items', cell: 'B3', field: 'supplier_product_external_id' },
    ]);
    expect(e.get('silos!2')!.problems![0].message).toContain('supplier-products row 2');
    expect(e.get('product-instances!3')).toMatchObject({
      action: 'blocked',
      problems: [{ kind: 'unresolved', cell: 'B3', field: 'product_external_id' }],
    });
    // Both BOMs use the silo; PI-2's also its own blocked instance.
    expect(e.get('bom:UPI-1')!.action).toBe('blocked');
    expect(e.get('bom:UPI-2')!.action).toBe('blocked');
    expect(e.get('supplier-products!3')!.action).toBe('create');
    expect(e.get('prechain-products!2')!.action).toBe('create');
  });

  it('preflight: a missing scope and an unreachable plant block those rows with the reason', async () => {
    const heid = idOf(cat.plants, 'PL-HEID');
    const { key } = await newKey(
      ['view:plants', 'view:materials', 'edit:materials', 'view:products', 'edit:products', 'view:recipes'],
      [heid],
    );
    const restricted = env.newClient(key);
    const d = fullWorkbook(cat);
    for (const s of Object.values(d))
      for (const r of s)
        for (const k of Object.keys(r))
          if (typeof r[k] === 'string') r[k] = (r[k] as string).replace(/^(SC|SPL|SP|SILO|PI|PC)-/, 'R$1-');
    // The key cannot list PL-MUC; the workbook maps it, so the rows at it resolve and preflight blocks them.
    d.plants!.push({ plant_code: 'PL-MUC', plant_id: idOf(cat.plants, 'PL-MUC') });
    const mark = await env.requestsMark();
    const p = await plan(d, restricted);
    const e = byKey(p);
    // SP-3, PI-2 and PC-1 sit at PL-MUC, which the key does not reach.
    for (const k of ['supplier-products!4', 'product-instances!3', 'prechain-products!2']) {
      expect(e.get(k)).toMatchObject({
        action: 'blocked',
        problems: [{ kind: 'preflight', err_code: 'err_plant_no_access' }],
      });
    }
    // No edit:recipes: both BOMs blocked with the scope named.
    expect(e.get('bom:RPI-1')).toMatchObject({
      action: 'blocked',
      problems: [{ kind: 'preflight', err_code: 'err_permission_denied' }],
    });
    expect(e.get('bom:RPI-1')!.problems![0].message).toContain('edit:recipes');
    expect(e.get('supplier-products!2')!.action).toBe('create');
    expect(p.preflight.ok).toBe(false);
    expect(p.preflight.problems.map((x) => x.err_code).sort()).toEqual([
      'err_permission_denied',
      'err_plant_no_access',
    ]);
    expect(writesOf(await env.requestsSince(mark))).toEqual([]);
  });
});

describe('failures while running', () => {
  it('a row that fails is reported with status, err_code and explanation; its dependents are skipped, never sent', async () => {
    const d = fullWorkbook(cat);
    for (const s of Object.values(d))
      for (const r of s)
        for (const k of Object.keys(r))
          if (typeof r[k] === 'string') r[k] = (r[k] as string).replace(/^(SC|SPL|SP|SILO|PI|PC)-/, 'F$1-');
    const p = await plan(d);
    // Between plan and run someone creates FSC-1 with another name: the create meets 409 and a real conflict.
    await env.client.supplierCompanies.create({ external_id: 'FSC-1', name: 'Someone else' });
    const mark = await env.requestsMark();
    const res = await runPlan(p, { client: env.client, jobsDir: env.jobsDir, concurrency: 4 });
    expect(res.status).toBe('completed');
    const o = outcomes(res);
    expect(o.get('supplier-companies!2')).toMatchObject({
      outcome: 'failed',
      status: 409,
      err_code: 'err_external_id_exists',
    });
    expect(o.get('supplier-companies!2')!.explanation).toBeTruthy();
    expect(o.get('supplier-plants!2')).toMatchObject({ outcome: 'skipped', reason: 'dependency' });
    expect(o.get('supplier-plants!2')!.msg).toContain('supplier company FSC-1');
    expect(o.get('supplier-products!2')).toMatchObject({ outcome: 'skipped', reason: 'dependency' });
    expect(o.get('silos!2')).toMatchObject({ outcome: 'skipped', reason: 'dependency' });
    expect(o.get('bom:FPI-1')).toMatchObject({ outcome: 'skipped', reason: 'dependency' });
    expect(o.get('bom:FPI-2')).toMatchObject({ outcome: 'skipped', reason: 'dependency' });
    for (const k of [
      'supplier-companies!3',
      'supplier-plants!3',
      'supplier-products!3',
      'supplier-products!4',
      'product-instances!2',
      'product-instances!3',
      'prechain-products!2',
    ]) {
      expect(o.get(k)!.outcome).toBe('created');
    }
    const writes = writesOf(await env.requestsSince(mark));
    expect(writes.filter((w) => w.path === '/v2/supplier-plants')).toHaveLength(1); // only FSPL-2
    expect(writes.filter((w) => w.path === '/v2/silos')).toHaveLength(0);
    expect(writes.filter((w) => w.path.endsWith('/bom'))).toHaveLength(0);
    expect(res.counts).toEqual({ created: 7, failed: 1, skipped: 5 });
  });

  it('a 401 mid-run aborts the job; resumed with a new key it ends with the exact state', async () => {
    const { key, api_key_id } = await newKey();
    const client = env.newClient(key, { maxConcurrency: 2 });
    const p = await plan(bulkWorkbook(cat, 60, 0, 'K'), client);
    const before = await env.state();
    await env.control('PUT', '/__sandbox/faults', { latency_ms: 8 });
    let revoked = false;
    const res = await runPlan(p, {
      client,
      jobsDir: env.jobsDir,
      concurrency: 2,
      onProgress: (x) => {
        if (!revoked && x.done >= 15) {
          revoked = true;
          void env.control('DELETE', `/__sandbox/keys/${api_key_id}`);
        }
      },
    });
    await env.control('PUT', '/__sandbox/faults', {});
    expect(res.status).toBe('aborted');
    expect(res.reason).toBe('auth');
    expect(res.message).toContain('401');
    expect(res.counts.pending ?? 0).toBeGreaterThan(0);
    expect(res.counts.failed ?? 0).toBe(0);
    expect(res.maskedKey).toMatch(/^svc-[A-Za-z0-9]+-\*\*\*\*$/);
    const listed = (await listJobs(env.jobsDir)).find((j) => j.jobId === res.jobId)!;
    expect(listed).toMatchObject({ status: 'aborted', resumable: true });

    // Resuming with the revoked key stays aborted and sends no write.
    const again = await resumeToResult(res.jobId, { client, jobsDir: env.jobsDir });
    expect(again.status).toBe('aborted');

    const fresh = env.newClient((await newKey()).key);
    const done = await resumeToResult(res.jobId, { client: fresh, jobsDir: env.jobsDir });
    expect(done.status).toBe('completed');
    expect(done.maskedKey).toBe(fresh.maskedKey);
    expect(done.counts.pending ?? 0).toBe(0);
    expect(done.counts.failed ?? 0).toBe(0);
    const after = await env.state();
    expect(after.supplier_companies.active - before.supplier_companies.active).toBe(4);
    expect(after.supplier_plants.active - before.supplier_plants.active).toBe(4);
    expect(after.supplier_products.active - before.supplier_products.active).toBe(60);
    expect(after.silos.active - before.silos.active).toBe(6);
    await expectBulkOnService('K', 60, 6);
  });

  it('the daily limit pauses the job; resumed once the limit is lifted, it finishes exactly', async () => {
    const p = await plan(bulkWorkbook(cat, 40, 4, 'D'));
    const before = await env.state();
    await env.control('PUT', '/__sandbox/daily-limit', { requests: 25 });
    const res = await runPlan(p, { client: env.client, jobsDir: env.jobsDir, concurrency: 4 });
    expect(res.status).toBe('paused');
    expect(res.reason).toBe('daily_limit');
    expect(res.message).toContain('err_svc_daily_limit_reached');
    expect(res.counts.pending ?? 0).toBeGreaterThan(0);
    await env.control('PUT', '/__sandbox/daily-limit', { requests: null });
    const done = await resumeToResult(res.jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(done.status).toBe('completed');
    expect(done.counts.failed ?? 0).toBe(0);
    const after = await env.state();
    expect(after.supplier_products.active - before.supplier_products.active).toBe(40);
    expect(after.product_instances.active - before.product_instances.active).toBe(4);
    await expectBulkOnService('D', 40, 4, 4);
  });

  it('the entitlement limit stops instance creates: the first refused row fails with usage/limit, the rest are skipped', async () => {
    const before = await env.state();
    const limit = before.product_instances.active + 1;
    await env.control('PUT', '/__sandbox/entitlements', { product_instances: limit });
    try {
      const p = await plan(bulkWorkbook(cat, 9, 3, 'E'));
      const res = await runPlan(p, { client: env.client, jobsDir: env.jobsDir, concurrency: 1 });
      expect(res.status).toBe('completed');
      const o = outcomes(res);
      expect(o.get('product-instances!2')!.outcome).toBe('created');
      expect(o.get('product-instances!3')).toMatchObject({
        outcome: 'failed',
        err_code: 'err_entitlement_limit_reached',
        entitlement_limit: { dimension: 'product_instances', usage: limit, limit },
      });
      expect(o.get('product-instances!4')).toMatchObject({
        outcome: 'skipped',
        reason: 'entitlement',
        entitlement_limit: { dimension: 'product_instances', usage: limit, limit },
      });
      expect(o.get('bom:E-PI-1')!.outcome).toBe('replaced');
      expect(o.get('bom:E-PI-2')).toMatchObject({ outcome: 'skipped', reason: 'dependency' });
      expect(o.get('bom:E-PI-3')).toMatchObject({ outcome: 'skipped', reason: 'dependency' });
      expect(res.entitlementLimits).toEqual([{ dimension: 'product_instances', usage: limit, limit }]);
      // Other writes went on.
      expect(res.counts.created).toBe(4 + 4 + 9 + 1 + 1);
      expect((await env.state()).product_instances.active).toBe(limit);
    } finally {
      await env.control('PUT', '/__sandbox/entitlements', { product_instances: null });
    }
  });

  it('pause and cancel stop the job resumably; resume finishes with no duplicate', async () => {
    const p = await plan(bulkWorkbook(cat, 40, 0, 'P'));
    const before = await env.state();
    await env.control('PUT', '/__sandbox/faults', { latency_ms: 20 });
    const control = new JobControl();
    const paused = await runPlan(p, {
      client: env.client,
      jobsDir: env.jobsDir,
      concurrency: 2,
      control,
      onProgress: (x) => {
        if (x.done >= 8) control.pause();
      },
    });
    expect(paused).toMatchObject({ status: 'paused', reason: 'user_pause' });
    expect(paused.counts.pending ?? 0).toBeGreaterThan(0);

    const abort = new AbortController();
    let seen = 0;
    const cancelled = await resumeToResult(paused.jobId, {
      client: env.client,
      jobsDir: env.jobsDir,
      concurrency: 2,
      signal: abort.signal,
      onProgress: (x) => {
        if (seen === 0) seen = x.done;
        if (x.done >= seen + 4) abort.abort();
      },
    });
    await env.control('PUT', '/__sandbox/faults', {});
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.counts.pending ?? 0).toBeGreaterThan(0);
    const done = await resumeToResult(paused.jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(done.status).toBe('completed');
    // Writes cut off by the cancel may have landed: resume finds them (already_existed / replayed), never twice.
    expect((done.counts.created ?? 0) + (done.counts.already_existed ?? 0) + (done.counts.replayed ?? 0)).toBe(
      4 + 4 + 40 + 4,
    );
    expect(Object.keys(done.counts).every((k) => ['created', 'already_existed', 'replayed'].includes(k))).toBe(true);
    const after = await env.state();
    expect(after.supplier_products.active - before.supplier_products.active).toBe(40);
    expect(after.silos.active - before.silos.active).toBe(4);
    await expectBulkOnService('P', 40, 4);
  });
});
