/**
 * Retries that run out on an overload answer without an error body (429, 503) say that the service kept
 * answering so and how often it was asked, not that its answer is not understood (a changed contract).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, explainErrCode } from '../../core/api/index.js';
import { describeApiError } from '../../core/cli/shared/errors.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A server answering every request with `status` and an empty body. */
async function busyServer(status: number): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => {
      res.writeHead(status);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits };
}

describe('a busy service without an error body', () => {
  it.each([503, 429])(
    '%i on every attempt: the error says the service kept answering it, with the attempts',
    async (status) => {
      const srv = await busyServer(status);
      const c = createApiClient({ baseUrl: srv.url, apiKey: 'k', retry: { maxAttempts: 3, baseMs: 1, capMs: 2 } });
      closers.push(() => c.close());
      const err = await c.supplierCompanies.list().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      expect(srv.hits()).toBe(3);
      expect(e.err_code).toBe('client_service_busy');
      expect(e.attempts).toBe(3);
      expect(e.msg).toBe(
        `the service kept answering ${status} without an error body (busy or unavailable), 3 attempts`,
      );
      expect(explainErrCode(e.err_code).explanation).not.toMatch(/contract|does not understand/);
      expect(describeApiError(e).message).toBe(
        `GET /v2/supplier-companies failed (HTTP ${status}, client_service_busy): the service kept answering ${status} without an error body (busy or unavailable), 3 attempts`,
      );
    },
  );
});
