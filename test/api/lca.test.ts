/**
 * Point 9: start a recompute and poll the results with backoff while job.status is queued or processing; stop at
 * completed, failed or idle whatever `results` holds; never read an empty `results` as "running". The job's
 * progress is driven by the sandbox clock, so nothing here depends on how fast the machine is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type ApiClient, type LcaResults } from '../../electron/core/api/index.js';
import { catalog, client, control, lastSeq, requestsSince, sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
let c: ApiClient;
let instanceId: string;
const HOUR = 3600_000;

beforeAll(async () => {
  sb = await sandbox('demo');
  c = client(sb);
  // Jobs take an hour of sandbox time: only advancing the clock finishes them.
  await control(sb, 'PUT', '/lca', { queued_ms: HOUR, processing_ms: HOUR });
  const cat = await catalog(sb);
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

describe('LCA recompute and poll (issue 3 point 9)', () => {
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
