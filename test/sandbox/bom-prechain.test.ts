/** BOM (PUT replaces the set) and prechain products (circular references, one per instance and plant). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../core/spec/scopes.js';
import { sandbox, supplierProductBody, supplierSetup, type Catalog, type Sandbox } from './helpers.js';

let sb: Sandbox;
let cat: Catalog;
let plantA: string;
let plantB: string;
let spA1: string;
let spA2: string;
let spB: string;
let siloA: string;
let instA: string;

async function instance(plant: string, code: string): Promise<string> {
  const r = await sb.api('POST', '/v2/product-instances', {
    body: { external_id: code, product_id: cat.products[0].id, plant_id: plant, produced_from: 2022 },
  });
  expect(r.status).toBe(201);
  return r.body.id;
}

async function prechain(instanceId: string, plant: string): Promise<string> {
  const r = await sb.api('POST', '/v2/prechain-products', {
    body: { product_instance_id: instanceId, plant_id: plant },
  });
  expect(r.status).toBe(201);
  return r.body.id;
}

const putBom = (id: string, bom: unknown[], key?: string) =>
  sb.api('PUT', `/v2/product-instances/${id}/bom`, { body: { bom }, key });

beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
  const s = await supplierSetup(sb, 'BOM');
  cat = s.cat;
  [plantA, plantB] = cat.plants.map((p) => p.id);
  const mk = async (code: string, plant: string) =>
    (
      await sb.api('POST', '/v2/supplier-products', {
        body: supplierProductBody({
          external_id: code,
          plant_id: plant,
          elementary_id: cat.elementaries[0].id,
          supplier_plant_id: s.supplierPlantId,
        }),
      })
    ).body.id as string;
  spA1 = await mk('BOM-A1', plantA);
  spA2 = await mk('BOM-A2', plantA);
  spB = await mk('BOM-B', plantB);
  siloA = (
    await sb.api('POST', '/v2/silos', {
      body: { plant_id: plantA, name: 'silo', items: [{ supplier_product_id: spA2, annual_items: [] }] },
    })
  ).body.id;
  instA = await instance(plantA, 'BOM-I-A');
});
afterAll(() => sb.close());

describe('PUT /v2/product-instances/{id}/bom', () => {
  it('replaces the whole set and reads back in a stable order that is not the order sent', async () => {
    const sent = [
      { type: 'supplier_product', ref: spB, mass_kg: 1 },
      { type: 'silo', ref: siloA, mass_kg: 250 },
      { type: 'supplier_product', ref: spA1, mass_kg: 12.5 },
    ];
    const r = await putBom(instA, sent);
    expect(r.status).toBe(200);
    const sortedSent = [...sent].sort((a, b) => (a.type + a.ref < b.type + b.ref ? -1 : 1));
    expect(r.body.bom).toEqual(sortedSent);
    expect(r.body.bom).not.toEqual(sent);
    const got = await sb.api('GET', `/v2/product-instances/${instA}/bom`);
    expect(got.body).toEqual(r.body);
    // Replace with a smaller set: the old components are gone.
    const smaller = await putBom(instA, [{ type: 'supplier_product', ref: spA1, mass_kg: 3 }]);
    expect(smaller.body.bom).toEqual([{ type: 'supplier_product', ref: spA1, mass_kg: 3 }]);
  });

  it('re-sending the same components is a no-op', async () => {
    const bom = [
      { type: 'supplier_product', ref: spA1, mass_kg: 5 },
      { type: 'silo', ref: siloA, mass_kg: 7 },
    ];
    const first = await putBom(instA, bom);
    const again = await putBom(instA, [...bom].reverse());
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('a (type, ref) pair twice gives 422 err_not_valid and changes nothing', async () => {
    const before = (await sb.api('GET', `/v2/product-instances/${instA}/bom`)).body;
    const r = await putBom(instA, [
      { type: 'supplier_product', ref: spA1, mass_kg: 5 },
      { type: 'supplier_product', ref: spA1, mass_kg: 6 },
    ]);
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_not_valid');
    expect((await sb.api('GET', `/v2/product-instances/${instA}/bom`)).body).toEqual(before);
  });

  it('unknown refs, a ref of the wrong type, and non-positive masses are rejected with 422', async () => {
    const unknown = await putBom(instA, [
      { type: 'supplier_product', ref: '00000000-0000-4000-8000-000000000000', mass_kg: 1 },
    ]);
    expect(unknown.status).toBe(422);
    expect(unknown.body.err_code).toBe('err_not_found');
    const wrongType = await putBom(instA, [{ type: 'silo', ref: spA1, mass_kg: 1 }]);
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.err_code).toBe('err_not_found');
    const zero = await putBom(instA, [{ type: 'supplier_product', ref: spA1, mass_kg: 0 }]);
    expect(zero.status).toBe(422);
    expect(zero.body.err_code).toBe('err_not_valid');
    const badType = await putBom(instA, [{ type: 'material', ref: spA1, mass_kg: 1 }]);
    expect(badType.status).toBe(422);
  });

  it('every component must sit at a plant the key reaches, even when the instance is reachable (403)', async () => {
    const k = await sb.key({ scopes: [...SCOPES], plant_ids: [plantA] });
    const ok = await putBom(instA, [{ type: 'supplier_product', ref: spA1, mass_kg: 1 }], k.key);
    expect(ok.status).toBe(200);
    const r = await putBom(instA, [{ type: 'supplier_product', ref: spB, mass_kg: 1 }], k.key);
    expect(r.status).toBe(403);
    expect(r.body.err_code).toBe('err_plant_no_access');
    const instB = await instance(plantB, 'BOM-I-B');
    const other = await putBom(instB, [], k.key);
    expect(other.status).toBe(403);
    expect(other.body.err_code).toBe('err_plant_no_access');
  });

  it('reading a BOM needs view:recipes, writing it edit:recipes', async () => {
    const k = await sb.key({ scopes: ['view:products', 'edit:products'] });
    expect((await sb.api('GET', `/v2/product-instances/${instA}/bom`, { key: k.key })).status).toBe(403);
    expect((await putBom(instA, [], k.key)).status).toBe(403);
  });

  it('a supplier product in a BOM cannot be deleted: 409 err_supplier_product_in_recipe', async () => {
    await putBom(instA, [{ type: 'supplier_product', ref: spA1, mass_kg: 1 }]);
    const r = await sb.api('DELETE', `/v2/supplier-products/${spA1}`);
    expect(r.status).toBe(409);
    expect(r.body.err_code).toBe('err_supplier_product_in_recipe');
    await putBom(instA, []);
    const del = await sb.api('DELETE', `/v2/supplier-products/${spA1}`);
    expect(del.status).toBe(200);
    // Re-create it for later tests.
    spA1 = (
      await sb.api('POST', '/v2/supplier-products', {
        body: {
          ...del.body,
          id: undefined,
          created_at: undefined,
          impacts_per_kg: undefined,
          transport_impacts_per_kg: undefined,
          secondary_datasets: undefined,
        },
      })
    ).body.id;
    expect(spA1).toBeTruthy();
  });
});

describe('prechain products', () => {
  it('a second prechain product for the same instance at the same plant → 409 err_prechain_product_exists', async () => {
    const i = await instance(plantB, 'PC-I-1');
    await prechain(i, plantA);
    const r = await sb.api('POST', '/v2/prechain-products', { body: { product_instance_id: i, plant_id: plantA } });
    expect(r.status).toBe(409);
    expect(r.body.err_code).toBe('err_prechain_product_exists');
    // Another consuming plant is fine.
    await prechain(i, plantB);
  });

  it('an unknown instance is refused; the consuming plant must be reachable', async () => {
    const r = await sb.api('POST', '/v2/prechain-products', {
      body: { product_instance_id: '00000000-0000-4000-8000-000000000000', plant_id: plantA },
    });
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_not_found');
    const i = await instance(plantA, 'PC-I-2');
    const k = await sb.key({ scopes: [...SCOPES], plant_ids: [plantA] });
    const denied = await sb.api('POST', '/v2/prechain-products', {
      key: k.key,
      body: { product_instance_id: i, plant_id: plantB },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.err_code).toBe('err_plant_no_access');
  });

  it('an instance cannot use itself: 422 err_prechain_circular_reference', async () => {
    const i = await instance(plantA, 'PC-SELF');
    const pc = await prechain(i, plantA);
    const r = await putBom(i, [{ type: 'prechain_product', ref: pc, mass_kg: 2 }]);
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_prechain_circular_reference');
  });

  it('a longer loop X → Y → Z → X is rejected at the BOM that closes it', async () => {
    const x = await instance(plantA, 'PC-X');
    const y = await instance(plantA, 'PC-Y');
    const z = await instance(plantA, 'PC-Z');
    const pcX = await prechain(x, plantA);
    const pcY = await prechain(y, plantA);
    const pcZ = await prechain(z, plantA);
    expect((await putBom(x, [{ type: 'prechain_product', ref: pcY, mass_kg: 1 }])).status).toBe(200);
    expect((await putBom(y, [{ type: 'prechain_product', ref: pcZ, mass_kg: 1 }])).status).toBe(200);
    const r = await putBom(z, [{ type: 'prechain_product', ref: pcX, mass_kg: 1 }]);
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_prechain_circular_reference');
    // A diamond is not a loop.
    const w = await instance(plantA, 'PC-W');
    expect(
      (
        await putBom(w, [
          { type: 'prechain_product', ref: pcX, mass_kg: 1 },
          { type: 'prechain_product', ref: pcY, mass_kg: 1 },
        ])
      ).status,
    ).toBe(200);
  });

  it('PATCH of a prechain product that would close a loop is rejected and changes nothing', async () => {
    const p = await instance(plantA, 'PC-P');
    const q = await instance(plantA, 'PC-Q');
    const pcQ = await prechain(q, plantA);
    expect((await putBom(p, [{ type: 'prechain_product', ref: pcQ, mass_kg: 1 }])).status).toBe(200);
    const r = await sb.api('PATCH', `/v2/prechain-products/${pcQ}`, { body: { product_instance_id: p } });
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_prechain_circular_reference');
    expect((await sb.api('GET', `/v2/prechain-products/${pcQ}`)).body.product_instance_id).toBe(q);
  });
});
