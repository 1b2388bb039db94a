/** Unit-level pieces of the client: backoff, limiter, idempotency key, key masking/scrubbing, field compare. */
import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, retryPolicy, sleep } from '../../core/api/backoff.js';
import { AdaptiveLimiter } from '../../core/api/limiter.js';
import { canonicalJson, idempotencyKey } from '../../core/api/idempotency.js';
import { scrubbingLogger, secretScrubber } from '../../core/api/secrets.js';
import { fieldDifferences } from '../../core/api/compare.js';
import { endpointName } from '../../core/api/transport.js';
import { preflightReport } from '../../core/api/preflight.js';

describe('backoff', () => {
  it('full jitter stays within [0, min(cap, base·2^(n-1))] and doubles', () => {
    const p = { baseMs: 100, capMs: 1_000 };
    expect(backoffDelay(1, p, () => 0.999999)).toBe(99);
    expect(backoffDelay(2, p, () => 0.999999)).toBe(199);
    expect(backoffDelay(3, p, () => 0.999999)).toBe(399);
    expect(backoffDelay(10, p, () => 0.999999)).toBe(999);
    expect(backoffDelay(4, p, () => 0)).toBe(0);
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(3, p);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(400);
    }
  });

  it('rejects nonsense policies and parses Retry-After', () => {
    expect(() => retryPolicy({ maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(retryPolicy({ maxAttempts: 3 }).maxAttempts).toBe(3);
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('sleep is cut short by an AbortSignal', async () => {
    const ac = new AbortController();
    const p = sleep(10_000, ac.signal);
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('adaptive limiter', () => {
  it('never grants more than the limit, grows additively on success, halves once per epoch on overload', async () => {
    const l = new AdaptiveLimiter({ cap: 8, initial: 4 });
    const slots = await Promise.all([l.acquire(), l.acquire(), l.acquire(), l.acquire()]);
    expect(l.inFlight).toBe(4);
    let fifth = false;
    const p5 = l.acquire().then((s) => {
      fifth = true;
      return s;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(fifth).toBe(false);
    // All four were in flight in the same epoch: four overloads halve the limit once.
    for (const s of slots) s.release('overload');
    expect(l.limit).toBe(2);
    expect(l.decreases).toBe(1);
    const s5 = await p5;
    s5.release('ok');
    // Additive increase: about +1 per window of `limit` successes.
    for (let i = 0; i < 20; i++) (await l.acquire()).release('ok');
    expect(l.limit).toBeGreaterThan(2);
    expect(l.limit).toBeLessThanOrEqual(8);
    for (let i = 0; i < 500; i++) (await l.acquire()).release('ok');
    expect(l.limit).toBe(8);
  });

  it('honours a pause (Retry-After) and an abort while queued', async () => {
    const l = new AdaptiveLimiter({ cap: 2, initial: 2 });
    l.pauseFor(60);
    const t0 = Date.now();
    const s = await l.acquire();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(50);
    s.release('neutral');
    const a = await l.acquire();
    const b = await l.acquire();
    const ac = new AbortController();
    const queued = l.acquire(ac.signal);
    ac.abort();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    a.release('ok');
    b.release('ok');
    expect(l.inFlight).toBe(0);
    expect(l.waiting).toBe(0);
  });
});

describe('idempotency key', () => {
  const mid = '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6d';
  it('is deterministic, independent of key order, and differs per manufacturer, type, code and body', () => {
    const a = idempotencyKey(mid, 'silo', 'S-1', { name: 'A', plant_id: 'p', items: [{ x: 1, y: 2 }] });
    const b = idempotencyKey(mid, 'silo', 'S-1', { items: [{ y: 2, x: 1 }], plant_id: 'p', name: 'A' });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idempotencyKey(mid, 'silo', 'S-1', { name: 'B', plant_id: 'p', items: [] })).not.toBe(a);
    expect(idempotencyKey(mid, 'silo', 'S-2', { name: 'A', plant_id: 'p', items: [{ x: 1, y: 2 }] })).not.toBe(a);
    expect(
      idempotencyKey(mid, 'prechain_product', 'S-1', { name: 'A', plant_id: 'p', items: [{ x: 1, y: 2 }] }),
    ).not.toBe(a);
    expect(
      idempotencyKey(mid.replace('2b', '3b'), 'silo', 'S-1', { name: 'A', plant_id: 'p', items: [{ x: 1, y: 2 }] }),
    ).not.toBe(a);
    expect(canonicalJson({ b: 1, a: undefined, c: [3, { z: 1, y: 2 }] })).toBe('{"b":1,"c":[3,{"y":2,"z":1}]}');
  });
});

describe('key masking and scrubbing', () => {
  const key = 'svc-k3y1d-S3cr3tS3cr3tS3cr3t';
  it('replaces the key and its secret in text and in log objects', () => {
    const scrub = secretScrubber(key);
    expect(scrub(`header ${key} and secret S3cr3tS3cr3tS3cr3t`)).toBe('header svc-k3y1d-**** and secret ****');
    const lines: string[] = [];
    const sink = (obj: Record<string, unknown>, msg?: string) => lines.push(JSON.stringify({ ...obj, msg }));
    const log = scrubbingLogger({ debug: sink, info: sink, warn: sink, error: sink }, scrub);
    log.info({ nested: { k: key, arr: [key] }, err: new Error(`bad ${key}`) }, `using ${key}`);
    expect(lines.join('\n')).not.toContain('S3cr3tS3cr3tS3cr3t');
    expect(lines[0]).toContain('svc-k3y1d-****');
  });
});

describe('compare of sent fields with a held entity', () => {
  it('ignores service fields, array order, null vs absent, id case; finds real differences', () => {
    const sent = {
      name: 'Sand 0/2',
      plant_id: 'A0000000-0000-4000-8000-000000000001',
      items: [{ a: 1 }, { a: 2 }],
      epd_id: null,
    };
    const held = {
      id: 'x',
      created_at: 't',
      name: 'Sand 0/2',
      plant_id: 'a0000000-0000-4000-8000-000000000001',
      items: [{ a: 2, z: 0 }, { a: 1 }],
    };
    expect(fieldDifferences(sent, held)).toEqual([]);
    expect(fieldDifferences({ ...sent, name: 'Sand 0/4' }, held)).toEqual(['name']);
    expect(fieldDifferences({ ...sent, items: [{ a: 1 }] }, held)).toEqual(['items']);
    expect(fieldDifferences({ t: { truck_km: 10 } }, { t: { truck_km: 12 } })).toEqual(['t.truck_km']);
  });
});

describe('endpoint names and preflight table', () => {
  it('names endpoints without ids', () => {
    expect(endpointName('GET', '/v2/silos/0b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6d/x?y=1')).toBe('GET /v2/silos/{id}/x');
  });
  it('reports missing scopes, unreachable plants and expiry from a /v2/me answer', () => {
    const me = {
      manufacturer_id: '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6d',
      api_key_id: 'k1',
      owner_profile_id: '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6e',
      scopes: ['view:materials', 'edit:materials'],
      plant_ids: ['2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c61'],
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
    };
    const r = preflightReport(me, 'svc-k1-****', [
      { operation: 'silos.create', plant_id: '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c61', count: 3 },
      { operation: 'silos.create', plant_id: '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c62', count: 2 },
      { operation: 'bom.put', count: 4 },
      { operation: 'products.list', plant_id: '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c69' },
    ]);
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      expect.objectContaining({ kind: 'plant_unreachable', operation: 'silos.create', count: 2 }),
      expect.objectContaining({ kind: 'missing_scope', operation: 'bom.put', scope: 'edit:recipes', count: 4 }),
      // products are listed whatever the key's plants: only the scope counts
      expect.objectContaining({ kind: 'missing_scope', operation: 'products.list', scope: 'view:products', count: 1 }),
    ]);
    expect(r.warnings).toEqual([expect.objectContaining({ kind: 'key_expiring' })]);
  });
});
