/**
 * Undo of every kind of job the app runs, through dispatch() against the in-process sandbox reset to empty data:
 * a mirror job that deleted supplier products with transport routes and hazardous substances (its re-creates
 * show their values in words, each row its own entity), an import, a re-run of a job's failed rows, and the undo
 * of an undo.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput } from '../../core/ipc/contract.js';
import { dispatch } from '../../core/ipc/dispatch.js';
import type { ProcedureName } from '../../core/contract/names.js';
import { resolveConnection } from '../../core/app/profiles.js';
import { writeTestWorkbook, type SheetData } from '../jobs/helpers.js';
import { rpc, startTestApp, stopTestApp, settledJob } from './helpers.js';

let mode: BrowserMode;
let dir: string;
let client: ApiClient;
let n = 0;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);

const settled = (jobId: string) => settledJob(mode, jobId);

type PlanInput = Omit<ProcedureInput<'import.plan'>, 'importId'>;

async function importWorkbook(data: SheetData, opts: Partial<PlanInput> = {}): Promise<string> {
  const p = path.join(dir, `book-${++n}.xlsx`);
  await writeTestWorkbook(p, data);
  const f = mode.app.files.registerPath(p);
  const v = await call('import.validate', { fileId: f.fileId });
  const plan = await call('import.plan', { importId: v.importId, createOnly: false, mirror: [], ...opts });
  expect(plan.blocked).toBe(0);
  const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
  return jobId;
}

async function undo(jobId: string): Promise<string> {
  const { jobId: undoId } = await call('jobs.undo', { jobId, skipBlocked: false });
  expect((await settled(undoId)).status).toBe('completed');
  return undoId;
}

interface Product {
  id: string;
  external_id: string | null;
  name: string;
  transport_route: Record<string, number> | null;
  hazardous_substances?: { cas_number: string; mass_share: number }[];
}

async function products(): Promise<Map<string, Product>> {
  const out = new Map<string, Product>();
  for await (const p of client.supplierProducts.walk()) {
    const full = (await client.supplierProducts.get(p.id as string)) as unknown as Product;
    out.set(full.external_id ?? full.id, full);
  }
  return out;
}

const companies = async () => {
  const out: string[] = [];
  for await (const c of client.supplierCompanies.walk()) out.push(`${c.external_id ?? ''}=${c.name}`);
  return out.sort();
};

const product = (code: string, name: string, more: Record<string, unknown> = {}) => ({
  external_id: code,
  name,
  plant_code: 'PL-HEID',
  material_code: 'MAT-CEM1',
  unit: 'KG',
  ...more,
});

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-undo-kinds-'));
  await mode.app.sandbox.reset('empty');
  const conn = await resolveConnection(mode.app);
  client = createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
});
afterAll(async () => {
  await client?.close();
  await stopTestApp(mode, dir);
});

describe('undo of every kind of job through the contract', () => {
  it('undoes a mirror job that deleted supplier products with transport routes and hazardous substances', async () => {
    const base = await importWorkbook({
      'supplier-products': [
        product('UM-1', 'Zement eins', { truck_km: 120, train_km: 40 }),
        product('UM-2', 'Zement zwei', { ship_km: 300 }),
        product('UM-3', 'Zement drei'),
      ],
      'hazardous-substances': [
        { supplier_product_external_id: 'UM-1', cas_number: '14808-60-7', mass_share: 0.05 },
        { supplier_product_external_id: 'UM-1', cas_number: '1305-78-8', mass_share: 0.2 },
      ],
    });
    expect((await settled(base)).status).toBe('completed');
    const before = await products();
    expect(before.get('UM-1')?.transport_route).toMatchObject({ truck_km: 120, train_km: 40 });

    const mirror = await importWorkbook(
      { 'supplier-products': [product('UM-3', 'Zement drei')] },
      { mirror: ['supplier-products'], maxDeletes: 1000 },
    );
    expect((await settled(mirror)).status).toBe('completed');
    expect([...(await products()).keys()]).toEqual(['UM-3']);

    const dry = await call('jobs.undoPlan', { jobId: mirror });
    expect(dry.blocked).toBe(0);
    expect(dry.summary.byAction).toMatchObject({ create: 2 });
    expect(dry.writes).toBe(2);
    const byCode = new Map(dry.rows.map((r) => [r.externalId, r]));
    // Each re-create shows its own entity's values (mirror deletes share sheet and row 0), objects in words.
    const one = byCode.get('UM-1')!;
    const two = byCode.get('UM-2')!;
    expect(one.action).toBe('create');
    expect(one.fields).toContainEqual({ field: 'name', value: 'Zement eins' });
    expect(one.fields).toContainEqual({ field: 'transport_route', value: 'truck 120 km, train 40 km' });
    expect(one.fields).toContainEqual({
      field: 'hazardous_substances',
      value: 'CAS 14808-60-7: 0.05; CAS 1305-78-8: 0.2',
    });
    expect(one.fields.find((f) => f.field === 'material_type')?.value).toMatch(/^elementary /);
    expect(two.fields).toContainEqual({ field: 'name', value: 'Zement zwei' });
    expect(two.fields).toContainEqual({ field: 'transport_route', value: 'ship 300 km' });
    for (const r of dry.rows)
      for (const f of r.fields) expect(typeof f.value === 'object' && f.value !== null).toBe(false);

    const undoId = await undo(mirror);
    expect((await settled(undoId)).undoes).toBe(mirror);
    const after = await products();
    expect([...after.keys()].sort()).toEqual(['UM-1', 'UM-2', 'UM-3']);
    expect(after.get('UM-1')).toMatchObject({
      name: 'Zement eins',
      transport_route: before.get('UM-1')!.transport_route,
    });
    expect(after.get('UM-1')?.hazardous_substances).toEqual(before.get('UM-1')?.hazardous_substances);
    expect(after.get('UM-2')?.transport_route).toEqual(before.get('UM-2')?.transport_route);
    expect(after.get('UM-1')?.id).not.toBe(before.get('UM-1')?.id);
  });

  it('undoes an import, and the undo of that undo puts the import back', async () => {
    const before = await companies();
    const job = await importWorkbook({
      'supplier-companies': [
        { external_id: 'UK-1', name: 'Eins AG' },
        { external_id: 'UK-2', name: 'Zwei GmbH' },
      ],
    });
    expect((await settled(job)).status).toBe('completed');
    const imported = await companies();
    expect(imported).toEqual([...before, 'UK-1=Eins AG', 'UK-2=Zwei GmbH'].sort());

    const dry = await call('jobs.undoPlan', { jobId: job });
    expect(dry.summary.byAction).toEqual({ delete: 2 });
    const undoId = await undo(job);
    expect(await companies()).toEqual(before);

    // The undo of the undo re-creates what the undo deleted.
    const redo = await call('jobs.undoPlan', { jobId: undoId });
    expect(redo.summary.byAction).toEqual({ create: 2 });
    expect(new Set(redo.rows.map((r) => r.externalId))).toEqual(new Set(['UK-1', 'UK-2']));
    expect(redo.rows.find((r) => r.externalId === 'UK-2')?.fields).toContainEqual({
      field: 'name',
      value: 'Zwei GmbH',
    });
    const redoId = await undo(undoId);
    expect((await settled(redoId)).undoes).toBe(undoId);
    expect(await companies()).toEqual(imported);

    // The list says which undo took each job back; such a job is not undone a second time.
    const list = (await call('jobs.list', {})).jobs;
    const item = (id: string) => list.find((j) => j.jobId === id)!;
    expect(item(job).undoneBy).toEqual({ jobId: undoId, status: 'completed' });
    expect(item(undoId).undoneBy).toEqual({ jobId: redoId, status: 'completed' });
    expect(item(redoId).undoneBy).toBeNull();
    const again = await dispatch('jobs.undoPlan', { jobId: job }, mode.app);
    expect(again.ok).toBe(false);
    if (!again.ok)
      expect(again.error.message).toBe(
        `Job ${job} was undone by job ${undoId}, and that undo was taken back by job ${redoId}: undo job ${redoId} to take the job's changes back again (its ids are not the job's any more).`,
      );
    const run = await dispatch('jobs.undo', { jobId: undoId, skipBlocked: false }, mode.app);
    expect(run.ok).toBe(false);
    if (!run.ok)
      expect(run.error.message).toBe(
        `Job ${undoId} was already undone by job ${redoId}: to restore what it wrote, undo job ${redoId}.`,
      );
    expect(await companies()).toEqual(imported);
  });

  it('labels a job made against another service and refuses its undo with that reason', async () => {
    const job = await importWorkbook({ 'supplier-companies': [{ external_id: 'UO-1', name: 'Anderswo AG' }] });
    expect((await settled(job)).status).toBe('completed');
    const listed = await call('jobs.list', {});
    expect(listed.serviceUrl).toBe(mode.app.sandbox.baseUrl());
    expect(listed.jobs.find((j) => j.jobId === job)?.otherService).toBe(false);

    // The same job as the command line would have left it after a run against another service.
    const metaPath = path.join(mode.app.sessions.jobs.jobsDir, job, 'meta.json');
    const meta = JSON.parse(fs.readFileSync(metaPath, 'utf8')) as { baseUrl: string };
    fs.writeFileSync(metaPath, JSON.stringify({ ...meta, baseUrl: 'https://api.example.com/' }));
    expect((await call('jobs.list', {})).jobs.find((j) => j.jobId === job)?.otherService).toBe(true);
    for (const r of [
      await dispatch('jobs.undoPlan', { jobId: job }, mode.app),
      await dispatch('jobs.undo', { jobId: job, skipBlocked: false }, mode.app),
    ]) {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('invalid_input');
        expect(r.error.message).toBe(
          `Job ${job} was made against another service (https://api.example.com/) than the active connection (${mode.app.sandbox.baseUrl()}): undo it with a connection to that service.`,
        );
      }
    }
    expect(await client.supplierCompanies.findByExternalId('UO-1')).not.toBeNull();
  });

  it('undoes a re-run of a job’s failed rows: only what the re-run wrote', async () => {
    const plants = async () => {
      const out: string[] = [];
      for await (const p of client.supplierPlants.walk()) out.push(String(p.external_id));
      return out.sort();
    };
    const before = await plants();
    // A job whose supplier plants fail: the sandbox answers every plant create with a 500 (the retries give up).
    const p = path.join(dir, `book-${++n}.xlsx`);
    await writeTestWorkbook(p, {
      'supplier-companies': [{ external_id: 'UR-C', name: 'Firma R' }],
      'supplier-plants': [
        { external_id: 'UR-1', name: 'Werk eins', supplier_company_external_id: 'UR-C' },
        { external_id: 'UR-2', name: 'Werk zwei', supplier_company_external_id: 'UR-C' },
      ],
    });
    const f = mode.app.files.registerPath(p);
    const v = await call('import.validate', { fileId: f.fileId });
    await call('import.plan', { importId: v.importId, createOnly: false, mirror: [] });
    await sandboxFaults({
      error_rate: 1,
      reset_after_commit_rate: 0,
      latency_ms: 0,
      jitter_ms: 0,
      seed: 1,
      only: { method: 'POST', path_suffix: '/supplier-plants' },
    });
    const { jobId: failing } = await call('import.run', { importId: v.importId, skipBlocked: false });
    const failed = await settled(failing);
    await sandboxFaults(null);
    expect(failed.counts).toMatchObject({ created: 1, failed: 2 });

    const plan = await call('import.plan', {
      importId: v.importId,
      createOnly: false,
      mirror: [],
      onlyFailedOf: failing,
    });
    expect(plan.onlyFailedOf).toBe(failing);
    const { jobId: rerun } = await call('import.run', { importId: v.importId, skipBlocked: false });
    expect((await settled(rerun)).status).toBe('completed');
    expect(await plants()).toEqual([...before, 'UR-1', 'UR-2'].sort());

    const dry = await call('jobs.undoPlan', { jobId: rerun });
    expect(dry.summary.byAction).toEqual({ delete: 2 });
    expect(new Set(dry.rows.map((r) => r.externalId))).toEqual(new Set(['UR-1', 'UR-2']));
    await undo(rerun);
    expect(await plants()).toEqual(before);
    // The company the first job created stays: the undo of the re-run takes back only the re-run.
    expect(await client.supplierCompanies.findByExternalId('UR-C')).not.toBeNull();
  });
});

async function sandboxFaults(cfg: Record<string, unknown> | null): Promise<void> {
  const base = mode.app.sandbox.baseUrl() ?? '';
  const res = await fetch(`${base}/__sandbox/faults`, {
    method: 'PUT',
    headers: { 'x-api-key': mode.app.sandbox.ownerKey() ?? '', 'content-type': 'application/json' },
    body: JSON.stringify(
      cfg ?? { error_rate: 0, reset_after_commit_rate: 0, latency_ms: 0, jitter_ms: 0, seed: 1, only: null },
    ),
  });
  if (res.status >= 300) throw new Error(`faults: ${res.status} ${await res.text()}`);
}
