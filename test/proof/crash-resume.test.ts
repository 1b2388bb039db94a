/**
 * Crash-resume: one import job through the real CLI, killed with SIGKILL at 5 random points (a new
 * process each time: `import`, then `resume JOB_ID` four times), each kill landing while writes are in flight;
 * a last `resume` finishes it. The final server state is exact: every row there once, nothing lost, nothing
 * duplicated (active counts and the entities themselves), and the journal settles every entry once.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import { readPlan } from '../../core/jobs/job-store.js';
import { normalised, serviceState } from '../cli/dataset.js';
import { buildDataset, expectedEntities, sizeForRows } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import {
  control,
  journalProgress,
  prng,
  sandbox,
  sandboxState,
  spawnCli,
  tmp,
  waitForOutcomes,
  type Child,
  type Sandbox,
} from './helpers.js';

const KILLS = 5;
let sb: Sandbox;
let client: ApiClient;
let dir: string;

beforeAll(async () => {
  sb = await sandbox({ seed: 'demo' });
  client = createApiClient({ baseUrl: sb.baseUrl, apiKey: sb.ownerKey });
  dir = tmp('sl-crash-');
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('crash-resume through the CLI', () => {
  it(`SIGKILL at ${KILLS} random points of one job, resumed by a new process each time: the final state is exact`, async () => {
    const data = buildDataset(sizeForRows(220), 'CRASH');
    const file = join(dir, 'crash.xlsx');
    await writeDataWorkbook(file, data);
    const jobsDir = join(dir, 'jobs');
    const env = { key: sb.ownerKey, baseUrl: sb.baseUrl, jobsDir };
    const before = await sandboxState(sb.baseUrl);
    // writes take a while, so that a kill lands with requests in flight
    await control(sb.baseUrl, 'PUT', '/faults', { latency_ms: 15, jitter_ms: 15, seed: 99 });

    // the entries of the job (from its plan once written) and 5 random kill points spread over them
    const first = spawnCli(['import', file, '--concurrency', '4'], env);
    const jobId = await waitForOutcomes(jobsDir, 1, { timeoutMs: 90_000 });
    const plan = await readPlan(jobsDir, jobId);
    const total = plan.entries.length;
    expect(total).toBeGreaterThan(100);
    const rand = prng(Date.now() & 0xffff);
    // one point in each fifth of the job (random inside it), so every kill has work before and after it
    const points = Array.from(
      { length: KILLS },
      (_, i) => Math.floor(((i + 0.15 + 0.7 * rand()) / (KILLS + 1)) * total) + 1,
    );

    let child: Child = first;
    const kills: { at: number; outcomes: number; inFlight: number; signal: string | null }[] = [];
    /** entries with an intent line but no outcome: writes that were in flight when the process died */
    const inFlight = () => {
      const ls = readFileSync(join(jobsDir, jobId, 'journal.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim().startsWith('{'));
      const open = new Set<string>();
      for (const l of ls) {
        const j = JSON.parse(l) as { t: string; key?: string };
        if (j.t === 'intent' && j.key) open.add(j.key);
        if (j.t === 'outcome' && j.key) open.delete(j.key);
      }
      return open.size;
    };
    for (const [i, point] of points.entries()) {
      let exited = false;
      void child.exit.then(() => (exited = true));
      await waitForOutcomes(jobsDir, point, { timeoutMs: 90_000, until: () => exited });
      child.proc.kill('SIGKILL');
      const { signal } = await child.exit;
      kills.push({ at: point, outcomes: journalProgress(jobsDir).outcomes, inFlight: inFlight(), signal });
      // the killed job is reported interrupted and resumable
      const listed = JSON.parse(readFileSync(join(jobsDir, jobId, 'meta.json'), 'utf8')) as { status: string };
      expect(listed.status, `after kill ${i + 1}`).toBe('running'); // the process died without writing its end
      child = spawnCli(['resume', jobId, '--concurrency', '4'], env);
    }
    expect(kills.map((k) => k.signal)).toEqual(Array(KILLS).fill('SIGKILL'));
    // the kills hit writes in flight (an intent on disk, its outcome never written): the hard case for resume
    expect(
      kills.reduce((n, k) => n + k.inFlight, 0),
      JSON.stringify(kills),
    ).toBeGreaterThan(0);
    const last = await child.exit;
    expect(last.code, `${child.stdout().slice(-2000)}\n${child.stderr().slice(-2000)}`).toBe(0);
    await control(sb.baseUrl, 'PUT', '/faults', { latency_ms: 0, jitter_ms: 0 });

    // exact: counts grew by what the workbook holds, and the entities are the workbook's
    const after = await sandboxState(sb.baseUrl);
    const want = expectedEntities(data);
    for (const k of [
      'supplier_companies',
      'supplier_plants',
      'supplier_products',
      'silos',
      'product_instances',
      'prechain_products',
    ])
      expect(after[k].active - before[k].active, k).toBe(want[k]);
    expect(await serviceState(client, 'CRASH')).toEqual(normalised(data));

    // the journal: each entry settled exactly once across the 6 processes
    const lines = readFileSync(join(jobsDir, jobId, 'journal.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim().startsWith('{'));
    const outcomes = lines
      .map((l) => JSON.parse(l) as { t: string; key?: string; outcome?: string })
      .filter((l) => l.t === 'outcome');
    const keys = outcomes.map((o) => o.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(total);
    expect(outcomes.every((o) => o.outcome !== 'failed' && o.outcome !== 'skipped')).toBe(true);
    const meta = JSON.parse(readFileSync(join(jobsDir, jobId, 'meta.json'), 'utf8')) as {
      status: string;
      sessions: unknown[];
    };
    expect(meta.status).toBe('completed');
    expect(meta.sessions.length).toBeGreaterThanOrEqual(KILLS + 1);
  });
});
