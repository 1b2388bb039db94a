/**
 * Interrupted imports through the CLI: a real child process killed
 * with SIGKILL midway, then `resume` → the exact expected server state; SIGINT → graceful cancel (exit 3,
 * resumable); a key revoked mid-run → exit 3, then `resume` with a new key → exact state. The sandbox runs in
 * this process with latency so that there is a "midway"; the child gets its --base-url.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../core/api/index.js';
import { SCOPES } from '../../core/spec/scopes.js';
import { apiClient, cli, control, sandbox, spawnCli, tmpDir, type Sandbox } from './helpers.js';
import { buildDataset, fillWorkbook, normalised, serviceState } from './dataset.js';

let sb: Sandbox;
let client: ApiClient;
let dir: string;
let template: string;

beforeAll(async () => {
  sb = await sandbox('demo');
  client = apiClient(sb);
  dir = tmpDir();
  expect((await cli(['template', '-o', 'template.xlsx'], { cwd: dir })).code).toBe(0);
  template = path.join(dir, 'template.xlsx');
});
afterAll(async () => {
  await client.close();
  await sb.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The one job folder under jobsDir and the number of outcome lines in its journal. */
function journalOutcomes(jobsDir: string): { jobId: string | null; outcomes: number; text: string } {
  if (!fs.existsSync(jobsDir)) return { jobId: null, outcomes: 0, text: '' };
  const [jobId] = fs.readdirSync(jobsDir);
  if (!jobId) return { jobId: null, outcomes: 0, text: '' };
  const file = path.join(jobsDir, jobId, 'journal.jsonl');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return { jobId, outcomes: (text.match(/"t":"outcome"/g) ?? []).length, text };
}

async function waitForOutcomes(jobsDir: string, n: number, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const j = journalOutcomes(jobsDir);
    if (j.jobId && j.outcomes >= n) return j.jobId;
    await sleep(15);
  }
  throw new Error(`no ${n} outcomes in ${jobsDir} within ${timeoutMs} ms`);
}

/** Every file of a job folder, as text. */
function jobFiles(jobsDir: string, jobId: string): string {
  return fs
    .readdirSync(path.join(jobsDir, jobId))
    .map((f) => fs.readFileSync(path.join(jobsDir, jobId, f), 'utf8'))
    .join('\n');
}

async function workbook(
  prefix: string,
  products: number,
  instances: number,
): Promise<{ file: string; data: ReturnType<typeof buildDataset> }> {
  const data = buildDataset({ prefix, products, instances });
  const file = path.join(dir, `${prefix}.xlsx`);
  await fillWorkbook(template, data, file, { lean: true });
  return { file, data };
}

describe('crash and resume through the CLI', () => {
  it('SIGKILL of the import process midway, then resume: exact server state, nothing duplicated, exit 0', async () => {
    const { file, data } = await workbook('KILL', 40, 6);
    const jobsDir = path.join(dir, 'jobs-kill');
    const secret = sb.ownerKey.split('-').slice(2).join('-');
    await control(sb, 'PUT', '/faults', { latency_ms: 30, jitter_ms: 10, seed: 7 });
    const child = spawnCli(['import', file, '--concurrency', '2'], { baseUrl: sb.baseUrl, key: sb.ownerKey, jobsDir });
    let jobId: string;
    try {
      jobId = await waitForOutcomes(jobsDir, 20);
    } finally {
      child.proc.kill('SIGKILL');
    }
    const exit = await child.exit;
    expect(exit.signal).toBe('SIGKILL');
    await control(sb, 'PUT', '/faults', { latency_ms: 0, jitter_ms: 0 });

    // Killed midway: some rows are there, not all.
    const before = journalOutcomes(jobsDir);
    expect(before.outcomes).toBeGreaterThanOrEqual(20);
    const partial = await serviceState(client, 'KILL');
    expect(partial.bom).toEqual([]); // the BOM level was not reached
    expect(partial).not.toEqual(normalised(data));

    // The job is listed as interrupted and resumable.
    const jobs = await cli(['jobs', '--json'], { jobsDir });
    const listed = JSON.parse(jobs.stdout).jobs.find((j: { jobId: string }) => j.jobId === jobId);
    expect(listed).toMatchObject({ status: 'interrupted', resumable: true });

    const r = await cli(['resume', jobId, '--report', path.join(dir, 'kill-results.xlsx'), '--json'], {
      baseUrl: sb.baseUrl,
      key: sb.ownerKey,
      jobsDir,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.result.status).toBe('completed');
    expect(out.result.counts.failed ?? 0).toBe(0);

    expect(await serviceState(client, 'KILL')).toEqual(normalised(data));
    for (const t of [child.stdout(), child.stderr(), r.stdout, jobFiles(jobsDir, jobId)])
      expect(t).not.toContain(secret);

    // Resuming a completed job is a no-op with the same answer.
    const again = await cli(['resume', jobId], { baseUrl: sb.baseUrl, key: sb.ownerKey, jobsDir });
    expect(again.code).toBe(0);
  });

  it('SIGINT: graceful cancel — exit 3, journal flushed, job cancelled and resumable; resume finishes it exactly', async () => {
    const { file, data } = await workbook('INT', 24, 4);
    const jobsDir = path.join(dir, 'jobs-int');
    await control(sb, 'PUT', '/faults', { latency_ms: 40 });
    const child = spawnCli(['import', file, '--concurrency', '2'], { baseUrl: sb.baseUrl, key: sb.ownerKey, jobsDir });
    let jobId: string;
    try {
      jobId = await waitForOutcomes(jobsDir, 8);
      child.proc.kill('SIGINT');
      const exit = await child.exit;
      expect(exit.code).toBe(3);
    } finally {
      child.proc.kill('SIGKILL');
      await control(sb, 'PUT', '/faults', { latency_ms: 0 });
    }
    expect(child.stderr()).toMatch(/SIGINT/);
    expect(child.stdout()).toContain(`supply-loader resume ${jobId}`);
    const meta = JSON.parse(fs.readFileSync(path.join(jobsDir, jobId, 'meta.json'), 'utf8'));
    expect(meta.status).toBe('cancelled');
    // The journal was closed in order: its last line records the stop of the session as cancelled.
    const lines = journalOutcomes(jobsDir)
      .text.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ t: 'session', event: 'stop', status: 'cancelled' });
    expect(meta.counts.pending).toBeGreaterThan(0);

    const r = await cli(['resume', jobId], { baseUrl: sb.baseUrl, key: sb.ownerKey, jobsDir });
    expect(r.code).toBe(0);
    expect(await serviceState(client, 'INT')).toEqual(normalised(data));
  });

  it('a key revoked mid-run: exit 3 with the reason, job aborted; resume with a new key → exact state; key nowhere', async () => {
    const { file, data } = await workbook('REV', 24, 4);
    const jobsDir = path.join(dir, 'jobs-rev');
    const k1 = await control<{ key: string; api_key_id: string }>(sb, 'POST', '/keys', {
      scopes: [...SCOPES],
      plant_ids: null,
    });
    const k2 = await control<{ key: string; api_key_id: string }>(sb, 'POST', '/keys', {
      scopes: [...SCOPES],
      plant_ids: null,
    });
    const secrets = [k1.key, k2.key].map((k) => k.split('-').slice(2).join('-'));
    await control(sb, 'PUT', '/faults', { latency_ms: 40 });
    const running = cli(['import', file, '--concurrency', '2', '--report', path.join(dir, 'rev-results.xlsx')], {
      baseUrl: sb.baseUrl,
      key: k1.key,
      jobsDir,
    });
    let jobId: string;
    try {
      jobId = await waitForOutcomes(jobsDir, 8);
      await control(sb, 'DELETE', `/keys/${k1.api_key_id}`);
    } finally {
      await control(sb, 'PUT', '/faults', { latency_ms: 0 });
    }
    const r1 = await running;
    expect(r1.code).toBe(3);
    expect(r1.stdout).toMatch(/aborted/);
    expect(r1.stdout).toMatch(/401/);
    expect(r1.stdout).toContain(`supply-loader resume ${jobId}`);
    expect(JSON.parse(fs.readFileSync(path.join(jobsDir, jobId, 'meta.json'), 'utf8')).status).toBe('aborted');
    const partial = await serviceState(client, 'REV');
    expect(partial.bom).toEqual([]);

    // The revoked key cannot resume (exit 3 again); a new key of the same manufacturer can.
    const still = await cli(['resume', jobId], { baseUrl: sb.baseUrl, key: k1.key, jobsDir });
    expect(still.code).toBe(3);
    const r2 = await cli(['resume', jobId, '--report', path.join(dir, 'rev-results.xlsx')], {
      baseUrl: sb.baseUrl,
      key: k2.key,
      jobsDir,
    });
    expect(r2.code).toBe(0);
    expect(await serviceState(client, 'REV')).toEqual(normalised(data));

    const files = jobFiles(jobsDir, jobId);
    for (const s of secrets) {
      for (const t of [r1.stdout, r1.stderr, still.stdout, still.stderr, r2.stdout, r2.stderr, files])
        expect(t).not.toContain(s);
    }
    expect(files).toContain(`svc-${k2.key.split('-')[1]}-****`); // the new key is recorded, masked
  });
});
