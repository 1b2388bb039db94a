/**
 * LCA: start a recompute and poll the results with backoff while job.status is queued or processing; stop at
 * completed, failed or idle whatever `results` holds; never read an empty `results` as "running". The job's
 * progress is driven by the sandbox clock, so nothing here depends on how fast the machine is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type ApiClient, type LcaResults } from '../../core/api/index.js';
import {
  catalog,
  client,
  control,
  faults,
  lastSeq,
  requestsSince,
  sandbox,
  type Catalog,
  type Sandbox,
} from './helpers.js';
import { startProxy, type ProxyHooks } from './proxy.js';

let sb: Sandbox;
let c: ApiClient;
let instanceId: string;
let cat: Catalog;
const HOUR = 3600_000;

beforeAll(async () => {
  sb = await sandbox('demo');
  c = client(sb);
  // Jobs take an hour of sandbox time: only advancing the clock finishes them.
  await control(sb, 'PUT', '/lca', { queued_ms: HOUR, processing_ms: HOUR });
  cat = await catalog(sb);
  const pi = await c.productInstances.create({
    external_id: 'PI-LCA',
    product_id: cat.products[0].id,
    plant_id: cat.plants[0].id,
    produced_from: new Date().getUTCFullYear() - 2,
    produced_to: null,
  });
  instanceId = pi.entity.id;
});
afterAll(async () => {
  await c.close();
  await sb.close();
});

const advance = (ms: number) => control(sb, 'PUT', '/clock', { advance_ms: ms });

describe('LCA recompute and poll', () => {
  it('a never-computed instance is idle with empty results: not running', async () => {
    const r = await c.lca.results(instanceId);
    expect(r.job.status).toBe('idle');
    expect(r.results).toEqual([]);
  });

  it('polls through queued and processing (results emptied) and stops at completed', async () => {
    const seen: { status: string; n: number | undefined }[] = [];
    let polls = 0;
    const final = await c.lca.recomputeAndWait(instanceId, {
      pollBaseMs: 5,
      pollMaxMs: 20,
      onStatus: (status, r) => {
        seen.push({ status, n: r?.results.length });
        if (r) polls++;
        // Let the job sit in each in-flight state for a few polls, then move the sandbox clock on.
        if (polls === 3 || polls === 6) void advance(HOUR + 1000);
      },
    });
    expect(final.job.status).toBe('completed');
    expect(final.results.length).toBeGreaterThan(0);
    const statuses = seen.map((s) => s.status);
    expect(statuses[0]).toBe('queued');
    expect(statuses).toContain('processing');
    expect(statuses.at(-1)).toBe('completed');
    // While in flight the results were empty, and polling went on regardless.
    for (const s of seen.filter((x) => x.status === 'queued' || x.status === 'processing')) {
      if (s.n !== undefined) expect(s.n).toBe(0);
    }
  });

  it('stops at failed and reports the job err_code without throwing', async () => {
    await control(sb, 'PUT', '/lca', { fail_next: 'err_lca_mass_balance' });
    const final: LcaResults = await c.lca.recomputeAndWait(instanceId, {
      pollBaseMs: 5,
      pollMaxMs: 20,
      onStatus: (status) => {
        if (status === 'queued' || status === 'processing') void advance(3 * HOUR);
      },
    });
    expect(final.job.status).toBe('failed');
    expect((final.job as { err_code?: string }).err_code).toBe('err_lca_mass_balance');
  });

  it('with a recompute already running: waits for it, then starts its own (default), or throws (ifRunning: error)', async () => {
    await c.lca.update(instanceId);
    const e = await c.lca.recomputeAndWait(instanceId, { ifRunning: 'error' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).err_code).toBe('err_lca_update_not_queued');

    const since = await lastSeq(sb);
    let advanced = 0;
    const final = await c.lca.recomputeAndWait(instanceId, {
      pollBaseMs: 5,
      pollMaxMs: 20,
      onStatus: (status) => {
        if ((status === 'queued' || status === 'processing') && advanced < 6) {
          advanced++;
          void advance(3 * HOUR);
        }
      },
    });
    expect(final.job.status).toBe('completed');
    const updates = (await requestsSince(sb, since)).entries.filter((x) => x.path.endsWith('/lca-update'));
    expect(updates.map((x) => x.status)).toEqual([409, 200]);
  });

  it('gives up after maxWaitMs with a client_timeout, leaving the job to the service', async () => {
    const e = await c.lca
      .recomputeAndWait(instanceId, { pollBaseMs: 5, pollMaxMs: 10, maxWaitMs: 100 })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).err_code).toBe('client_timeout');
    await advance(3 * HOUR);
    const r = await c.lca.results(instanceId);
    expect(r.job.status).toBe('completed');
  });
});

const inFlight = (s: string) => s === 'queued' || s === 'processing';

async function newInstance(code: string): Promise<string> {
  const pi = await c.productInstances.create({
    external_id: code,
    product_id: cat.products[0].id,
    plant_id: cat.plants[0].id,
    produced_from: new Date().getUTCFullYear() - 1,
    produced_to: null,
  });
  return pi.entity.id;
}

/** A client that talks to the sandbox through a rewriting proxy. */
async function proxied(hooks: ProxyHooks) {
  const proxy = await startProxy(sb.baseUrl, hooks);
  const pc = createApiClient({ baseUrl: proxy.baseUrl, apiKey: sb.ownerKey, retry: { baseMs: 1 } });
  return {
    proxy,
    pc,
    close: async () => {
      await pc.close();
      await proxy.close();
    },
  };
}

const isUpdate = (req: { method: string; url: string }) => req.method === 'POST' && req.url.endsWith('/lca-update');

describe('LCA client against a service that differs from the sandbox', () => {
  it('a 202 without a body counts as started; recomputeAndWait then polls to completed', async () => {
    const id = await newInstance('PI-LCA-202');
    // The recompute really starts upstream; the proxy turns the answer into a bare 202.
    const p = await proxied({ response: (req, res) => (isUpdate(req) && res.status === 200 ? { status: 202 } : res) });
    try {
      const u = await p.pc.lca.update(id);
      expect(u.status).toBe(202);
      expect(u.job).toBeUndefined();
      expect(inFlight((await c.lca.results(id)).job.status)).toBe(true);
      await advance(3 * HOUR);

      // A body without job.status is "started" too.
      await p.close();
      const q = await proxied({
        response: (req, res) =>
          isUpdate(req) && res.status === 200 ? { status: 202, text: '{"accepted":true}' } : res,
      });
      try {
        const seen: string[] = [];
        const final = await q.pc.lca.recomputeAndWait(id, {
          pollBaseMs: 5,
          pollMaxMs: 20,
          onStatus: (status) => {
            if (inFlight(status) && !seen.some(inFlight)) void advance(3 * HOUR);
            seen.push(status);
          },
        });
        expect(final.job.status).toBe('completed');
        expect(seen.some(inFlight)).toBe(true);
        expect(q.proxy.seen.filter(isUpdate)).toHaveLength(1);
      } finally {
        await q.close();
      }
    } finally {
      await p.close();
    }
  });

  it('recomputeAndWait stops at completed even when the job id differs from the one lca-update returned', async () => {
    const id = await newInstance('PI-LCA-ID');
    const p = await proxied({
      response: (req, res) => {
        if (!isUpdate(req) || res.status !== 200 || !res.text) return res;
        const body = JSON.parse(res.text) as { job: Record<string, unknown> };
        return { status: 200, text: JSON.stringify({ job: { ...body.job, id: 'job-id-of-another-shape' } }) };
      },
    });
    try {
      let advanced = false;
      const final = await p.pc.lca.recomputeAndWait(id, {
        pollBaseMs: 5,
        pollMaxMs: 20,
        maxWaitMs: 5_000,
        onStatus: (status) => {
          if (inFlight(status) && !advanced) {
            advanced = true;
            void advance(3 * HOUR);
          }
        },
      });
      expect(final.job.status).toBe('completed');
      expect((final.job as { id?: string }).id).not.toBe('job-id-of-another-shape');
      // Polling stopped at the first completed answer.
      const reads = p.proxy.seen.filter((x) => x.url.endsWith('/lca-results'));
      expect(reads.length).toBeGreaterThan(0);
    } finally {
      await p.close();
    }
  });

  it('after a lost lca-update answer the job in flight is read and waited for; no second POST', async () => {
    const [a, b] = [await newInstance('PI-LCA-LOST-A'), await newInstance('PI-LCA-LOST-B')];
    const since = await lastSeq(sb);
    // Every POST .../lca-update is carried out and its answer lost (socket reset after commit); reads pass.
    await faults(sb, { reset_after_commit_rate: 1, only: { method: 'POST', path_suffix: '/lca-update' } });
    const c2 = client(sb, { retry: { baseMs: 1 } });
    try {
      const u = await c2.lca.update(a);
      expect(u.alreadyRunning).toBe(true);
      expect(inFlight(u.job?.status ?? '')).toBe(true);

      let advanced = false;
      const final = await c2.lca.recomputeAndWait(b, {
        pollBaseMs: 5,
        pollMaxMs: 20,
        onStatus: (status) => {
          if (inFlight(status) && !advanced) {
            advanced = true;
            void advance(3 * HOUR);
          }
        },
      });
      expect(final.job.status).toBe('completed');
    } finally {
      await faults(sb, {});
      await c2.close();
    }
    const posts = (await requestsSince(sb, since)).entries.filter((x) => x.path.endsWith('/lca-update'));
    // One POST per instance, each committed and its answer lost; the client read the job instead of re-sending.
    expect(posts.map((x) => [x.path.split('/')[3], x.status, x.reset])).toEqual([
      [a, 200, true],
      [b, 200, true],
    ]);
    expect((await c.lca.results(a)).job.status).toBe('completed');
  });
});
