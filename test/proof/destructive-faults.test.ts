/**
 * The destructive path under faults: one job that deletes (a mirror of product instances: an instance with its
 * BOM and production figures goes), creates, updates, replaces a BOM and changes production figures; then its
 * undo; then the undo of that undo. Each runs under one kind of fault — answers dropped after the write was
 * applied, injected 500s, 429/503 without a body, answers held back until the client times out, all of them at
 * once — and, through the CLI, with SIGKILL at several points followed by resume. Each step must leave exactly
 * the service state the same steps leave without faults: the job's result, the state before the job after its
 * undo, the job's result again after the undo of the undo (ids of re-created entities aside). The faults hit the
 * writes (`only: {writes: true}`): the reads that compare the states must not be the ones that fail.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import { runPlan, resumeToResult, undoToResult } from '../jobs/job-folder.js';
import type { JobResult, Plan } from '../../core/jobs/types.js';
import { startProxy, type RewritingProxy } from '../api/proxy.js';
import {
  catalog,
  planFile,
  startEnv,
  writeTestWorkbook,
  type Catalog,
  type Env,
  type SheetData,
} from '../jobs/helpers.js';
import { seedData, serviceState } from '../jobs/service-state.js';
import { sleep, spawnCli } from './helpers.js';

let env: Env;
const clients: ApiClient[] = [];
let cat: Catalog;
let n = 0;
/** The states every scenario must reach: before the job (the seed) and after it. */
let before: Awaited<ReturnType<typeof serviceState>>;
let afterJob: Awaited<ReturnType<typeof serviceState>>;

const PREFIX = 'F';

/** The job: mirror product instances (PI-2 with its BOM and figures goes), new and renamed rows, a BOM, a figure. */
function jobData(): SheetData {
  const d = seedData(cat, PREFIX);
  return {
    plants: d.plants,
    materials: d.materials,
    'supplier-companies': [
      { external_id: 'FSC-NEW', name: 'Neu GmbH', country: 'AT' },
      { external_id: 'FSC-1', name: 'Holcim AG', country: 'CH' },
    ],
    'supplier-products': [
      {
        external_id: 'FSP-NEW',
        name: 'Flugasche',
        plant_code: 'PL-MUC',
        material_code: 'MAT-CLINKER',
        unit: 'KG',
        truck_km: 80,
      },
    ],
    'product-instances': d['product-instances']!.filter((r) => r.external_id === 'FPI-1'),
    bom: [
      {
        product_instance_external_id: 'FPI-1',
        component_type: 'supplier_product',
        component_external_id: 'FSP-NEW',
        mass_kg: 900,
      },
      { product_instance_external_id: 'FPI-1', component_type: 'silo', component_external_id: 'FSILO-1', mass_kg: 50 },
    ],
    production: [{ product_instance_external_id: 'FPI-1', year: 2024, quantity: 444 }],
  };
}

async function reset(): Promise<void> {
  await env.control('PUT', '/__sandbox/faults', {});
  await env.control('POST', '/__sandbox/reset', { seed: 'empty' });
  cat = await catalog(env);
  const seeded = await runPlan(await planWith(env.client, seedData(cat, PREFIX)), {
    client: env.client,
    jobsDir: env.jobsDir,
  });
  expect(seeded.counts.failed ?? 0).toBe(0);
}

async function planWith(client: ApiClient, d: SheetData, mirror = false): Promise<Plan> {
  const path = join(env.dir, `faults-${++n}.xlsx`);
  await writeTestWorkbook(path, d);
  return planFile(path, { client, ...(mirror ? { options: { mirror: ['product-instances'] } } : {}) });
}

/** Run until completed, resuming a job that stopped (a fault may stop it); no entry may fail. */
async function completed(first: JobResult, client: ApiClient): Promise<JobResult> {
  let r = first;
  for (let i = 0; r.status !== 'completed' && i < 5; i++)
    r = await resumeToResult(r.jobId, { client, jobsDir: env.jobsDir });
  expect(r.status).toBe('completed');
  expect(r.entries.filter((e) => e.outcome === 'failed' || e.outcome === 'skipped')).toEqual([]);
  return r;
}

async function undoWith(jobId: string, client: ApiClient): Promise<string> {
  const u = await undoToResult(jobId, { client, jobsDir: env.jobsDir });
  if (u.stage !== 'run')
    throw new Error(`undo ${u.stage}: ${u.blocked.map((b) => b.problems?.[0]?.message).join('; ')}`);
  return (await completed(u.result, client)).jobId;
}

/** The job, its undo and the undo of the undo with `client` (faults on), each compared with its exact state. */
async function jobUndoUndo(client: ApiClient, faults: object | null): Promise<void> {
  await reset();
  const plan = await planWith(env.client, jobData(), true);
  expect(plan.summary.byAction).toMatchObject({ create: 2, update: 2, delete: 1, replace: 1 });
  if (faults) await env.control('PUT', '/__sandbox/faults', faults);
  try {
    const job = await completed(await runPlan(plan, { client, jobsDir: env.jobsDir }), client);
    expect(await serviceState(env.client)).toEqual(afterJob);
    const undo = await undoWith(job.jobId, client);
    expect(await serviceState(env.client)).toEqual(before);
    await undoWith(undo, client);
    expect(await serviceState(env.client)).toEqual(afterJob);
  } finally {
    await env.control('PUT', '/__sandbox/faults', {});
  }
}

beforeAll(async () => {
  env = await startEnv('empty');
  // The reference: the same steps without faults.
  await reset();
  before = await serviceState(env.client);
  const job = await runPlan(await planWith(env.client, jobData(), true), { client: env.client, jobsDir: env.jobsDir });
  expect(job.counts.failed ?? 0).toBe(0);
  afterJob = await serviceState(env.client);
  expect(afterJob).not.toEqual(before);
  expect(afterJob.productInstances.map((i) => i.external_id)).toEqual(['FPI-1']);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await env?.close();
});

describe('delete, mirror and undo under faults: the exact state each step must leave', () => {
  const faultClient = (o: { timeoutMs?: number; baseUrl?: string } = {}) => {
    const c = createApiClient({
      baseUrl: o.baseUrl ?? env.sb.baseUrl,
      apiKey: env.sb.ownerKey,
      ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
      // Enough attempts that a write failing every one of them by chance is out of reach (0.4^12 < 2e-5).
      retry: { maxAttempts: 12, baseMs: 5, capMs: 50, maxTotalMs: 30_000 },
    });
    clients.push(c);
    return c;
  };

  it('answers dropped after the write was applied', async () => {
    await jobUndoUndo(faultClient(), { reset_after_commit_rate: 0.4, only: { writes: true }, seed: 3 });
  });

  it('injected 500s', async () => {
    await jobUndoUndo(faultClient(), { error_rate: 0.3, only: { writes: true }, seed: 5 });
  });

  it('answers held back after the write until the client times out', async () => {
    await jobUndoUndo(faultClient({ timeoutMs: 300 }), {
      stall_after_commit_rate: 0.25,
      only: { method: 'DELETE' },
      seed: 9,
    });
    await jobUndoUndo(faultClient({ timeoutMs: 300 }), {
      stall_after_commit_rate: 0.25,
      only: { method: 'POST' },
      seed: 11,
    });
  });

  it('429 and 503 without a body (before the write)', async () => {
    let writes = 0;
    const proxy: RewritingProxy = await startProxy(env.sb.baseUrl, {
      answer: (ex) => {
        if (ex.method === 'GET') return undefined;
        writes++;
        if (writes % 3 === 0) return { status: 429 };
        if (writes % 5 === 0) return { status: 503 };
        return undefined;
      },
    });
    try {
      await jobUndoUndo(faultClient({ baseUrl: proxy.baseUrl }), null);
      expect(writes).toBeGreaterThan(10);
    } finally {
      await proxy.close();
    }
  });

  it('all of them at once, with latency', async () => {
    await jobUndoUndo(faultClient({ timeoutMs: 400 }), {
      reset_after_commit_rate: 0.15,
      error_rate: 0.15,
      stall_after_commit_rate: 0.1,
      latency_ms: 2,
      jitter_ms: 8,
      only: { writes: true },
      seed: 21,
    });
  });
});

describe('SIGKILL of the CLI at several points, then resume', () => {
  /** The job folders under jobsDir with their meta. */
  const jobs = (jobsDir: string) =>
    (existsSync(jobsDir) ? readdirSync(jobsDir) : [])
      .filter((id) => existsSync(join(jobsDir, id, 'meta.json')))
      .map((id) => ({
        id,
        meta: JSON.parse(readFileSync(join(jobsDir, id, 'meta.json'), 'utf8')) as { undoes?: string },
      }));
  const outcomesOf = (jobsDir: string, id: string) => {
    try {
      return (readFileSync(join(jobsDir, id, 'journal.jsonl'), 'utf8').match(/"t":"outcome"/g) ?? []).length;
    } catch {
      return 0;
    }
  };
  /** Start `args`, kill it with SIGKILL once the job found by `which` has `k` outcomes; the job's id. */
  async function killAt(args: string[], jobsDir: string, k: number, which: () => string | undefined): Promise<string> {
    const child = spawnCli(args, { baseUrl: env.sb.baseUrl, key: env.sb.ownerKey, jobsDir });
    const until = Date.now() + 60_000;
    let id: string | undefined;
    while (Date.now() < until) {
      id = which();
      if (id && outcomesOf(jobsDir, id) >= k) break;
      const exited = await Promise.race([child.exit.then(() => true), sleep(5).then(() => false)]);
      if (exited) throw new Error(`${args[0]} ended before ${k} outcomes: ${child.stderr()}`);
    }
    child.proc.kill('SIGKILL');
    await child.exit;
    if (!id) throw new Error(`no job for ${args.join(' ')}`);
    return id;
  }
  async function resumeUntilDone(jobId: string, jobsDir: string, kills: number[]): Promise<void> {
    for (const k of kills) await killAt(['resume', jobId], jobsDir, k, () => jobId);
    const last = spawnCli(['resume', jobId], { baseUrl: env.sb.baseUrl, key: env.sb.ownerKey, jobsDir });
    const { code } = await last.exit;
    expect(code, last.stderr()).toBe(0);
  }

  it('the mirror job, its undo and the undo of the undo, each killed twice and resumed: exact states', async () => {
    await reset();
    const jobsDir = join(env.dir, `kill-jobs-${++n}`);
    const file = join(env.dir, `kill-${n}.xlsx`);
    await writeTestWorkbook(file, jobData());
    // Slow answers, so that kills land while writes are in flight.
    await env.control('PUT', '/__sandbox/faults', { latency_ms: 60, only: { method: 'POST' } });
    try {
      const importArgs = ['import', file, '--mirror', 'product-instances', '--concurrency', '1'];
      const jobId = await killAt(importArgs, jobsDir, 1, () => jobs(jobsDir)[0]?.id);
      await resumeUntilDone(jobId, jobsDir, [3]);
      expect(await serviceState(env.client)).toEqual(afterJob);

      const undoOf = (of: string) => () => jobs(jobsDir).find((j) => j.meta.undoes === of)?.id;
      const undoId = await killAt(['undo', jobId], jobsDir, 1, undoOf(jobId));
      await resumeUntilDone(undoId, jobsDir, [3]);
      expect(await serviceState(env.client)).toEqual(before);

      const redoId = await killAt(['undo', undoId], jobsDir, 2, undoOf(undoId));
      await resumeUntilDone(redoId, jobsDir, []);
      expect(await serviceState(env.client)).toEqual(afterJob);
    } finally {
      await env.control('PUT', '/__sandbox/faults', {});
    }
  });
});
