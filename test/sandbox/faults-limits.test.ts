/**
 * Faults (error_rate, reset_after_commit_rate, latency), entitlements, the daily limit, the request log, the
 * control API's guard rails, and "only the spec's statuses".
 */
import { connect } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedData } from '../../sandbox/seed.js';
import { ALLOWED_STATUSES, sandbox, type Catalog, type Sandbox } from './helpers.js';

let sb: Sandbox;
let cat: Catalog;

beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
  cat = await sb.catalog();
});
afterAll(() => sb.close());

const state = async () => (await sb.control('GET', '/__sandbox/state')).body;
const lastSeq = async () => (await sb.control('GET', '/__sandbox/requests?since=999999999')).body.last_seq as number;

describe('faults', () => {
  it('error_rate 1: every /v2 request is a 500 before anything is done; the control API is untouched', async () => {
    await sb.control('PUT', '/__sandbox/faults', { error_rate: 1, seed: 3 });
    try {
      const before = (await state()).supplier_companies.active;
      const r = await sb.api('POST', '/v2/supplier-companies', { body: { external_id: 'F-500', name: 'x' } });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ msg: expect.any(String), err_code: 'err_not_defined' });
      expect((await state()).supplier_companies.active).toBe(before);
      // Even an unauthenticated request gets the 500 first.
      expect((await sb.api('GET', '/v2/me', { key: null })).status).toBe(500);
    } finally {
      await sb.control('PUT', '/__sandbox/faults', {});
    }
    expect((await sb.api('GET', '/v2/supplier-companies?external_id=F-500')).body.data).toEqual([]);
  });

  it('error_rate 0.3 fails about that share of requests, reproducibly for a seed', async () => {
    const run = async () => {
      await sb.control('PUT', '/__sandbox/faults', { error_rate: 0.3, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) statuses.push((await sb.api('GET', '/v2/me')).status);
      await sb.control('PUT', '/__sandbox/faults', {});
      return statuses;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    const failed = a.filter((s) => s === 500).length;
    expect(failed).toBeGreaterThan(15);
    expect(failed).toBeLessThan(45);
    expect(a.every((s) => s === 200 || s === 500)).toBe(true);
  });

  it('reset_after_commit_rate 1: the write is committed but the client sees a socket error', async () => {
    await sb.control('PUT', '/__sandbox/faults', { reset_after_commit_rate: 1 });
    let err: unknown = null;
    try {
      await sb.api('POST', '/v2/supplier-companies', { body: { external_id: 'F-RESET', name: 'reset' } });
    } catch (e) {
      err = e;
    } finally {
      await sb.control('PUT', '/__sandbox/faults', {});
    }
    expect(err).toBeInstanceOf(Error);
    const found = await sb.api('GET', '/v2/supplier-companies?external_id=F-RESET');
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0].name).toBe('reset');
    const log = await sb.control('GET', '/__sandbox/requests?since=0');
    const entry = log.body.entries.find(
      (e: { path: string; method: string; reset: boolean }) => e.method === 'POST' && e.reset,
    );
    expect(entry).toMatchObject({ path: '/v2/supplier-companies', status: 201, reset: true });
  });

  it('reset_after_commit does not apply to a failed request: the error is answered', async () => {
    await sb.control('PUT', '/__sandbox/faults', { reset_after_commit_rate: 1 });
    try {
      const r = await sb.api('POST', '/v2/supplier-companies', { body: { name: '' } });
      expect(r.status).toBe(422);
    } finally {
      await sb.control('PUT', '/__sandbox/faults', {});
    }
  });

  it('latency_ms delays /v2 answers by at least that much', async () => {
    await sb.control('PUT', '/__sandbox/faults', { latency_ms: 120 });
    try {
      const t0 = performance.now();
      expect((await sb.api('GET', '/v2/me')).status).toBe(200);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
    } finally {
      await sb.control('PUT', '/__sandbox/faults', {});
    }
  });

  it('bad fault settings are refused with 422', async () => {
    expect((await sb.control('PUT', '/__sandbox/faults', { error_rate: 2 })).status).toBe(422);
    expect((await sb.control('PUT', '/__sandbox/faults', { bogus: 1 })).status).toBe(422);
  });
});

describe('entitlements', () => {
  it('product_instances: creating past the licensed amount → 403 err_entitlement_limit_reached with entitlement_limit', async () => {
    const used = (await state()).product_instances.active;
    await sb.control('PUT', '/__sandbox/entitlements', { product_instances: used + 1 });
    try {
      const body = { product_id: cat.products[0].id, plant_id: cat.plants[0].id, produced_from: 2024 };
      expect((await sb.api('POST', '/v2/product-instances', { body })).status).toBe(201);
      const r = await sb.api('POST', '/v2/product-instances', { body });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({
        msg: expect.any(String),
        err_code: 'err_entitlement_limit_reached',
        entitlement_limit: { dimension: 'product_instances', usage: used + 1, limit: used + 1 },
      });
    } finally {
      await sb.control('PUT', '/__sandbox/entitlements', { product_instances: null });
    }
  });

  it('entitlement_limit is omitted on every other error', async () => {
    const r = await sb.api('POST', '/v2/supplier-companies', { body: { nope: 1 } });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body).sort()).toEqual(['err_code', 'msg']);
  });
});

describe('daily limit', () => {
  it('after N requests in a UTC day → 403 err_svc_daily_limit_reached; the next day resets it', async () => {
    await sb.control('PUT', '/__sandbox/daily-limit', { requests: 3 });
    try {
      for (let i = 0; i < 3; i++) expect((await sb.api('GET', '/v2/me')).status).toBe(200);
      const r = await sb.api('GET', '/v2/me');
      expect(r.status).toBe(403);
      expect(r.body.err_code).toBe('err_svc_daily_limit_reached');
      expect(r.body).not.toHaveProperty('entitlement_limit');
      // Unauthenticated requests are a 401, not counted.
      expect((await sb.api('GET', '/v2/me', { key: null })).status).toBe(401);
      await sb.control('PUT', '/__sandbox/clock', { advance_ms: 24 * 3600_000 });
      expect((await sb.api('GET', '/v2/me')).status).toBe(200);
    } finally {
      await sb.control('PUT', '/__sandbox/daily-limit', { requests: null });
    }
  });
});

describe('request log', () => {
  it('records method, path, query, status and err_code of every /v2 request, after `since`', async () => {
    const since = await lastSeq();
    await sb.api('GET', '/v2/supplier-products?limit=5');
    await sb.api('GET', '/v2/supplier-products?limit=500');
    await sb.control('GET', '/__sandbox/state');
    const log = await sb.control('GET', `/__sandbox/requests?since=${since}`);
    expect(log.body.entries).toHaveLength(2);
    expect(log.body.entries[0]).toMatchObject({
      method: 'GET',
      path: '/v2/supplier-products',
      query: 'limit=5',
      status: 200,
      err_code: null,
    });
    expect(log.body.entries[1]).toMatchObject({ status: 422, err_code: 'err_not_valid' });
    expect(log.body.last_seq).toBe(since + 2);
  });

  it('DELETE clears it; sequence numbers keep growing', async () => {
    const since = await lastSeq();
    await sb.api('GET', '/v2/me');
    expect((await sb.control('DELETE', '/__sandbox/requests')).status).toBe(200);
    const log = await sb.control('GET', '/__sandbox/requests');
    expect(log.body.entries).toEqual([]);
    await sb.api('GET', '/v2/me');
    const after = await sb.control('GET', '/__sandbox/requests');
    expect(after.body.entries.map((e: { seq: number }) => e.seq)).toEqual([since + 2]);
  });
});

describe('only the spec statuses, and errors as {msg, err_code}', () => {
  it('framework errors are mapped: bad JSON, wrong content type, unknown route, wrong method, huge body', async () => {
    const raw = async (method: string, path: string, headers: Record<string, string>, body?: string | Buffer) => {
      const r = await request(sb.baseUrl + path, {
        method: method as 'GET',
        headers: { 'x-api-key': sb.ownerKey, ...headers },
        body,
      });
      return { status: r.statusCode, body: (await r.body.json()) as { msg: string; err_code: string } };
    };
    const cases = [
      await raw('POST', '/v2/supplier-companies', { 'content-type': 'application/json' }, '{"name": '),
      await raw('POST', '/v2/supplier-companies', { 'content-type': 'text/plain' }, 'name=x'),
      await raw('POST', '/v2/supplier-companies', { 'content-type': 'application/json' }, '[1,2]'),
      await raw(
        'POST',
        '/v2/supplier-companies',
        { 'content-type': 'application/json' },
        '{"__proto__": {"x": 1}, "name": "p"}',
      ),
      await raw('GET', '/v2/unknown', {}),
      await raw('DELETE', '/v2/silos/00000000-0000-4000-8000-000000000000', {}),
      await raw('GET', '/', {}),
      await raw(
        'POST',
        '/v2/supplier-companies',
        { 'content-type': 'application/json' },
        Buffer.alloc(17 * 1024 * 1024, 0x20),
      ),
    ];
    for (const c of cases) {
      expect(ALLOWED_STATUSES.has(c.status)).toBe(true);
      expect(c.status).toBe(422);
      expect(typeof c.body.msg).toBe('string');
      expect(c.body.err_code).toMatch(/^err_/);
      expect(c.body.msg).not.toMatch(/\bat .*\.ts:\d+/);
    }
  });

  it('errors raised before routing (bad URL encoding, over-long parameter, huge headers, garbage) are 422 too', async () => {
    const port = Number(new URL(sb.baseUrl).port);
    const raw = (req: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const s = connect(port, '127.0.0.1', () => s.write(req));
        let d = '';
        s.on('data', (c) => (d += c.toString()));
        s.on('close', () => resolve({ status: Number(d.split(' ')[1]), body: d.slice(d.indexOf('\r\n\r\n') + 4) }));
        s.on('error', reject);
      });
    const key = `X-API-Key: ${sb.ownerKey}\r\n`;
    const cases = [
      await raw(`GET /v2/supplier-products/%E0%A4%A HTTP/1.1\r\nHost: x\r\n${key}Connection: close\r\n\r\n`),
      await raw(`GET /v2/supplier-products/${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\n${key}Connection: close\r\n\r\n`),
      await raw(`GET /v2/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`),
      await raw('GARBAGE\r\n\r\n'),
    ];
    for (const c of cases) {
      expect(c.status).toBe(422);
      expect(JSON.parse(c.body)).toEqual({ msg: expect.any(String), err_code: 'err_not_valid' });
    }
  });

  it('every request of this file was answered with an allowed status', async () => {
    const log = await sb.control('GET', '/__sandbox/requests?since=0');
    expect(log.body.entries.length).toBeGreaterThan(0);
    for (const e of log.body.entries) expect(ALLOWED_STATUSES.has(e.status)).toBe(true);
  });
});

describe('control API', () => {
  it('reset wipes the data, keeps the owner key, and answers {manufacturer_id, owner_key}', async () => {
    await sb.api('POST', '/v2/supplier-companies', { body: { external_id: 'C-RESET', name: 'x' } });
    const other = await sb.key({ scopes: ['view:plants'] });
    const r = await sb.control('POST', '/__sandbox/reset', { seed: 'demo' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ manufacturer_id: sb.manufacturerId, owner_key: sb.ownerKey });
    const s = await state();
    // the company created above is gone; what is left is the demo's own supplier set (none deleted)
    expect((await sb.api('GET', '/v2/supplier-companies?external_id=C-RESET')).body.data).toEqual([]);
    expect(s.supplier_companies).toEqual({
      active: seedData('demo', new Date()).supplier_companies.length,
      deleted: 0,
    });
    expect(s.product_instances.active).toBeGreaterThan(0);
    expect((await sb.api('GET', '/v2/me')).status).toBe(200);
    expect((await sb.api('GET', '/v2/me', { key: other.key })).status).toBe(401);
    await sb.control('POST', '/__sandbox/reset', { seed: 'empty' });
    expect((await state()).product_instances.active).toBe(0);
    expect((await state()).supplier_companies).toEqual({ active: 0, deleted: 0 });
  });

  it('catalog lists the seeded plants, elementaries, composites and products', async () => {
    const c = await sb.catalog();
    expect(c.plants.length).toBe(3);
    expect(c.products.length).toBe(25);
    expect(c.composites.length).toBe(3);
    expect(c.elementaries.length).toBeGreaterThanOrEqual(30);
    const viaApi = await sb.api('GET', '/v2/products?limit=200');
    expect(viaApi.body.data.map((p: { id: string }) => p.id).sort()).toEqual(c.products.map((p) => p.id).sort());
  });

  it("refuses peers that are not loopback (403), when one of this machine's own addresses is reachable", async () => {
    const { networkInterfaces } = await import('node:os');
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (!external) return;
    const open = await sandbox({ seed: 'empty', host: '0.0.0.0' });
    try {
      const port = new URL(open.baseUrl).port;
      const r = await request(`http://${external.address}:${port}/__sandbox/state`);
      expect(r.statusCode).toBe(403);
      expect(((await r.body.json()) as { err_code: string }).err_code).toBe('err_permission_denied');
      expect((await open.control('GET', '/__sandbox/state')).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('classifies loopback peers', async () => {
    const { isLoopback } = await import('../../sandbox/http.js');
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopback('10.0.0.5')).toBe(false);
    expect(isLoopback('::ffff:192.168.1.2')).toBe(false);
    expect(isLoopback(undefined)).toBe(false);
  });
});
