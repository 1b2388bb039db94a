/** Pagination of collection GETs (spec "Pagination" rules 1–4). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, walk, type Catalog, type Sandbox } from './helpers.js';

const N = 1001;
let sb: Sandbox;
let cat: Catalog;
let createdOrder: string[];

beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
  cat = await sb.catalog();
  // Creation order through the API: companies one by one.
  createdOrder = [];
  for (let i = 0; i < 30; i++) {
    const r = await sb.api('POST', '/v2/supplier-companies', {
      body: { external_id: `PG-C-${i}`, name: `Company ${i}` },
    });
    createdOrder.push(r.body.id);
  }
  const bulk = await sb.control('POST', '/__sandbox/bulk/supplier-products', {
    count: N,
    external_id_prefix: 'PG-',
    with_supplier_plant: false,
  });
  expect(bulk.status).toBe(200);
});
afterAll(() => sb.close());

describe('limit', () => {
  it('defaults to 50', async () => {
    const r = await sb.api('GET', '/v2/supplier-products');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(50);
    expect(typeof r.body.next_cursor).toBe('string');
  });

  it.each(['0', '201', '-1', 'abc', '1.5', ''])('limit=%s gives 422 err_not_valid', async (limit) => {
    const r = await sb.api('GET', `/v2/supplier-products?limit=${limit}`);
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_not_valid');
  });

  it('accepts 1 and 200', async () => {
    expect((await sb.api('GET', '/v2/supplier-products?limit=1')).body.data).toHaveLength(1);
    expect((await sb.api('GET', '/v2/supplier-products?limit=200')).body.data).toHaveLength(200);
  });

  it('a repeated parameter is refused', async () => {
    const r = await sb.api('GET', '/v2/supplier-products?limit=5&limit=6');
    expect(r.status).toBe(422);
  });
});

describe('cursor', () => {
  it.each(['garbage!', 'eyJ2Ijo5OX0', 'bm90IGpzb24', '%00'])(
    'an undecodable cursor (%s) gives 422 err_not_valid',
    async (c) => {
      const r = await sb.api('GET', `/v2/supplier-products?cursor=${c}`);
      expect(r.status).toBe(422);
      expect(r.body.err_code).toBe('err_not_valid');
    },
  );

  it('a cursor belongs to its query: another limit or another filter gives 422', async () => {
    const first = await sb.api('GET', '/v2/supplier-products?limit=7');
    const c = encodeURIComponent(first.body.next_cursor);
    expect((await sb.api('GET', `/v2/supplier-products?limit=7&cursor=${c}`)).status).toBe(200);
    const otherLimit = await sb.api('GET', `/v2/supplier-products?limit=8&cursor=${c}`);
    expect(otherLimit.status).toBe(422);
    expect(otherLimit.body.err_code).toBe('err_not_valid');
    const defaultLimit = await sb.api('GET', `/v2/supplier-products?cursor=${c}`);
    expect(defaultLimit.status).toBe(422);
    const otherResource = await sb.api('GET', `/v2/supplier-companies?limit=7&cursor=${c}`);
    expect(otherResource.status).toBe(422);
    const otherFilter = await sb.api('GET', `/v2/supplier-products?limit=7&external_id=PG-0001&cursor=${c}`);
    expect(otherFilter.status).toBe(422);
  });
});

describe('walks', () => {
  it.each([1, 7, 200])('a walk with limit %i returns every entity exactly once', async (limit) => {
    const { items, pages } = await walk(sb, `/v2/supplier-products?limit=${limit}`);
    expect(items).toHaveLength(N);
    expect(new Set(items.map((i) => i.id)).size).toBe(N);
    expect(pages).toBe(Math.ceil(N / limit));
    const codes = new Set(items.map((i) => i.external_id));
    for (let i = 1; i <= N; i++) expect(codes.has(`PG-${String(i).padStart(4, '0')}`)).toBe(true);
  });

  it('a full page can be the last: next_cursor is null when exactly `limit` items remain', async () => {
    const r = await sb.api('GET', '/v2/supplier-companies?limit=30');
    expect(r.body.data).toHaveLength(30);
    expect(r.body.next_cursor).toBeNull();
    const { items, pages } = await walk(sb, '/v2/supplier-companies?limit=10');
    expect(items).toHaveLength(30);
    expect(pages).toBe(3);
  });

  it('next_cursor is never null before the last page, even with a short collection', async () => {
    const r = await sb.api('GET', '/v2/supplier-companies?limit=29');
    expect(r.body.data).toHaveLength(29);
    expect(r.body.next_cursor).not.toBeNull();
    const last = await sb.api(
      'GET',
      `/v2/supplier-companies?limit=29&cursor=${encodeURIComponent(r.body.next_cursor)}`,
    );
    expect(last.body.data).toHaveLength(1);
    expect(last.body.next_cursor).toBeNull();
  });

  it('order is stable across walks but not the creation order', async () => {
    const a = (await walk(sb, '/v2/supplier-companies?limit=200')).items.map((i) => i.id);
    const b = (await walk(sb, '/v2/supplier-companies?limit=3')).items.map((i) => i.id);
    expect(b).toEqual(a);
    expect(a).not.toEqual(createdOrder);
    expect([...a].sort()).toEqual([...createdOrder].sort());
  });

  it('an empty collection is one empty last page', async () => {
    const r = await sb.api('GET', '/v2/silos');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], next_cursor: null });
  });

  it('a row deleted mid-walk does not break the walk', async () => {
    const first = await sb.api('GET', '/v2/supplier-products?limit=100');
    const lastOfPage = first.body.data[99];
    expect((await sb.api('DELETE', `/v2/supplier-products/${lastOfPage.id}`)).status).toBe(200);
    const next = await sb.api(
      'GET',
      `/v2/supplier-products?limit=100&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(next.status).toBe(200);
    expect(next.body.data).toHaveLength(100);
    expect(next.body.data.some((i: { id: string }) => i.id === lastOfPage.id)).toBe(false);
    expect(next.body.data[0].id > lastOfPage.id).toBe(true);
  });
});

describe('filters', () => {
  it('external_id matches at most one active entity; an unknown code gives empty data', async () => {
    const r = await sb.api('GET', '/v2/supplier-products?external_id=PG-0500');
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0].external_id).toBe('PG-0500');
    expect(r.body.next_cursor).toBeNull();
    const none = await sb.api('GET', '/v2/supplier-products?external_id=NOPE');
    expect(none.body).toEqual({ data: [], next_cursor: null });
  });

  it('external_id works on every list endpoint (catalog too)', async () => {
    const plant = cat.plants[0];
    const r = await sb.api('GET', `/v2/plants?external_id=${encodeURIComponent(plant.external_id)}`);
    expect(r.body.data.map((p: { id: string }) => p.id)).toEqual([plant.id]);
    const el = cat.elementaries[3];
    const e = await sb.api('GET', `/v2/elementaries?external_id=${encodeURIComponent(el.external_id)}`);
    expect(e.body.data.map((p: { id: string }) => p.id)).toEqual([el.id]);
    const pr = cat.products[2];
    const p = await sb.api('GET', `/v2/products?external_id=${encodeURIComponent(pr.external_id)}`);
    expect(p.body.data.map((x: { id: string }) => x.id)).toEqual([pr.id]);
  });

  it('a malformed uuid filter gives 422 err_not_valid', async () => {
    const r = await sb.api('GET', '/v2/products?product_instance_id=not-a-uuid');
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_not_valid');
  });

  it('an unknown query parameter is refused rather than ignored', async () => {
    const r = await sb.api('GET', '/v2/supplier-products?externalId=PG-0001');
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe('err_not_valid');
  });
});
