/**
 * Entities written through the API: create payloads (strict), external_id uniqueness (freed on delete),
 * material-property codes, PATCH, DELETE, and the products' derived fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, supplierProductBody, supplierSetup, type Catalog, type Sandbox } from './helpers.js';

let sb: Sandbox;
let cat: Catalog;
let supplierPlantId: string;
let companyId: string;
let plant: string;
let elementary: string;

beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
  ({ cat, supplierPlantId, companyId } = await supplierSetup(sb, 'ENT'));
  plant = cat.plants[0].id;
  elementary = cat.elementaries[0].id;
});
afterAll(() => sb.close());

const sp = (external_id: string, extra: Record<string, unknown> = {}) =>
  supplierProductBody({
    external_id,
    plant_id: plant,
    elementary_id: elementary,
    supplier_plant_id: supplierPlantId,
    ...extra,
  });

describe('create payloads', () => {
  it('a supplier company is created with 201 and the fields sent, plus id and created_at', async () => {
    const r = await sb.api('POST', '/v2/supplier-companies', {
      body: { external_id: 'ENT-C1', name: 'Kies Müller GmbH', country: 'AT' },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ external_id: 'ENT-C1', name: 'Kies Müller GmbH', country: 'AT' });
    expect(r.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(r.body.created_at)).not.toBeNaN();
    const got = await sb.api('GET', `/v2/supplier-companies/${r.body.id}`);
    expect(got.body).toEqual(r.body);
  });

  it('extra fields are rejected with 422 err_not_valid on every create', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['/v2/supplier-companies', { name: 'x', colour: 'red' }],
      ['/v2/supplier-plants', { name: 'x', supplier_company_id: companyId, zip: '1' }],
      ['/v2/supplier-products', { ...sp('ENT-X1'), density: 2 }],
      ['/v2/silos', { plant_id: plant, name: 's', items: [], extra: true }],
      ['/v2/product-instances', { product_id: cat.products[0].id, plant_id: plant, produced_from: 2020, x: 1 }],
      ['/v2/prechain-products', { product_instance_id: cat.products[0].id, plant_id: plant, foo: 1 }],
    ];
    for (const [path, body] of cases) {
      const r = await sb.api('POST', path, { body });
      expect(r.status, path).toBe(422);
      expect(r.body.err_code).toBe('err_not_valid');
    }
  });

  it('a supplier plant needs an existing supplier_company_id', async () => {
    const missing = await sb.api('POST', '/v2/supplier-plants', { body: { name: 'x' } });
    expect(missing.status).toBe(422);
    expect(missing.body.err_code).toBe('err_not_valid');
    const unknown = await sb.api('POST', '/v2/supplier-plants', {
      body: { name: 'x', supplier_company_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.err_code).toBe('err_not_found');
  });

  it('a supplier product is created with the create fields and null impacts until computed', async () => {
    const r = await sb.api('POST', '/v2/supplier-products', {
      body: sp('ENT-SP1', {
        transport_route: { truck_km: 120, ship_km: 300 },
        hazardous_substances: [{ cas_number: '7732-18-5', mass_share: 0.1 }],
        lifetime_years: 50,
        secondary_percentage: 20,
        moisture_content_percentage: 3,
        epd_id: '11111111-1111-4111-8111-111111111111',
      }),
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      external_id: 'ENT-SP1',
      plant_id: plant,
      material_type: { category: 'elementary', elementary_id: elementary },
      supplier_plant_id: supplierPlantId,
      transport_route: { truck_km: 120, ship_km: 300 },
      hazardous_substances: [{ cas_number: '7732-18-5', mass_share: 0.1 }],
      lifetime_years: 50,
      secondary_percentage: 20,
      moisture_content_percentage: 3,
      unit: 'KG',
      impacts_per_kg: null,
      transport_impacts_per_kg: null,
      secondary_datasets: null,
    });
  });

  it('a composite material type is accepted; unknown material types are err_material_type_not_found', async () => {
    const composite = cat.composites[0];
    const ok = await sb.api('POST', '/v2/supplier-products', {
      body: { ...sp('ENT-COMP'), material_type: { category: 'composite', composite_id: composite.id } },
    });
    expect(ok.status).toBe(201);
    const comp = await sb.api('GET', `/v2/composites/${composite.id}`);
    expect(comp.body).toMatchObject({ id: composite.id, name: composite.name });
    const bad = await sb.api('POST', '/v2/supplier-products', {
      body: {
        ...sp('ENT-BADMT'),
        material_type: { category: 'elementary', elementary_id: '00000000-0000-4000-8000-000000000000' },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.err_code).toBe('err_material_type_not_found');
  });

  it.each([
    [{ secondary_percentage: 101 }, 'err_invalid_secondary_percentage_range'],
    [{ secondary_percentage: -1 }, 'err_invalid_secondary_percentage_range'],
    [{ moisture_content_percentage: 150 }, 'err_invalid_moisture_content_range'],
    [{ lifetime_years: 0 }, 'err_invalid_lifetime_years'],
    [{ hazardous_substances: [{ cas_number: 'abc', mass_share: 0.1 }] }, 'err_not_valid'],
    [{ transport_route: { truck_km: -5 } }, 'err_not_valid'],
    [{ unit: 'BAGS' }, 'err_not_valid'],
  ])('material properties %j → 422 %s', async (extra, code) => {
    const r = await sb.api('POST', '/v2/supplier-products', { body: sp(`ENT-MP-${code}`, extra) });
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe(code);
  });

  it('an unknown plant is err_plant_not_found', async () => {
    const r = await sb.api('POST', '/v2/supplier-products', {
      body: sp('ENT-NOPLANT', { plant_id: '00000000-0000-4000-8000-000000000000' }),
    });
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_plant_not_found');
  });
});

describe('external_id', () => {
  it('is unique per entity type among active entities: 409 err_external_id_exists', async () => {
    expect(
      (await sb.api('POST', '/v2/supplier-companies', { body: { external_id: 'ENT-DUP', name: 'a' } })).status,
    ).toBe(201);
    const dup = await sb.api('POST', '/v2/supplier-companies', { body: { external_id: 'ENT-DUP', name: 'b' } });
    expect(dup.status).toBe(409);
    expect(dup.body.err_code).toBe('err_external_id_exists');
    // Another entity type may carry the same code.
    const otherType = await sb.api('POST', '/v2/supplier-plants', {
      body: { external_id: 'ENT-DUP', name: 'p', supplier_company_id: companyId },
    });
    expect(otherType.status).toBe(201);
  });

  it('a deleted supplier product frees its code; GET by id then reports it gone', async () => {
    const a = await sb.api('POST', '/v2/supplier-products', { body: sp('ENT-FREE') });
    expect(a.status).toBe(201);
    expect((await sb.api('POST', '/v2/supplier-products', { body: sp('ENT-FREE') })).status).toBe(409);
    const del = await sb.api('DELETE', `/v2/supplier-products/${a.body.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual(a.body);
    const gone = await sb.api('GET', `/v2/supplier-products/${a.body.id}`);
    expect(gone.status).toBe(422);
    expect(gone.body.err_code).toBe('err_not_found');
    expect((await sb.api('DELETE', `/v2/supplier-products/${a.body.id}`)).status).toBe(422);
    const again = await sb.api('POST', '/v2/supplier-products', { body: sp('ENT-FREE') });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(a.body.id);
    const found = await sb.api('GET', '/v2/supplier-products?external_id=ENT-FREE');
    expect(found.body.data.map((x: { id: string }) => x.id)).toEqual([again.body.id]);
    const state = await sb.control('GET', '/__sandbox/state');
    expect(state.body.supplier_products.deleted).toBeGreaterThanOrEqual(1);
  });

  it('PATCH keeps codes unique and can free a code', async () => {
    const a = await sb.api('POST', '/v2/supplier-companies', { body: { external_id: 'ENT-PA', name: 'a' } });
    const b = await sb.api('POST', '/v2/supplier-companies', { body: { external_id: 'ENT-PB', name: 'b' } });
    const clash = await sb.api('PATCH', `/v2/supplier-companies/${b.body.id}`, { body: { external_id: 'ENT-PA' } });
    expect(clash.status).toBe(409);
    expect(clash.body.err_code).toBe('err_external_id_exists');
    const same = await sb.api('PATCH', `/v2/supplier-companies/${a.body.id}`, {
      body: { external_id: 'ENT-PA', name: 'a2' },
    });
    expect(same.status).toBe(200);
    const renamed = await sb.api('PATCH', `/v2/supplier-companies/${a.body.id}`, { body: { external_id: 'ENT-PA2' } });
    expect(renamed.body.external_id).toBe('ENT-PA2');
    expect(
      (await sb.api('PATCH', `/v2/supplier-companies/${b.body.id}`, { body: { external_id: 'ENT-PA' } })).status,
    ).toBe(200);
  });
});

describe('PATCH', () => {
  it('is a partial update: absent fields keep their value, same validation, 200 with the entity', async () => {
    const a = await sb.api('POST', '/v2/supplier-products', { body: sp('ENT-PATCH', { secondary_percentage: 10 }) });
    const r = await sb.api('PATCH', `/v2/supplier-products/${a.body.id}`, {
      body: { name: 'Renamed', transport_route: { train_km: 80 } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: 'Renamed',
      secondary_percentage: 10,
      transport_route: { train_km: 80 },
      external_id: 'ENT-PATCH',
    });
    expect((await sb.api('GET', `/v2/supplier-products/${a.body.id}`)).body).toEqual(r.body);
    const bad = await sb.api('PATCH', `/v2/supplier-products/${a.body.id}`, { body: { secondary_percentage: 300 } });
    expect(bad.status).toBe(422);
    expect(bad.body.err_code).toBe('err_invalid_secondary_percentage_range');
    const extra = await sb.api('PATCH', `/v2/supplier-products/${a.body.id}`, { body: { nope: 1 } });
    expect(extra.status).toBe(422);
    const cleared = await sb.api('PATCH', `/v2/supplier-products/${a.body.id}`, {
      body: { secondary_percentage: null },
    });
    expect(cleared.body.secondary_percentage).toBeNull();
  });

  it('works on supplier plants and product instances', async () => {
    const p = await sb.api('POST', '/v2/supplier-plants', {
      body: { name: 'P', supplier_company_id: companyId, city: 'Ulm' },
    });
    const r = await sb.api('PATCH', `/v2/supplier-plants/${p.body.id}`, { body: { city: 'Bonn' } });
    expect(r.body).toMatchObject({ name: 'P', city: 'Bonn', supplier_company_id: companyId });
    const inst = await sb.api('POST', '/v2/product-instances', {
      body: {
        external_id: 'ENT-PI',
        product_id: cat.products[0].id,
        plant_id: plant,
        produced_from: 2020,
        produced_to: null,
      },
    });
    expect(inst.status).toBe(201);
    expect(inst.body).toMatchObject({ external_id: 'ENT-PI', produced_from: 2020, produced_to: null });
    const pi = await sb.api('PATCH', `/v2/product-instances/${inst.body.id}`, { body: { produced_to: 2022 } });
    expect(pi.body.produced_to).toBe(2022);
    const bad = await sb.api('PATCH', `/v2/product-instances/${inst.body.id}`, { body: { produced_to: 2010 } });
    expect(bad.status).toBe(422);
  });

  it('service ids in a PATCH body are stored in lower case; your external_id is kept as sent', async () => {
    const p = await sb.api('POST', '/v2/supplier-plants', { body: { name: 'P2', supplier_company_id: companyId } });
    const r = await sb.api('PATCH', `/v2/supplier-plants/${p.body.id}`, {
      body: { external_id: 'ENT-Upper', supplier_company_id: companyId.toUpperCase() },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ external_id: 'ENT-Upper', supplier_company_id: companyId });
    const a = await sb.api('POST', '/v2/supplier-products', { body: sp('ENT-LOWER') });
    const moved = await sb.api('PATCH', `/v2/supplier-products/${a.body.id}`, {
      body: { plant_id: plant.toUpperCase(), supplier_plant_id: supplierPlantId.toUpperCase() },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ plant_id: plant, supplier_plant_id: supplierPlantId });
  });

  it('an unknown or malformed id gives 422 (err_not_found / err_not_valid)', async () => {
    const unknown = await sb.api('PATCH', '/v2/supplier-companies/00000000-0000-4000-8000-000000000000', {
      body: { name: 'x' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.err_code).toBe('err_not_found');
    const malformed = await sb.api('GET', '/v2/supplier-companies/123');
    expect(malformed.status).toBe(422);
    expect(malformed.body.err_code).toBe('err_not_valid');
  });
});

describe('products (read only)', () => {
  it('derive product_instance_ids and plant_ids from active instances; the filter by instance finds the product', async () => {
    const product = cat.products[5];
    const before = await sb.api('GET', `/v2/products?external_id=${encodeURIComponent(product.external_id)}`);
    expect(before.body.data[0].product_instance_ids).toEqual([]);
    expect(before.body.data[0].plant_ids).toEqual([]);
    const i1 = await sb.api('POST', '/v2/product-instances', {
      body: { product_id: product.id, plant_id: cat.plants[0].id, produced_from: 2021 },
    });
    const i2 = await sb.api('POST', '/v2/product-instances', {
      body: { product_id: product.id, plant_id: cat.plants[1].id, produced_from: 2022 },
    });
    const after = await sb.api('GET', `/v2/products?external_id=${encodeURIComponent(product.external_id)}`);
    expect([...after.body.data[0].product_instance_ids].sort()).toEqual([i1.body.id, i2.body.id].sort());
    expect([...after.body.data[0].plant_ids].sort()).toEqual([cat.plants[0].id, cat.plants[1].id].sort());
    const byInstance = await sb.api('GET', `/v2/products?product_instance_id=${i2.body.id}`);
    expect(byInstance.body.data.map((p: { id: string }) => p.id)).toEqual([product.id]);
    const none = await sb.api('GET', '/v2/products?product_instance_id=00000000-0000-4000-8000-000000000000');
    expect(none.body.data).toEqual([]);
    // Moving an instance to another product updates both products.
    await sb.api('PATCH', `/v2/product-instances/${i2.body.id}`, { body: { product_id: cat.products[6].id } });
    const moved = await sb.api('GET', `/v2/products?product_instance_id=${i2.body.id}`);
    expect(moved.body.data[0].id).toBe(cat.products[6].id);
    const old = await sb.api('GET', `/v2/products?external_id=${encodeURIComponent(product.external_id)}`);
    expect(old.body.data[0].product_instance_ids).toEqual([i1.body.id]);
  });

  it('external_id and product_instance_id combine with AND: a match gives the product, a non-match empty data', async () => {
    const [product, other] = [cat.products[7], cat.products[8]];
    const inst = await sb.api('POST', '/v2/product-instances', {
      body: { product_id: product.id, plant_id: cat.plants[0].id, produced_from: 2021 },
    });
    expect(inst.status).toBe(201);
    const q = (code: string) =>
      `/v2/products?external_id=${encodeURIComponent(code)}&product_instance_id=${inst.body.id}`;
    const match = await sb.api('GET', q(product.external_id));
    expect(match.status).toBe(200);
    expect(match.body.data.map((p: { id: string }) => p.id)).toEqual([product.id]);
    // Another product's code with this instance: no product carries both, so nothing matches.
    const mismatch = await sb.api('GET', q(other.external_id));
    expect(mismatch.status).toBe(200);
    expect(mismatch.body).toEqual({ data: [], next_cursor: null });
    const unknownInstance = await sb.api(
      'GET',
      `/v2/products?external_id=${encodeURIComponent(product.external_id)}&product_instance_id=00000000-0000-4000-8000-000000000000`,
    );
    expect(unknownInstance.body.data).toEqual([]);
  });

  it('cannot be written through the API', async () => {
    const r = await sb.api('POST', '/v2/products', { body: { name: 'x' } });
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_not_found');
  });

  it('a product instance needs a known product', async () => {
    const r = await sb.api('POST', '/v2/product-instances', {
      body: { product_id: '00000000-0000-4000-8000-000000000000', plant_id: plant, produced_from: 2020 },
    });
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_not_found');
  });
});
