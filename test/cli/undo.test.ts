/**
 * `supply-loader undo JOB_ID [--dry-run] [--skip-blocked]` against the sandbox: the dry run sends
 * nothing; a row changed by someone since the job blocks the undo (exit 2, nothing sent); with --skip-blocked the
 * rest is undone (exit 1); the undo job is listed by `jobs --json` with `undoes`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { ApiClient } from '../../core/api/index.js';
import type { JobSummary, Plan } from '../../core/jobs/types.js';
import { writeTestWorkbook } from '../jobs/helpers.js';
import { apiClient, clearRequests, cli, isWrite, requests, sandbox, tmpDir, type Sandbox } from './helpers.js';

let sb: Sandbox;
let client: ApiClient;
let dir: string;
let jobsDir: string;
const run = (args: string[]) => cli(args, { baseUrl: sb.baseUrl, key: sb.ownerKey, cwd: dir, jobsDir });

async function companies(): Promise<Record<string, { name: string; country: string | null }>> {
  const out: Record<string, { name: string; country: string | null }> = {};
  for await (const c of client.supplierCompanies.walk())
    if (c.external_id) out[c.external_id] = { name: String(c.name), country: c.country ?? null };
  return out;
}

beforeAll(async () => {
  sb = await sandbox('empty');
  client = apiClient(sb);
  dir = tmpDir();
  jobsDir = path.join(dir, 'jobs');
  for (const c of ['U-1', 'U-2', 'U-3'])
    await client.supplierCompanies.create({ external_id: c, name: `Company ${c}`, country: 'DE' });
});
afterAll(async () => {
  await sb?.close();
});

describe('undo', () => {
  it('--dry-run sends nothing; a conflict blocks (exit 2, nothing sent); --skip-blocked undoes the rest (exit 1); jobs --json lists it with undoes', async () => {
    const before = await companies();
    const file = await writeTestWorkbook(path.join(dir, 'changes.xlsx'), {
      'supplier-companies': [
        { external_id: 'U-1', name: 'Renamed 1', country: 'DE' },
        { external_id: 'U-2', name: 'Renamed 2', country: 'AT' },
        { external_id: 'U-NEW', name: 'New one' },
        { external_id: 'U-3', action: 'delete' },
      ],
    });
    const imp = await run(['import', file, '--json']);
    expect(imp.code, imp.stderr).toBe(0);
    const jobId = String((JSON.parse(imp.stdout) as { job_id: string }).job_id);

    // Without conflicts, the dry run shows every undo action and sends nothing.
    await clearRequests(sb);
    const dry = await run(['undo', jobId, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = (JSON.parse(dry.stdout) as { plan: Plan }).plan;
    expect(plan.entries.map((e) => e.action).sort()).toEqual(['create', 'delete', 'update', 'update']);
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
    const text = await run(['undo', jobId, '--dry-run']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Undo of job ${jobId}:`);
    expect(text.stdout).toMatch(/re-created from the snapshot taken before the delete, with a new id/);

    // Someone renames U-1 after the job: a conflict; nothing is sent.
    const u1 = (await client.supplierCompanies.findByExternalId('U-1'))!;
    await client.supplierCompanies.update(u1.id, { name: 'Renamed by someone' });
    await clearRequests(sb);
    const blocked = await run(['undo', jobId]);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/changed on the service since job .*: name/);
    expect(blocked.stderr).toMatch(/1 entry is a conflict \(above\)\. Nothing was sent/);
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
    expect((await run(['undo', jobId, '--dry-run'])).code).toBe(2);

    // --skip-blocked: the rest is undone, the conflicting row is left as it is.
    const skip = await run(['undo', jobId, '--skip-blocked', '--json']);
    expect(skip.code, skip.stderr).toBe(1);
    const doc = JSON.parse(skip.stdout) as { job_id: string; undoes: string };
    expect(doc.undoes).toBe(jobId);
    expect(await companies()).toEqual({ ...before, 'U-1': { name: 'Renamed by someone', country: 'DE' } });

    const jobs = JSON.parse((await run(['jobs', '--json'])).stdout) as { jobs: JobSummary[] };
    expect(jobs.jobs.find((j) => j.jobId === doc.job_id)).toMatchObject({ undoes: jobId, status: 'completed' });
    expect(jobs.jobs.find((j) => j.jobId === jobId)!.undoes).toBeUndefined();
    expect((await run(['jobs'])).stdout).toContain(`undo of ${jobId}`);
  });

  it('refuses in words: not a job id, no such job', async () => {
    const bad = await run(['undo', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"nope" is not a job id');
    const none = await run(['undo', '20200101-000000-abcdef']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/there is no job 20200101-000000-abcdef/i);
  });
});
