/**
 * Retries only where they cannot duplicate, and a run under faults: under sandbox faults
 * error_rate 0.1 and reset_after_commit_rate 0.05, 1,000 supplier products and 100 silos end as exactly 1,000 and
 * 100 active entities, none duplicated, every call reported a success.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, idempotencyKey, type CreateResult, type Silo, type SupplierProduct } from '../../core/api/index.js';
import {
  catalog,
  client,
  faults,
  lastSeq,
  pool,
  requestsSince,
  sandbox,
  state,
  supplierBase,
  type Sandbox,
} from './helpers.js';

let sb: Sandbox;
let plantId: string;
let elementaryId: string;
let supplierPlantId: string;

beforeAll(async () => {
  sb = await sandbox('empty');
  const cat = await catalog(sb);
  plantId = cat.plants[0].id;
  elementaryId = cat.elementaries[0].id;
  const c = client(sb);
  ({ supplierPlantId } = await supplierBase(c, 'F'));
  await c.close();
});
afterAll(() => sb.close());

const spBody = (i: number) => ({
  external_id: `FT-${String(i).padStart(4, '0')}`,
  name: `Gravel 2/8 lot ${i}`,
  plant_id: plantId,
  material_type: { category: 'elementary' as const, elementary_id: elementaryId },
  supplier_plant_id: supplierPlantId,
  transport_route: { truck_km: 10 + (i % 50) },
  secondary_percentage: i % 100,
  unit: 'KG' as const,
});

describe('creates under faults: each row lands exactly once', () => {
  it('1,000 supplier products and 100 silos: exactly 1,000 and 100 active, all reported success', async () => {
    const c = client(sb, { retry: { maxAttempts: 10, baseMs: 5, maxTotalMs: 60_000 } });
    const since = await lastSeq(sb);
    await faults(sb, { error_rate: 0.1, reset_after_commit_rate: 0.05, seed: 42 });
    let products: CreateResult<SupplierProduct>[];
    let silos: CreateResult<Silo>[];
    try {
      products = await pool(
        Array.from({ length: 1000 }, (_, i) => i + 1),
        24,
        (i) => c.supplierProducts.create(spBody(i)),
      );
      silos = await pool(
        Array.from({ length: 100 }, (_, i) => i),
        24,
        (i) =>
          c.silos.create({
            external_id: `SILO-${i}`,
            name: `Silo ${i}`,
            plant_id: plantId,
            items: [
              { supplier_product_id: products[i * 10].entity.id, annual_items: [{ year: 2024, amount: 100 + i }] },
              { supplier_product_id: products[i * 10 + 1].entity.id, annual_items: [{ year: 2024, amount: 50 }] },
            ],
          }),
      );
    } finally {
      await faults(sb, {});
    }
    const st = await state(sb);
    expect(st.supplier_products).toEqual({ active: 1000, deleted: 0 });
    expect(st.silos).toEqual({ active: 100, deleted: 0 });
    // Every call reported a success, each with its own entity.
    expect(products.length).toBe(1000);
    expect(new Set(products.map((p) => p.entity.id)).size).toBe(1000);
    expect(products.map((p) => p.entity.external_id)).toEqual(
      Array.from({ length: 1000 }, (_, i) => spBody(i + 1).external_id),
    );
    expect(silos.length).toBe(100);
    expect(new Set(silos.map((s) => s.entity.id)).size).toBe(100);
    // The faults did hit: some answers were lost after commit and settled by a lookup or a replay.
    const log = (await requestsSince(sb, since)).entries;
    const posts = log.filter((e) => e.method === 'POST');
    expect(posts.filter((e) => e.status === 500).length).toBeGreaterThan(0);
    expect(posts.filter((e) => e.reset).length).toBeGreaterThan(0);
    expect(products.some((p) => p.outcome === 'already_existed' && p.checked)).toBe(true);
    expect(silos.every((s) => s.outcome === 'created' || s.outcome === 'replayed')).toBe(true);
    // Silo creates always carried the same Idempotency-Key for the same row.
    const siloPosts = posts.filter((e) => e.path === '/v2/silos');
    expect(siloPosts.every((e) => typeof e.idempotency_key === 'string')).toBe(true);
    expect(new Set(siloPosts.map((e) => e.idempotency_key)).size).toBe(100);
    // No blind retry of a non-idempotent create: exactly one committed POST per row, and every repeated POST of a
    // row came after a lookup of its external_id.
    for (let i = 1; i <= 1000; i++) {
      const body = spBody(i);
      const key = idempotencyKey(sb.manufacturerId, 'supplier_product', body.external_id, body);
      const mine = log.filter(
        (e) =>
          e.idempotency_key === key ||
          (e.method === 'GET' && new URLSearchParams(e.query).get('external_id') === body.external_id),
      );
      const rowPosts = mine.filter((e) => e.method === 'POST');
      expect(rowPosts.filter((e) => e.status === 201).length, body.external_id).toBe(1);
      for (let k = 1; k < rowPosts.length; k++) {
        const between = mine.slice(mine.indexOf(rowPosts[k - 1]) + 1, mine.indexOf(rowPosts[k]));
        expect(
          between.some((e) => e.method === 'GET' && e.status === 200),
          body.external_id,
        ).toBe(true);
      }
    }
    expect(c.stats().retries).toBeGreaterThan(0);
    await c.close();
  });

  it('never retries 401/403/409/422', async () => {
    const c = client(sb, { manufacturerId: sb.manufacturerId });
    const bad = client(sb, { apiKey: 'svc-nobody-notasecretatall' });
    const since = await lastSeq(sb);
    const e409 = await c.supplierProducts.create(spBody(1)).catch((e: unknown) => e);
    expect(e409).toBeInstanceOf(ApiError);
    expect((e409 as ApiError).status).toBe(409);
    expect((e409 as ApiError).err_code).toBe('err_external_id_exists');
    const e422 = await c.supplierProducts.get('not-a-uuid').catch((e: unknown) => e);
    expect((e422 as ApiError).status).toBe(422);
    const e401 = await bad.me().catch((e: unknown) => e);
    expect((e401 as ApiError).classification).toBe('auth');
    const log = (await requestsSince(sb, since)).entries;
    expect(log.length).toBe(3);
    expect(c.stats().retries + bad.stats().retries).toBe(0);
    await c.close();
    await bad.close();
  });

  it('a 409 after a lost answer is settled by comparing: same → already_existed, different → conflict', async () => {
    const c = client(sb);
    // A row already in the service with the same values, sent again with onExisting: 'compare'.
    const same = await c.supplierProducts.create(spBody(2), { onExisting: 'compare' });
    expect(same.outcome).toBe('already_existed');
    expect(same.status).toBe(409);
    const diff = await c.supplierProducts
      .create({ ...spBody(3), name: 'Something else' }, { onExisting: 'compare' })
      .catch((e: unknown) => e);
    expect(diff).toBeInstanceOf(ApiError);
    expect((diff as ApiError).classification).toBe('conflict');
    expect((diff as ApiError).differences).toEqual(['name']);
    await c.close();
  });

  it('retries GETs, PATCHes and BOM PUTs through 500s and resets', async () => {
    const c = client(sb, { retry: { maxAttempts: 12, baseMs: 2 } });
    const first = await c.supplierProducts.findByExternalId('FT-0005');
    expect(first).not.toBeNull();
    await faults(sb, { error_rate: 0.3, reset_after_commit_rate: 0.2, seed: 7 });
    try {
      for (let i = 0; i < 20; i++) {
        const got = await c.supplierProducts.get(first!.id);
        expect(got.id).toBe(first!.id);
        const upd = await c.supplierProducts.update(first!.id, { lifetime_years: null, secondary_percentage: i });
        expect(upd.secondary_percentage).toBe(i);
      }
    } finally {
      await faults(sb, {});
    }
    expect(c.stats().retries).toBeGreaterThan(0);
    await c.close();
  });
});
