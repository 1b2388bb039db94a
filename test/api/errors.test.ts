/**
 * One ApiError type with status, err_code, msg, entitlement_limit only when present, endpoint and
 * classification — from real sandbox answers. Clients branch on err_code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, explainErrCode } from '../../core/api/index.js';
import { catalog, client, control, sandbox, type Catalog, type Sandbox } from './helpers.js';

let sb: Sandbox;
let cat: Catalog;
beforeAll(async () => {
  sb = await sandbox('demo');
  cat = await catalog(sb);
});
afterAll(() => sb.close());

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

const key = (body: Record<string, unknown>) =>
  control<{ key: string; api_key_id: string; owner_profile_id: string }>(sb, 'POST', '/keys', body);

describe('ApiError from service answers', () => {
  it('401 for a bad key: auth, not retryable, uniform', async () => {
    const c = client(sb, { apiKey: 'svc-unknownkey-abcdefghijkl' });
    const e = await failure(c.me());
    expect(e).toMatchObject({
      status: 401,
      err_code: 'err_not_authenticated',
      classification: 'auth',
      retryable: false,
      endpoint: 'GET /v2/me',
    });
    expect('entitlement_limit' in e).toBe(false);
    expect(e.catalog?.group).toBe('General');
    await c.close();
  });

  it('403 for a missing scope and for an unreachable plant: permission', async () => {
    const k = await key({ scopes: ['view:plants'], plant_ids: [cat.plants[0].id] });
    const c = client(sb, { apiKey: k.key });
    const e1 = await failure(c.supplierCompanies.list());
    expect(e1).toMatchObject({
      status: 403,
      err_code: 'err_permission_denied',
      classification: 'permission',
      endpoint: 'GET /v2/supplier-companies',
    });
    const e2 = await failure(c.plants.get(cat.plants[1].id));
    expect(e2).toMatchObject({
      status: 403,
      err_code: 'err_plant_no_access',
      classification: 'permission',
      endpoint: 'GET /v2/plants/{id}',
    });
    await c.close();
  });

  it('409 and 422: conflict and validation, with the endpoint named', async () => {
    const c = client(sb);
    await c.supplierCompanies.create({ external_id: 'ERR-1', name: 'A' });
    const e409 = await failure(c.supplierCompanies.create({ external_id: 'ERR-1', name: 'B' }));
    expect(e409).toMatchObject({
      status: 409,
      err_code: 'err_external_id_exists',
      classification: 'conflict',
      endpoint: 'POST /v2/supplier-companies',
    });
    const e422 = await failure(
      c.supplierPlants.create({ name: 'P', supplier_company_id: '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6d' }),
    );
    expect(e422).toMatchObject({ status: 422, classification: 'validation', retryable: false });
    expect(e422.err_code).toBe('err_not_found');
    expect(e422.message).toContain('POST /v2/supplier-plants');
    await c.close();
  });

  it('entitlement limit: entitlement_limit present with dimension, usage, limit', async () => {
    const c = client(sb);
    const used = (await c.productInstances.list({ limit: 200 })).data.length;
    await control(sb, 'PUT', '/entitlements', { product_instances: used });
    try {
      const e = await failure(
        c.productInstances.create({
          external_id: 'PI-ENT',
          product_id: cat.products[0].id,
          plant_id: cat.plants[0].id,
          produced_from: 2024,
        }),
      );
      expect(e.classification).toBe('entitlement');
      expect(e.err_code).toBe('err_entitlement_limit_reached');
      expect(e.entitlement_limit).toEqual({ dimension: 'product_instances', usage: used, limit: used });
      expect(e.knownEntitlementDimension).toBe(true);
      expect(e.retryable).toBe(false);
    } finally {
      await control(sb, 'PUT', '/entitlements', { product_instances: null });
      await c.close();
    }
  });

  it('daily limit: daily_limit, not retried', async () => {
    const c = client(sb);
    await control(sb, 'PUT', '/daily-limit', { requests: 2 });
    try {
      await c.plants.list();
      await c.plants.list();
      const e = await failure(c.plants.list());
      expect(e).toMatchObject({
        err_code: 'err_svc_daily_limit_reached',
        classification: 'daily_limit',
        retryable: false,
      });
      expect(c.stats().requests).toBe(3);
      expect(explainErrCode(e.err_code).action).toMatch(/tomorrow/);
    } finally {
      await control(sb, 'PUT', '/daily-limit', { requests: null });
      await c.close();
    }
  });

  it('serializes without stack or secrets for journals and reports', async () => {
    const c = client(sb);
    const e = await failure(c.silos.get('2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6d'));
    const j = JSON.parse(JSON.stringify(e)) as Record<string, unknown>;
    expect(j).toMatchObject({
      name: 'ApiError',
      status: 422,
      err_code: 'err_not_found',
      endpoint: 'GET /v2/silos/{id}',
    });
    expect(j.stack).toBeUndefined();
    expect(JSON.stringify(j)).not.toContain(sb.ownerKey);
    await c.close();
  });
});
