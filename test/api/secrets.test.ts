/**
 * The key never leaks: a client session with a known key — successes, conflicts, retries under faults, timeouts, a revoked
 * key — then every log line (pino, debug level) and every error text is scanned: the secret never appears; the
 * key is only ever shown masked as svc-<key_id>-****. Logs are structured (method, path, status, err_code,
 * duration, attempt).
 */
import { inspect } from 'node:util';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../core/api/index.js';
import { scrubbingLogger, silentLogger } from '../../core/api/secrets.js';
import { catalog, control, faults, sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox('demo');
});
afterAll(() => sb.close());

describe('the API key never leaks', () => {
  it('scans every log line and error text of a session', async () => {
    const k = await control<{ key: string; api_key_id: string }>(sb, 'POST', '/keys', {
      scopes: [
        'view:plants',
        'view:materials',
        'edit:materials',
        'view:products',
        'edit:products',
        'view:recipes',
        'edit:recipes',
      ],
      plant_ids: null,
    });
    const secret = k.key.slice(`svc-${k.api_key_id}-`.length);
    expect(secret.length).toBeGreaterThan(8);

    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString('utf8'));
        cb();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    const texts: string[] = [];
    const keep = (e: unknown) => {
      texts.push(String(e), inspect(e, { depth: 6 }), JSON.stringify(e) ?? '', (e as Error)?.stack ?? '');
      logger.error({ err: e }, 'operation failed');
    };

    const cat = await catalog(sb);
    const c = createApiClient({
      baseUrl: sb.baseUrl,
      apiKey: k.key,
      logger,
      timeoutMs: 200,
      retry: { baseMs: 1, maxAttempts: 4 },
    });
    await c.me();
    const report = await c.preflight([{ operation: 'silos.create', plant_id: cat.plants[0].id }]);
    texts.push(JSON.stringify(report));
    expect(report.key).toBe(`svc-${k.api_key_id}-****`);
    expect(c.maskedKey).toBe(`svc-${k.api_key_id}-****`);
    await c.supplierCompanies.create({ external_id: 'LEAK-1', name: 'A' });
    await c.supplierCompanies.create({ external_id: 'LEAK-1', name: 'A' }).catch(keep);
    await c.supplierCompanies.get('not-a-uuid').catch(keep);
    await faults(sb, { error_rate: 0.3, reset_after_commit_rate: 0.3, seed: 11 });
    for (let i = 0; i < 20; i++) {
      await c.supplierCompanies.create({ external_id: `LEAK-F${i}`, name: `F${i}` }).catch(keep);
      await c.plants.list().catch(keep);
    }
    await faults(sb, { latency_ms: 1_000 });
    await c.plants.list().catch(keep);
    await faults(sb, {});
    await control(sb, 'DELETE', `/keys/${k.api_key_id}`);
    await c.me().catch(keep);
    texts.push(inspect(c, { depth: 8 }), JSON.stringify(c.stats()));
    await c.close();
    // A key given with surrounding spaces, and a malformed one, are not echoed either.
    const c2 = createApiClient({ baseUrl: sb.baseUrl, apiKey: `  ${k.key}  `, logger });
    await c2.me().catch(keep);
    await c2.close();
    logger.flush();

    expect(texts.length).toBeGreaterThan(8);
    expect(lines.length).toBeGreaterThan(40);
    const all = lines.join('') + texts.join('\n');
    expect(all).not.toContain(secret);
    expect(all).not.toContain(k.key);
    expect(all).toContain(`svc-${k.api_key_id}-****`);

    // Structured request logs.
    const requests = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((o) => o.msg === 'api request');
    expect(requests.length).toBeGreaterThan(40);
    for (const r of requests) {
      expect(r).toHaveProperty('method');
      expect(r).toHaveProperty('path');
      expect(r).toHaveProperty('status');
      expect(r).toHaveProperty('duration_ms');
      expect(r).toHaveProperty('attempt');
    }
    expect(requests.some((r) => r.err_code === 'err_not_authenticated')).toBe(true);
    expect(requests.some((r) => r.err_code === 'client_network_error' || r.err_code === 'client_timeout')).toBe(true);
  });
});

describe('scrubbingLogger', () => {
  it('scrubs every field of a level that logs; a level that logs nothing (silentLogger) costs no scrubbing', () => {
    let scrubbed = 0;
    const scrub = (s: string) => (scrubbed++, s.replace('svc-k1-secret', 'svc-k1-****'));
    const silent = scrubbingLogger(silentLogger, scrub);
    silent.debug({ path: '/v2/x', note: 'svc-k1-secret' }, 'api request');
    expect(scrubbed).toBe(0);
    const seen: unknown[] = [];
    const base = { ...silentLogger, debug: (o: unknown, m?: string) => void seen.push(o, m) };
    scrubbingLogger(base, scrub).debug({ path: '/v2/x', note: 'svc-k1-secret' }, 'api request');
    expect(seen).toEqual([{ path: '/v2/x', note: 'svc-k1-****' }, 'api request']);
    expect(scrubbed).toBe(3);
  });
});
