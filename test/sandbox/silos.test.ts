/** Silos and Idempotency-Key on silos and prechain products (replay, conflict, expiry). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../core/spec/scopes.js';
import { sandbox, supplierProductBody, supplierSetup, type Catalog, type Sandbox } from './helpers.js';

let sb: Sandbox;
let cat: Catalog;
let supplierPlantId: string;
let plantA: string;
let plantB: string;
let cement: string;
let sand: string;
const ids: Record<string, string> = {};

async function sp(code: string, o: { plant?: string; elementary?: string; supplierPlant?: string | null } = {}) {
  const r = await sb.api('POST', '/v2/supplier-products', {
    body: supplierProductBody({
      external_id: code,
      plant_id: o.plant ?? plantA,
      elementary_id: o.elementary ?? cement,
      supplier_plant_id: o.supplierPlant === undefined ? supplierPlantId : o.supplierPlant,
    }),
  });
  expect(r.status).toBe(201);
  ids[code] = r.body.id;
  return r.body.id as string;
}

const item = (id: string, amounts: [number, number][] = [[2024, 100]]) => ({
  supplier_product_id: id,
  annual_items: amounts.map(([year, amount]) => ({ year, amount })),
});

beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
  ({ cat, supplierPlantId } = await supplierSetup(sb, 'SILO'));
  [plantA, plantB] = cat.plants.map((p) => p.id);
  [cement, sand] = cat.elementaries.map((e) => e.id);
  await sp('S-A1');
  await sp('S-A2');
  await sp('S-A3');
  await sp('S-SAND', { elementary: sand });
  await sp('S-B1', { plant: plantB });
  await sp('S-NOSP', { supplierPlant: null });
});
afterAll(() => sb.close());

describe('silo rules', () => {
  it('a valid silo is created with 201 and read back unchanged', async () => {
    const body = {
      external_id: 'SILO-1',
      plant_id: plantA,
      name: 'Zementsilo 1',
      items: [
        item(ids['S-A1']),
        item(ids['S-A2'], [
          [2023, 5],
          [2024, 7],
        ]),
      ],
    };
    const r = await sb.api('POST', '/v2/silos', { body });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject(body);
    expect((await sb.api('GET', `/v2/silos/${r.body.id}`)).body).toEqual(r.body);
  });

  it.each([
    ['no item', [], 'err_not_valid'],
    ['the same supplier product twice', ['S-A1', 'S-A1'], 'err_not_valid'],
    ['mixed material types', ['S-A1', 'S-SAND'], 'err_not_valid'],
    ['a supplier product at another plant', ['S-A1', 'S-B1'], 'err_not_valid'],
    ['an unknown supplier product', ['UNKNOWN'], 'err_not_found'],
    ['a supplier product without supplier plant', ['S-NOSP'], 'err_supplier_product_missing_supplier_plant'],
  ])('%s → 422 %s', async (_name, codes, code) => {
    const items = codes.map((c) => item(ids[c] ?? '00000000-0000-4000-8000-000000000000'));
    const r = await sb.api('POST', '/v2/silos', { body: { plant_id: plantA, name: 'bad', items } });
    expect(r.status).toBe(422);
    expect(r.body.err_code).toBe(code);
  });

  it('external_id is unique among active silos (409)', async () => {
    const body = { external_id: 'SILO-U', plant_id: plantA, name: 'u', items: [item(ids['S-A3'])] };
    expect((await sb.api('POST', '/v2/silos', { body })).status).toBe(201);
    const dup = await sb.api('POST', '/v2/silos', { body: { ...body, name: 'u2' } });
    expect(dup.status).toBe(409);
    expect(dup.body.err_code).toBe('err_external_id_exists');
  });

  it('a silo at a plant the key cannot reach is refused with 403', async () => {
    const k = await sb.key({ scopes: ['edit:materials', 'view:materials'], plant_ids: [plantB] });
    const r = await sb.api('POST', '/v2/silos', {
      key: k.key,
      body: { plant_id: plantA, name: 'x', items: [item(ids['S-A1'])] },
    });
    expect(r.status).toBe(403);
    expect(r.body.err_code).toBe('err_plant_no_access');
  });

  it('PATCH replaces the items whole and re-checks the rules', async () => {
    const created = await sb.api('POST', '/v2/silos', {
      body: { plant_id: plantA, name: 'p', items: [item(ids['S-A1']), item(ids['S-A2'])] },
    });
    const r = await sb.api('PATCH', `/v2/silos/${created.body.id}`, {
      body: { items: [item(ids['S-A2'], [[2025, 9]])] },
    });
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([item(ids['S-A2'], [[2025, 9]])]);
    expect(r.body.name).toBe('p');
    const bad = await sb.api('PATCH', `/v2/silos/${created.body.id}`, {
      body: { items: [item(ids['S-A2']), item(ids['S-SAND'])] },
    });
    expect(bad.status).toBe(422);
    const movedAway = await sb.api('PATCH', `/v2/silos/${created.body.id}`, { body: { plant_id: plantB } });
    expect(movedAway.status).toBe(422);
    expect((await sb.api('GET', `/v2/silos/${created.body.id}`)).body).toEqual(r.body);
  });

  it('a supplier product in a silo cannot be deleted (409 err_supplier_product_in_silo) nor moved out of its plant', async () => {
    const id = await sp('S-INSILO');
    await sb.api('POST', '/v2/silos', { body: { plant_id: plantA, name: 'd', items: [item(id)] } });
    const del = await sb.api('DELETE', `/v2/supplier-products/${id}`);
    expect(del.status).toBe(409);
    expect(del.body.err_code).toBe('err_supplier_product_in_silo');
    const move = await sb.api('PATCH', `/v2/supplier-products/${id}`, { body: { plant_id: plantB } });
    expect(move.status).toBe(409);
    expect(move.body.err_code).toBe('err_supplier_product_in_silo');
    expect((await sb.api('GET', `/v2/supplier-products/${id}`)).status).toBe(200);
  });
});

describe('Idempotency-Key', () => {
  const siloBody = (name: string) => ({ plant_id: plantA, name, items: [item(ids['S-A1'])] });

  it('a replay returns 200 with the original body unchanged and creates nothing', async () => {
    const before = (await sb.control('GET', '/__sandbox/state')).body.silos.active;
    const first = await sb.api('POST', '/v2/silos', {
      body: siloBody('idem'),
      headers: { 'idempotency-key': 'idem-1' },
    });
    expect(first.status).toBe(201);
    // The silo changes afterwards; the replay still returns the original response.
    await sb.api('PATCH', `/v2/silos/${first.body.id}`, { body: { name: 'renamed' } });
    const replay = await sb.api('POST', '/v2/silos', {
      body: siloBody('idem'),
      headers: { 'idempotency-key': 'idem-1' },
    });
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    // The same body with keys in another order is the same request.
    const reordered = await sb.api('POST', '/v2/silos', {
      body: { items: [item(ids['S-A1'])], name: 'idem', plant_id: plantA },
      headers: { 'idempotency-key': 'idem-1' },
    });
    expect(reordered.status).toBe(200);
    expect((await sb.control('GET', '/__sandbox/state')).body.silos.active).toBe(before + 1);
  });

  it('the same key with a different body gives 409', async () => {
    await sb.api('POST', '/v2/silos', { body: siloBody('k2'), headers: { 'idempotency-key': 'idem-2' } });
    const r = await sb.api('POST', '/v2/silos', {
      body: siloBody('k2-other'),
      headers: { 'idempotency-key': 'idem-2' },
    });
    expect(r.status).toBe(409);
    expect(r.body.err_code).toBe('err_not_valid');
  });

  it('without a key, the same body creates twice', async () => {
    const a = await sb.api('POST', '/v2/silos', { body: siloBody('nokey') });
    const b = await sb.api('POST', '/v2/silos', { body: siloBody('nokey') });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('a key is kept 6 hours on the sandbox clock, then forgotten', async () => {
    const first = await sb.api('POST', '/v2/silos', {
      body: siloBody('exp'),
      headers: { 'idempotency-key': 'idem-exp' },
    });
    expect(first.status).toBe(201);
    await sb.control('PUT', '/__sandbox/clock', { advance_ms: 6 * 3600_000 - 60_000 });
    const within = await sb.api('POST', '/v2/silos', {
      body: siloBody('exp'),
      headers: { 'idempotency-key': 'idem-exp' },
    });
    expect(within.status).toBe(200);
    expect(within.body.id).toBe(first.body.id);
    await sb.control('PUT', '/__sandbox/clock', { advance_ms: 2 * 60_000 });
    const after = await sb.api('POST', '/v2/silos', {
      body: siloBody('exp'),
      headers: { 'idempotency-key': 'idem-exp' },
    });
    expect(after.status).toBe(201);
    expect(after.body.id).not.toBe(first.body.id);
  });

  it('a failed create is not recorded: fixing nothing, the retry fails again; the key is then free', async () => {
    const bad = { plant_id: plantA, name: 'bad', items: [] };
    expect((await sb.api('POST', '/v2/silos', { body: bad, headers: { 'idempotency-key': 'idem-fail' } })).status).toBe(
      422,
    );
    expect((await sb.api('POST', '/v2/silos', { body: bad, headers: { 'idempotency-key': 'idem-fail' } })).status).toBe(
      422,
    );
    const good = await sb.api('POST', '/v2/silos', {
      body: siloBody('after-fail'),
      headers: { 'idempotency-key': 'idem-fail' },
    });
    expect(good.status).toBe(201);
  });

  it('concurrent requests with the same key create exactly one silo', async () => {
    const before = (await sb.control('GET', '/__sandbox/state')).body.silos.active;
    await sb.control('PUT', '/__sandbox/faults', { latency_ms: 5, jitter_ms: 20, seed: 7 });
    try {
      const rs = await Promise.all(
        Array.from({ length: 10 }, () =>
          sb.api('POST', '/v2/silos', { body: siloBody('race'), headers: { 'idempotency-key': 'idem-race' } }),
        ),
      );
      expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
      expect(rs.filter((r) => r.status === 200)).toHaveLength(9);
      expect(new Set(rs.map((r) => r.body.id)).size).toBe(1);
    } finally {
      await sb.control('PUT', '/__sandbox/faults', {});
    }
    expect((await sb.control('GET', '/__sandbox/state')).body.silos.active).toBe(before + 1);
  });

  it('works on prechain products too (201, replay 200, conflict 409); keys are not shared with silos', async () => {
    const inst = await sb.api('POST', '/v2/product-instances', {
      body: { product_id: cat.products[0].id, plant_id: plantB, produced_from: 2020 },
    });
    const body = {
      product_instance_id: inst.body.id,
      plant_id: plantA,
      external_id: 'PC-1',
      transport_route: { truck_km: 30 },
    };
    const first = await sb.api('POST', '/v2/prechain-products', { body, headers: { 'idempotency-key': 'pc-1' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ ...body, impacts_per_kg: null, transport_impacts_per_kg: null });
    const replay = await sb.api('POST', '/v2/prechain-products', { body, headers: { 'idempotency-key': 'pc-1' } });
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    const conflict = await sb.api('POST', '/v2/prechain-products', {
      body: { ...body, transport_route: null },
      headers: { 'idempotency-key': 'pc-1' },
    });
    expect(conflict.status).toBe(409);
    const crossed = await sb.api('POST', '/v2/silos', {
      body: siloBody('crossed'),
      headers: { 'idempotency-key': 'pc-1' },
    });
    expect(crossed.status).toBe(409);
  });

  it('a replay passes the plant and scope checks of the original: a key at another plant or without edit:materials gets 403 (silos and prechain products)', async () => {
    const full = await sb.key({ scopes: [...SCOPES] });
    const first = await sb.api('POST', '/v2/silos', {
      key: full.key,
      body: siloBody('replay-acl'),
      headers: { 'idempotency-key': 'idem-acl' },
    });
    expect(first.status).toBe(201);
    // A key restricted to plant B: the silo (plant A) is out of its reach, for GET and for a replay alike.
    const other = await sb.key({ scopes: [...SCOPES], plant_ids: [plantB] });
    const get = await sb.api('GET', `/v2/silos/${first.body.id}`, { key: other.key });
    expect(get.status).toBe(403);
    const replay = await sb.api('POST', '/v2/silos', {
      key: other.key,
      body: siloBody('replay-acl'),
      headers: { 'idempotency-key': 'idem-acl' },
    });
    expect(replay.status).toBe(403);
    expect(replay.body.err_code).toBe(get.body.err_code);
    expect(replay.text).not.toContain(first.body.id);
    // The key that created it lost edit:materials (its member was reduced): the replay is refused too.
    await sb.control('PUT', `/__sandbox/members/${full.owner_profile_id}`, {
      scopes: ['view:materials'],
      plant_ids: null,
    });
    const lost = await sb.api('POST', '/v2/silos', {
      key: full.key,
      body: siloBody('replay-acl'),
      headers: { 'idempotency-key': 'idem-acl' },
    });
    expect(lost.status).toBe(403);
    expect(lost.body.err_code).toBe('err_permission_denied');
    // The owner key still replays it.
    expect(
      (await sb.api('POST', '/v2/silos', { body: siloBody('replay-acl'), headers: { 'idempotency-key': 'idem-acl' } }))
        .status,
    ).toBe(200);

    const inst = await sb.api('POST', '/v2/product-instances', {
      body: { product_id: cat.products[0].id, plant_id: plantB, produced_from: 2021 },
    });
    expect(inst.status).toBe(201);
    const pcBody = { product_instance_id: inst.body.id, plant_id: plantA, external_id: 'PC-ACL' };
    const pc = await sb.api('POST', '/v2/prechain-products', {
      body: pcBody,
      headers: { 'idempotency-key': 'pc-acl' },
    });
    expect(pc.status).toBe(201);
    const pcGet = await sb.api('GET', `/v2/prechain-products/${pc.body.id}`, { key: other.key });
    expect(pcGet.status).toBe(403);
    const pcReplay = await sb.api('POST', '/v2/prechain-products', {
      key: other.key,
      body: pcBody,
      headers: { 'idempotency-key': 'pc-acl' },
    });
    expect(pcReplay.status).toBe(403);
    expect(pcReplay.body.err_code).toBe(pcGet.body.err_code);
    const noEdit = await sb.key({ scopes: ['view:materials', 'view:products'] });
    const pcNoEdit = await sb.api('POST', '/v2/prechain-products', {
      key: noEdit.key,
      body: pcBody,
      headers: { 'idempotency-key': 'pc-acl' },
    });
    expect(pcNoEdit.status).toBe(403);
    expect(pcNoEdit.body.err_code).toBe('err_permission_denied');
  });

  it('the request log records the Idempotency-Key', async () => {
    const since = (await sb.control('GET', '/__sandbox/requests?since=999999999')).body.last_seq;
    await sb.api('POST', '/v2/silos', { body: siloBody('logged'), headers: { 'idempotency-key': 'idem-log' } });
    const log = await sb.control('GET', `/__sandbox/requests?since=${since}`);
    expect(log.body.entries).toHaveLength(1);
    expect(log.body.entries[0]).toMatchObject({
      method: 'POST',
      path: '/v2/silos',
      status: 201,
      err_code: null,
      idempotency_key: 'idem-log',
    });
  });
});
