/**
 * Every endpoint of the spec and of the sandbox's recorded assumptions, through the client, against
 * the in-process sandbox; zod-parsed responses keep unknown fields; preview groups parse leniently.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, type ApiClient } from '../../core/api/index.js';
import { lenientParser } from '../../core/api/parse.js';
import { ProductInstance } from '../../core/spec/schemas.js';
import { catalog, client, sandbox, supplierBase, type Catalog, type Sandbox } from './helpers.js';

let sb: Sandbox;
let c: ApiClient;
let cat: Catalog;

beforeAll(async () => {
  sb = await sandbox('demo');
  c = client(sb);
  cat = await catalog(sb);
});
afterAll(async () => {
  await c.close();
  await sb.close();
});

describe('every endpoint', () => {
  it('GET /v2/me', async () => {
    const me = await c.me();
    expect(me.manufacturer_id).toBe(sb.manufacturerId);
    expect(me.scopes).toContain('edit:materials');
    expect(me.plant_ids.length).toBe(cat.plants.length);
  });

  it('read-only catalog: products (with filters), plants, elementaries, composites', async () => {
    const products = [];
    for await (const p of c.products.walk()) products.push(p);
    expect(products.length).toBe(cat.products.length);
    const withInstance = products.find((p) => p.product_instance_ids.length > 0)!;
    const byInstance = await c.products.list({ product_instance_id: withInstance.product_instance_ids[0] });
    expect(byInstance.data.map((p) => p.id)).toContain(withInstance.id);
    expect((await c.products.findByExternalId(cat.products[0].external_id))?.id).toBe(cat.products[0].id);

    const plant = await c.plants.get(cat.plants[0].id);
    expect(plant.external_id).toBe(cat.plants[0].external_id);
    // unknown fields are kept (passthrough)
    expect(Object.keys(plant)).toContain('country');
    expect((await c.plants.resolveExternalIds(cat.plants.map((p) => p.external_id))).size).toBe(cat.plants.length);

    const els = await c.elementaries.resolveExternalIds(cat.elementaries.map((e) => e.external_id));
    expect(els.size).toBe(cat.elementaries.length);
    const comp = await c.composites.get(cat.composites[0].id);
    expect(comp.id).toBe(cat.composites[0].id);
    expect((await c.composites.list()).data.length).toBe(cat.composites.length);
  });

  it('supplier companies, supplier plants, supplier products: create, list, get, PATCH, DELETE', async () => {
    const { companyId, supplierPlantId } = await supplierBase(c, 'E1');
    expect((await c.supplierCompanies.get(companyId)).external_id).toBe('SC-E1');
    const co = await c.supplierCompanies.update(companyId, { name: 'Renamed GmbH' });
    expect(co.name).toBe('Renamed GmbH');
    const sp = await c.supplierPlants.update(supplierPlantId, { city: 'Bremen' });
    expect(sp.city).toBe('Bremen');
    expect((await c.supplierPlants.findByExternalId('SPL-E1'))?.id).toBe(supplierPlantId);

    const created = await c.supplierProducts.create({
      external_id: 'SP-E1',
      name: 'CEM I 42,5 R',
      plant_id: cat.plants[0].id,
      material_type: { category: 'elementary', elementary_id: cat.elementaries[0].id },
      supplier_plant_id: supplierPlantId,
      transport_route: { truck_km: 120, train_km: 0 },
      hazardous_substances: [],
      secondary_percentage: 12.5,
      unit: 'KG',
    });
    expect(created.outcome).toBe('created');
    expect(created.status).toBe(201);
    const patched = await c.supplierProducts.update(created.entity.id, { transport_route: { truck_km: 80 } });
    expect(patched.transport_route).toEqual({ truck_km: 80 });
    const deleted = await c.supplierProducts.delete(created.entity.id);
    expect(deleted.id).toBe(created.entity.id);
    expect(await c.supplierProducts.findByExternalId('SP-E1')).toBeNull();
  });

  it('silos (idempotent create, PATCH replaces items), product instances, BOM, prechain products, LCA', async () => {
    const { supplierPlantId } = await supplierBase(c, 'E2');
    const mk = (code: string) =>
      c.supplierProducts.create({
        external_id: code,
        name: code,
        plant_id: cat.plants[0].id,
        material_type: { category: 'elementary', elementary_id: cat.elementaries[1].id },
        supplier_plant_id: supplierPlantId,
        unit: 'KG',
      });
    const [a, b] = await Promise.all([mk('SP-E2a'), mk('SP-E2b')]);
    const silo = await c.silos.create({
      external_id: 'SILO-E2',
      plant_id: cat.plants[0].id,
      name: 'Cement silo 1',
      items: [{ supplier_product_id: a.entity.id, annual_items: [{ year: 2024, amount: 10 }] }],
    });
    expect(silo.outcome).toBe('created');
    const patched = await c.silos.update(silo.entity.id, {
      items: [
        { supplier_product_id: a.entity.id, annual_items: [{ year: 2025, amount: 7 }] },
        { supplier_product_id: b.entity.id, annual_items: [{ year: 2025, amount: 3 }] },
      ],
    });
    expect(patched.items.map((i) => i.supplier_product_id).sort()).toEqual([a.entity.id, b.entity.id].sort());
    expect((await c.silos.get(silo.entity.id)).items.length).toBe(2);

    const pi = await c.productInstances.create({
      external_id: 'PI-E2',
      product_id: cat.products[0].id,
      plant_id: cat.plants[0].id,
      produced_from: 2022,
      produced_to: null,
      name: 'Line 2',
    });
    expect(pi.outcome).toBe('created');
    expect((await c.productInstances.get(pi.entity.id)).external_id).toBe('PI-E2');
    expect((await c.productInstances.update(pi.entity.id, { name: 'Line 2b' })).name).toBe('Line 2b');

    const bom = [
      { type: 'supplier_product' as const, ref: a.entity.id, mass_kg: 300 },
      { type: 'silo' as const, ref: silo.entity.id, mass_kg: 20 },
    ];
    const put = await c.bom.put(pi.entity.id, bom);
    expect(put.length).toBe(2);
    const again = await c.bom.put(pi.entity.id, [...bom].reverse());
    expect(again).toEqual(put);
    expect((await c.bom.get(pi.entity.id)).length).toBe(2);
    await expect(c.bom.put(pi.entity.id, [bom[0], bom[0]])).rejects.toMatchObject({
      err_code: 'client_invalid_request',
    });

    const other = (await c.productInstances.list({ limit: 50 })).data.find((x) => x.id !== pi.entity.id)!;
    const pre = await c.prechainProducts.create({
      external_id: 'PRE-E2',
      product_instance_id: other.id,
      plant_id: cat.plants[0].id,
      transport_route: { truck_km: 30 },
    });
    expect(pre.outcome).toBe('created');
    expect(pre.status).toBe(201);
    expect((await c.prechainProducts.get(pre.entity.id)).product_instance_id).toBe(other.id);
    expect((await c.prechainProducts.findByExternalId('PRE-E2'))?.id).toBe(pre.entity.id);
    expect(
      (await c.prechainProducts.update(pre.entity.id, { transport_route: { barge_km: 5 } })).transport_route,
    ).toEqual({ barge_km: 5 });

    const started = await c.lca.update(pi.entity.id);
    expect(['queued', 'processing']).toContain(started.job?.status);
    const res = await c.lca.results(pi.entity.id);
    expect(res.product_instance_id).toBe(pi.entity.id);
    expect(typeof res.job.status).toBe('string');
  });

  it('refuses a create body the service would reject, before sending', async () => {
    const before = c.stats().requests;
    const e = await c.supplierCompanies
      .create({ external_id: 'X', name: 'Y', country: 'Germany', extra: 1 } as never)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).err_code).toBe('client_invalid_request');
    expect((e as ApiError).msg).toMatch(/country|extra/);
    expect(c.stats().requests).toBe(before);
  });
});

describe('preview groups parse leniently', () => {
  it('a missing or renamed optional field is a warning, not a crash; an id is still required', () => {
    const warnings: Record<string, unknown>[] = [];
    const log = { debug() {}, info() {}, error() {}, warn: (o: Record<string, unknown>) => warnings.push(o) };
    const parse = lenientParser(
      ProductInstance,
      ['external_id', 'product_id', 'plant_id', 'produced_from'],
      () => log,
      'Product Instances',
    );
    const id = '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6d';
    const got = parse(
      { id, external_id: 'PI-1', productId: 'x', plant_id: 'not-a-uuid', produced_from: '2020', extra: true },
      'GET /v2/product-instances/{id}',
    );
    expect(got.id).toBe(id);
    expect((got as Record<string, unknown>).extra).toBe(true);
    const fields = warnings.map((w) => w.field).sort();
    expect(fields).toEqual(['plant_id', 'produced_from', 'product_id']);
    parse({ id, external_id: 'PI-2' }, 'GET /v2/product-instances/{id}');
    expect(warnings.length).toBe(3); // once per field
    expect(() => parse({ external_id: 'no id' }, 'GET /v2/product-instances/{id}')).toThrow(ApiError);
  });

  it('frozen resources refuse an answer of another shape', async () => {
    const { strictParser } = await import('../../core/api/parse.js');
    const p = strictParser(z.looseObject({ id: z.string(), name: z.string() }));
    expect(() => p({ id: 'x' }, 'GET /v2/plants/{id}')).toThrow(/client_invalid_response|name/);
  });
});
