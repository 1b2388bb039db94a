/**
 * Resume after a crash, against the in-process sandbox:
 * - a real child process running the job is killed with SIGKILL midway; resume ends with the exact state;
 * - a journal that lost outcome lines (intents without outcome, a torn last line): resume re-checks those rows
 *   (GET by external_id, or the Idempotency-Key replay for silos) and creates nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  JOURNAL_FILE,
  PLAN_ENTRIES_FILE,
  PLAN_FILE,
  jobDir,
  listJobs,
  newJobId,
  readMeta,
  readPlan,
  writeMeta,
} from '../../core/jobs/job-store.js';
import { readJournal } from '../../core/jobs/journal.js';
import { runPlan, resumeToResult } from './job-folder.js';
import type { EntryOutcome, Plan } from '../../core/jobs/types.js';
import {
  bulkWorkbook,
  catalog,
  planFile,
  startEnv,
  writeTestWorkbook,
  type Catalog,
  type Env,
  type SheetData,
} from './helpers.js';

let env: Env;
let cat: Catalog;

beforeAll(async () => {
  env = await startEnv('demo');
  cat = await catalog(env);
});
afterAll(async () => {
  await env?.close();
});

async function plan(d: SheetData, name: string): Promise<Plan> {
  const path = join(env.dir, `${name}.xlsx`);
  await writeTestWorkbook(path, d);
  return planFile(path, { client: env.client });
}

const codes = (prefix: string, kind: string, n: number, pad = 0) =>
  Array.from({ length: n }, (_, i) => `${prefix}-${kind}-${pad ? String(i + 1).padStart(pad, '0') : i + 1}`);

async function expectExactly(prefix: string, products: number, silos: number, instances: number): Promise<void> {
  const c = env.client;
  expect((await c.supplierProducts.resolveExternalIds(codes(prefix, 'SP', products, 4))).size).toBe(products);
  const ss = await c.silos.resolveExternalIds(codes(prefix, 'SILO', silos));
  expect(ss.size).toBe(silos);
  for (const s of ss.values()) expect(s.items).toHaveLength(3);
  const pis = await c.productInstances.resolveExternalIds(codes(prefix, 'PI', instances));
  expect(pis.size).toBe(instances);
  for (const pi of pis.values()) expect((await c.bom.get(pi.id)).map((x) => x.mass_kg).sort()).toEqual([10, 20, 30]);
}

describe('resume after a crash', () => {
  it('a child process killed with SIGKILL midway: resume ends with the exact state, nothing twice', async () => {
    const p = await plan(bulkWorkbook(cat, 60, 6, 'X'), 'kill');
    const before = await env.state();
    const planPath = join(env.dir, 'kill-plan.json');
    await writeFile(planPath, JSON.stringify(p));
    const jobId = newJobId();
    await env.control('PUT', '/__sandbox/faults', { latency_ms: 15 });
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./fixtures/run-child.ts', import.meta.url)),
        planPath,
        env.jobsDir,
        jobId,
        env.sb.baseUrl,
      ],
      { env: { ...process.env, SUPPLY_LOADER_API_KEY: env.sb.ownerKey }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code, sig) => resolve(sig === 'SIGKILL' ? -9 : code)),
    );
    const journal = join(jobDir(env.jobsDir, jobId), JOURNAL_FILE);
    // Kill it once 20 rows have their outcome.
    for (let i = 0; i < 600; i++) {
      const text = await readFile(journal, 'utf8').catch(() => '');
      if ((text.match(/"t":"outcome"/g) ?? []).length >= 20) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    child.kill('SIGKILL');
    expect(await exited, stderr).toBe(-9);
    await env.control('PUT', '/__sandbox/faults', {});

    const state = await readJournal(journal);
    expect(state.outcomes.size).toBeGreaterThanOrEqual(20);
    expect(state.outcomes.size).toBeLessThan(p.entries.length);
    const listed = (await listJobs(env.jobsDir)).find((j) => j.jobId === jobId)!;
    expect(listed).toMatchObject({ status: 'interrupted', resumable: true });

    const res = await resumeToResult(jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(res.status).toBe('completed');
    expect(res.counts.failed ?? 0).toBe(0);
    expect(res.counts.skipped ?? 0).toBe(0);
    // Rows that were in flight when the process died were re-checked, not created again.
    for (const key of state.openIntents.keys()) {
      const o = res.entries.find((x) => x.key === key) as EntryOutcome;
      expect(['created', 'already_existed', 'replayed', 'updated', 'replaced']).toContain(o.outcome);
    }
    const after = await env.state();
    const delta = (k: string) => after[k].active - before[k].active;
    expect([
      delta('supplier_companies'),
      delta('supplier_plants'),
      delta('supplier_products'),
      delta('silos'),
      delta('product_instances'),
    ]).toEqual([4, 4, 60, 6, 6]);
    await expectExactly('X', 60, 6, 6);
  });

  it('a journal that lost its last outcome lines (and ends in a torn line): resume re-checks by external_id and Idempotency-Key', async () => {
    const p = await plan(bulkWorkbook(cat, 20, 3, 'T'), 'torn');
    const first = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(first.status).toBe('completed');
    const before = await env.state();

    // As if the process died after sending these writes but before their outcome lines reached the disk.
    const lost = new Set([
      'supplier-products!20',
      'supplier-products!21',
      'silos!2',
      'silos!3',
      'product-instances!4',
      'bom:T-PI-3',
    ]);
    const journal = join(jobDir(env.jobsDir, first.jobId), JOURNAL_FILE);
    const lines = (await readFile(journal, 'utf8')).split('\n').filter(Boolean);
    const kept = lines.filter((l) => {
      const x = JSON.parse(l) as { t: string; key?: string; event?: string };
      if (x.t === 'session' && x.event === 'stop') return false;
      return !(x.t === 'outcome' && lost.has(x.key!));
    });
    expect(lines.length - kept.length).toBe(lost.size + 1);
    await writeFile(journal, `${kept.join('\n')}\n{"t":"outcome","key":"supplier-pro`);
    const meta = await readMeta(env.jobsDir, first.jobId);
    await writeMeta(env.jobsDir, { ...meta, status: 'running', pid: 2 ** 22 + 12345, finishedAt: null });
    expect((await listJobs(env.jobsDir)).find((j) => j.jobId === first.jobId)!.status).toBe('interrupted');
    const reread = await readJournal(journal);
    expect([...reread.openIntents.keys()].sort()).toEqual([...lost].sort());
    expect(reread.badLines).toBe(1);

    const mark = await env.requestsMark();
    const res = await resumeToResult(first.jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(res.status).toBe('completed');
    const o = new Map(res.entries.map((x) => [x.key, x as EntryOutcome]));
    expect(o.get('supplier-products!20')!.outcome).toBe('already_existed');
    expect(o.get('supplier-products!21')!.outcome).toBe('already_existed');
    expect(o.get('product-instances!4')!.outcome).toBe('already_existed');
    expect(o.get('silos!2')!.outcome).toBe('replayed');
    expect(o.get('silos!3')!.outcome).toBe('replayed');
    expect(o.get('bom:T-PI-3')!.outcome).toBe('replaced');
    // The ids re-checked are the ones created the first time.
    const firstIds = new Map(first.entries.map((x) => [x.key, (x as EntryOutcome).id]));
    for (const k of lost) expect(o.get(k)!.id).toBe(firstIds.get(k));
    const sent = await env.requestsSince(mark);
    expect(sent.filter((r) => r.status === 201)).toEqual([]);
    expect(sent.filter((r) => r.method === 'POST').map((r) => `${r.path} ${r.status}`)).toEqual([
      '/v2/silos 200',
      '/v2/silos 200',
    ]);
    expect(await env.state()).toEqual(before);
    await expectExactly('T', 20, 2, 3);
  });
});

describe('job folder format', () => {
  it('a new job keeps its plan entries as JSON lines beside a plan.json without entries', async () => {
    const p = await plan(bulkWorkbook(cat, 6, 1, 'JF'), 'jf');
    const r = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(r.status).toBe('completed');
    const dir = jobDir(env.jobsDir, r.jobId);
    const head = JSON.parse(await readFile(join(dir, PLAN_FILE), 'utf8')) as Record<string, unknown>;
    expect(head.format).toBe('supply-loader/job-plan@2');
    expect(head.entries).toBeUndefined();
    expect(head.entry_count).toBe(p.entries.length);
    const lines = (await readFile(join(dir, PLAN_ENTRIES_FILE), 'utf8')).split('\n').filter(Boolean);
    expect(lines.map((l) => (JSON.parse(l) as { key: string }).key)).toEqual(p.entries.map((e) => e.key));
    expect(await readPlan(env.jobsDir, r.jobId)).toEqual(p);
  });

  it('a job folder written by the previous version (the whole plan in plan.json) resumes to the exact state', async () => {
    const p = await plan(bulkWorkbook(cat, 20, 3, 'OLD'), 'old');
    const jobId = newJobId();
    const dir = jobDir(env.jobsDir, jobId);
    await mkdir(dir, { recursive: true });
    // What the previous version wrote: plan.json = the plan itself (format supply-loader/plan@1, entries inside).
    await writeFile(join(dir, PLAN_FILE), JSON.stringify(p, null, 1));
    const now = new Date().toISOString();
    await writeMeta(env.jobsDir, {
      format: 'supply-loader/job@1',
      jobId,
      status: 'running',
      file: p.file,
      baseUrl: env.client.baseUrl,
      manufacturerId: p.manufacturerId,
      maskedKey: env.client.maskedKey,
      createdAt: now,
      startedAt: now,
      finishedAt: null,
      updatedAt: now,
      pid: 2 ** 22 + 12346,
      entries: p.entries.length,
      rows: p.summary.rows,
      counts: {},
      sessions: [],
    });
    expect((await listJobs(env.jobsDir)).find((j) => j.jobId === jobId)!.status).toBe('interrupted');
    const res = await resumeToResult(jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(res.status).toBe('completed');
    expect(res.counts.failed ?? 0).toBe(0);
    await expectExactly('OLD', 20, 2, 3);
  });

  it('a plan.json of an unknown format is refused with a message in words', async () => {
    const jobId = newJobId();
    const dir = jobDir(env.jobsDir, jobId);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, PLAN_FILE), JSON.stringify({ format: 'supply-loader/job-plan@9', entries_file: 'x' }));
    await expect(readPlan(env.jobsDir, jobId)).rejects.toThrow(
      /plan format this version of Supply Loader does not know \(supply-loader\/job-plan@9\); it cannot be resumed/,
    );
    const fresh = newJobId();
    await mkdir(jobDir(env.jobsDir, fresh), { recursive: true });
    await writeFile(
      join(jobDir(env.jobsDir, fresh), PLAN_FILE),
      '{"format":"supply-loader/job-plan@2","entries_file":"plan-entries.jsonl","entry_count":3}',
    );
    await writeFile(join(jobDir(env.jobsDir, fresh), PLAN_ENTRIES_FILE), '{"key":"a"}\n');
    await expect(readPlan(env.jobsDir, fresh)).rejects.toThrow(
      /is incomplete: plan-entries.jsonl holds 1 of 3 entries/,
    );
  });
});
