/**
 * The import operation (app/import-job.ts) with its options: planning into a job folder (removed when planning
 * fails), the workbook's mappings kept to remember only when asked, a completed job's resume refused or answered,
 * and how a job ended for its caller (jobVerdict).
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../core/api/index.js';
import { jobVerdict, planJob, plannedEntries, resumeImportJob, runImportJob } from '../../core/app/import-job.js';
import { jobDir, META_FILE, PLAN_FILE } from '../../core/jobs/job-store.js';
import type { IndexedJobResult } from '../../core/jobs/run.js';
import type { EntryOutcome, JobResultSummary } from '../../core/jobs/types.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import { catalog, fullWorkbook, readTestWorkbook, startEnv, writeTestWorkbook, type Env } from '../jobs/helpers.js';

let env: Env;
let file: string;

beforeAll(async () => {
  env = await startEnv('empty');
  file = join(env.dir, 'full.xlsx');
  await writeTestWorkbook(file, fullWorkbook(await catalog(env)));
});
afterAll(async () => {
  await env?.close();
});

async function checked() {
  const parsed = await readTestWorkbook(file);
  return { parsed, report: await validateWorkbook(parsed) };
}

describe('planJob', () => {
  it('plans into a job folder (no meta.json) and keeps the mappings to remember only when asked', async () => {
    const w = await checked();
    const kept = await planJob(env.jobsDir, w, { client: env.client }, { createOnly: false, rememberMappings: true });
    const dir = jobDir(env.jobsDir, kept.jobId);
    expect(fs.existsSync(join(dir, PLAN_FILE))).toBe(true);
    expect(fs.existsSync(join(dir, META_FILE))).toBe(false);
    expect([...plannedEntries(kept)]).toHaveLength(kept.plan.summary.entries);
    expect(kept.remember).toBeTypeOf('function');
    const notKept = await planJob(env.jobsDir, w, { client: env.client }, { createOnly: false });
    expect(notKept.remember).toBeUndefined();
  });

  it('removes the folder when planning fails', async () => {
    const w = await checked();
    const before = fs.readdirSync(env.jobsDir);
    await expect(
      planJob(
        env.jobsDir,
        w,
        { client: env.client, manufacturerId: '00000000-0000-0000-0000-000000000000' },
        { createOnly: false, jobId: '20260101-120000-abcdef' },
      ),
    ).rejects.toThrow(/another manufacturer/);
    expect(fs.readdirSync(env.jobsDir)).toEqual(before);
  });
});

describe('runImportJob and resumeImportJob', () => {
  it('runs the planned folder (onCompleted once), then a resume of it is refused in words or answered as it stands', async () => {
    const w = await checked();
    const planned = await planJob(env.jobsDir, w, { client: env.client }, { createOnly: false });
    const o = { client: env.client, jobsDir: env.jobsDir };
    let completed = 0;
    const done = await runImportJob(planned.jobId, { ...o, onCompleted: () => completed++ });
    await done.index.close();
    expect(done.result.status).toBe('completed');
    expect(completed).toBe(1);
    await expect(resumeImportJob(planned.jobId, { ...o, completed: 'refuse' })).rejects.toThrow(/nothing to resume/);
    const r = await resumeImportJob(planned.jobId, { ...o, completed: 'answer' });
    await r.index.close();
    expect(r.result.status).toBe('completed');
    expect(r.result.counts).toEqual(done.result.counts);
  });

  it('refuses in words to resume a job with a connection to another service, before anything is sent', async () => {
    const w = await checked();
    const planned = await planJob(env.jobsDir, w, { client: env.client }, { createOnly: false });
    const done = await runImportJob(planned.jobId, { client: env.client, jobsDir: env.jobsDir });
    await done.index.close();
    const other = createApiClient({ baseUrl: 'http://127.0.0.1:9/api/v2', apiKey: 'svc-other-secret' });
    for (const completed of ['refuse', 'answer'] as const)
      await expect(resumeImportJob(planned.jobId, { client: other, jobsDir: env.jobsDir, completed })).rejects.toThrow(
        /made against another service .* resume it with a connection to that service/,
      );
    const same = createApiClient({ baseUrl: `${env.client.baseUrl}/`, apiKey: 'svc-unused-secret' });
    await expect(
      resumeImportJob(planned.jobId, { client: same, jobsDir: env.jobsDir, completed: 'refuse' }),
    ).rejects.toThrow(/nothing to resume/);
  });
});

describe('jobVerdict', () => {
  const run = (status: JobResultSummary['status'], counts: JobResultSummary['counts'], notPlain: EntryOutcome[]) =>
    ({
      result: { status, counts },
      index: {
        *notPlain() {
          yield* notPlain.map((o, i) => [i, o] as [number, EntryOutcome]);
        },
      },
    }) as unknown as IndexedJobResult;

  it('ok, partial (failed, pending, skipped other than create-only) or stopped', () => {
    expect(jobVerdict(run('completed', { created: 2 }, []))).toBe('ok');
    const createOnly: EntryOutcome = { key: 'a', outcome: 'skipped', reason: 'create_only' };
    expect(jobVerdict(run('completed', { skipped: 1 }, [createOnly]))).toBe('ok');
    const blocked: EntryOutcome = { key: 'b', outcome: 'skipped', reason: 'blocked' };
    expect(jobVerdict(run('completed', { skipped: 1 }, [blocked]))).toBe('partial');
    expect(jobVerdict(run('completed', { failed: 1 }, []))).toBe('partial');
    expect(jobVerdict(run('completed', { pending: 1 }, []))).toBe('partial');
    expect(jobVerdict(run('paused', {}, []))).toBe('stopped');
  });
});
