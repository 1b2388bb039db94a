/**
 * The client's production-figures module (core/api/resources/production-figures.ts) through HTTP:
 * against the sandbox (read, write, validation before sending) and against a service without the endpoint
 * (404/405 → client_endpoint_unavailable, a message that sends the operator to the web interface).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../core/api/index.js';
import { makeInstance, makeMaterials, startLcaFixture, type LcaFixture } from './fixture.js';

let f: LcaFixture;
let id: string;
beforeAll(async () => {
  f = await startLcaFixture();
  const m = await makeMaterials(f, 'PL-HEID', 'PFC');
  id = await makeInstance(f, {
    external_id: 'PFC-1',
    article: 'ART-20030',
    plantCode: 'PL-HEID',
    from: 2022,
    to: 2024,
    bom: [{ ref: m.cement, mass_kg: 300 }],
  });
});
afterAll(() => f.close());

describe('production figures client', () => {
  it('writes and reads figures through the sandbox', async () => {
    const after = await f.client.productionFigures.put(id, [{ year: 2023, quantity: 48_250.5 }]);
    expect(after).toEqual([{ year: 2023, quantity: 48_250.5 }]);
    expect(await f.client.productionFigures.get(id)).toEqual([{ year: 2023, quantity: 48_250.5 }]);
  });

  it('refuses a year outside the production period before sending when the period is known', async () => {
    const err = await f.client.productionFigures
      .put(id, [{ year: 2030, quantity: 1 }], { producedFrom: 2022, producedTo: 2024 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).err_code).toBe('client_invalid_request');
    expect((err as ApiError).msg).toMatch(/2030 lies outside the production period/);
    const fromService = await f.client.productionFigures
      .put(id, [{ year: 2030, quantity: 1 }])
      .catch((e: unknown) => e);
    expect((fromService as ApiError).err_code).toBe('err_not_valid');
  });

  for (const status of [404, 405]) {
    it(`a service without the endpoint (${status}) fails with a clear message pointing to the web interface`, async () => {
      const server: Server = createServer((_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ msg: 'Not Found' }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const client = createApiClient({ baseUrl: base, apiKey: 'svc-abc-secret', manufacturerId: 'm' });
      try {
        for (const call of [
          () => client.productionFigures.get(id),
          () => client.productionFigures.put(id, [{ year: 2023, quantity: 1 }]),
        ]) {
          const err = await call().catch((e: unknown) => e);
          expect(err).toBeInstanceOf(ApiError);
          expect((err as ApiError).err_code).toBe('client_endpoint_unavailable');
          expect((err as ApiError).retryable).toBe(false);
          expect((err as ApiError).msg).toMatch(/web interface/);
        }
      } finally {
        await client.close();
        await new Promise<void>((r) => server.close(() => r()));
      }
    });
  }
});
