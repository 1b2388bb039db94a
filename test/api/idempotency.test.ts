/**
 * The Idempotency-Key is deterministic per (manufacturer, entity type, external_id, canonical body),
 * sent on every create, so a re-run of the same row within 6 hours replays instead of creating.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, idempotencyKey } from '../../core/api/index.js';
import {
  catalog,
  client,
  control,
  lastSeq,
  requestsSince,
  sandbox,
  state,
  supplierBase,
  type Catalog,
  type Sandbox,
} from './helpers.js';

let sb: Sandbox;
let cat: Catalog;
let spId: string;
/** Silos of the demo seed itself (the demo has its own supplier set and silo). */
let seededSilos: number;
beforeAll(async () => {
  sb = await sandbox('demo');
  cat = await catalog(sb);
  seededSilos = (await state(sb)).silos.active;
  const c = client(sb);
  const { supplierPlantId } = await supplierBase(c, 'I');
  const sp = await c.supplierProducts.create({
    external_id: 'SP-I',
    name: 'Fly ash',
    plant_id: cat.plants[0].id,
    material_type: { category: 'elementary', elementary_id: cat.elementaries[2].id },
    supplier_plant_id: supplierPlantId,
    unit: 'KG',
  });
  spId = sp.entity.id;
  await c.close();
});
afterAll(() => sb.close());

const siloRow = () => ({
  external_id: 'SILO-I',
  plant_id: cat.plants[0].id,
  name: 'Fly ash silo',
  items: [{ supplier_product_id: spId, annual_items: [{ year: 2024, amount: 1200 }] }],
});

describe('Idempotency-Key', () => {
  it('a re-run of the same silo row (new session) replays: 200, original body, nothing created', async () => {
    const since = await lastSeq(sb);
    const run1 = client(sb);
    const first = await run1.silos.create(siloRow());
    await run1.close();
    const run2 = client(sb);
    const second = await run2.silos.create(siloRow());
    await run2.close();
    expect(first.outcome).toBe('created');
    expect(second.outcome).toBe('replayed');
    expect(second.status).toBe(200);
    expect(second.entity).toEqual(first.entity);
    expect((await state(sb)).silos.active).toBe(seededSilos + 1);
    const expected = idempotencyKey(sb.manufacturerId, 'silo', 'SILO-I', siloRow());
    const posts = (await requestsSince(sb, since)).entries.filter((e) => e.method === 'POST' && e.path === '/v2/silos');
    expect(posts.map((e) => e.idempotency_key)).toEqual([expected, expected]);
    expect(first.idempotencyKey).toBe(expected);
  });

  it('a changed row gets another key and meets the external_id conflict, not a replay', async () => {
    const c = client(sb);
    const e = await c.silos.create({ ...siloRow(), name: 'Renamed silo' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).err_code).toBe('err_external_id_exists');
    // …and with onExisting: 'compare' the difference is named.
    const e2 = await c.silos
      .create({ ...siloRow(), name: 'Renamed silo' }, { onExisting: 'compare' })
      .catch((x: unknown) => x);
    expect((e2 as ApiError).differences).toEqual(['name']);
    await c.close();
  });

  it('after the 6-hour retention the same row is no longer replayed; compare settles it as already existing', async () => {
    const c = client(sb);
    await control(sb, 'PUT', '/clock', { advance_ms: 6 * 3600_000 + 60_000 });
    const e = await c.silos.create(siloRow()).catch((x: unknown) => x);
    expect((e as ApiError).err_code).toBe('err_external_id_exists');
    const settled = await c.silos.create(siloRow(), { onExisting: 'compare' });
    expect(settled.outcome).toBe('already_existed');
    expect((await state(sb)).silos.active).toBe(seededSilos + 1);
    await c.close();
  });

  it('prechain products replay the same way; every other create carries the key too', async () => {
    const since = await lastSeq(sb);
    const c = client(sb);
    const inst = (await c.productInstances.list()).data[0];
    const row = {
      external_id: 'PRE-I',
      product_instance_id: inst.id,
      plant_id: cat.plants[2].id,
      transport_route: { ship_km: 400 },
    };
    const a = await c.prechainProducts.create(row);
    const b = await c.prechainProducts.create(row);
    expect([a.outcome, b.outcome]).toEqual(['created', 'replayed']);
    expect(b.entity.id).toBe(a.entity.id);
    await c.supplierCompanies.create({ external_id: 'SC-I2', name: 'Key carrier' });
    await c.close();
    const posts = (await requestsSince(sb, since)).entries.filter((e) => e.method === 'POST');
    expect(posts.length).toBe(3);
    expect(posts.every((e) => typeof e.idempotency_key === 'string' && e.idempotency_key.length > 0)).toBe(true);
    expect(posts[0].idempotency_key).toBe(idempotencyKey(sb.manufacturerId, 'prechain_product', 'PRE-I', row));
  });
});
