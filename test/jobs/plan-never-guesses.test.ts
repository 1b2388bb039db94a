/**
 * The dry run never guesses: a row whose own code could not be looked up is blocked (never a create of an
 * entity that may exist), and a delete of an entity still in use is blocked with what uses it unless the same
 * plan removes that use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { PlanContext } from '../../core/jobs/plan.js';
import { runPlan } from './job-folder.js';
import type { Plan, PlanEntry } from '../../core/jobs/types.js';
import { planFile, startEnv, writeTestWorkbook, type Env, type SheetData } from './helpers.js';

let env: Env;
let n = 0;

beforeAll(async () => {
  env = await startEnv('empty');
});
afterAll(async () => {
  await env?.close();
});

async function plan(d: SheetData, options: NonNullable<PlanContext['options']> = {}): Promise<Plan> {
  const path = join(env.dir, `never-${++n}.xlsx`);
  await writeTestWorkbook(path, d);
  return planFile(path, { client: env.client, options });
}
const entryOf = (p: Plan, key: string): PlanEntry => {
  const e = p.entries.find((x) => x.key === key);
  if (!e) throw new Error(`no entry ${key} in ${p.entries.map((x) => x.key).join(', ')}`);
  return e;
};

describe("a row's own code that could not be looked up", () => {
  it.each([
    ['a few codes (?external_id= lookups)', 2],
    ['many codes (one walk)', 8],
  ])('%s: the rows are blocked with the resource and the failure, never planned as creates', async (_, count) => {
    const codes = Array.from({ length: count }, (_, i) => `UNREAD-${count}-${i + 1}`);
    await env.control('PUT', '/__sandbox/faults', {
      error_rate: 1,
      only: { method: 'GET', path_suffix: '/supplier-companies' },
    });
    let p: Plan;
    try {
      p = await plan({ 'supplier-companies': codes.map((c) => ({ external_id: c, name: `Name ${c}` })) });
    } finally {
      await env.control('PUT', '/__sandbox/faults', {});
    }
    for (let i = 0; i < count; i++) {
      const e = entryOf(p, `supplier-companies!${i + 2}`);
      expect(e.action).toBe('blocked');
      expect(e.body).toBeUndefined();
      expect(e.problems).toHaveLength(1);
      const [problem] = e.problems ?? [];
      expect(problem.code).toBe('service_unreadable');
      expect(problem.field).toBe('external_id');
      expect(problem.params?.resource).toBe('supplier_companies');
      expect(problem.message).toMatch(/could not read supplier companies from the service: err_\w+/);
    }
    expect(p.summary.byAction.create ?? 0).toBe(0);
  });
});

describe('a delete of an entity still in use', () => {
  const problemOf = (p: Plan, key: string) => {
    const e = entryOf(p, key);
    expect(e.action).toBe('blocked');
    const inUse = (e.problems ?? []).find((x) => x.code === 'in_use');
    expect(inUse, `${key}: ${JSON.stringify(e.problems)}`).toBeDefined();
    return inUse!;
  };

  beforeAll(async () => {
    // Supplier company IU-SC1 → plant IU-SPL1 → products IU-SP1, IU-SP2; silo IU-SILO1 holds IU-SP1, IU-SILO3
    // holds IU-SP2; prechain product IU-PC1 of instance IU-PI1; the BOM of IU-PI2 holds IU-SP1, IU-SILO1, IU-PC1.
    const setup = await plan({
      'supplier-companies': [{ external_id: 'IU-SC1', name: 'In use' }],
      'supplier-plants': [{ external_id: 'IU-SPL1', name: 'In use plant', supplier_company_external_id: 'IU-SC1' }],
      'supplier-products': ['IU-SP1', 'IU-SP2'].map((c) => ({
        external_id: c,
        name: `Product ${c}`,
        plant_code: 'PL-HEID',
        material_code: 'MAT-CEM1',
        supplier_plant_external_id: 'IU-SPL1',
        unit: 'KG',
      })),
      silos: [
        { external_id: 'IU-SILO1', name: 'In use silo 1', plant_code: 'PL-HEID' },
        { external_id: 'IU-SILO3', name: 'In use silo 3', plant_code: 'PL-HEID' },
      ],
      'silo-items': [
        { silo_external_id: 'IU-SILO1', supplier_product_external_id: 'IU-SP1', year: 2025, amount: 10 },
        { silo_external_id: 'IU-SILO3', supplier_product_external_id: 'IU-SP2', year: 2025, amount: 10 },
      ],
      'product-instances': [
        { external_id: 'IU-PI1', product_external_id: 'ART-10011', plant_code: 'PL-HEID', produced_from: 2023 },
        { external_id: 'IU-PI2', product_external_id: 'ART-10012', plant_code: 'PL-HEID', produced_from: 2023 },
      ],
      'prechain-products': [{ external_id: 'IU-PC1', product_instance_external_id: 'IU-PI1', plant_code: 'PL-MUC' }],
      bom: [
        {
          product_instance_external_id: 'IU-PI2',
          component_type: 'supplier_product',
          component_external_id: 'IU-SP1',
          mass_kg: 10,
        },
        {
          product_instance_external_id: 'IU-PI2',
          component_type: 'silo',
          component_external_id: 'IU-SILO1',
          mass_kg: 20,
        },
        {
          product_instance_external_id: 'IU-PI2',
          component_type: 'prechain_product',
          component_external_id: 'IU-PC1',
          mass_kg: 5,
        },
      ],
    });
    expect(setup.entries.filter((e) => e.action === 'blocked')).toEqual([]);
    const r = await runPlan(setup, { client: env.client, jobsDir: env.jobsDir });
    expect(r.counts.failed ?? 0).toBe(0);
  });

  it('is blocked in the dry run with its users named by code, whether a delete row or a mirror', async () => {
    const p = await plan({
      'supplier-companies': [{ external_id: 'IU-SC1', action: 'delete' }],
      'supplier-plants': [{ external_id: 'IU-SPL1', action: 'delete' }],
      'supplier-products': [
        { external_id: 'IU-SP1', action: 'delete' },
        { external_id: 'IU-SP2', action: 'delete' },
      ],
      silos: [
        { external_id: 'IU-SILO1', action: 'delete' },
        { external_id: 'IU-SILO2', name: 'New silo', plant_code: 'PL-HEID' },
      ],
      'silo-items': [{ silo_external_id: 'IU-SILO2', supplier_product_external_id: 'IU-SP2', year: 2025, amount: 1 }],
      'product-instances': [{ external_id: 'IU-PI1', action: 'delete' }],
      'prechain-products': [{ external_id: 'IU-PC1', action: 'delete' }],
    });
    expect(problemOf(p, 'supplier-products!2')).toMatchObject({
      sheet: 'supplier-products',
      cell: 'A2',
      message:
        'supplier product IU-SP1 is still used by the BOM of product instance IU-PI2, silo IU-SILO1 (whose delete is blocked): remove that use first (or delete them in this import)',
      params: {
        entityKind: 'supplier_product',
        value: 'IU-SP1',
        users: 'the BOM of product instance IU-PI2, silo IU-SILO1 (whose delete is blocked)',
      },
    });
    // A use this plan writes counts too, and the delete of IU-SILO3 is not in this plan.
    expect(problemOf(p, 'supplier-products!3').params?.users).toBe(
      'silo IU-SILO3, silo IU-SILO2 (written by this import)',
    );
    expect(problemOf(p, 'silos!2').params?.users).toBe('the BOM of product instance IU-PI2');
    expect(problemOf(p, 'prechain-products!2').params?.users).toBe('the BOM of product instance IU-PI2');
    // Users deleted by this plan whose own delete is blocked keep their entity in use.
    expect(problemOf(p, 'product-instances!2').params?.users).toBe('prechain product IU-PC1 (whose delete is blocked)');
    expect(problemOf(p, 'supplier-plants!2').params?.users).toBe(
      'supplier product IU-SP1 (whose delete is blocked), supplier product IU-SP2 (whose delete is blocked)',
    );
    expect(problemOf(p, 'supplier-companies!2').params?.users).toBe('supplier plant IU-SPL1 (whose delete is blocked)');

    const m = await plan(
      { silos: [{ external_id: 'IU-SILO3', name: 'In use silo 3', plant_code: 'PL-HEID' }] },
      { mirror: ['silos'] },
    );
    expect(problemOf(m, 'mirror:silos:IU-SILO1')).toMatchObject({
      sheet: 'silos',
      row: null,
      message:
        'silo IU-SILO1 is still used by the BOM of product instance IU-PI2: remove that use first (or delete it in this import)',
    });
  });

  it('is a normal delete, after the write, when the same plan removes the use', async () => {
    // The BOM of IU-PI2 without IU-SP1, IU-SILO1's items without it: IU-SP1 can go.
    const p = await plan({
      'supplier-products': [{ external_id: 'IU-SP1', action: 'delete' }],
      'silo-items': [{ silo_external_id: 'IU-SILO1', supplier_product_external_id: 'IU-SP2', year: 2025, amount: 10 }],
      bom: [
        {
          product_instance_external_id: 'IU-PI2',
          component_type: 'silo',
          component_external_id: 'IU-SILO1',
          mass_kg: 20,
        },
        {
          product_instance_external_id: 'IU-PI2',
          component_type: 'prechain_product',
          component_external_id: 'IU-PC1',
          mass_kg: 5,
        },
      ],
    });
    const del = entryOf(p, 'supplier-products!2');
    expect(del.action).toBe('delete');
    expect(del.dependsOn?.sort()).toEqual(['bom:IU-PI2', 'silo-items:IU-SILO1']);
    expect(del.notes).toEqual(
      expect.arrayContaining([
        'after the BOM of product instance IU-PI2 is written without it',
        'after silo IU-SILO1 is written without it',
      ]),
    );
    const r = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(r.counts.failed ?? 0).toBe(0);
    expect(await env.client.supplierProducts.findByExternalId('IU-SP1')).toBeNull();
  });

  it('at run time, a refusal names the real user by code', async () => {
    const p = await plan({ silos: [{ external_id: 'IU-SILO3', action: 'delete' }] });
    expect(entryOf(p, 'silos!2').action).toBe('delete');
    // A use that appears after the dry run: the service refuses, the outcome names the BOM by its instance's code.
    const pi1 = (await env.client.productInstances.findByExternalId('IU-PI1'))!;
    const silo3 = (await env.client.silos.findByExternalId('IU-SILO3'))!;
    await env.client.bom.put(pi1.id, [{ type: 'silo', ref: silo3.id, mass_kg: 1 }]);
    try {
      const r = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
      const o = r.entries[0] as { outcome: string; err_code?: string; msg?: string };
      expect(o).toMatchObject({ outcome: 'failed', err_code: 'err_silo_in_use' });
      expect(o.msg).toMatch(/still used by the BOM of product instance IU-PI1$/);
    } finally {
      await env.client.bom.put(pi1.id, []);
    }
  });

  it('whose user is deleted by the same plan is a normal delete, ordered after that delete', async () => {
    // IU-PC1 is in the BOM of IU-PI2 (deleted with IU-PI2) and is itself the user of IU-PI1.
    const p = await plan({
      'product-instances': [
        { external_id: 'IU-PI2', action: 'delete' },
        { external_id: 'IU-PI1', action: 'delete' },
      ],
      'prechain-products': [{ external_id: 'IU-PC1', action: 'delete' }],
      silos: [{ external_id: 'IU-SILO1', action: 'delete' }],
    });
    const pc = entryOf(p, 'prechain-products!2');
    expect(pc.action).toBe('delete');
    expect(pc.dependsOn).toEqual(['product-instances!2']);
    expect(pc.level).toBeGreaterThanOrEqual(entryOf(p, 'product-instances!2').level);
    expect(entryOf(p, 'product-instances!3').dependsOn).toEqual(['prechain-products!2']);
    expect(entryOf(p, 'silos!2').action).toBe('delete');
    const r = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(r.entries.filter((e) => e.outcome !== 'deleted')).toEqual([]);
  });
});

describe('a BOM replace', () => {
  it('names the components it removes by code, also those the workbook does not name', async () => {
    const product = (c: string) => ({
      external_id: c,
      name: `Product ${c}`,
      plant_code: 'PL-HEID',
      material_code: 'MAT-CEM1',
      unit: 'KG',
    });
    const setup = await plan({
      'supplier-products': [product('BD-SP1'), product('BD-SP2')],
      'product-instances': [
        { external_id: 'BD-PI', product_external_id: 'ART-10011', plant_code: 'PL-HEID', produced_from: 2023 },
      ],
      bom: [
        {
          product_instance_external_id: 'BD-PI',
          component_type: 'supplier_product',
          component_external_id: 'BD-SP1',
          mass_kg: 1,
        },
        {
          product_instance_external_id: 'BD-PI',
          component_type: 'supplier_product',
          component_external_id: 'BD-SP2',
          mass_kg: 2,
        },
      ],
    });
    expect((await runPlan(setup, { client: env.client, jobsDir: env.jobsDir })).counts.failed ?? 0).toBe(0);
    const p = await plan({
      bom: [
        {
          product_instance_external_id: 'BD-PI',
          component_type: 'supplier_product',
          component_external_id: 'BD-SP1',
          mass_kg: 1,
        },
      ],
    });
    const bom = entryOf(p, 'bom:BD-PI');
    expect(bom.action).toBe('replace');
    expect(bom.bomDiff?.removed).toEqual([{ type: 'supplier_product', code: 'BD-SP2', mass_kg: 2 }]);
  });
});
