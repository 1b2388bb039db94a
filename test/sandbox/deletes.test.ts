/**
 * DELETE of every entity type the API manages: 200 with the deleted entity, gone from every list,
 * external_id freed, a second DELETE is err_not_found; refused with the matching in-use err_code while anything
 * references the entity (naming what does), and allowed once the reference is gone; scopes and plant access.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, supplierProductBody, walk, type Catalog, type Sandbox } from './helpers.js';

let sb: Sandbox;
let cat: Catalog;
let plantA: string;
let plantB: string;
let seq = 0;

const post = async (path: string, body: Record<string, unknown>): Promise<string> => {
  const r = await sb.api('POST', path, { body });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
};
const code = (p: string) => `${p}-${++seq}`;
const company = () => post('/v2/supplier-companies', { external_id: code('DC'), name: 'Del company', country: 'DE' });
const supplierPlant = (companyId: string) =>
  post('/v2/supplier-plants', {
    external_id: code('DSP'),
    name: 'Del plant',
    supplier_company_id: companyId,
    country: 'DE',
  });
const supplierProduct = (supplierPlantId: string, plant = plantA) =>
  post(
    '/v2/supplier-products',
    supplierProductBody({
      external_id: code('DSPR'),
      plant_id: plant,
      elementary_id: cat.elementaries[0].id,
      supplier_plant_id: supplierPlantId,
    }),
  );
const silo = (spId: string, plant = plantA) =>
  post('/v2/silos', {
    external_id: code('DSILO'),
    plant_id: plant,
    name: 'Del silo',
    items: [{ supplier_product_id: spId, annual_items: [] }],
  });
const instance = (plant = plantA) =>
  post('/v2/product-instances', {
    external_id: code('DPI'),
    product_id: cat.products[0].id,
    plant_id: plant,
    produced_from: 2022,
  });
const prechain = (instanceId: string, plant = plantA) =>
  post('/v2/prechain-products', { external_id: code('DPP'), product_instance_id: instanceId, plant_id: plant });
const putBom = (instanceId: string, bom: { type: string; ref: string; mass_kg: number }[]) =>
  sb.api('PUT', `/v2/product-instances/${instanceId}/bom`, { body: { bom } });

/** path of each collection → how to make one unreferenced entity of it. */
const makers: [string, () => Promise<string>][] = [
  ['/v2/supplier-companies', () => company()],
  ['/v2/supplier-plants', async () => supplierPlant(await company())],
  ['/v2/supplier-products', async () => supplierProduct(await supplierPlant(await company()))],
  ['/v2/silos', async () => silo(await supplierProduct(await supplierPlant(await company())))],
  ['/v2/product-instances', () => instance()],
  ['/v2/prechain-products', async () => prechain(await instance())],
];

beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
  cat = await sb.catalog();
  [plantA, plantB] = cat.plants.map((p) => p.id);
});
afterAll(() => sb.close());

describe('DELETE on the item path of every entity type', () => {
  it.each(makers)(
    '%s/{id}: 200 with the entity, gone from the list, code freed, a second DELETE is not found',
    async (path, make) => {
      const id = await make();
      const before = await sb.api('GET', `${path}/${id}`);
      expect(before.status).toBe(200);
      const del = await sb.api('DELETE', `${path}/${id}`);
      expect(del.status).toBe(200);
      expect(del.body).toEqual(before.body);
      expect((await walk(sb, `${path}?limit=200`)).items.map((e) => e.id)).not.toContain(id);
      const byCode = await sb.api('GET', `${path}?external_id=${encodeURIComponent(before.body.external_id)}`);
      expect(byCode.body.data).toEqual([]);
      const gone = await sb.api('GET', `${path}/${id}`);
      expect(gone.body.err_code).toBe('err_not_found');
      const again = await sb.api('DELETE', `${path}/${id}`);
      expect(again.status).toBe(422);
      expect(again.body.err_code).toBe('err_not_found');
    },
  );
});

describe('in-use refusals name what still references the entity', () => {
  const refused = async (path: string, id: string, errCode: string, user: string) => {
    const r = await sb.api('DELETE', `${path}/${id}`);
    expect(r.status).toBe(409);
    expect(r.body.err_code).toBe(errCode);
    expect(r.body.msg).toContain(user);
    expect((await sb.api('GET', `${path}/${id}`)).status).toBe(200);
  };

  it('a supplier company with a supplier plant: err_supplier_in_use until the plant is deleted', async () => {
    const c = await company();
    const p = await supplierPlant(c);
    await refused('/v2/supplier-companies', c, 'err_supplier_in_use', p);
    expect((await sb.api('DELETE', `/v2/supplier-plants/${p}`)).status).toBe(200);
    expect((await sb.api('DELETE', `/v2/supplier-companies/${c}`)).status).toBe(200);
  });

  it('a supplier plant with a supplier product: err_supplier_plant_in_use', async () => {
    const p = await supplierPlant(await company());
    const sp = await supplierProduct(p);
    await refused('/v2/supplier-plants', p, 'err_supplier_plant_in_use', sp);
    expect((await sb.api('DELETE', `/v2/supplier-products/${sp}`)).status).toBe(200);
    expect((await sb.api('DELETE', `/v2/supplier-plants/${p}`)).status).toBe(200);
  });

  it('a supplier product in a BOM (err_supplier_product_in_recipe) and in a silo (err_supplier_product_in_silo)', async () => {
    const p = await supplierPlant(await company());
    const sp = await supplierProduct(p);
    const s = await silo(sp);
    const inst = await instance();
    expect((await putBom(inst, [{ type: 'supplier_product', ref: sp, mass_kg: 3 }])).status).toBe(200);
    await refused('/v2/supplier-products', sp, 'err_supplier_product_in_recipe', inst);
    expect((await putBom(inst, [])).status).toBe(200);
    await refused('/v2/supplier-products', sp, 'err_supplier_product_in_silo', s);
  });

  it('a silo in a BOM: err_silo_in_use; deletable once the BOM no longer has it', async () => {
    const s = await silo(await supplierProduct(await supplierPlant(await company())));
    const inst = await instance();
    expect((await putBom(inst, [{ type: 'silo', ref: s, mass_kg: 100 }])).status).toBe(200);
    await refused('/v2/silos', s, 'err_silo_in_use', inst);
    expect((await putBom(inst, [])).status).toBe(200);
    expect((await sb.api('DELETE', `/v2/silos/${s}`)).status).toBe(200);
  });

  it("a product instance used as a prechain product's input: err_product_instance_in_recipe", async () => {
    const inst = await instance();
    const pp = await prechain(inst);
    await refused('/v2/product-instances', inst, 'err_product_instance_in_recipe', pp);
    expect((await sb.api('DELETE', `/v2/prechain-products/${pp}`)).status).toBe(200);
    expect((await sb.api('DELETE', `/v2/product-instances/${inst}`)).status).toBe(200);
  });

  it('a prechain product in a BOM: err_prechain_product_in_recipe', async () => {
    const pp = await prechain(await instance(plantB), plantA);
    const inst = await instance();
    expect((await putBom(inst, [{ type: 'prechain_product', ref: pp, mass_kg: 7 }])).status).toBe(200);
    await refused('/v2/prechain-products', pp, 'err_prechain_product_in_recipe', inst);
  });
});

describe('what goes with a deleted product instance', () => {
  it('its BOM and LCA state go; its product no longer lists it; the entitlement counts it no more', async () => {
    const sp = await supplierProduct(await supplierPlant(await company()));
    const inst = await instance();
    expect((await putBom(inst, [{ type: 'supplier_product', ref: sp, mass_kg: 3 }])).status).toBe(200);
    const product = async () =>
      (await sb.api('GET', `/v2/products?external_id=${encodeURIComponent(cat.products[0].external_id)}`)).body.data[0];
    expect((await product()).product_instance_ids).toContain(inst);
    const active = (await walk(sb, '/v2/product-instances?limit=200')).items.length;
    expect((await sb.control('PUT', '/__sandbox/entitlements', { product_instances: active })).status).toBe(200);
    expect(
      (
        await sb.api('POST', '/v2/product-instances', {
          body: { product_id: cat.products[0].id, plant_id: plantA, produced_from: 2022 },
        })
      ).status,
    ).toBe(403);
    expect((await sb.api('DELETE', `/v2/product-instances/${inst}`)).status).toBe(200);
    expect((await product()).product_instance_ids).not.toContain(inst);
    // the supplier product is no longer in any BOM, so it can go too
    expect((await sb.api('DELETE', `/v2/supplier-products/${sp}`)).status).toBe(200);
    expect(
      (
        await sb.api('POST', '/v2/product-instances', {
          body: { product_id: cat.products[0].id, plant_id: plantA, produced_from: 2022 },
        })
      ).status,
    ).toBe(201);
    expect((await sb.control('PUT', '/__sandbox/entitlements', { product_instances: null })).status).toBe(200);
  });
});

describe('scopes and plant access on DELETE', () => {
  it('view:materials alone cannot delete (403); edit:products deletes instances, edit:materials the rest', async () => {
    const c = await company();
    const viewOnly = await sb.key({ scopes: ['view:materials', 'view:products'] });
    const r = await sb.api('DELETE', `/v2/supplier-companies/${c}`, { key: viewOnly.key });
    expect(r.status).toBe(403);
    const inst = await instance();
    const materialsOnly = await sb.key({ scopes: ['view:products', 'edit:materials'] });
    expect((await sb.api('DELETE', `/v2/product-instances/${inst}`, { key: materialsOnly.key })).status).toBe(403);
    expect((await sb.api('DELETE', `/v2/supplier-companies/${c}`, { key: materialsOnly.key })).status).toBe(200);
  });

  it('a key restricted to another plant cannot delete a silo, instance or prechain product of plant A', async () => {
    const s = await silo(await supplierProduct(await supplierPlant(await company())));
    const inst = await instance();
    const pp = await prechain(await instance(plantB), plantA);
    const other = await sb.key({
      scopes: ['view:materials', 'edit:materials', 'view:products', 'edit:products'],
      plant_ids: [plantB],
    });
    for (const [path, id] of [
      ['/v2/silos', s],
      ['/v2/product-instances', inst],
      ['/v2/prechain-products', pp],
    ]) {
      const r = await sb.api('DELETE', `${path}/${id}`, { key: other.key });
      expect(r.status, path).toBe(403);
      expect((await sb.api('GET', `${path}/${id}`)).status).toBe(200);
    }
  });
});
