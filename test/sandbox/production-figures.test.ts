/**
 * Production figures through the API (assumed GET/PUT /v2/product-instances/{id}/production-figures,
 * docs/api-assumptions.md): scopes view:processes / edit:processes, plant access, validation, and the effect on
 * the LCA — a year's figure lifts its production_data blocker for past and current years at the next
 * recompute, a future year stays blocked until it arrives (rules 2–3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, supplierProductBody, supplierSetup, type Sandbox } from './helpers.js';

const MIN = 60_000;
let sb: Sandbox;
let plant: string;
let otherPlant: string;
let product: string;
let sp: string;

async function instance(code: string, from: number, to: number | null, plantId = plant): Promise<string> {
  const r = await sb.api('POST', '/v2/product-instances', {
    body: { external_id: code, product_id: product, plant_id: plantId, produced_from: from, produced_to: to },
  });
  expect(r.status).toBe(201);
  if (plantId === plant) {
    const bom = await sb.api('PUT', `/v2/product-instances/${r.body.id}/bom`, {
      body: { bom: [{ type: 'supplier_product', ref: sp, mass_kg: 300 }] },
    });
    expect(bom.status).toBe(200);
  }
  return r.body.id;
}
const figures = (id: string, key?: string) => sb.api('GET', `/v2/product-instances/${id}/production-figures`, { key });
const put = (id: string, body: unknown, key?: string) =>
  sb.api('PUT', `/v2/product-instances/${id}/production-figures`, { body, key });

async function recompute(id: string) {
  expect((await sb.api('POST', `/v2/product-instances/${id}/lca-update`)).status).toBe(200);
  await sb.control('PUT', '/__sandbox/clock', { advance_ms: 2 * MIN + 1000 });
  const r = await sb.api('GET', `/v2/product-instances/${id}/lca-results`);
  expect(r.body.job.status).toBe('completed');
  return r.body.results as {
    year: number;
    status: string;
    production_quantity: number | null;
    blockers: { kind: string; code: string }[];
  }[];
}

beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
  const s = await supplierSetup(sb, 'PF');
  const catalog = (await sb.control('GET', '/__sandbox/catalog')).body;
  plant = catalog.plants[0].id;
  otherPlant = catalog.plants[1].id;
  product = catalog.products[0].id;
  const elementary = catalog.elementaries.find((e: { unit: string }) => e.unit === 'KG');
  sp = (
    await sb.api('POST', '/v2/supplier-products', {
      body: supplierProductBody({
        external_id: 'PF-SP',
        plant_id: plant,
        elementary_id: elementary.id,
        supplier_plant_id: s.supplierPlantId,
      }),
    })
  ).body.id;
  await sb.control('PUT', '/__sandbox/clock', { now: '2025-06-15T12:00:00.000Z' });
  await sb.control('PUT', '/__sandbox/lca', { queued_ms: MIN, processing_ms: MIN });
});
afterAll(() => sb.close());

describe('production figures endpoint', () => {
  it('PUT sets the years sent, leaves the others, GET reads them ascending; re-sending is a no-op', async () => {
    const id = await instance('PF-RW', 2022, 2026);
    expect((await figures(id)).body).toEqual({ product_instance_id: id, production_figures: [] });
    const a = await put(id, {
      production_figures: [
        { year: 2024, quantity: 1200.5 },
        { year: 2022, quantity: 900 },
      ],
    });
    expect(a.status).toBe(200);
    expect(a.body.production_figures).toEqual([
      { year: 2022, quantity: 900 },
      { year: 2024, quantity: 1200.5 },
    ]);
    const b = await put(id, { production_figures: [{ year: 2024, quantity: 1300 }] });
    expect(b.body.production_figures).toEqual([
      { year: 2022, quantity: 900 },
      { year: 2024, quantity: 1300 },
    ]);
    const again = await put(id, { production_figures: [{ year: 2024, quantity: 1300 }] });
    expect(again.body).toEqual(b.body);
    expect((await figures(id)).body).toEqual(b.body);
  });

  it('refuses a year outside the production period, a year twice, a negative quantity, an extra field (422)', async () => {
    const id = await instance('PF-BAD', 2023, 2025);
    for (const body of [
      { production_figures: [{ year: 2022, quantity: 1 }] },
      { production_figures: [{ year: 2026, quantity: 1 }] },
      {
        production_figures: [
          { year: 2024, quantity: 1 },
          { year: 2024, quantity: 2 },
        ],
      },
      { production_figures: [{ year: 2024, quantity: -1 }] },
      { production_figures: [] },
      { production_figures: [{ year: 2024, quantity: 1, unit: 'T' }] },
    ]) {
      const r = await put(id, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.err_code).toBe('err_not_valid');
    }
    expect((await figures(id)).body.production_figures).toEqual([]);
  });

  it('reading needs view:processes, writing edit:processes; the plant must be reachable', async () => {
    const id = await instance('PF-SCOPE', 2024, 2025);
    const readOnly = (await sb.key({ scopes: ['view:processes'] })).key;
    const writer = (await sb.key({ scopes: ['edit:processes'] })).key;
    const none = (await sb.key({ scopes: ['view:products', 'edit:products'] })).key;
    expect((await figures(id, readOnly)).status).toBe(200);
    expect((await put(id, { production_figures: [{ year: 2024, quantity: 5 }] }, readOnly)).status).toBe(403);
    expect((await put(id, { production_figures: [{ year: 2024, quantity: 5 }] }, writer)).status).toBe(200);
    expect((await figures(id, writer)).status).toBe(403);
    const r = await figures(id, none);
    expect(r.status).toBe(403);
    expect(r.body.err_code).toBe('err_permission_denied');

    const elsewhere = await instance('PF-OTHER-PLANT', 2024, 2025, otherPlant);
    const plantKey = (await sb.key({ scopes: ['view:processes', 'edit:processes'], plant_ids: [plant] })).key;
    const denied = await put(elsewhere, { production_figures: [{ year: 2024, quantity: 5 }] }, plantKey);
    expect(denied.status).toBe(403);
    expect(denied.body.err_code).toBe('err_plant_no_access');
    expect((await figures(elsewhere, plantKey)).status).toBe(403);
    expect((await figures(elsewhere)).body.production_figures).toEqual([]);
  });
});

describe('written figures and the LCA year rules', () => {
  it('lift the production_data blocker of past and current years at the next recompute; a future year stays blocked', async () => {
    // current year 2025 (sandbox clock); 2023, 2024 past, 2026 future
    const id = await instance('PF-LCA', 2023, 2026);
    const before = await recompute(id);
    expect(before.map((y) => [y.year, y.status])).toEqual([
      [2023, 'blocked'],
      [2024, 'blocked'],
      [2025, 'blocked'],
      [2026, 'blocked'],
    ]);
    expect(before.every((y) => y.blockers[0].kind === 'production_data')).toBe(true);

    const w = await put(id, {
      production_figures: [
        { year: 2024, quantity: 1000 },
        { year: 2025, quantity: 400 },
        { year: 2026, quantity: 1100 },
      ],
    });
    expect(w.status).toBe(200);
    const after = await recompute(id);
    const byYear = new Map(after.map((y) => [y.year, y]));
    expect(byYear.get(2023)?.status).toBe('blocked'); // not written
    expect(byYear.get(2023)?.blockers[0].code).toBe('blk_production_data_missing');
    expect(byYear.get(2024)?.status).toBe('computed');
    expect(byYear.get(2024)?.production_quantity).toBe(1000);
    expect(byYear.get(2025)?.status).toBe('computed'); // current year: partial, computed once entered
    expect(byYear.get(2025)?.production_quantity).toBe(400);
    expect(byYear.get(2026)?.status).toBe('blocked'); // future: blocked until the year arrives (rule 3)
    expect(byYear.get(2026)?.blockers[0].code).toBe('blk_production_year_not_reached');

    // The future year's figure is kept: once 2026 arrives the next recompute computes it.
    await sb.control('PUT', '/__sandbox/clock', { now: '2026-02-01T12:00:00.000Z' });
    const later = await recompute(id);
    const y2026 = later.find((y) => y.year === 2026);
    expect(y2026?.status).toBe('computed');
    expect(y2026?.production_quantity).toBe(1100);
    await sb.control('PUT', '/__sandbox/clock', { now: '2025-06-15T12:00:00.000Z' });
  });
});
