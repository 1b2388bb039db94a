/**
 * Concurrency (one keep-alive Pool, adaptive limiter with a cap, Retry-After) and cancellation (AbortSignal on
 * every call, per-request timeout). The sandbox provides latency and 500s; a tiny local HTTP server is used only for
 * what the sandbox cannot produce: connection counting, Retry-After, a status outside the spec's list, an
 * unknown err_code / entitlement dimension, and a response that hangs after its headers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, isAbortError } from '../../core/api/index.js';
import { client, faults, lastSeq, requestsSince, sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox('demo');
});
afterAll(() => sb.close());

const ME = {
  manufacturer_id: '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6d',
  api_key_id: 'k1',
  owner_profile_id: '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6e',
  scopes: [],
  plant_ids: [],
};

interface Local {
  url: string;
  connections: number;
  hits: { at: number; url: string }[];
  close(): Promise<void>;
}

async function localServer(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<Local> {
  const state: Local = { url: '', connections: 0, hits: [], close: async () => {} };
  const server = createServer((req, res) => {
    state.hits.push({ at: Date.now(), url: req.url ?? '' });
    req.resume();
    req.on('end', () => handler(req, res, state.hits.length));
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('concurrency', () => {
  it('never has more requests in flight than the cap', async () => {
    const c = client(sb, { maxConcurrency: 4 });
    await faults(sb, { latency_ms: 20 });
    let max = 0;
    const t = setInterval(() => (max = Math.max(max, c.stats().inFlight)), 1);
    try {
      await Promise.all(Array.from({ length: 60 }, () => c.plants.list()));
    } finally {
      clearInterval(t);
      await faults(sb, {});
    }
    expect(max).toBeLessThanOrEqual(4);
    expect(max).toBeGreaterThanOrEqual(2);
    expect(c.stats().requests).toBe(60);
    await c.close();
  });

  it('decreases multiplicatively on 500s and increases additively when they stop', async () => {
    const c = client(sb, { maxConcurrency: 16, retry: { maxAttempts: 20, baseMs: 1, maxTotalMs: 30_000 } });
    const start = c.stats().concurrency;
    await faults(sb, { error_rate: 0.5, seed: 3 });
    try {
      await Promise.all(Array.from({ length: 80 }, () => c.plants.list()));
    } finally {
      await faults(sb, {});
    }
    const low = c.stats().concurrency;
    expect(low).toBeLessThan(start);
    for (let i = 0; i < 10; i++) await Promise.all(Array.from({ length: 20 }, () => c.plants.list()));
    expect(c.stats().concurrency).toBeGreaterThan(low);
    expect(c.stats().concurrency).toBeLessThanOrEqual(16);
    await c.close();
  });

  it('uses one keep-alive pool: sequential requests share one connection, parallel ones stay within the cap', async () => {
    const srv = await localServer((_req, res) => json(res, 200, ME));
    const c = createApiClient({ baseUrl: srv.url, apiKey: 'svc-k1-secretsecret', maxConcurrency: 3 });
    for (let i = 0; i < 30; i++) await c.me();
    // Kept alive and reused: undici may open a second socket when a request follows the previous answer within
    // the same tick, never one per request.
    expect(srv.connections).toBeLessThanOrEqual(2);
    await Promise.all(Array.from({ length: 30 }, () => c.me()));
    expect(srv.connections).toBeLessThanOrEqual(3);
    await c.close();
    await srv.close();
  });

  it('honours Retry-After before retrying', async () => {
    const srv = await localServer((_req, res, n) =>
      n === 1
        ? json(res, 500, { msg: 'busy', err_code: 'err_not_defined' }, { 'retry-after': '1' })
        : json(res, 200, ME),
    );
    const c = createApiClient({ baseUrl: srv.url, apiKey: 'svc-k1-secretsecret', retry: { baseMs: 1 } });
    const me = await c.me();
    expect(me.api_key_id).toBe('k1');
    expect(srv.hits.length).toBe(2);
    expect(srv.hits[1].at - srv.hits[0].at).toBeGreaterThanOrEqual(900);
    await c.close();
    await srv.close();
  });

  it('treats an out-of-spec 503 as transient, an unknown err_code as final, and keeps an unknown dimension', async () => {
    let mode = 'a';
    const srv = await localServer((_req, res, n) => {
      if (mode === 'a') return n === 1 ? (res.writeHead(503), res.end()) : json(res, 200, ME);
      if (mode === 'b') return json(res, 500, { msg: 'new', err_code: 'err_from_the_future' });
      return json(res, 403, {
        msg: 'limit',
        err_code: 'err_entitlement_limit_reached',
        entitlement_limit: { dimension: 'galaxies', usage: 2, limit: 2 },
      });
    });
    const c = createApiClient({ baseUrl: srv.url, apiKey: 'svc-k1-secretsecret', retry: { baseMs: 1 } });
    expect((await c.me()).api_key_id).toBe('k1');
    mode = 'b';
    const before = srv.hits.length;
    const e = (await c.me().catch((x: unknown) => x)) as ApiError;
    expect(e.err_code).toBe('err_from_the_future');
    expect(e.retryable).toBe(false);
    expect(srv.hits.length - before).toBe(1);
    mode = 'c';
    const e2 = (await c.me().catch((x: unknown) => x)) as ApiError;
    expect(e2.entitlement_limit).toEqual({ dimension: 'galaxies', usage: 2, limit: 2 });
    expect(e2.classification).toBe('entitlement');
    expect(e2.knownEntitlementDimension).toBe(false);
    await c.close();
    await srv.close();
  });
});

describe('cancellation and timeouts', () => {
  it('an AbortSignal ends an in-flight request at once, without retry', async () => {
    const c = client(sb);
    await faults(sb, { latency_ms: 3_000 });
    const since = await lastSeq(sb);
    try {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      const e = await c.plants.list({}, { signal: ac.signal }).catch((x: unknown) => x);
      expect(isAbortError(e)).toBe(true);
      expect(c.stats().requests).toBe(1);
      expect(c.stats().retries).toBe(0);
    } finally {
      await faults(sb, {});
    }
    expect((await requestsSince(sb, since)).entries.filter((x) => x.status === 200).length).toBeLessThanOrEqual(1);
    await c.close();
  });

  it('an AbortSignal ends a backoff wait and a walk', async () => {
    const c = client(sb, { retry: { baseMs: 60_000, capMs: 60_000, maxAttempts: 5 } });
    await faults(sb, { error_rate: 1 });
    try {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 100);
      const e = await c.me({ signal: ac.signal }).catch((x: unknown) => x);
      expect(isAbortError(e)).toBe(true);
    } finally {
      await faults(sb, {});
    }
    const ac2 = new AbortController();
    const seen: string[] = [];
    const walk = (async () => {
      for await (const el of c.elementaries.walk({ limit: 1 }, { signal: ac2.signal })) {
        seen.push(el.id);
        if (seen.length === 3) ac2.abort();
      }
    })();
    await expect(walk).rejects.toSatisfy(isAbortError);
    expect(seen.length).toBe(3);
    await c.close();
  });

  it('a per-request timeout turns a slow answer into client_timeout, retried within the attempts', async () => {
    const c = client(sb, { timeoutMs: 100, retry: { maxAttempts: 2, baseMs: 1 } });
    await faults(sb, { latency_ms: 1_000 });
    try {
      const e = (await c.plants.list().catch((x: unknown) => x)) as ApiError;
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toMatchObject({ err_code: 'client_timeout', classification: 'network', attempts: 2 });
      expect(c.stats().requests).toBe(2);
    } finally {
      await faults(sb, {});
    }
    const fast = await c.plants.list({}, { timeoutMs: 5_000 });
    expect(fast.data.length).toBeGreaterThan(0);
    await c.close();
  });

  it('a response that hangs after its headers times out too', async () => {
    const srv = await localServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"manufacturer_id":');
    });
    const c = createApiClient({
      baseUrl: srv.url,
      apiKey: 'svc-k1-secretsecret',
      timeoutMs: 150,
      retry: { maxAttempts: 1 },
    });
    const e = (await c.me().catch((x: unknown) => x)) as ApiError;
    expect(e.err_code).toBe('client_timeout');
    await c.close();
    await srv.close();
  });
});

describe('tolerance of a different real service (docs/api-assumptions.md)', () => {
  it('a DELETE answered 2xx without a body counts as deleted (row 21), an empty 204 too', async () => {
    const id = '3f1e2d4c-0000-4000-8000-000000000042';
    let status = 200;
    const srv = await localServer((req, res) => {
      expect(req.method).toBe('DELETE');
      res.writeHead(status);
      res.end();
    });
    const c = createApiClient({ baseUrl: srv.url, apiKey: 'svc-abc123-' + 'x'.repeat(24), retry: { maxAttempts: 1 } });
    await expect(c.supplierProducts.delete(id)).resolves.toMatchObject({ id });
    status = 204;
    await expect(c.supplierProducts.delete(id)).resolves.toMatchObject({ id });
    expect(srv.hits.map((h) => h.url)).toEqual([`/v2/supplier-products/${id}`, `/v2/supplier-products/${id}`]);
    await c.close();
    await srv.close();
  });
});
