/**
 * Undo against the in-process sandbox: an undo of a job with creates, updates (with child data), a BOM
 * replace and deletes brings the service back to the exact prior state; a row changed by someone since the job
 * is a conflict; the undo is a journaled job listed with the job it undoes, and resumes without duplicates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { listJobs } from '../../core/jobs/job-store.js';
import { runPlan, resumeToResult, undoPlan } from './job-folder.js';
import { JobControl } from '../../core/jobs/run.js';
import type { Plan } from '../../core/jobs/types.js';
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
let n = 0;

beforeAll(async () => {
  env = await startEnv('empty');
  cat = await catalog(env);
});
afterAll(async () => {
  await env?.close();
});

async function plan(d: SheetData): Promise<Plan> {
  const path = join(env.dir, `undo-${++n}.xlsx`);
  await writeTestWorkbook(path, d);
  return planFile(path, { client: env.client });
}
const outcomes = (r: Awaited<ReturnType<typeof runPlan>>) =>
  Object.fromEntries(r.entries.map((e) => [e.key, e.outcome]));

type Obj = Record<string, unknown>;
const KINDS = [
  'supplierCompanies',
  'supplierPlants',
  'supplierProducts',
  'silos',
  'productInstances',
  'prechainProducts',
] as const;

/**
 * The full service state of every entity of the manufacturer (with every BOM), ids of entities written by the
 * workbooks replaced by their external_id (a re-created entity has a new id), timestamps left out.
 */
async function serviceState(): Promise<Record<string, Obj[]>> {
  const lists: Record<string, Obj[]> = {};
  const codeOf = new Map<string, string>();
  for (const k of KINDS) {
    const all: Obj[] = [];
    for await (const x of (env.client[k] as unknown as { walk(): AsyncIterable<Obj> }).walk()) all.push(x);
    lists[k] = all;
    for (const x of all) codeOf.set(String(x.id).toLowerCase(), `#${String(x.external_id)}`);
  }
  const boms: Obj[] = [];
  for (const inst of lists.productInstances)
    boms.push({ instance: inst.external_id, bom: await env.client.bom.get(String(inst.id)) });
  const norm = (v: unknown): unknown => {
    if (typeof v === 'string') return codeOf.get(v.toLowerCase()) ?? v;
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => k !== 'id' && !k.endsWith('_at'))
          .map(([k, x]) => [k, norm(x)]),
      );
    return v;
  };
  const out: Record<string, Obj[]> = {};
  for (const [k, all] of Object.entries({ ...lists, boms }))
    out[k] = (all.map(norm) as Obj[]).sort((a, b) =>
      JSON.stringify(a.external_id ?? a.instance) < JSON.stringify(b.external_id ?? b.instance) ? -1 : 1,
    );
  return out;
}

/** A base state: the full workbook plus a company SC-3 with its plant SPL-3 that nothing else uses. */
async function seed(prefix: string): Promise<void> {
  const wb = fullWorkbook(cat);
  const rename = (v: unknown) => (typeof v === 'string' && /^(SC|SPL|SP|SILO|PI|PC)-\d$/.test(v) ? `${prefix}${v}` : v);
  const data: SheetData = {};
  for (const [sheet, rows] of Object.entries(wb))
    data[sheet as keyof SheetData] = rows.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, rename(v)])),
    );
  data['supplier-companies']!.push({ external_id: `${prefix}SC-3`, name: 'Spare', country: 'AT' });
  data['supplier-plants']!.push({
    external_id: `${prefix}SPL-3`,
    name: 'Spare plant',
    supplier_company_external_id: `${prefix}SC-3`,
    city: 'Wien',
  });
  const r = await runPlan(await plan(data), { client: env.client, jobsDir: env.jobsDir });
  expect(r.counts.failed ?? 0).toBe(0);
  expect(r.counts.skipped ?? 0).toBe(0);
}

/** The job to undo: a create, updates (a name, a transport route, a hazardous substance), a BOM replace, two deletes. */
function changes(prefix: string): SheetData {
  return {
    plants: [{ plant_code: 'HEID', plant_id: cat.plants.find((p) => p.external_id === 'PL-HEID')!.id }],
    materials: [
      {
        material_code: 'CEM1',
        category: 'elementary',
        material_type_id: cat.elementaries.find((m) => m.external_id === 'MAT-CEM1')!.id,
      },
    ],
    'supplier-companies': [
      { external_id: `${prefix}SC-NEW`, name: 'Brand new', country: 'NL' },
      { external_id: `${prefix}SC-1`, name: 'Holcim AG', country: 'CH' },
      { external_id: `${prefix}SC-3`, action: 'delete' },
    ],
    'supplier-plants': [{ external_id: `${prefix}SPL-3`, action: 'delete' }],
    'supplier-products': [
      {
        external_id: `${prefix}SP-3`,
        name: 'Klinker',
        plant_code: 'PL-MUC',
        material_code: 'MAT-CLINKER',
        unit: 'KG',
        train_km: 350,
        secondary_percentage: 20,
      },
    ],
    'hazardous-substances': [
      { supplier_product_external_id: `${prefix}SP-3`, cas_number: '14808-60-7', mass_share: 0.08 },
    ],
    bom: [
      {
        product_instance_external_id: `${prefix}PI-2`,
        component_type: 'supplier_product',
        component_external_id: `${prefix}SP-3`,
        mass_kg: 120,
      },
      {
        product_instance_external_id: `${prefix}PI-2`,
        component_type: 'silo',
        component_external_id: `${prefix}SILO-1`,
        mass_kg: 300,
      },
    ],
  };
}

describe('undo a job', () => {
  it('takes back creates, updates, a BOM replace and deletes: the service is as it was before the job', async () => {
    await seed('U');
    const before = await serviceState();
    const p = await plan(changes('U'));
    const job = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(outcomes(job)).toMatchObject({
      'supplier-companies!2': 'created',
      'supplier-companies!3': 'updated',
      'supplier-companies!4': 'deleted',
      'supplier-plants!2': 'deleted',
      'supplier-products!2': 'updated',
      'bom:UPI-2': 'replaced',
    });
    expect(await serviceState()).not.toEqual(before);

    const mark = await env.requestsMark();
    const undo = await undoPlan(job.jobId, { client: env.client, jobsDir: env.jobsDir });
    // The undo's dry run sends nothing.
    expect(writesOf(await env.requestsSince(mark))).toEqual([]);
    expect(undo.undoes).toBe(job.jobId);
    const act = Object.fromEntries(undo.entries.map((e) => [e.key, e.action]));
    expect(act).toEqual({
      'undo:supplier-companies!2': 'delete',
      'undo:supplier-companies!3': 'update',
      'undo:supplier-companies!4': 'create',
      'undo:supplier-plants!2': 'create',
      'undo:supplier-products!2': 'update',
      'undo:bom:UPI-2': 'replace',
    });
    const byKey = new Map(undo.entries.map((e) => [e.key, e]));
    // Only the fields the job changed are PATCHed back.
    expect(byKey.get('undo:supplier-companies!3')!.body).toEqual({ name: 'Holcim', country: 'DE' });
    // A re-created entity gets a new id, and the report says so; the plant refers to its re-created company.
    expect(byKey.get('undo:supplier-companies!4')!.notes![0]).toMatch(/re-created .* with a new id \(was [0-9a-f-]+\)/);
    expect(byKey.get('undo:supplier-plants!2')!.dependsOn).toEqual(['undo:supplier-companies!4']);

    const r = await runPlan(undo, { client: env.client, jobsDir: env.jobsDir });
    expect(r.status).toBe('completed');
    expect(outcomes(r)).toEqual({
      'undo:supplier-companies!4': 'created',
      'undo:supplier-companies!3': 'updated',
      'undo:supplier-plants!2': 'created',
      'undo:supplier-products!2': 'updated',
      'undo:bom:UPI-2': 'replaced',
      'undo:supplier-companies!2': 'deleted',
    });
    expect(await serviceState()).toEqual(before);

    // Listed by `jobs` with the job it undoes.
    const listed = (await listJobs(env.jobsDir)).find((j) => j.jobId === r.jobId);
    expect(listed).toMatchObject({ status: 'completed', undoes: job.jobId });
  });

  it('a row changed by someone since the job is a conflict saying what changed; the rest can be undone', async () => {
    await seed('K');
    const job = await runPlan(
      await plan({
        'supplier-companies': [
          { external_id: 'KSC-1', name: 'Renamed by the job', country: 'DE' },
          { external_id: 'KSC-9', name: 'Created by the job' },
        ],
      }),
      { client: env.client, jobsDir: env.jobsDir },
    );
    expect(outcomes(job)).toEqual({ 'supplier-companies!2': 'updated', 'supplier-companies!3': 'created' });
    // Someone else changes both afterwards.
    const sc1 = (await env.client.supplierCompanies.findByExternalId('KSC-1'))!;
    await env.client.supplierCompanies.update(sc1.id, { name: 'Renamed by someone' });
    const sc9 = (await env.client.supplierCompanies.findByExternalId('KSC-9'))!;
    await env.client.supplierCompanies.update(sc9.id, { country: 'FR' });
    // …and someone re-creates an entity the job deleted (below).
    const undo = await undoPlan(job.jobId, { client: env.client, jobsDir: env.jobsDir });
    const byKey = new Map(undo.entries.map((e) => [e.key, e]));
    expect(byKey.get('undo:supplier-companies!2')).toMatchObject({ action: 'conflict' });
    expect(byKey.get('undo:supplier-companies!2')!.problems![0].message).toMatch(
      /changed on the service since job .*: name/,
    );
    expect(byKey.get('undo:supplier-companies!3')!.problems![0].message).toMatch(
      /changed on the service since job .*: country/,
    );
    // The conflict carries its code and values for a UI to word it.
    expect(byKey.get('undo:supplier-companies!2')!.problems).toEqual([
      {
        kind: 'conflict',
        sheet: 'supplier-companies',
        cell: null,
        row: 2,
        field: 'name',
        message: `changed on the service since job ${job.jobId}: name`,
        code: 'snapshot_conflict',
        params: { jobId: job.jobId, variant: 'undo_changed', fields: 'name' },
      },
    ]);

    // A delete re-created by someone is a conflict too.
    const del = await runPlan(
      await plan({
        'supplier-companies': [{ external_id: 'KSC-3', action: 'delete' }],
        'supplier-plants': [{ external_id: 'KSPL-3', action: 'delete' }],
      }),
      { client: env.client, jobsDir: env.jobsDir },
    );
    expect(outcomes(del)).toEqual({ 'supplier-companies!2': 'deleted', 'supplier-plants!2': 'deleted' });
    await env.client.supplierCompanies.create({ external_id: 'KSC-3', name: 'Back again' });
    const undoDel = await undoPlan(del.jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(undoDel.entries.map((e) => [e.key, e.action])).toEqual([
      ['undo:supplier-companies!2', 'conflict'],
      ['undo:supplier-plants!2', 'create'],
    ]);
    expect(undoDel.entries[0].problems![0].message).toMatch(/external_id "KSC-3" was created on the service since job/);
  });

  it('an interrupted undo resumes without duplicates', async () => {
    await seed('R');
    const del = await runPlan(
      await plan({
        'supplier-companies': [{ external_id: 'RSC-3', action: 'delete' }],
        'supplier-plants': [{ external_id: 'RSPL-3', action: 'delete' }],
      }),
      { client: env.client, jobsDir: env.jobsDir },
    );
    expect(del.counts.deleted).toBe(2);
    const undo = await undoPlan(del.jobId, { client: env.client, jobsDir: env.jobsDir });
    // Paused after the first write: the company is re-created, its plant is not yet.
    const control = new JobControl();
    // Slow answers, so the progress event after the first write comes before the next write starts.
    await env.control('PUT', '/__sandbox/faults', { latency_ms: 150 });
    const first = await runPlan(undo, {
      client: env.client,
      jobsDir: env.jobsDir,
      control,
      concurrency: 1,
      onProgress: (p) => {
        if (p.done >= 1) control.pause();
      },
    });
    await env.control('PUT', '/__sandbox/faults', {});
    expect(first.status).toBe('paused');
    expect(first.counts).toMatchObject({ created: 1, pending: 1 });
    const done = await resumeToResult(first.jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(done.status).toBe('completed');
    const codes: unknown[] = [];
    for await (const c of env.client.supplierCompanies.walk()) codes.push(c.external_id);
    expect(codes.filter((c) => c === 'RSC-3')).toHaveLength(1);
    const plants: unknown[] = [];
    for await (const c of env.client.supplierPlants.walk()) plants.push(c.external_id);
    expect(plants.filter((c) => c === 'RSPL-3')).toHaveLength(1);
  });
});
