/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are plain JSON */
/**
 * The `demo` seed through the HTTP API of a started sandbox: the supplier set is listed, counted, indexed by
 * external_id and paged; the silo and the BOMs read back and pass the API's own rules when written back; every
 * demo instance has a completed LCA job whose results are Σ mass × factor × production quantity (worked out
 * here from the catalog's factors and the supplier products' routes); a recompute gives the same results;
 * a restart with a data file keeps it all; `empty` has none of it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDICATORS, TRANSPORT_FACTORS } from '../../sandbox/lca.js';
import { sandbox, walk, type Catalog, type Sandbox } from './helpers.js';

/** A fixed sandbox clock for the seed: years and partial quantities do not depend on the day the test runs. */
const NOW = '2025-06-15T10:00:00.000Z';
const YEAR = 2025;

let sb: Sandbox;
/** The control API's catalog: its elementaries carry their A1-A3 factors per kg. */
type CatalogWithFactors = Omit<Catalog, 'elementaries'> & {
  elementaries: { id: string; external_id: string; factors: Record<string, number> }[];
};
let cat: CatalogWithFactors;
const dir = mkdtempSync(join(tmpdir(), 'sandbox-demo-seed-'));

beforeAll(async () => {
  sb = await sandbox({ seed: 'demo' });
  expect((await sb.control('PUT', '/__sandbox/clock', { now: NOW })).status).toBe(200);
  expect((await sb.control('POST', '/__sandbox/reset', { seed: 'demo' })).status).toBe(200);
  cat = (await sb.catalog()) as unknown as CatalogWithFactors;
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (path: string) => {
  const r = await sb.api('GET', path);
  expect(r.status, `${path}: ${r.text}`).toBe(200);
  return r.body;
};
const all = async (collection: string) => (await walk(sb, `/v2/${collection}?limit=200`)).items;
const instanceByCode = async (code: string) => {
  const found = (await get(`/v2/product-instances?external_id=${code}`)).data;
  expect(found).toHaveLength(1);
  return found[0];
};
const valueOf = (yearResult: any, indicator: string, module: string): number =>
  yearResult.values.find((v: any) => v.indicator === indicator && v.module === module)?.value;

function relClose(actual: number, expected: number, what: string): void {
  expect(Number.isFinite(actual), what).toBe(true);
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
    Math.abs(expected) * 1e-9 + 1e-12,
  );
}

describe('demo supplier set', () => {
  it('is listed through the API, counted by /__sandbox/state and walked page by page', async () => {
    const state = (await sb.control('GET', '/__sandbox/state')).body;
    const companies = (await walk(sb, '/v2/supplier-companies?limit=2')).items;
    const plants = (await walk(sb, '/v2/supplier-plants?limit=2')).items;
    const products = await walk(sb, '/v2/supplier-products?limit=4');
    const silos = await all('silos');
    expect(companies.length).toBeGreaterThanOrEqual(4);
    expect(plants.length).toBeGreaterThanOrEqual(5);
    expect(products.items.length).toBeGreaterThanOrEqual(12);
    expect(products.pages).toBeGreaterThanOrEqual(Math.ceil(products.items.length / 4));
    expect(silos).toHaveLength(1);
    expect(state.supplier_companies).toEqual({ active: companies.length, deleted: 0 });
    expect(state.supplier_plants).toEqual({ active: plants.length, deleted: 0 });
    expect(state.supplier_products).toEqual({ active: products.items.length, deleted: 0 });
    expect(state.silos).toEqual({ active: 1, deleted: 0 });
    for (const list of [companies, plants, products.items]) {
      const ids = list.map((x: any) => x.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    for (const c of companies) expect(c.external_id).toMatch(/^SUP-[A-Z]+$/);
  });

  it('indexes every external_id: the filter finds exactly the seeded entity', async () => {
    for (const [collection, min] of [
      ['supplier-companies', 4],
      ['supplier-plants', 5],
      ['supplier-products', 12],
      ['silos', 1],
    ] as const) {
      const items = await all(collection);
      expect(items.length).toBeGreaterThanOrEqual(min);
      for (const e of items) {
        expect(typeof e.external_id).toBe('string');
        const found = (await get(`/v2/${collection}?external_id=${encodeURIComponent(e.external_id)}`)).data;
        expect(found.map((x: any) => x.id)).toEqual([e.id]);
      }
    }
  });

  it('links supplier plants to companies and supplier products to seed plants, supplier plants and catalog materials', async () => {
    const companies = new Set((await all('supplier-companies')).map((c: any) => c.id));
    const supplierPlants = await all('supplier-plants');
    for (const p of supplierPlants) expect(companies.has(p.supplier_company_id)).toBe(true);
    const supplierPlantIds = new Set(supplierPlants.map((p: any) => p.id));
    const plantIds = new Set(cat.plants.map((p) => p.id));
    const codeOf = new Map(cat.elementaries.map((e) => [e.id, e.external_id]));
    const products = await all('supplier-products');
    const materials = new Set<string>();
    for (const sp of products) {
      expect(plantIds.has(sp.plant_id)).toBe(true);
      expect(sp.material_type.category).toBe('elementary');
      expect(codeOf.has(sp.material_type.elementary_id)).toBe(true);
      materials.add(codeOf.get(sp.material_type.elementary_id)!);
      if (sp.supplier_plant_id !== null) {
        expect(supplierPlantIds.has(sp.supplier_plant_id)).toBe(true);
        expect(sp.transport_route).not.toBeNull();
      }
    }
    // every supplier plant delivers something
    expect(new Set(products.map((sp: any) => sp.supplier_plant_id).filter(Boolean)).size).toBe(supplierPlants.length);
    for (const m of [
      'MAT-CLINKER',
      'MAT-GGBS',
      'MAT-FLYASH',
      'MAT-LIMESTONE',
      'MAT-SAND',
      'MAT-GRAVEL',
      'MAT-SUPERPL',
      'MAT-GYPSUM',
      'MAT-WATER',
      'MAT-CEM2',
    ])
      expect(materials.has(m), m).toBe(true);
  });

  it('has a silo of two cement supplier products of one material type from different suppliers, with annual amounts', async () => {
    const [silo] = await all('silos');
    expect(silo.items).toHaveLength(2);
    const products = await Promise.all(
      silo.items.map((it: any) => get(`/v2/supplier-products/${it.supplier_product_id}`)),
    );
    const cem2 = cat.elementaries.find((e) => e.external_id === 'MAT-CEM2')!.id;
    for (const sp of products) {
      expect(sp.material_type).toEqual({ category: 'elementary', elementary_id: cem2 });
      expect(sp.plant_id).toBe(silo.plant_id);
    }
    const companiesOf = await Promise.all(
      products.map(async (sp: any) => (await get(`/v2/supplier-plants/${sp.supplier_plant_id}`)).supplier_company_id),
    );
    expect(new Set(companiesOf).size).toBe(2);
    for (const it of silo.items) {
      expect(it.annual_items.map((a: any) => a.year)).toEqual([YEAR - 1, YEAR]);
      for (const a of it.annual_items) expect(a.amount).toBeGreaterThan(0);
    }
    // the API's own silo rules accept it as it is
    const back = await sb.api('PATCH', `/v2/silos/${silo.id}`, { body: { items: silo.items } });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toEqual(silo);
  });
});

describe('demo BOMs', () => {
  it('every demo instance has a BOM that reads back and is accepted unchanged by PUT', async () => {
    const instances = await all('product-instances');
    expect(instances.length).toBeGreaterThanOrEqual(4);
    for (const inst of instances) {
      const { bom } = await get(`/v2/product-instances/${inst.id}/bom`);
      expect(bom.length, inst.external_id).toBeGreaterThan(0);
      for (const c of bom) {
        expect(c.mass_kg).toBeGreaterThan(0);
        const path = c.type === 'silo' ? 'silos' : 'supplier-products';
        expect((await get(`/v2/${path}/${c.ref}`)).plant_id).toBe(inst.plant_id);
      }
      const put = await sb.api('PUT', `/v2/product-instances/${inst.id}/bom`, { body: { bom: [...bom].reverse() } });
      expect(put.status, put.text).toBe(200);
      expect(put.body.bom).toEqual(bom);
    }
  });

  it('a C30/37 m³ takes ~300 kg cement via the silo, sand, gravel 2/8 and 8/16, water and superplasticizer', async () => {
    const inst = await instanceByCode('PI-MUC-20030');
    const { bom } = await get(`/v2/product-instances/${inst.id}/bom`);
    const codeOf = new Map(cat.elementaries.map((e) => [e.id, e.external_id]));
    const byMaterial = new Map<string, number>();
    for (const c of bom) {
      if (c.type === 'silo') {
        byMaterial.set('silo', c.mass_kg);
        continue;
      }
      const sp = await get(`/v2/supplier-products/${c.ref}`);
      const m = codeOf.get(sp.material_type.elementary_id)!;
      byMaterial.set(m, (byMaterial.get(m) ?? 0) + c.mass_kg);
    }
    expect(byMaterial.get('silo')).toBe(300);
    expect(byMaterial.get('MAT-SAND')).toBeGreaterThanOrEqual(700);
    expect(byMaterial.get('MAT-GRAVEL')).toBeGreaterThanOrEqual(900);
    expect(byMaterial.get('MAT-WATER')).toBe(170);
    expect(byMaterial.get('MAT-SUPERPL')).toBeGreaterThan(1);
    const total = bom.reduce((s: number, c: any) => s + c.mass_kg, 0);
    expect(total).toBeGreaterThan(2200); // fresh concrete density, kg/m³
    expect(total).toBeLessThan(2450);
  });
});

describe('demo LCA results at first start', () => {
  it('every demo instance: job completed before now, computed years with a non-zero GWP-total', async () => {
    const instances = await all('product-instances');
    for (const inst of instances) {
      const r = await get(`/v2/product-instances/${inst.id}/lca-results`);
      expect(r.job.status, inst.external_id).toBe('completed');
      expect(Date.parse(r.job.finished_at)).toBeLessThanOrEqual(Date.parse(NOW) + 60_000);
      expect(Date.parse(r.job.queued_at)).toBeLessThan(Date.parse(r.job.finished_at));
      const computed = r.results.filter((y: any) => y.status === 'computed');
      expect(computed.length, inst.external_id).toBeGreaterThan(0);
      for (const y of computed) {
        expect(y.production_quantity).toBeGreaterThan(0);
        expect(valueOf(y, 'GWP-total', 'A1-A3'), `${inst.external_id} ${y.year}`).toBeGreaterThan(0);
        expect(valueOf(y, 'GWP-total', 'A4'), `${inst.external_id} ${y.year}`).toBeGreaterThan(0);
      }
    }
  });

  /** A1-A3 and A4 of one year, worked out here from the BOM, the catalog's factors, silo amounts and routes. */
  async function expectedYear(instanceId: string, year: number, quantity: number) {
    const factorsOf = new Map(cat.elementaries.map((e) => [e.id, e.factors]));
    const { bom } = await get(`/v2/product-instances/${instanceId}/bom`);
    const a1a3: Record<string, number> = Object.fromEntries(INDICATORS.map((i) => [i.code, 0]));
    let a4Gwp = 0;
    const add = (sp: any, massKg: number) => {
      const f = factorsOf.get(sp.material_type.elementary_id)!;
      for (const i of INDICATORS) a1a3[i.code] += massKg * f[i.code];
      for (const [mode, km] of Object.entries(sp.transport_route ?? {}))
        a4Gwp +=
          (massKg / 1000) * (km as number) * TRANSPORT_FACTORS[mode as keyof typeof TRANSPORT_FACTORS]['GWP-total'];
    };
    for (const c of bom) {
      if (c.type === 'supplier_product') add(await get(`/v2/supplier-products/${c.ref}`), c.mass_kg);
      else {
        const silo = await get(`/v2/silos/${c.ref}`);
        const amounts = silo.items.map((it: any) =>
          it.annual_items.filter((a: any) => a.year === year).reduce((s: number, a: any) => s + a.amount, 0),
        );
        const total = amounts.reduce((s: number, a: number) => s + a, 0);
        for (const [k, it] of silo.items.entries()) {
          const w = total > 0 ? amounts[k] / total : 1 / silo.items.length;
          add(await get(`/v2/supplier-products/${it.supplier_product_id}`), c.mass_kg * w);
        }
      }
    }
    for (const i of INDICATORS) a1a3[i.code] *= quantity;
    return { a1a3, a4Gwp: a4Gwp * quantity };
  }

  for (const code of ['PI-HEID-10011', 'PI-MUC-20030']) {
    it(`${code}: each computed year = Σ mass × factor × production quantity (A1-A3), Σ mass/1000 × km × t·km factor (A4)`, async () => {
      const inst = await instanceByCode(code);
      const r = await get(`/v2/product-instances/${inst.id}/lca-results`);
      const computed = r.results.filter((y: any) => y.status === 'computed');
      expect(computed.map((y: any) => y.year)).toContain(YEAR - 1);
      expect(computed.find((y: any) => y.year === YEAR)?.partial_year).toBe(true);
      for (const y of computed) {
        const want = await expectedYear(inst.id, y.year, y.production_quantity);
        for (const i of INDICATORS)
          relClose(valueOf(y, i.code, 'A1-A3'), want.a1a3[i.code], `${code} ${y.year} ${i.code} A1-A3`);
        relClose(valueOf(y, 'GWP-total', 'A4'), want.a4Gwp, `${code} ${y.year} GWP-total A4`);
      }
    });
  }

  it('a cement tonne is ~0.8 t CO2 eq. (CEM I) and a C30/37 m³ ~0.2–0.3 t (A1-A3 per unit)', async () => {
    const perUnit = async (code: string) => {
      const inst = await instanceByCode(code);
      const y = (await get(`/v2/product-instances/${inst.id}/lca-results`)).results.find(
        (e: any) => e.year === YEAR - 1,
      );
      return valueOf(y, 'GWP-total', 'A1-A3') / y.production_quantity;
    };
    const cem1 = await perUnit('PI-HEID-10011');
    expect(cem1).toBeGreaterThan(700);
    expect(cem1).toBeLessThan(900);
    const concrete = await perUnit('PI-MUC-20030');
    expect(concrete).toBeGreaterThan(180);
    expect(concrete).toBeLessThan(320);
  });

  it('the supplier products the BOMs use show their computed per-kg impacts (the seeded jobs filled them in)', async () => {
    const factorsOf = new Map(cat.elementaries.map((e) => [e.id, e.factors]));
    for (const sp of await all('supplier-products')) {
      expect(sp.impacts_per_kg, sp.external_id).not.toBeNull();
      expect(sp.transport_impacts_per_kg, sp.external_id).not.toBeNull();
      const gwp = sp.impacts_per_kg.find((v: any) => v.indicator === 'GWP-total' && v.module === 'A1-A3').value;
      relClose(gwp, factorsOf.get(sp.material_type.elementary_id)!['GWP-total'], `${sp.external_id} impacts_per_kg`);
    }
  });

  it('a recompute through the API gives the same results as the seeded job', async () => {
    const inst = await instanceByCode('PI-MUC-20030');
    const before = await get(`/v2/product-instances/${inst.id}/lca-results`);
    await sb.control('PUT', '/__sandbox/lca', { queued_ms: 0, processing_ms: 0 });
    const queued = await sb.api('POST', `/v2/product-instances/${inst.id}/lca-update`);
    expect(queued.status, queued.text).toBe(200);
    const after = await get(`/v2/product-instances/${inst.id}/lca-results`);
    expect(after.job.status).toBe('completed');
    expect(after.job.id).not.toBe(before.job.id);
    expect(after.results).toEqual(before.results);
  });
});

describe('demo seed lifecycle', () => {
  it('ids are stable across starts; a restart with a data file keeps the supplier set, silo, BOMs and LCA results', async () => {
    const file = join(dir, 'demo.json');
    const snapshot = async (s: Sandbox) => {
      const inst = (await walk(s, '/v2/product-instances?limit=200')).items;
      return {
        state: (await s.control('GET', '/__sandbox/state')).body,
        companies: (await walk(s, '/v2/supplier-companies?limit=200')).items,
        plants: (await walk(s, '/v2/supplier-plants?limit=200')).items,
        products: (await walk(s, '/v2/supplier-products?limit=200')).items,
        silos: (await walk(s, '/v2/silos?limit=200')).items,
        boms: await Promise.all(
          inst.map(async (i: any) => (await s.api('GET', `/v2/product-instances/${i.id}/bom`)).body),
        ),
        lca: await Promise.all(
          inst.map(async (i: any) => (await s.api('GET', `/v2/product-instances/${i.id}/lca-results`)).body),
        ),
      };
    };
    const a = await sandbox({ seed: 'demo', dataFile: file });
    let before: Awaited<ReturnType<typeof snapshot>>;
    try {
      before = await snapshot(a);
      expect(before.state.supplier_products.active).toBeGreaterThan(0);
      const other = await sandbox({ seed: 'demo' });
      try {
        const ids = (s: Awaited<ReturnType<typeof snapshot>>) =>
          [s.companies, s.plants, s.products, s.silos].map((l) => l.map((x: any) => x.id));
        expect(ids(await snapshot(other))).toEqual(ids(before));
      } finally {
        await other.close();
      }
    } finally {
      await a.close();
    }
    const b = await sandbox({ seed: 'empty', dataFile: file });
    try {
      expect(await snapshot(b)).toEqual(before);
    } finally {
      await b.close();
    }
  });

  it('the empty seed stays the catalog only: no supplier set, BOMs or LCA jobs', async () => {
    const e = await sandbox({ seed: 'empty' });
    try {
      const state = (await e.control('GET', '/__sandbox/state')).body;
      for (const k of [
        'supplier_companies',
        'supplier_plants',
        'supplier_products',
        'silos',
        'product_instances',
        'prechain_products',
      ])
        expect(state[k], k).toEqual({ active: 0, deleted: 0 });
      expect(state.products.active).toBe(25);
    } finally {
      await e.close();
    }
  });
});
