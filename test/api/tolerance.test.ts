/**
 * What only a service differing from the sandbox shows, produced by a rewriting proxy in
 * front of the sandbox: a list filter the service ignores, responses without the fields the spec does
 * not mark required, and err_external_id_exists sent with 422 instead of 409 (errors are
 * classified by err_code first, the status only for unknown codes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { request } from 'undici';
import type { z } from 'zod';
import { ApiError, createApiClient, type LoggerLike } from '../../core/api/index.js';
import { strictParser } from '../../core/api/parse.js';
import * as S from '../../core/spec/schemas.js';
import { ERR_CODE_CLASSES, ERR_CODE_LIST } from '../../core/spec/err-codes.js';
import { catalog, client, sandbox, type Sandbox } from './helpers.js';
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

describe('findByExternalId never returns an entity with another code', () => {
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

describe('errors are classified by err_code first', () => {
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

/** A raw /v2 answer of the sandbox (owner key). */
async function raw(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await request(`${sb.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': sb.ownerKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.body.text();
  expect(r.statusCode, text).toBeLessThan(300);
  return JSON.parse(text) as Record<string, unknown>;
}

describe('only the fields the spec marks required are required', () => {
  it('every response schema the client uses: each non-required field may be missing, unknown fields are kept', async () => {
    const cat = await catalog(sb);
    const company = await raw('POST', '/v2/supplier-companies', { external_id: 'REQ-SC', name: 'Req', country: 'DE' });
    const splant = await raw('POST', '/v2/supplier-plants', {
      external_id: 'REQ-SPL',
      name: 'Req plant',
      supplier_company_id: company.id,
      country: 'DE',
      city: 'Ulm',
    });
    const product = await raw('POST', '/v2/supplier-products', {
      external_id: 'REQ-SP',
      name: 'Req product',
      plant_id: cat.plants[0].id,
      material_type: { category: 'elementary', elementary_id: cat.elementaries[0].id },
      supplier_plant_id: splant.id,
      transport_route: { truck_km: 10 },
      hazardous_substances: [{ cas_number: '7440-43-9', mass_share: 0.001 }],
      lifetime_years: 50,
      secondary_percentage: 10,
      moisture_content_percentage: 5,
      unit: 'KG',
    });
    const silo = await raw('POST', '/v2/silos', {
      external_id: 'REQ-SILO',
      plant_id: cat.plants[0].id,
      name: 'Req silo',
      items: [{ supplier_product_id: product.id, annual_items: [{ year: 2024, amount: 1 }] }],
    });
    const instance = await raw('POST', '/v2/product-instances', {
      external_id: 'REQ-PI',
      product_id: cat.products[0].id,
      plant_id: cat.plants[0].id,
      produced_from: 2023,
    });
    const first = async (path: string) => ((await raw('GET', path)).data as Record<string, unknown>[])[0];
    // Required = the spec's tables ("yes" / "response"); no table or no Required column → the entity's id
    // (and, for /v2/me, what preflight and the Idempotency-Key cannot do without).
    const cases: [string, z.ZodType, Record<string, unknown>, string[]][] = [
      [
        'Product',
        S.Product,
        await first(`/v2/products?product_instance_id=${String(instance.id)}`),
        [
          'id',
          'external_id',
          'name',
          'description',
          'use_case',
          'elementary_id',
          'unit',
          'is_published_on_emidat',
          'product_instance_ids',
          'plant_ids',
          'created_at',
        ],
      ],
      ['Silo', S.Silo, silo, ['id', 'plant_id', 'name', 'items', 'created_at']],
      ['SupplierProduct', S.SupplierProduct, product, ['id']],
      ['SupplierCompany', S.SupplierCompany, company, ['id']],
      ['SupplierPlant', S.SupplierPlant, splant, ['id']],
      ['Plant', S.Plant, await first('/v2/plants'), ['id']],
      ['Elementary', S.Elementary, await first('/v2/elementaries'), ['id']],
      ['Composite', S.Composite, await first('/v2/composites'), ['id']],
      ['Me', S.Me, await raw('GET', '/v2/me'), ['manufacturer_id', 'scopes', 'plant_ids']],
      [
        'LcaResults',
        S.LcaResults,
        await raw('GET', `/v2/product-instances/${String(instance.id)}/lca-results`),
        ['job', 'results'],
      ],
    ];
    for (const [name, schema, full, required] of cases) {
      const parse = strictParser(schema);
      const withExtra = parse({ ...full, a_field_from_the_future: 1 }, name) as Record<string, unknown>;
      expect(withExtra.a_field_from_the_future, `${name} keeps unknown fields`).toBe(1);
      for (const field of Object.keys(full)) {
        const { [field]: _dropped, ...without } = full;
        void _dropped;
        if (required.includes(field)) {
          expect(() => parse(without, name), `${name} without ${field} must be refused`).toThrow(ApiError);
        } else {
          expect(() => parse(without, name), `${name} without ${field} must parse`).not.toThrow();
        }
      }
      // Every non-required field at once.
      const minimal = Object.fromEntries(Object.entries(full).filter(([k]) => required.includes(k)));
      expect(() => parse(minimal, name), `${name} with only its required fields`).not.toThrow();
    }
  });

  it('a create whose answer lacks optional fields (a supplier product without epd_id, a company without external_id) is created, not failed', async () => {
    const cat = await catalog(sb);
    const strip: Record<string, string[]> = {
      '/v2/supplier-companies': ['external_id', 'country', 'created_at'],
      '/v2/supplier-products': ['epd_id', 'hazardous_substances', 'secondary_datasets', 'created_at'],
    };
    const proxy = await startProxy(sb.baseUrl, {
      response: (req, res) => {
        const drop = strip[req.url.split('?')[0]];
        if (!drop || !res.text || res.status >= 300) return res;
        const body = JSON.parse(res.text) as Record<string, unknown>;
        const one = (o: Record<string, unknown>) =>
          Object.fromEntries(Object.entries(o).filter(([k]) => !drop.includes(k)));
        const out = Array.isArray(body.data)
          ? { ...body, data: (body.data as Record<string, unknown>[]).map(one) }
          : one(body);
        return { status: res.status, text: JSON.stringify(out) };
      },
    });
    const c = createApiClient({ baseUrl: proxy.baseUrl, apiKey: sb.ownerKey });
    try {
      const company = await c.supplierCompanies.create({ external_id: 'OPT-SC', name: 'Optional Co', country: 'DE' });
      expect(company.outcome).toBe('created');
      expect(company.entity.external_id).toBeUndefined();
      const sp = await c.supplierProducts.create({
        external_id: 'OPT-SP',
        name: 'Optional product',
        plant_id: cat.plants[0].id,
        material_type: { category: 'elementary', elementary_id: cat.elementaries[0].id },
        unit: 'KG',
      });
      expect(sp.outcome).toBe('created');
      expect('epd_id' in sp.entity).toBe(false);
      expect((await c.supplierProducts.get(sp.entity.id)).id).toBe(sp.entity.id);
      expect((await c.supplierProducts.findByExternalId('OPT-SP'))?.id).toBe(sp.entity.id);
    } finally {
      await c.close();
      await proxy.close();
    }
  });
});

describe('docs/api-assumptions.md says what the code does', () => {
  const doc = readFileSync(resolve(process.cwd(), 'docs/api-assumptions.md'), 'utf8');
  const row = (start: string) => doc.split('\n').find((l) => l.startsWith(`| ${start}`)) ?? '';

  it('the DELETE row: a 2xx DELETE without a body counts as deleted (behaviour: test/api/transport.test.ts)', () => {
    const del = row('DELETE after a lost answer');
    expect(del).toMatch(/without a body.*counts as deleted/);
    expect(del).not.toMatch(/not tolerated/);
  });

  it('classification: by err_code first, from the catalog data; every catalog code has a class the doc names', () => {
    const cls = row('Classification of errors');
    expect(cls).toMatch(/By `err_code` first/);
    for (const c of ERR_CODE_CLASSES) expect(cls).toContain(`\`${c}\``);
    for (const info of ERR_CODE_LIST) {
      expect(ERR_CODE_CLASSES).toContain(info.classification);
      // The class is the code's whatever the status it arrives with.
      for (const status of [403, 409, 422])
        expect(new ApiError({ status, err_code: info.code, msg: '', endpoint: 'X' }).classification).toBe(
          info.classification,
        );
    }
    expect(row('`err_external_id_exists`')).toMatch(/conflict even with 422/);
  });
});
