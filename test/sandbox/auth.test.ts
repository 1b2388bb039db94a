/** Authentication, scopes, plant access, member capping and the legacy edit:recipes rule. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../core/spec/scopes.js';
import { sandbox, supplierProductBody, supplierSetup, type Catalog, type Sandbox } from './helpers.js';

let sb: Sandbox;
let cat: Catalog;
let supplierPlantId: string;
let plantA: string;
let plantB: string;
let elementary: string;

beforeAll(async () => {
  sb = await sandbox({ seed: 'demo' });
  const s = await supplierSetup(sb, 'AUTH');
  cat = s.cat;
  supplierPlantId = s.supplierPlantId;
  [plantA, plantB] = cat.plants.map((p) => p.id);
  elementary = cat.elementaries[0].id;
});
afterAll(() => sb.close());

describe('401: one uniform answer for every failed authentication', () => {
  it('missing, malformed, unknown, wrong secret, revoked and expired keys all get the same body', async () => {
    const revoked = await sb.key({ scopes: [...SCOPES] });
    expect((await sb.control('DELETE', `/__sandbox/keys/${revoked.api_key_id}`)).status).toBe(200);
    const expired = await sb.key({ scopes: [...SCOPES], expires_at: new Date(Date.now() - 60_000).toISOString() });
    const [, keyId] = /^svc-([A-Za-z0-9]+)-/.exec(sb.ownerKey)!;
    const cases: (string | null)[] = [
      null,
      'not-a-key',
      'svc--',
      `svc-${keyId}`,
      'svc-unknownid-0123456789abcdef',
      `svc-${keyId}-wrongsecret`,
      revoked.key,
      expired.key,
    ];
    const bodies = new Set<string>();
    for (const key of cases) {
      const r = await sb.api('GET', '/v2/me', { key });
      expect(r.status, String(key)).toBe(401);
      expect(r.body.err_code).toBe('err_not_authenticated');
      bodies.add(r.text);
    }
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).not.toMatch(/revoked|expired|unknown key|secret/i);
  });

  it('a key expiring later works until the sandbox clock passes its expiry', async () => {
    const k = await sb.key({ scopes: ['view:plants'], expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await sb.api('GET', '/v2/me', { key: k.key })).status).toBe(200);
    await sb.control('PUT', '/__sandbox/clock', { advance_ms: 2 * 3_600_000 });
    try {
      expect((await sb.api('GET', '/v2/me', { key: k.key })).status).toBe(401);
    } finally {
      await sb.control('PUT', '/__sandbox/clock', { advance_ms: -2 * 3_600_000 });
    }
  });

  it('401 comes before validation: an unauthenticated bad body is still a 401', async () => {
    const r = await sb.api('POST', '/v2/supplier-companies', { key: null, body: '{not json' });
    expect(r.status).toBe(401);
  });
});

describe('/v2/me', () => {
  it('returns the key introspection with the effective scopes and all plants for the owner key', async () => {
    const r = await sb.api('GET', '/v2/me');
    expect(r.status).toBe(200);
    expect(r.body.manufacturer_id).toBe(sb.manufacturerId);
    expect(r.body.owner_profile_id).toBe(cat.owner_profile_id);
    expect(sb.ownerKey).toContain(`svc-${r.body.api_key_id}-`);
    expect([...r.body.scopes].sort()).toEqual([...SCOPES].sort());
    expect([...r.body.plant_ids].sort()).toEqual(cat.plants.map((p) => p.id).sort());
  });

  it('needs no scope: a key with no scopes reads it, with empty scopes', async () => {
    const k = await sb.key({ scopes: [], plant_ids: [] });
    const r = await sb.api('GET', '/v2/me', { key: k.key });
    expect(r.status).toBe(200);
    expect(r.body.scopes).toEqual([]);
    expect(r.body.plant_ids).toEqual([]);
  });
});

describe('403: scopes', () => {
  it('each endpoint needs its scope: err_permission_denied without it', async () => {
    const k = await sb.key({ scopes: ['view:plants'] });
    const cases: [string, string, unknown?][] = [
      ['GET', '/v2/supplier-products'],
      ['POST', '/v2/supplier-companies', { name: 'x' }],
      ['GET', '/v2/products'],
      ['GET', '/v2/product-instances'],
      ['GET', '/v2/elementaries'],
    ];
    for (const [method, path, body] of cases) {
      const r = await sb.api(method, path, { key: k.key, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.err_code).toBe('err_permission_denied');
    }
    expect((await sb.api('GET', '/v2/plants', { key: k.key })).status).toBe(200);
  });

  it('a view scope does not grant the edit', async () => {
    const k = await sb.key({ scopes: ['view:materials'] });
    expect((await sb.api('GET', '/v2/supplier-companies', { key: k.key })).status).toBe(200);
    const r = await sb.api('POST', '/v2/supplier-companies', { key: k.key, body: { name: 'no' } });
    expect(r.status).toBe(403);
    expect(r.body.err_code).toBe('err_permission_denied');
  });
});

describe('403: plant access', () => {
  it('a key restricted to plant A sees only plant A, cannot read or write at plant B', async () => {
    const atB = await sb.api('POST', '/v2/supplier-products', {
      body: supplierProductBody({
        external_id: 'AUTH-SP-B',
        plant_id: plantB,
        elementary_id: elementary,
        supplier_plant_id: supplierPlantId,
      }),
    });
    expect(atB.status).toBe(201);
    const atA = await sb.api('POST', '/v2/supplier-products', {
      body: supplierProductBody({
        external_id: 'AUTH-SP-A',
        plant_id: plantA,
        elementary_id: elementary,
        supplier_plant_id: supplierPlantId,
      }),
    });
    expect(atA.status).toBe(201);

    const k = await sb.key({ scopes: [...SCOPES], plant_ids: [plantA] });
    const me = await sb.api('GET', '/v2/me', { key: k.key });
    expect(me.body.plant_ids).toEqual([plantA]);

    const plants = await sb.api('GET', '/v2/plants', { key: k.key });
    expect(plants.body.data.map((p: { id: string }) => p.id)).toEqual([plantA]);
    const plantGet = await sb.api('GET', `/v2/plants/${plantB}`, { key: k.key });
    expect(plantGet.status).toBe(403);
    expect(plantGet.body.err_code).toBe('err_plant_no_access');

    const getB = await sb.api('GET', `/v2/supplier-products/${atB.body.id}`, { key: k.key });
    expect(getB.status).toBe(403);
    expect(getB.body.err_code).toBe('err_plant_no_access');
    expect((await sb.api('GET', `/v2/supplier-products/${atA.body.id}`, { key: k.key })).status).toBe(200);

    const listB = await sb.api('GET', '/v2/supplier-products?external_id=AUTH-SP-B', { key: k.key });
    expect(listB.body.data).toEqual([]);
    const listA = await sb.api('GET', '/v2/supplier-products?external_id=AUTH-SP-A', { key: k.key });
    expect(listA.body.data.map((p: { id: string }) => p.id)).toEqual([atA.body.id]);

    const createB = await sb.api('POST', '/v2/supplier-products', {
      key: k.key,
      body: supplierProductBody({
        external_id: 'AUTH-SP-B2',
        plant_id: plantB,
        elementary_id: elementary,
        supplier_plant_id: supplierPlantId,
      }),
    });
    expect(createB.status).toBe(403);
    expect(createB.body.err_code).toBe('err_plant_no_access');
  });

  it('the plant restriction does not narrow the products list', async () => {
    const k = await sb.key({ scopes: ['view:products'], plant_ids: [] });
    const r = await sb.api('GET', '/v2/products?limit=200', { key: k.key });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(cat.products.length);
  });
});

describe('member capping: a key never exceeds its issuing member, at once', () => {
  it('reducing the member removes scopes and plants from the key on the next request; restoring gives them back', async () => {
    const k = await sb.key({ scopes: ['view:materials', 'edit:materials', 'view:plants'], plant_ids: null });
    expect((await sb.api('GET', '/v2/supplier-companies', { key: k.key })).status).toBe(200);

    const reduce = await sb.control('PUT', `/__sandbox/members/${k.owner_profile_id}`, {
      scopes: ['view:plants'],
      plant_ids: [plantB],
    });
    expect(reduce.status).toBe(200);
    const me = await sb.api('GET', '/v2/me', { key: k.key });
    expect(me.body.scopes).toEqual(['view:plants']);
    expect(me.body.plant_ids).toEqual([plantB]);
    const denied = await sb.api('GET', '/v2/supplier-companies', { key: k.key });
    expect(denied.status).toBe(403);
    expect(denied.body.err_code).toBe('err_permission_denied');
    const plants = await sb.api('GET', '/v2/plants', { key: k.key });
    expect(plants.body.data.map((p: { id: string }) => p.id)).toEqual([plantB]);

    await sb.control('PUT', `/__sandbox/members/${k.owner_profile_id}`, { scopes: [...SCOPES], plant_ids: null });
    const back = await sb.api('GET', '/v2/me', { key: k.key });
    expect(back.body.scopes).toEqual(['edit:materials', 'view:materials', 'view:plants']);
    expect(back.body.plant_ids).toHaveLength(cat.plants.length);
  });

  it('a key never gains what its member lacks: a member without plant A caps a key issued for all plants', async () => {
    const k = await sb.key({ scopes: ['view:plants'], plant_ids: null });
    await sb.control('PUT', `/__sandbox/members/${k.owner_profile_id}`, { plant_ids: [plantA] });
    const r = await sb.api('GET', `/v2/plants/${plantB}`, { key: k.key });
    expect(r.status).toBe(403);
    expect(r.body.err_code).toBe('err_plant_no_access');
  });

  it('an unknown member cannot be updated', async () => {
    const r = await sb.control('PUT', '/__sandbox/members/00000000-0000-4000-8000-000000000000', { scopes: [] });
    expect(r.status).toBe(422);
  });
});

describe('legacy rule: edit:recipes wherever a legacy key carries edit:products', () => {
  it('a legacy key with edit:products writes a BOM; a current key with edit:products only cannot', async () => {
    const inst = (await sb.api('GET', '/v2/product-instances?limit=1')).body.data[0];
    const legacy = await sb.key({ scopes: ['edit:products', 'view:products'], legacy: true });
    const modern = await sb.key({ scopes: ['edit:products', 'view:products'] });
    const me = await sb.api('GET', '/v2/me', { key: legacy.key });
    expect(me.body.scopes).toContain('edit:recipes');
    const ok = await sb.api('PUT', `/v2/product-instances/${inst.id}/bom`, { key: legacy.key, body: { bom: [] } });
    expect(ok.status).toBe(200);
    const no = await sb.api('PUT', `/v2/product-instances/${inst.id}/bom`, { key: modern.key, body: { bom: [] } });
    expect(no.status).toBe(403);
    expect(no.body.err_code).toBe('err_permission_denied');
  });

  it('a legacy key without edit:products gets no edit:recipes', async () => {
    const k = await sb.key({ scopes: ['view:products'], legacy: true });
    const me = await sb.api('GET', '/v2/me', { key: k.key });
    expect(me.body.scopes).toEqual(['view:products']);
  });

  it('the legacy edit:recipes is still capped by the member', async () => {
    const k = await sb.key({ scopes: ['edit:products'], legacy: true });
    await sb.control('PUT', `/__sandbox/members/${k.owner_profile_id}`, { scopes: ['edit:products'] });
    const me = await sb.api('GET', '/v2/me', { key: k.key });
    expect(me.body.scopes).toEqual(['edit:products']);
  });
});

describe('secrets', () => {
  it('the raw secret is never stored: the data file holds only hashes', async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-secret-'));
    const file = join(dir, 'data.json');
    const other = await sandbox({ dataFile: file, seed: 'empty' });
    const k = await other.key({ scopes: ['view:plants'] });
    await other.close();
    const text = readFileSync(file, 'utf8');
    const secretOf = (key: string) => key.split('-').slice(2).join('-');
    expect(text).not.toContain(secretOf(other.ownerKey));
    expect(text).not.toContain(secretOf(k.key));
    expect(text).toContain(k.api_key_id);
    rmSync(dir, { recursive: true, force: true });
  });
});
