/**
 * LCA through the API: job states on the sandbox clock, the five result rules, failures, breakdown by scope,
 * values computed from the BOM, and per-kg impacts computed once a recompute used them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSPORT_FACTORS } from '../../sandbox/lca.js';
import { sandbox, supplierProductBody, supplierSetup, type Sandbox } from './helpers.js';

const MIN = 60_000;
let sb: Sandbox;
let plant: string;
let product: string;
let elementary: { id: string; factors: Record<string, number> };
let sp: string;
const MASS = 350;
const TRUCK_KM = 80;

async function instance(code: string, from: number, to: number | null): Promise<string> {
  const r = await sb.api('POST', '/v2/product-instances', {
    body: { external_id: code, product_id: product, plant_id: plant, produced_from: from, produced_to: to },
  });
  expect(r.status).toBe(201);
  const bom = await sb.api('PUT', `/v2/product-instances/${r.body.id}/bom`, {
    body: { bom: [{ type: 'supplier_product', ref: sp, mass_kg: MASS }] },
  });
  expect(bom.status).toBe(200);
  return r.body.id;
}

const production = (id: string, year: number, quantity: number | null) =>
  sb.control('PUT', '/__sandbox/production', { product_instance_id: id, year, quantity });
const update = (id: string, key?: string) => sb.api('POST', `/v2/product-instances/${id}/lca-update`, { key });
const results = (id: string, key?: string) => sb.api('GET', `/v2/product-instances/${id}/lca-results`, { key });
const advance = (ms: number) => sb.control('PUT', '/__sandbox/clock', { advance_ms: ms });

/** Recompute and move the clock past the job. */
async function recompute(id: string) {
  const u = await update(id);
  expect(u.status).toBe(200);
  await advance(2 * MIN + 1000);
  const r = await results(id);
  expect(r.body.job.status).toBe('completed');
  return r.body;
}

const gwp = (el: { values: { indicator: string; module: string; value: number }[] }, module = 'A1-A3') =>
  el.values.find((v) => v.indicator === 'GWP-total' && v.module === module)?.value;

beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
  const s = await supplierSetup(sb, 'LCA');
  const catalog = (await sb.control('GET', '/__sandbox/catalog')).body;
  plant = catalog.plants[0].id;
  product = catalog.products[0].id;
  elementary = catalog.elementaries.find(
    (e: { unit: string; factors: Record<string, number> }) => e.unit === 'KG' && e.factors['GWP-total'] > 0.1,
  );
  sp = (
    await sb.api('POST', '/v2/supplier-products', {
      body: supplierProductBody({
        external_id: 'LCA-SP',
        plant_id: plant,
        elementary_id: elementary.id,
        supplier_plant_id: s.supplierPlantId,
        transport_route: { truck_km: TRUCK_KM },
      }),
    })
  ).body.id;
  await sb.control('PUT', '/__sandbox/clock', { now: '2025-06-15T12:00:00.000Z' });
  await sb.control('PUT', '/__sandbox/lca', { queued_ms: MIN, processing_ms: MIN });
});
afterAll(() => sb.close());

describe('job states', () => {
  it('a never-recomputed instance has job idle and empty results', async () => {
    const id = await instance('LCA-IDLE', 2024, 2024);
    const r = await results(id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ product_instance_id: id, job: { status: 'idle' }, results: [] });
  });

  it('queued → processing → completed on the sandbox clock; results empty while in flight (rule 4)', async () => {
    const id = await instance('LCA-STATES', 2024, 2024);
    await production(id, 2024, 10);
    await recompute(id);
    expect((await results(id)).body.results).toHaveLength(1);

    const u = await update(id);
    expect(u.status).toBe(200);
    expect(u.body.job).toMatchObject({ status: 'queued' });
    expect(typeof u.body.job.id).toBe('string');
    expect(Date.parse(u.body.job.queued_at)).not.toBeNaN();

    const queued = await results(id);
    expect(queued.body.job.status).toBe('queued');
    expect(queued.body.results).toEqual([]);
    await advance(MIN);
    const processing = await results(id);
    expect(processing.body.job.status).toBe('processing');
    expect(processing.body.results).toEqual([]);
    await advance(MIN);
    const done = await results(id);
    expect(done.body.job.status).toBe('completed');
    expect(done.body.job.id).toBe(u.body.job.id);
    expect(done.body.job.finished_at).toBeTruthy();
    expect(done.body.results).toHaveLength(1);
  });

  it('a second update while queued or processing → 409 err_lca_update_not_queued', async () => {
    const id = await instance('LCA-TWICE', 2024, 2024);
    expect((await update(id)).status).toBe(200);
    const queued = await update(id);
    expect(queued.status).toBe(409);
    expect(queued.body.err_code).toBe('err_lca_update_not_queued');
    await advance(MIN);
    expect((await update(id)).status).toBe(409);
    await advance(MIN);
    expect((await update(id)).status).toBe(200);
  });

  it('a job made to fail reports failed with the err_code, and results empty', async () => {
    const id = await instance('LCA-FAIL', 2024, 2024);
    await production(id, 2024, 10);
    await recompute(id);
    await sb.control('PUT', '/__sandbox/lca', { fail_next: 'err_lca_mass_balance' });
    expect((await update(id)).status).toBe(200);
    await advance(2 * MIN + 1000);
    const r = await results(id);
    expect(r.body.job).toMatchObject({ status: 'failed', err_code: 'err_lca_mass_balance' });
    expect(typeof r.body.job.msg).toBe('string');
    expect(r.body.results).toEqual([]);
    // fail_next applies once.
    const again = await recompute(id);
    expect(again.results).toHaveLength(1);
  });

  it('lca-update needs edit:products; lca-results needs view:products', async () => {
    const id = await instance('LCA-SCOPE', 2024, 2024);
    const viewer = await sb.key({ scopes: ['view:products'] });
    const u = await update(id, viewer.key);
    expect(u.status).toBe(403);
    expect(u.body.err_code).toBe('err_permission_denied');
    const none = await sb.key({ scopes: ['view:materials'] });
    expect((await results(id, none.key)).status).toBe(403);
    expect((await results(id, viewer.key)).status).toBe(200);
  });
});

describe('result rules', () => {
  it('rule 1: an open-ended instance is capped at the current year; years ascend', async () => {
    const id = await instance('LCA-OPEN', 2021, null);
    for (const y of [2021, 2022, 2023, 2024]) await production(id, y, 100);
    const body = await recompute(id);
    expect(body.results.map((r: { year: number }) => r.year)).toEqual([2021, 2022, 2023, 2024, 2025]);
  });

  it('rule 2: the current year is blocked until its production data exists, then computed and partial', async () => {
    const id = await instance('LCA-CURRENT', 2024, null);
    await production(id, 2024, 100);
    const before = await recompute(id);
    const cur = before.results.find((r: { year: number }) => r.year === 2025);
    expect(cur).toMatchObject({ status: 'blocked', values: [] });
    expect(cur.blockers[0]).toMatchObject({ type: 'missing_input', kind: 'production_data' });
    await production(id, 2025, 40);
    const after = await recompute(id);
    const now = after.results.find((r: { year: number }) => r.year === 2025);
    expect(now).toMatchObject({ status: 'computed', partial_year: true, production_quantity: 40, blockers: [] });
    const past = after.results.find((r: { year: number }) => r.year === 2024);
    expect(past.partial_year).toBe(false);
  });

  it('a past year without production data is listed blocked with the production_data blocker', async () => {
    const id = await instance('LCA-GAP', 2021, 2023);
    await production(id, 2021, 5);
    await production(id, 2023, 5);
    const body = await recompute(id);
    expect(body.results.map((r: { status: string }) => r.status)).toEqual(['computed', 'blocked', 'computed']);
    expect(body.results[1].blockers).toHaveLength(1);
    expect(body.results[1].blockers[0]).toMatchObject({ type: 'missing_input', kind: 'production_data' });
    expect(body.results[1].blockers[0].code).not.toMatch(/^err_/);
  });

  it('rule 3: future years of an explicit produced_to are listed and stay blocked, even with data, until they arrive', async () => {
    const id = await instance('LCA-FUTURE', 2025, 2027);
    await production(id, 2025, 10);
    await production(id, 2026, 10);
    const body = await recompute(id);
    expect(body.results.map((r: { year: number }) => r.year)).toEqual([2025, 2026, 2027]);
    for (const r of body.results.slice(1)) {
      expect(r.status).toBe('blocked');
      expect(r.values).toEqual([]);
      expect(r.blockers[0]).toMatchObject({ type: 'missing_input', kind: 'production_data' });
    }
    // When 2026 arrives, a recompute computes it (it has data); 2027 stays blocked.
    await sb.control('PUT', '/__sandbox/clock', { now: '2026-03-01T00:00:00.000Z' });
    try {
      const later = await recompute(id);
      expect(later.results.map((r: { status: string }) => r.status)).toEqual(['computed', 'computed', 'blocked']);
      expect(later.results[1].partial_year).toBe(true);
    } finally {
      await sb.control('PUT', '/__sandbox/clock', { now: '2025-06-15T12:00:00.000Z' });
    }
  });

  it('rule 5 support: polling can stop at completed whatever results holds (an instance with nothing to report)', async () => {
    const id = await instance('LCA-EMPTY', 2026, 2026);
    const body = await recompute(id);
    expect(body.job.status).toBe('completed');
    // 2026 is a future year: listed and blocked.
    expect(body.results).toHaveLength(1);
    expect(body.results[0].status).toBe('blocked');
  });
});

describe('values', () => {
  it('are Σ mass × factor (A1-A3) and mass/1000 × km × truck factor (A4), scaled by the production quantity', async () => {
    const id = await instance('LCA-VALUES', 2024, 2024);
    const Q = 250;
    await production(id, 2024, Q);
    const body = await recompute(id);
    const el = body.results[0];
    expect(el.status).toBe('computed');
    expect(el.production_quantity).toBe(Q);
    expect(gwp(el)).toBeCloseTo(MASS * elementary.factors['GWP-total'] * Q, 6);
    expect(gwp(el, 'A4')).toBeCloseTo((MASS / 1000) * TRUCK_KM * TRANSPORT_FACTORS.truck_km['GWP-total'] * Q, 6);
    const indicators = new Set(el.values.map((v: { indicator: string }) => v.indicator));
    expect(indicators.size).toBe(13);
    for (const v of el.values) expect(typeof v.unit).toBe('string');
  });

  it('breakdown appears only for keys with view:recipes', async () => {
    const id = await instance('LCA-BREAKDOWN', 2024, 2024);
    await production(id, 2024, 10);
    await recompute(id);
    const withRecipes = await results(id);
    expect(Array.isArray(withRecipes.body.results[0].breakdown)).toBe(true);
    expect(withRecipes.body.results[0].breakdown.length).toBeGreaterThan(0);
    expect(withRecipes.body.results[0].breakdown[0]).toMatchObject({ component_type: 'supplier_product', ref: sp });
    const k = await sb.key({ scopes: ['view:products'] });
    const without = await results(id, k.key);
    expect(without.status).toBe(200);
    expect(without.body.results[0]).not.toHaveProperty('breakdown');
    expect(without.body.results[0].values).toEqual(withRecipes.body.results[0].values);
  });

  it('a supplier product used by a completed recompute gets its per-kg impacts; a prechain product of the instance too', async () => {
    const fresh = await sb.api('GET', '/v2/supplier-products?external_id=LCA-SP');
    expect(fresh.body.data[0].impacts_per_kg).not.toBeNull();
    const gw = fresh.body.data[0].impacts_per_kg.find((v: { indicator: string }) => v.indicator === 'GWP-total');
    expect(gw.value).toBeCloseTo(elementary.factors['GWP-total'], 9);
    expect(
      fresh.body.data[0].transport_impacts_per_kg.find((v: { indicator: string }) => v.indicator === 'GWP-total').value,
    ).toBeCloseTo((TRUCK_KM / 1000) * TRANSPORT_FACTORS.truck_km['GWP-total'], 9);

    const upstream = await instance('LCA-UP', 2024, 2024);
    const pc = await sb.api('POST', '/v2/prechain-products', {
      body: { product_instance_id: upstream, plant_id: plant },
    });
    expect(pc.body.impacts_per_kg).toBeNull();
    await recompute(upstream);
    const after = await sb.api('GET', `/v2/prechain-products/${pc.body.id}`);
    const perKg = after.body.impacts_per_kg.find((v: { indicator: string }) => v.indicator === 'GWP-total').value;
    const expected = elementary.factors['GWP-total'] + (TRUCK_KM / 1000) * TRANSPORT_FACTORS.truck_km['GWP-total'];
    expect(perKg).toBeCloseTo(expected, 9);
  });
});
