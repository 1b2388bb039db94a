/**
 * Issue 10, client points that only a service differing from the sandbox shows, produced by a rewriting proxy in
 * front of the sandbox: a list filter the service ignores (point 10) and err_external_id_exists sent with 422
 * instead of 409 (point 15: errors are classified by err_code first, the status only for unknown codes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type LoggerLike } from '../../electron/core/api/index.js';
import { client, sandbox, type Sandbox } from './helpers.js';
import { startProxy } from './proxy.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox('empty');
  const c = client(sb);
  for (const [external_id, name] of [
    ['TOL-A', 'Alpha'],
    ['TOL-B', 'Beta'],
    ['TOL-C', 'Gamma'],
  ])
    await c.supplierCompanies.create({ external_id, name });
  await c.close();
});
afterAll(() => sb.close());

function capturingLogger(): LoggerLike & { lines: { level: string; obj: unknown; msg: string }[] } {
  const lines: { level: string; obj: unknown; msg: string }[] = [];
  const at =
    (level: string) =>
    (obj: unknown, msg?: string): void => {
      lines.push({ level, obj, msg: msg ?? '' });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as LoggerLike & {
    lines: typeof lines;
  };
}

/** Drop `external_id=` from every list query: the service "ignores" the filter. */
const ignoreFilter = (url: string) => url.replace(/([?&])external_id=[^&]*&?/, '$1').replace(/[?&]$/, '');

describe('point 10: findByExternalId never returns an entity with another code', () => {
  it('a service that ignores the external_id filter gives "not found" and a warning, never page.data[0]', async () => {
    const proxy = await startProxy(sb.baseUrl, {
      url: (req) => (req.method === 'GET' ? ignoreFilter(req.url) : req.url),
    });
    const logger = capturingLogger();
    const c = createApiClient({ baseUrl: proxy.baseUrl, apiKey: sb.ownerKey, logger });
    try {
      // The filter really is ignored: a page of one arbitrary company comes back.
      const page = await c.supplierCompanies.list({ external_id: 'NOPE', limit: 1 });
      expect(page.data).toHaveLength(1);
      expect(page.data[0].external_id).not.toBe('NOPE');

      expect(await c.supplierCompanies.findByExternalId('NOPE')).toBeNull();
      for (const code of ['TOL-A', 'TOL-B', 'TOL-C']) {
        const found = await c.supplierCompanies.findByExternalId(code);
        // Either the right one (it happened to be first) or none — never another company.
        if (found !== null) expect(found.external_id).toBe(code);
      }
      const resolved = await c.supplierCompanies.resolveExternalIds(['NOPE', 'ALSO-NOPE'], { strategy: 'per-code' });
      expect(resolved.size).toBe(0);

      const warned = logger.lines.filter((l) => l.level === 'warn' && /ignored the external_id filter/.test(l.msg));
      expect(warned.length).toBeGreaterThanOrEqual(1);
      expect(warned[0].obj).toMatchObject({
        endpoint: 'GET /v2/supplier-companies',
        code: 'NOPE',
        filter: 'external_id',
      });
      // The key never reaches the log.
      expect(JSON.stringify(logger.lines)).not.toContain(sb.ownerKey.split('-').pop());
    } finally {
      await c.close();
      await proxy.close();
    }
  });
});

describe('point 15: errors are classified by err_code first', () => {
  it('the catalog decides the class whatever the status; the status decides only for an unknown code', () => {
    const cls = (status: number, err_code: string) =>
      new ApiError({ status, err_code, msg: '', endpoint: 'X' }).classification;
    expect(cls(422, 'err_external_id_exists')).toBe('conflict');
    expect(cls(403, 'err_external_id_exists')).toBe('conflict');
    expect(cls(409, 'err_entitlement_limit_reached')).toBe('entitlement');
    expect(cls(422, 'err_entitlement_limit_reached')).toBe('entitlement');
    expect(cls(409, 'err_svc_daily_limit_reached')).toBe('daily_limit');
    expect(cls(422, 'err_plant_no_access')).toBe('permission');
    expect(cls(403, 'err_not_authenticated')).toBe('auth');
    expect(cls(422, 'err_supplier_product_in_silo')).toBe('conflict');
    expect(cls(403, 'err_lca_update_not_queued')).toBe('conflict');
    expect(cls(409, 'err_not_valid')).toBe('validation');
    expect(cls(500, 'err_not_valid')).toBe('validation');
    expect(cls(404, 'err_not_found')).toBe('validation');
    // Unknown codes: the status is the fallback.
    expect(cls(409, 'err_brand_new')).toBe('conflict');
    expect(cls(422, 'err_brand_new')).toBe('validation');
    expect(cls(403, 'err_brand_new')).toBe('permission');
    expect(cls(401, 'err_brand_new')).toBe('auth');
  });

  it('err_external_id_exists sent with 422 takes the conflict path: looked up, already_existed when the same, a conflict when not', async () => {
    const proxy = await startProxy(sb.baseUrl, {
      response: (req, res) =>
        req.method === 'POST' && res.status === 409 && res.text?.includes('err_external_id_exists')
          ? { status: 422, text: res.text }
          : res,
    });
    const c = createApiClient({ baseUrl: proxy.baseUrl, apiKey: sb.ownerKey });
    try {
      const same = await c.supplierCompanies.create({ external_id: 'TOL-A', name: 'Alpha' }, { onExisting: 'compare' });
      expect(same).toMatchObject({ outcome: 'already_existed', status: 422, checked: true });
      expect(same.entity.external_id).toBe('TOL-A');
      // The lookup was made (the 409 path), not a validation failure.
      expect(proxy.seen.some((x) => x.method === 'GET' && x.url.includes('external_id=TOL-A'))).toBe(true);

      const other = await c.supplierCompanies
        .create({ external_id: 'TOL-B', name: 'Not Beta' }, { onExisting: 'compare' })
        .catch((x: unknown) => x);
      expect(other).toBeInstanceOf(ApiError);
      expect(other).toMatchObject({ err_code: 'err_external_id_exists', classification: 'conflict', retryable: false });
      expect((other as ApiError).differences).toEqual(['name']);

      const plain = await c.supplierCompanies.create({ external_id: 'TOL-C', name: 'x' }).catch((x: unknown) => x);
      expect(plain).toMatchObject({ status: 422, err_code: 'err_external_id_exists', classification: 'conflict' });
    } finally {
      await c.close();
      await proxy.close();
    }
  });
});
