/**
 * Characterisation of the planner (a refactoring must not change a plan): the plans of a rich scenario — every action (create, update
 * with field-level before → after, unchanged, replace, skipped_update, blocked, conflict, delete), every kind
 * (companies, plants, products with hazardous substances, silos with items, instances, prechain products,
 * BOMs, production figures), #CLEAR, duplicates, "did you mean", silo rules, a mirror over its cap, ignored
 * rows, create-only and a preflight-restricted key — snapshotted in full after normalisation (service ids by
 * order of appearance, no time, path, address or key). A change of any action, diff, note, problem, level,
 * dependency or order shows in the snapshot diff: refactors of the planner must leave it byte-identical.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runPlan } from './job-folder.js';
import type { PlanContext } from '../../core/jobs/plan.js';
import type { Plan } from '../../core/jobs/types.js';
import { SCOPES } from '../../core/spec/scopes.js';
import {
  catalog,
  fullWorkbook,
  idOf,
  planFile,
  startEnv,
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

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIMESTAMP = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/** The plan as JSON without what differs between runs: ids become `<id N>` by first appearance, times `<time>`. */
function normalise(p: Plan): string {
  const { createdAt, file, baseUrl, maskedKey, ...rest } = p;
  expect(createdAt).toMatch(/^\d{4}-/);
  expect(file).toMatch(/\.xlsx$/);
  expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
  expect(maskedKey).toMatch(/\*\*\*\*$/);
  const ids = new Map<string, number>();
  return JSON.stringify(rest, null, 2)
    .replace(TIMESTAMP, '<time>')
    .replace(UUID, (id) => {
      const k = id.toLowerCase();
      if (!ids.has(k)) ids.set(k, ids.size + 1);
      return `<id ${ids.get(k)}>`;
    });
}

async function plan(
  d: SheetData,
  o: { options?: PlanContext['options']; extra?: Parameters<typeof writeTestWorkbook>[2]; client?: Env['client'] } = {},
): Promise<Plan> {
  const path = join(env.dir, `wb-${++n}.xlsx`);
  await writeTestWorkbook(path, d, o.extra ?? {});
  return planFile(path, { client: o.client ?? env.client, options: o.options ?? {} });
}

/** The full workbook plus production figures and a company that is deleted later. */
function base(): SheetData {
  const d = fullWorkbook(cat);
  d['supplier-companies']!.push(
    { external_id: 'SC-DEL', name: 'To be deleted' },
    { external_id: 'SC-MIR', name: 'Mirrored away' },
  );
  d.production = [
    { product_instance_external_id: 'PI-1', year: 2024, quantity: 1000 },
    { product_instance_external_id: 'PI-1', year: 2025, quantity: 1100 },
  ];
  return d;
}

/** The base changed every way the planner knows. */
function changed(): SheetData {
  const d = base();
  const companies = d['supplier-companies']!;
  companies[0] = { external_id: 'SC-1', name: 'Holcim Deutschland', country: 'DE' };
  companies.push(
    { external_id: 'SC-3', name: 'New company', country: 'AT' },
    { external_id: 'SC-GONE', name: 'Update of a missing one', action: 'update' },
    { external_id: 'SC-IGN', name: 'Ignored', action: 'ignore' },
  );
  companies.splice(
    companies.findIndex((c) => c.external_id === 'SC-DEL'),
    1,
    {
      external_id: 'SC-DEL',
      name: 'not used',
      action: 'delete',
    },
  );
  companies.splice(
    companies.findIndex((c) => c.external_id === 'SC-MIR'),
    1,
  );
  const plants = d['supplier-plants']!;
  plants[0] = { ...plants[0], city: '#CLEAR' };
  plants.push({ external_id: 'SPL-3', name: 'Typo', supplier_company_external_id: 'SC-4' });
  const products = d['supplier-products']!;
  products[0] = { ...products[0], truck_km: 150, train_km: 20 };
  // SP-2 only on the service: its hazardous substance is an update of its list, its silo item a reference.
  products.splice(1, 1);
  products.push(
    { external_id: 'SP-4', name: 'Bad material', plant_code: 'HEID', material_code: 'MAT-SANDD', unit: 'KG' },
    { external_id: 'SP-5', name: 'Bad plant', plant_code: 'PL-HEIDX', material_code: 'CEM1', unit: 'KG' },
    { external_id: 'SP-6', name: 'Other plant', plant_code: 'PL-OSTR', material_code: 'MAT-SAND', unit: 'KG' },
    { external_id: 'SP-7', name: 'Plain', plant_code: 'HEID', material_code: 'CEM1', unit: 'KG' },
  );
  d['hazardous-substances'] = [
    { supplier_product_external_id: 'SP-3', cas_number: '14808-60-7', mass_share: 0.07 },
    { supplier_product_external_id: 'SP-2', cas_number: '1305-78-8', mass_share: 0.01 },
    { supplier_product_external_id: null, cas_number: '1305-78-8', mass_share: 0.01 },
  ];
  d.silos!.push(
    { external_id: 'SILO-2', name: 'Empty silo', plant_code: 'HEID' },
    { external_id: 'SILO-3', name: 'Mixed plants', plant_code: 'HEID' },
  );
  d['silo-items'] = [
    { silo_external_id: 'SILO-1', supplier_product_external_id: 'SP-1', year: 2024, amount: 1000 },
    { silo_external_id: 'SILO-1', supplier_product_external_id: 'SP-1', year: 2025, amount: 1500 },
    { silo_external_id: 'SILO-1', supplier_product_external_id: 'SP-2', year: 2025, amount: 800 },
    { silo_external_id: 'SILO-3', supplier_product_external_id: 'SP-6', year: 2025, amount: 10 },
    { silo_external_id: 'SILO-X', supplier_product_external_id: 'SP-1', year: 2025, amount: 10 },
  ];
  d['product-instances']!.push({
    external_id: 'PI-3',
    product_external_id: 'ART-NOPE',
    plant_code: 'HEID',
    produced_from: 2020,
  });
  d['prechain-products']![0] = { ...d['prechain-products']![0], truck_km: 75 };
  const bom = d.bom!;
  bom[0] = { ...bom[0], mass_kg: 120 };
  bom.push({
    product_instance_external_id: 'PI-3',
    component_type: 'supplier_product',
    component_external_id: 'SP-1',
    mass_kg: 1,
  });
  d.production = [
    { product_instance_external_id: 'PI-1', year: 2024, quantity: 1000 },
    { product_instance_external_id: 'PI-1', year: 2025, quantity: 1200 },
    { product_instance_external_id: 'PI-1', year: 2099, quantity: 5 },
    { product_instance_external_id: 'PI-2', year: 2031, quantity: 5 },
    { product_instance_external_id: null, year: 2025, quantity: 5 },
  ];
  return d;
}

describe('plan characterisation', () => {
  it('a first plan of every sheet: creates with their dependencies', async () => {
    const p = await plan(base());
    await expect(normalise(p)).toMatchFileSnapshot('__snapshots__/plan-create.json');
    const r = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(r.entries.every((e) => e.outcome === 'created' || e.outcome === 'replaced')).toBe(true);
  });

  it('every action, diff, problem and note of a changed workbook, mirrored, with a conflicting snapshot', async () => {
    const d = changed();
    (d['supplier-companies']![1] as Record<string, unknown>)._snapshot = 'not-the-hash';
    const p = await plan(d, {
      options: { mirror: ['supplier-companies'], maxDeletes: 0 },
      extra: { 'supplier-companies': ['_snapshot'] },
    });
    await expect(normalise(p)).toMatchFileSnapshot('__snapshots__/plan-changed.json');
  });

  it('create-only and a mirror under its cap', async () => {
    const p = await plan(changed(), { options: { createOnly: true, mirror: ['supplier-companies'] } });
    await expect(normalise(p)).toMatchFileSnapshot('__snapshots__/plan-create-only.json');
  });

  it('a key without edit:products that cannot reach the workbook-mapped plant: preflight blocks', async () => {
    const { key } = await env.control<{ key: string }>('POST', '/__sandbox/keys', {
      scopes: SCOPES.filter((s) => s !== 'edit:products'),
      plant_ids: [idOf(cat.plants, 'PL-MUC'), idOf(cat.plants, 'PL-OSTR')],
    });
    const p = await plan(changed(), { client: env.newClient(key) });
    await expect(normalise(p)).toMatchFileSnapshot('__snapshots__/plan-restricted.json');
  });
});
