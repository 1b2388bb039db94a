/**
 * The request log counts what the sandbox did, also for a client that closed its connection before the answer:
 * a write held by a latency fault still runs once its client has gone (as on a real server), and its log entry
 * carries the status it would have been answered with and `client_gone: true`.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;

beforeAll(async () => {
  sb = await sandbox({ seed: 'empty' });
});
afterAll(() => sb.close());

interface Entry {
  seq: number;
  method: string;
  path: string;
  status: number;
  err_code: string | null;
  reset: boolean;
  client_gone?: boolean;
}

const lastSeq = async () => (await sb.control('GET', '/__sandbox/requests?since=999999999')).body.last_seq as number;

/** Sends a whole request on a raw connection and closes it at once, before any answer can come. */
async function sendAndLeave(method: string, path: string, body: unknown): Promise<void> {
  const { hostname, port } = new URL(sb.baseUrl);
  const text = JSON.stringify(body);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: ${hostname}\r\nx-api-key: ${sb.ownerKey}\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
        () => {
          socket.destroy();
          resolve();
        },
      );
    });
  });
}

/** The log entries after `since` of one method and path, once there is one (the request runs after the latency). */
async function logged(since: number, method: string, path: string): Promise<Entry[]> {
  const end = Date.now() + 20_000;
  while (Date.now() < end) {
    const entries = (await sb.control('GET', `/__sandbox/requests?since=${since}`)).body.entries as Entry[];
    const found = entries.filter((e) => e.method === method && e.path === path);
    if (found.length) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${method} ${path} in the request log`);
}

describe('the request log and a client gone before its answer', () => {
  it('a write whose client closed the connection while a latency fault held it is applied and logged (201, client_gone)', async () => {
    const since = await lastSeq();
    await sb.control('PUT', '/__sandbox/faults', { latency_ms: 300 });
    try {
      await sendAndLeave('POST', '/v2/supplier-companies', { external_id: 'GONE-1', name: 'left early' });
      const [entry, ...more] = await logged(since, 'POST', '/v2/supplier-companies');
      expect(more).toEqual([]);
      expect(entry).toMatchObject({ status: 201, err_code: null, reset: false, client_gone: true });
    } finally {
      await sb.control('PUT', '/__sandbox/faults', {});
    }
    const found = await sb.api('GET', '/v2/supplier-companies?external_id=GONE-1');
    expect(found.body.data).toEqual([expect.objectContaining({ external_id: 'GONE-1', name: 'left early' })]);
  });

  it('a refused write of a client gone is logged with the status it would have been answered with', async () => {
    // The same create again: answered to a client that waits, and logged the same for one that left.
    const answered = await sb.api('POST', '/v2/supplier-companies', { body: { external_id: 'GONE-1', name: 'again' } });
    expect(answered.status).toBeGreaterThanOrEqual(400);
    const since = await lastSeq();
    await sb.control('PUT', '/__sandbox/faults', { latency_ms: 300 });
    try {
      await sendAndLeave('POST', '/v2/supplier-companies', { external_id: 'GONE-1', name: 'again' });
      const [entry] = await logged(since, 'POST', '/v2/supplier-companies');
      expect(entry).toMatchObject({ status: answered.status, err_code: answered.body.err_code, client_gone: true });
    } finally {
      await sb.control('PUT', '/__sandbox/faults', {});
    }
  });

  it('a client gone before the whole body arrived: the request is refused (422) and logged, not left hanging', async () => {
    const since = await lastSeq();
    await sb.control('PUT', '/__sandbox/faults', { latency_ms: 300 });
    try {
      const { hostname, port } = new URL(sb.baseUrl);
      const socket = connect(Number(port), hostname);
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.once('connect', () =>
          socket.write(
            `POST /v2/supplier-companies HTTP/1.1\r\nHost: ${hostname}\r\nx-api-key: ${sb.ownerKey}\r\n` +
              `content-type: application/json\r\ncontent-length: 200\r\n\r\n{"external_id":"CUT-1",`,
            () => {
              socket.destroy();
              resolve();
            },
          ),
        );
      });
      const [entry] = await logged(since, 'POST', '/v2/supplier-companies');
      expect(entry).toMatchObject({ status: 422, err_code: 'err_not_valid', client_gone: true });
    } finally {
      await sb.control('PUT', '/__sandbox/faults', {});
    }
    expect((await sb.api('GET', '/v2/supplier-companies?external_id=CUT-1')).body.data).toEqual([]);
  });

  it('a request answered in full has no client_gone', async () => {
    const since = await lastSeq();
    await sb.control('PUT', '/__sandbox/faults', { latency_ms: 50 });
    try {
      expect(
        (await sb.api('POST', '/v2/supplier-companies', { body: { external_id: 'STAYED-1', name: 'x' } })).status,
      ).toBe(201);
    } finally {
      await sb.control('PUT', '/__sandbox/faults', {});
    }
    const [entry] = await logged(since, 'POST', '/v2/supplier-companies');
    expect(entry.status).toBe(201);
    expect(entry).not.toHaveProperty('client_gone');
  });
});
