/**
 * Deletes and mirrored sheets against the in-process sandbox: the `action` column (upsert, create, update, delete, ignore),
 * deletes after creates and updates in reverse dependency order, the in-use refusal naming what still uses the
 * entity, mirrored sheets under and over the safety cap, and delete rows across an interruption and resume.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runPlan, resumeToResult } from './job-folder.js';
import type { PlanContext } from '../../core/jobs/plan.js';
import type { Plan } from '../../core/jobs/types.js';
import { readWorkbook } from '../../core/workbook/reader.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import {
  catalog,
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
  env = await startEnv('empty');
  cat = await catalog(env);
});
afterAll(async () => {
  await env?.close();
});

async function write(d: SheetData): Promise<string> {
  const path = join(env.dir, `book-${++n}.xlsx`);
  await writeTestWorkbook(path, d);
  return path;
}
async function plan(d: SheetData, options: NonNullable<PlanContext['options']> = {}): Promise<Plan> {
  return planFile(await write(d), { client: env.client, options });
}
async function run(p: Plan) {
  return runPlan(p, { client: env.client, jobsDir: env.jobsDir });
}
const actions = (p: Plan) => Object.fromEntries(p.entries.map((e) => [e.key, e.action]));
const outcomes = (r: Awaited<ReturnType<typeof run>>) => Object.fromEntries(r.entries.map((e) => [e.key, e.outcome]));
const companyCodes = async () => {
  const out: (string | null)[] = [];
  for await (const c of env.client.supplierCompanies.walk()) out.push(c.external_id ?? null);
  return out;
};

async function companies(codes: string[]): Promise<void> {
  for (const c of codes) await env.client.supplierCompanies.create({ external_id: c, name: `Name ${c}` });
}

describe('the action column', () => {
  it('upsert, create, update, delete and ignore each do what they say', async () => {
    await companies(['A-EXIST', 'A-UPD', 'A-DEL']);
    const p = await plan({
      'supplier-companies': [
        { external_id: 'A-NEW', name: 'New' },
        { external_id: 'A-EXIST', name: 'Changed name', action: 'create' },
        { external_id: 'A-MISSING', name: 'Missing', action: 'update' },
        { external_id: 'A-UPD', name: 'Updated', action: 'update' },
        { external_id: 'A-DEL', action: 'delete' },
        { external_id: 'A-GONE', name: 'filled but not used', action: 'delete' },
        { external_id: 'A-IGN', name: 'Ignored', action: 'ignore' },
        { external_id: 'A-UPS', name: 'Upsert', action: 'upsert' },
      ],
    });
    expect(actions(p)).toEqual({
      'supplier-companies!2': 'create',
      'supplier-companies!3': 'skipped_update',
      'supplier-companies!4': 'blocked',
      'supplier-companies!5': 'update',
      'supplier-companies!9': 'create',
      'supplier-companies!6': 'delete',
      'supplier-companies!7': 'delete',
    });
    const byKey = new Map(p.entries.map((e) => [e.key, e]));
    expect(byKey.get('supplier-companies!4')!.problems![0]).toMatchObject({ code: 'not_on_service' });
    expect(byKey.get('supplier-companies!3')!.notes).toEqual([
      'action create: the entity exists, the differences are not applied',
    ]);
    // The dry run says the other cells of a delete row are not used, and that an absent code is already absent.
    expect(byKey.get('supplier-companies!7')!.notes).toEqual([
      'action delete (only external_id is used; not used: name)',
      'not on the service: already absent, nothing is sent',
    ]);
    expect(byKey.get('supplier-companies!6')!.label).toBe('supplier company A-DEL "Name A-DEL"');
    // The job keeps the before-state of what it changes: the entity as the planner read it.
    expect(byKey.get('supplier-companies!5')!.before).toMatchObject({ external_id: 'A-UPD', name: 'Name A-UPD' });
    expect(byKey.get('supplier-companies!6')!.before).toMatchObject({ external_id: 'A-DEL', name: 'Name A-DEL' });
    expect(byKey.get('supplier-companies!2')!.before).toBeUndefined();
    expect(byKey.get('supplier-companies!7')!.before).toBeUndefined();
    expect(p.ignoredRows).toEqual([{ sheet: 'supplier-companies', row: 8 }]);
    // Deletes come last in the plan.
    expect(p.entries.slice(-2).map((e) => e.action)).toEqual(['delete', 'delete']);

    const r = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(outcomes(r)).toMatchObject({
      'supplier-companies!2': 'created',
      'supplier-companies!3': 'skipped',
      'supplier-companies!4': 'skipped',
      'supplier-companies!5': 'updated',
      'supplier-companies!6': 'deleted',
      'supplier-companies!7': 'already_absent',
      'supplier-companies!9': 'created',
    });
    const codes = await companyCodes();
    expect(codes).toEqual(expect.arrayContaining(['A-NEW', 'A-EXIST', 'A-UPD', 'A-UPS']));
    expect(codes).not.toContain('A-DEL');
    expect(codes).not.toContain('A-IGN');
    expect(codes).not.toContain('A-MISSING');
    expect((await env.client.supplierCompanies.findByExternalId('A-EXIST'))!.name).toBe('Name A-EXIST');
    expect((await env.client.supplierCompanies.findByExternalId('A-UPD'))!.name).toBe('Updated');
  });

  it('a delete row needs only its external_id: no required-column error, a warning for cells it does not use', async () => {
    const parsed = await readWorkbook(
      await write({
        'supplier-plants': [
          { external_id: 'X-1', action: 'delete' },
          { external_id: 'X-2', name: 'not used', action: 'delete' },
          { action: 'delete' },
          { external_id: 'X-4', name: 'Plant', action: 'ignore' },
        ],
        bom: [
          {
            product_instance_external_id: 'PI-1',
            component_type: 'silo',
            component_external_id: 'S',
            mass_kg: 1,
            action: 'delete',
          },
        ],
      }),
    );
    const report = await validateWorkbook(parsed);
    const at = (sheet: string, row: number) => report.issues.filter((i) => i.sheet === sheet && i.row === row);
    expect(at('supplier-plants', 2)).toEqual([]);
    expect(at('supplier-plants', 3)).toMatchObject([
      {
        severity: 'warning',
        code: 'delete_cells_unused',
        message: 'a delete row uses only its external_id; not used: name',
      },
    ]);
    expect(at('supplier-plants', 4)).toMatchObject([{ severity: 'error', code: 'required', field: 'external_id' }]);
    expect(at('supplier-plants', 5)).toEqual([]);
    // A BOM row belongs to its BOM: delete is not one of its actions.
    expect(at('bom', 2)).toMatchObject([{ severity: 'error', code: 'not_allowed', field: 'action' }]);
  });
});

describe('deletes in reverse dependency order', () => {
  it('deletes a supplier company with its plant and product in one import (references removed first)', async () => {
    const setup = await plan({
      plants: [{ plant_code: 'HEID', plant_id: idOf(cat.plants, 'PL-HEID') }],
      materials: [
        { material_code: 'CEM1', category: 'elementary', material_type_id: idOf(cat.elementaries, 'MAT-CEM1') },
      ],
      'supplier-companies': [{ external_id: 'R-SC', name: 'Chain' }],
      'supplier-plants': [{ external_id: 'R-SPL', name: 'Chain plant', supplier_company_external_id: 'R-SC' }],
      'supplier-products': [
        {
          external_id: 'R-SP',
          name: 'Chain product',
          plant_code: 'HEID',
          material_code: 'CEM1',
          supplier_plant_external_id: 'R-SPL',
          unit: 'KG',
        },
      ],
    });
    expect(Object.values((await run(setup)).counts)).toEqual([3]);
    // Rows in sheet order (company first): the plan runs them products → plants → companies.
    const p = await plan({
      'supplier-companies': [{ external_id: 'R-SC', action: 'delete' }],
      'supplier-plants': [{ external_id: 'R-SPL', action: 'delete' }],
      'supplier-products': [{ external_id: 'R-SP', action: 'delete' }],
    });
    expect(p.entries.map((e) => e.kind)).toEqual(['supplier_product', 'supplier_plant', 'supplier_company']);
    const mark = await env.requestsMark();
    const r = await run(p);
    expect(r.counts).toEqual({ deleted: 3 });
    const deletes = writesOf(await env.requestsSince(mark));
    expect(deletes.map((d) => `${d.method} ${d.path.split('/')[2]} ${d.status}`)).toEqual([
      'DELETE supplier-products 200',
      'DELETE supplier-plants 200',
      'DELETE supplier-companies 200',
    ]);
    expect(await env.client.supplierCompanies.findByExternalId('R-SC')).toBeNull();
  });

  it('a BOM change runs before the delete of the component it drops (one import)', async () => {
    const mapping = {
      plants: [{ plant_code: 'HEID', plant_id: idOf(cat.plants, 'PL-HEID') }],
      materials: [
        { material_code: 'CEM1', category: 'elementary', material_type_id: idOf(cat.elementaries, 'MAT-CEM1') },
      ],
    };
    const product = (code: string) => ({
      external_id: code,
      name: code,
      plant_code: 'HEID',
      material_code: 'CEM1',
      unit: 'KG',
    });
    const setup = await plan({
      ...mapping,
      'supplier-products': [product('B-SP1'), product('B-SP2')],
      'product-instances': [
        {
          external_id: 'B-PI',
          product_external_id: cat.products[0].external_id,
          plant_code: 'HEID',
          produced_from: 2024,
        },
      ],
      bom: [
        {
          product_instance_external_id: 'B-PI',
          component_type: 'supplier_product',
          component_external_id: 'B-SP1',
          mass_kg: 100,
        },
        {
          product_instance_external_id: 'B-PI',
          component_type: 'supplier_product',
          component_external_id: 'B-SP2',
          mass_kg: 50,
        },
      ],
    });
    const first = await run(setup);
    expect(first.counts.failed ?? 0).toBe(0);
    const p = await plan({
      ...mapping,
      'supplier-products': [{ external_id: 'B-SP1', action: 'delete' }],
      bom: [
        {
          product_instance_external_id: 'B-PI',
          component_type: 'supplier_product',
          component_external_id: 'B-SP2',
          mass_kg: 50,
        },
      ],
    });
    expect(p.entries.map((e) => `${e.key} ${e.action}`)).toEqual(['bom:B-PI replace', 'supplier-products!2 delete']);
    const sp1 = (await env.client.supplierProducts.findByExternalId('B-SP1'))!.id.toLowerCase();
    const before = p.entries[0].before!.bom as { type: string; ref: string; mass_kg: number }[];
    expect(before).toHaveLength(2);
    expect(before).toContainEqual({ type: 'supplier_product', ref: sp1, mass_kg: 100 });
    const r = await run(p);
    expect(outcomes(r)).toEqual({ 'bom:B-PI': 'replaced', 'supplier-products!2': 'deleted' });
    expect(await env.client.supplierProducts.findByExternalId('B-SP1')).toBeNull();
  });

  it('an in-use refusal at run time (a use added after the dry run) is reported at the row with what uses the entity', async () => {
    const sc = (await env.client.supplierCompanies.create({ external_id: 'U-SC', name: 'Used' })).entity;
    const p = await plan({ 'supplier-companies': [{ external_id: 'U-SC', action: 'delete' }] });
    expect(actions(p)).toEqual({ 'supplier-companies!2': 'delete' });
    const user = (
      await env.client.supplierPlants.create({ external_id: 'U-SPL', name: 'User', supplier_company_id: sc.id })
    ).entity;
    try {
      const r = await run(p);
      const o = r.entries[0] as { outcome: string; err_code?: string; msg?: string; status?: number };
      expect(o).toMatchObject({ outcome: 'failed', err_code: 'err_supplier_in_use', status: 409 });
      expect(o.msg).toMatch(/still used by supplier plant U-SPL$/);
      expect(await env.client.supplierCompanies.findByExternalId('U-SC')).not.toBeNull();
    } finally {
      await env.client.supplierPlants.delete(user.id); // not in the way of the mirror tests below
    }
  });
});

describe('mirror a sheet', () => {
  it('under the cap: deletes the managed entities not in the sheet, never one without an external_id', async () => {
    // A fresh type: supplier plants of one company, 6 with an external_id and 1 without.
    const sc = (await env.client.supplierCompanies.create({ external_id: 'M-SC', name: 'Mirror' })).entity;
    for (let i = 1; i <= 6; i++)
      await env.client.supplierPlants.create({ external_id: `M-${i}`, name: `Plant ${i}`, supplier_company_id: sc.id });
    const unmanaged = (await env.client.supplierPlants.create({ name: 'No code', supplier_company_id: sc.id })).entity;
    const keep = [1, 2, 3, 4, 5].map((i) => ({
      external_id: `M-${i}`,
      name: `Plant ${i}`,
      supplier_company_external_id: 'M-SC',
    }));
    const p = await plan({ 'supplier-plants': keep }, { mirror: ['supplier-plants'] });
    const deletes = p.entries.filter((e) => e.action === 'delete');
    expect(deletes.map((e) => [e.key, e.label])).toEqual([
      ['mirror:supplier-plants:M-6', 'supplier plant M-6 "Plant 6"'],
    ]);
    expect(p.mirror).toEqual([
      { sheet: 'supplier-plants', kind: 'supplier_plant', managed: 6, deletes: 1, cap: 5, overCap: false },
    ]);
    expect(p.notManaged).toEqual([{ kind: 'supplier_plant', id: unmanaged.id.toLowerCase(), name: 'No code' }]);
    const r = await run(p);
    expect(r.counts.deleted).toBe(1);
    expect(await env.client.supplierPlants.findByExternalId('M-6')).toBeNull();
    expect(await env.client.supplierPlants.get(unmanaged.id)).toMatchObject({ name: 'No code' });
  });

  it('over the cap: every delete of the sheet is blocked, nothing is deleted even with the rest imported', async () => {
    const p = await plan(
      { 'supplier-plants': [{ external_id: 'M-1', name: 'Plant 1', supplier_company_external_id: 'M-SC' }] },
      {
        mirror: ['supplier-plants'],
        maxDeletes: 2,
      },
    );
    const blocked = p.entries.filter((e) => e.action === 'blocked');
    expect(blocked.map((e) => e.externalId).sort()).toEqual(['M-2', 'M-3', 'M-4', 'M-5']);
    expect(blocked[0].problems![0]).toMatchObject({
      code: 'mirror_cap',
      params: { sheet: 'supplier-plants', count: 4, cap: 2 },
      message:
        'the mirror of supplier-plants would delete 4 supplier plants, more than the cap of 2 (--max-deletes): nothing is deleted',
    });
    expect(p.mirror![0]).toMatchObject({ managed: 5, deletes: 4, cap: 2, overCap: true });
    const mark = await env.requestsMark();
    await run(p); // as with --skip-blocked: the blocked deletes are skipped
    expect(writesOf(await env.requestsSince(mark)).filter((w) => w.method === 'DELETE')).toEqual([]);
    for (const c of ['M-2', 'M-3', 'M-4', 'M-5'])
      expect(await env.client.supplierPlants.findByExternalId(c)).not.toBeNull();
  });
});

describe('resume', () => {
  it('delete rows survive an interruption: resume finishes them with no DELETE sent twice', async () => {
    const codes = Array.from({ length: 12 }, (_, i) => `Z-${i + 1}`);
    await companies(codes);
    const p = await plan({ 'supplier-companies': codes.map((c) => ({ external_id: c, action: 'delete' })) });
    expect(p.entries.every((e) => e.action === 'delete')).toBe(true);
    const mark = await env.requestsMark();
    const ac = new AbortController();
    await env.control('PUT', '/__sandbox/faults', { latency_ms: 40, only: { method: 'DELETE' } });
    const first = await runPlan(p, {
      client: env.newClient(env.sb.ownerKey, { maxConcurrency: 1 }),
      jobsDir: env.jobsDir,
      concurrency: 1,
      signal: ac.signal,
      onProgress: (pr) => {
        if ((pr.byOutcome.deleted ?? 0) >= 3) ac.abort();
      },
    });
    await env.control('PUT', '/__sandbox/faults', {});
    expect(first.status).toBe('cancelled');
    const done = first.counts.deleted ?? 0;
    expect(done).toBeGreaterThanOrEqual(3);
    expect(done).toBeLessThan(12);
    const second = await resumeToResult(first.jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(second.status).toBe('completed');
    expect((second.counts.deleted ?? 0) + (second.counts.already_absent ?? 0)).toBe(12);
    // Each entity deleted once; only a delete in flight when the job stopped may be sent again on resume, and
    // then it finds the entity gone (err_not_found) and counts as a success.
    const sent = writesOf(await env.requestsSince(mark)).filter((w) => w.method === 'DELETE');
    const ok = sent.filter((w) => w.status === 200);
    expect(new Set(ok.map((w) => w.path)).size).toBe(ok.length);
    expect(new Set(sent.map((w) => w.path)).size).toBe(12);
    expect(sent.length - 12).toBeLessThanOrEqual(1);
    for (const w of sent.filter((x) => x.status !== 200)) expect(w.err_code).toBe('err_not_found');
    for (const c of codes) expect(await env.client.supplierCompanies.findByExternalId(c)).toBeNull();
  });

  it('a delete whose answer was lost is a success when the retry finds the entity gone', async () => {
    await companies(['L-1', 'L-2']);
    const p = await plan({
      'supplier-companies': [
        { external_id: 'L-1', action: 'delete' },
        { external_id: 'L-2', action: 'delete' },
      ],
    });
    await env.control('PUT', '/__sandbox/faults', { reset_after_commit_rate: 1, only: { method: 'DELETE' } });
    let r;
    try {
      r = await run(p);
    } finally {
      await env.control('PUT', '/__sandbox/faults', {});
    }
    expect(r.counts).toEqual({ deleted: 2 });
    for (const c of ['L-1', 'L-2']) expect(await env.client.supplierCompanies.findByExternalId(c)).toBeNull();
  });
});
