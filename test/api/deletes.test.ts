/**
 * The client's DELETE for every entity type: against the sandbox (deleted entity returned, in-use
 * refusals with their err_code, not found when already gone) and against a service that has no DELETE for a type
 * (a real service may lack what the sandbox offers): a clear per-call "does not allow deleting" error.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type ApiClient } from '../../core/api/index.js';
import { client, sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
let api: ApiClient;
beforeAll(async () => {
  sb = await sandbox('empty');
  api = client(sb);
});
afterAll(async () => {
  await api.close();
  await sb.close();
});

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('client delete against the sandbox', () => {
  it('deletes a supplier company and plant; refuses the company while its plant exists; gone afterwards', async () => {
    const company = await api.supplierCompanies.create({ external_id: 'CDEL-C', name: 'Company', country: 'DE' });
    const plant = await api.supplierPlants.create({
      external_id: 'CDEL-P',
      name: 'Plant',
      supplier_company_id: company.entity.id,
      country: 'DE',
    });
    const inUse = await rejection(api.supplierCompanies.delete(company.entity.id));
    expect(inUse.err_code).toBe('err_supplier_in_use');
    expect(inUse.retryable).toBe(false);
    const deleted = await api.supplierPlants.delete(plant.entity.id);
    expect(deleted.id).toBe(plant.entity.id);
    expect(deleted.external_id).toBe('CDEL-P');
    expect((await api.supplierCompanies.delete(company.entity.id)).external_id).toBe('CDEL-C');
    const again = await rejection(api.supplierCompanies.delete(company.entity.id));
    expect(again.err_code).toBe('err_not_found');
    expect(await api.supplierCompanies.findByExternalId('CDEL-C')).toBeNull();
  });
});

describe('a service without DELETE for a type', () => {
  it('says the service does not allow deleting it through the API (the entity can still be read)', async () => {
    const ME = {
      manufacturer_id: '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6d',
      api_key_id: 'k1',
      owner_profile_id: '2b0c3c5e-3f7a-4c43-9d51-0e2b1f4a5c6e',
      scopes: [],
      plant_ids: [],
    };
    const company = {
      id: '0b7f3a52-6c0e-4c1f-9a7e-3d1c8e2f4a10',
      external_id: 'NODEL',
      name: 'Kept',
      created_at: '2026-01-01T00:00:00Z',
    };
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const send = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (req.url === '/v2/me') return send(200, ME);
        if (req.method === 'GET' && req.url === `/v2/supplier-companies/${company.id}`) return send(200, company);
        send(404, { msg: 'no route', err_code: 'err_not_found' });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const c = createApiClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'svc-abcdef-0123456789abcdef0123',
    });
    try {
      const e = await rejection(c.supplierCompanies.delete(company.id));
      expect(e.err_code).toBe('client_endpoint_unavailable');
      expect(e.msg).toMatch(/does not allow deleting a supplier company through the API/);
      expect(e.retryable).toBe(false);
      // an id the service does not know stays "not found" (already absent)
      const gone = await rejection(c.supplierCompanies.delete('0b7f3a52-6c0e-4c1f-9a7e-3d1c8e2f4a11'));
      expect(gone.err_code).toBe('err_not_found');
    } finally {
      await c.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
