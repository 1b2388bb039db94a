/**
 * The sandbox seed: determinism from (kind, now), catalog counts and integrity, realistic factor magnitudes,
 * the demo instances' year layout as the LCA result rules see it, and the demo's supply side (supplier set,
 * silo, BOMs, LCA jobs) as valid API payloads under the spec's rules. Through HTTP: demo-seed.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { UNITS } from '../../core/spec/constants.js';
import {
  checkBomMasses,
  checkMaterialProperties,
  checkSiloItems,
  findDuplicateBomComponents,
} from '../../core/spec/rules.js';
import {
  BomPut,
  SiloCreate,
  SupplierCompanyCreate,
  SupplierPlantCreate,
  SupplierProductCreate,
} from '../../core/spec/schemas.js';
import { INDICATOR_CODES, computeResults } from '../../sandbox/lca.js';
import type { ImpactFactors } from '../../sandbox/lca.js';
import { seedData, seedUuid } from '../../sandbox/seed.js';
import type { SeedData } from '../../sandbox/seed.js';

const NOW = new Date('2025-06-15T10:00:00Z');
const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const catalog = (s: SeedData) => ({
  manufacturer_id: s.manufacturer_id,
  owner_profile_id: s.owner_profile_id,
  plants: s.plants,
  elementaries: s.elementaries,
  composites: s.composites,
  products: s.products.map(({ created_at: _c, ...p }) => p),
});

function unique<T>(xs: T[]): boolean {
  return new Set(xs).size === xs.length;
}

describe('determinism', () => {
  it('gives the same data for the same (kind, now)', () => {
    expect(seedData('demo', new Date(NOW))).toEqual(seedData('demo', new Date(NOW)));
    expect(seedData('empty', new Date(NOW))).toEqual(seedData('empty', new Date(NOW)));
  });

  it('keeps catalog ids stable across clocks and kinds; only years and timestamps follow now', () => {
    const a = seedData('demo', NOW);
    const b = seedData('demo', new Date('2031-02-01T00:00:00Z'));
    expect(catalog(b)).toEqual(catalog(a));
    expect(catalog(seedData('empty', NOW))).toEqual(catalog(a));
    expect(b.product_instances.map((i) => i.id)).toEqual(a.product_instances.map((i) => i.id));
    expect(b.product_instances.map((i) => i.produced_from - 6)).toEqual(
      a.product_instances.map((i) => i.produced_from),
    );
    const ids = (s: SeedData) =>
      [s.supplier_companies, s.supplier_plants, s.supplier_products, s.silos, s.lca_jobs].map((l) =>
        l.map((x) => x.id),
      );
    expect(ids(b)).toEqual(ids(a));
  });

  it('derives name-based UUIDs with the version-5 layout', () => {
    expect(seedUuid('x')).toBe(seedUuid('x'));
    expect(seedUuid('x')).not.toBe(seedUuid('y'));
    expect(seedUuid('plant/PL-HEID')).toMatch(UUID_V5);
  });

  it('rejects an unknown kind and an invalid clock in words', () => {
    expect(() => seedData('full' as 'demo', NOW)).toThrow(/unknown seed "full"/);
    expect(() => seedData('demo', new Date('nope'))).toThrow(/valid date/);
  });
});

describe('catalog', () => {
  const s = seedData('demo', NOW);

  it('has 3 plants, 25 products, at least 30 elementaries and 3 composites', () => {
    expect(s.plants).toHaveLength(3);
    expect(s.products).toHaveLength(25);
    expect(s.elementaries.length).toBeGreaterThanOrEqual(30);
    expect(s.composites).toHaveLength(3);
  });

  it('has unique UUIDs everywhere and unique external_ids per entity type', () => {
    const ids = [
      s.manufacturer_id,
      s.owner_profile_id,
      ...s.plants.map((x) => x.id),
      ...s.elementaries.map((x) => x.id),
      ...s.composites.map((x) => x.id),
      ...s.products.map((x) => x.id),
      ...s.product_instances.map((x) => x.id),
      ...s.supplier_companies.map((x) => x.id),
      ...s.supplier_plants.map((x) => x.id),
      ...s.supplier_products.map((x) => x.id),
      ...s.silos.map((x) => x.id),
      ...s.lca_jobs.map((x) => x.id),
    ];
    expect(unique(ids)).toBe(true);
    for (const id of ids) expect(id).toMatch(UUID_V5);
    const lists = [
      s.plants,
      s.elementaries,
      s.composites,
      s.products,
      s.product_instances,
      s.supplier_companies,
      s.supplier_plants,
      s.supplier_products,
      s.silos,
    ];
    for (const list of lists) {
      const codes = list.map((x) => x.external_id);
      expect(codes.every((c) => typeof c === 'string' && c.length > 0)).toBe(true);
      expect(unique(codes)).toBe(true);
    }
  });

  it('links products and composites to existing elementaries, with units from the spec', () => {
    const elementaryIds = new Set(s.elementaries.map((e) => e.id));
    for (const p of s.products) {
      expect(elementaryIds.has(p.elementary_id)).toBe(true);
      expect(UNITS).toContain(p.unit);
      expect(Number.isNaN(Date.parse(p.created_at))).toBe(false);
      expect(Date.parse(p.created_at)).toBeLessThanOrEqual(NOW.getTime());
    }
    for (const e of s.elementaries) expect(UNITS).toContain(e.unit);
    for (const c of s.composites) {
      expect(c.parts.length).toBeGreaterThanOrEqual(2);
      expect(c.parts.every((p) => elementaryIds.has(p.elementary_id) && p.share > 0)).toBe(true);
      expect(c.parts.reduce((sum, p) => sum + p.share, 0)).toBeCloseTo(1, 12);
    }
  });

  it('sells concretes per m3, boards per m2, cement per tonne or kg', () => {
    const unitOf = (article: string) => s.products.find((p) => p.external_id === article)?.unit;
    expect(unitOf('ART-20030')).toBe('M3');
    expect(unitOf('ART-30101')).toBe('M2');
    expect(unitOf('ART-10011')).toBe('T');
    expect(unitOf('ART-10041')).toBe('KG');
  });

  it('gives every elementary all 13 indicators, finite, with GWP-total = fossil + biogenic + luluc', () => {
    for (const e of s.elementaries) {
      expect(Object.keys(e.factors).sort()).toEqual([...INDICATOR_CODES].sort());
      for (const code of INDICATOR_CODES) expect(Number.isFinite(e.factors[code])).toBe(true);
      const f = e.factors;
      expect(f['GWP-total']).toBeCloseTo(f['GWP-fossil'] + f['GWP-biogenic'] + f['GWP-luluc'], 12);
    }
  });

  it('has realistic GWP-total magnitudes for the named materials', () => {
    const byCode = new Map<string, ImpactFactors>(s.elementaries.map((e) => [e.external_id, e.factors]));
    const gwp = (code: string) => byCode.get(code)?.['GWP-total'] ?? NaN;
    const near = (code: string, target: number, rel: number) => {
      expect(Math.abs(gwp(code) - target) / target, code).toBeLessThanOrEqual(rel);
    };
    near('MAT-CEM1', 0.8, 0.05);
    near('MAT-CLINKER', 0.85, 0.05);
    near('MAT-GGBS', 0.08, 0.1);
    near('MAT-FLYASH', 0.01, 0.1);
    near('MAT-LIMESTONE', 0.01, 0.1);
    near('MAT-SAND', 0.005, 0.3);
    near('MAT-GRAVEL', 0.005, 0.3);
    near('MAT-WATER', 0.0003, 0.1);
    near('MAT-SUPERPL', 1.9, 0.05);
    near('MAT-GYPSUM', 0.05, 0.1);
    near('MAT-REBAR', 1.2, 0.05);
    near('MAT-GLASSWOOL', 1.3, 0.05);
    near('MAT-EPS', 3.3, 0.05);
    expect(gwp('MAT-CEM3')).toBeLessThan(gwp('MAT-CEM2'));
    expect(gwp('MAT-CEM2')).toBeLessThan(gwp('MAT-CEM1'));
    expect(gwp('MAT-PAPER')).toBeLessThan(0); // stored biogenic carbon
    const unitOf = (code: string) => s.elementaries.find((e) => e.external_id === code)?.unit;
    expect(unitOf('MAT-ELEC')).toBe('KWH');
    expect(unitOf('MAT-NATGAS')).toBe('MJ');
    expect(unitOf('MAT-DIESEL')).toBe('KG');
  });
});

describe('empty seed', () => {
  it('is the catalog without instances or production data', () => {
    const e = seedData('empty', NOW);
    expect(e.product_instances).toEqual([]);
    expect(e.production).toEqual([]);
    for (const list of [e.supplier_companies, e.supplier_plants, e.supplier_products, e.silos, e.boms, e.lca_jobs])
      expect(list).toEqual([]);
    expect(e.products).toHaveLength(25);
  });
});

describe('demo instances', () => {
  const s = seedData('demo', NOW);
  const year = 2025;

  it('include one open-ended from 3 years ago, one with a future produced_to and one finished in the past', () => {
    const inst = s.product_instances;
    expect(inst.some((i) => i.produced_to === null && i.produced_from === year - 3)).toBe(true);
    expect(inst.some((i) => i.produced_to !== null && i.produced_to > year)).toBe(true);
    expect(inst.some((i) => i.produced_to !== null && i.produced_to < year)).toBe(true);
  });

  it('reference catalog products and plants, and production data only their own instances and years', () => {
    const productIds = new Set(s.products.map((p) => p.id));
    const plantIds = new Set(s.plants.map((p) => p.id));
    const byId = new Map(s.product_instances.map((i) => [i.id, i]));
    for (const i of s.product_instances) {
      expect(productIds.has(i.product_id)).toBe(true);
      expect(plantIds.has(i.plant_id)).toBe(true);
      expect(Date.parse(i.created_at)).toBeLessThanOrEqual(NOW.getTime());
    }
    expect(unique(s.production.map((p) => `${p.product_instance_id}|${p.year}`))).toBe(true);
    for (const p of s.production) {
      const i = byId.get(p.product_instance_id);
      expect(i).toBeDefined();
      expect(p.year).toBeGreaterThanOrEqual(i?.produced_from ?? Infinity);
      expect(p.year).toBeLessThanOrEqual(i?.produced_to ?? year);
      expect(p.quantity).toBeGreaterThan(0);
    }
  });

  it('give the LCA every kind of year: past computed, past blocked, current partial, current blocked, future blocked', () => {
    const statuses = new Set<string>();
    for (const i of s.product_instances) {
      const results = computeResults({
        instance: i,
        components: [],
        production: (y) => s.production.find((p) => p.product_instance_id === i.id && p.year === y)?.quantity,
        now: NOW,
        includeBreakdown: false,
      });
      for (const r of results) {
        const when = r.year < year ? 'past' : r.year === year ? 'current' : 'future';
        statuses.add(`${when}:${r.status}`);
      }
    }
    expect([...statuses].sort()).toEqual([
      'current:blocked',
      'current:computed',
      'future:blocked',
      'past:blocked',
      'past:computed',
    ]);
    // a future year with entered (planned) data, which must stay blocked
    const planned = s.production.filter((p) => p.year > year);
    expect(planned.length).toBeGreaterThan(0);
  });

  it('scales the current year partial quantity with the share of the year elapsed', () => {
    const early = seedData('demo', new Date('2025-02-01T00:00:00Z'));
    const late = seedData('demo', new Date('2025-11-01T00:00:00Z'));
    const current = (d: SeedData) => d.production.filter((p) => p.year === 2025).map((p) => p.quantity);
    const e = current(early);
    const l = current(late);
    expect(e.length).toBeGreaterThan(0);
    expect(e.length).toBe(l.length);
    e.forEach((q, k) => expect(q).toBeLessThan(l[k]));
  });
});

describe('demo supply side', () => {
  const s = seedData('demo', NOW);
  const year = 2025;
  const elementaryCode = new Map(s.elementaries.map((e) => [e.id, e.external_id]));
  const supplierProducts = new Map(s.supplier_products.map((p) => [p.id, p]));

  it('has a small supplier set: ~4 companies, ~5 plants, ~12 supplier products, one silo', () => {
    expect(s.supplier_companies.length).toBeGreaterThanOrEqual(4);
    expect(s.supplier_companies.length).toBeLessThanOrEqual(8);
    expect(s.supplier_plants.length).toBeGreaterThanOrEqual(5);
    expect(s.supplier_plants.length).toBeLessThanOrEqual(8);
    expect(s.supplier_products.length).toBeGreaterThanOrEqual(12);
    expect(s.supplier_products.length).toBeLessThanOrEqual(20);
    expect(s.silos).toHaveLength(1);
    for (const c of s.supplier_companies) expect(c.external_id).toMatch(/^SUP-/);
  });

  it('is made of valid create payloads (the API schemas, material-property rules) with references that resolve', () => {
    const companies = new Set(s.supplier_companies.map((c) => c.id));
    const supplierPlants = new Set(s.supplier_plants.map((p) => p.id));
    const plants = new Set(s.plants.map((p) => p.id));
    for (const { id: _id, created_at: _c, ...body } of s.supplier_companies)
      expect(SupplierCompanyCreate.safeParse(body).success).toBe(true);
    for (const { id: _id, created_at: _c, ...body } of s.supplier_plants) {
      expect(SupplierPlantCreate.safeParse(body).success).toBe(true);
      expect(companies.has(body.supplier_company_id)).toBe(true);
    }
    for (const { id: _id, created_at, ...body } of s.supplier_products) {
      expect(SupplierProductCreate.safeParse(body).success, body.external_id).toBe(true);
      expect(checkMaterialProperties(body)).toEqual([]);
      expect(plants.has(body.plant_id)).toBe(true);
      expect(elementaryCode.has(body.material_type.elementary_id)).toBe(true);
      if (body.supplier_plant_id !== null) expect(supplierPlants.has(body.supplier_plant_id)).toBe(true);
      expect(Date.parse(created_at)).toBeLessThanOrEqual(NOW.getTime());
    }
  });

  it('has a silo the API accepts: two cement products of one material type from different suppliers, with amounts', () => {
    const [silo] = s.silos;
    const { id: _id, created_at: _c, ...body } = silo;
    expect(SiloCreate.safeParse(body).success).toBe(true);
    const facts = silo.items.map((it) => {
      const sp = supplierProducts.get(it.supplier_product_id);
      return {
        supplier_product_id: it.supplier_product_id,
        product: sp && {
          plant_id: sp.plant_id,
          material_key: sp.material_type.elementary_id,
          supplier_plant_id: sp.supplier_plant_id,
        },
      };
    });
    expect(checkSiloItems(silo.plant_id, facts)).toEqual([]);
    expect(silo.items).toHaveLength(2);
    const companyOf = new Map(s.supplier_plants.map((p) => [p.id, p.supplier_company_id]));
    const products = silo.items.map((it) => supplierProducts.get(it.supplier_product_id)!);
    expect(new Set(products.map((p) => companyOf.get(p.supplier_plant_id!))).size).toBe(2);
    expect(elementaryCode.get(products[0].material_type.elementary_id)).toBe('MAT-CEM2');
    for (const it of silo.items) {
      expect(it.annual_items.map((a) => a.year)).toEqual([year - 1, year]);
      for (const a of it.annual_items) expect(a.amount).toBeGreaterThan(0);
    }
  });

  it('gives every demo instance a BOM the API accepts, with components at the instance plant', () => {
    const silos = new Map(s.silos.map((x) => [x.id, x]));
    expect(s.boms.map((b) => b.product_instance_id).sort()).toEqual(s.product_instances.map((i) => i.id).sort());
    for (const b of s.boms) {
      const inst = s.product_instances.find((i) => i.id === b.product_instance_id)!;
      expect(BomPut.safeParse({ bom: b.components }).success).toBe(true);
      expect(findDuplicateBomComponents(b.components)).toEqual([]);
      expect(checkBomMasses(b.components)).toEqual([]);
      for (const c of b.components) {
        const at = c.type === 'silo' ? silos.get(c.ref)?.plant_id : supplierProducts.get(c.ref)?.plant_id;
        expect(at, `${inst.external_id} ${c.type} ${c.ref}`).toBe(inst.plant_id);
      }
    }
  });

  it('makes a cement tonne of ~1000 kg and a CEM II of clinker, GGBS, limestone and gypsum', () => {
    const bomOf = (code: string) =>
      s.boms.find((b) => b.product_instance_id === s.product_instances.find((i) => i.external_id === code)?.id)!;
    for (const code of ['PI-HEID-10011', 'PI-HEID-10022'])
      expect(bomOf(code).components.reduce((sum, c) => sum + c.mass_kg, 0)).toBeCloseTo(1000, 6);
    const cem2 = bomOf('PI-HEID-10022').components.map((c) =>
      elementaryCode.get(supplierProducts.get(c.ref)!.material_type.elementary_id),
    );
    expect(cem2.sort()).toEqual(['MAT-CLINKER', 'MAT-GGBS', 'MAT-GYPSUM', 'MAT-LIMESTONE']);
  });

  it('has one completed LCA job per instance, finished before now within the current year', () => {
    expect(s.lca_jobs.map((j) => j.product_instance_id).sort()).toEqual(s.product_instances.map((i) => i.id).sort());
    for (const at of [NOW, new Date('2025-01-01T00:05:00Z'), new Date('2025-01-01T00:00:00Z')]) {
      for (const j of seedData('demo', at).lca_jobs) {
        const [q, st, f] = [j.queued_at, j.started_at, j.finished_at].map(Date.parse);
        expect(q).toBeLessThan(st);
        expect(st).toBeLessThan(f);
        expect(f).toBeLessThanOrEqual(at.getTime());
        expect(new Date(f).getUTCFullYear()).toBe(at.getUTCFullYear());
      }
    }
  });
});
