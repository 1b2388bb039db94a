/**
 * An undo is planned into its own job folder, the one form of a plan: plan.json and plan-entries.jsonl, no
 * meta.json (no job the Jobs list shows) until the undo runs there; an undo that does not run leaves no folder.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobDir, listJobs, META_FILE, PLAN_ENTRIES_FILE, PLAN_FILE, readPlan } from '../../core/jobs/job-store.js';
import { runJob } from '../../core/jobs/run.js';
import { discardUndo, planUndo, undoJob } from '../../core/jobs/undo.js';
import { planFile, startEnv, writeTestWorkbook, type Env } from './helpers.js';
import { runPlan } from './job-folder.js';

let env: Env;

beforeAll(async () => {
  env = await startEnv('empty');
});
afterAll(async () => {
  await env?.close();
});

async function completedJob(code: string): Promise<string> {
  const path = join(env.dir, `${code}.xlsx`);
  await writeTestWorkbook(path, { 'supplier-companies': [{ external_id: code, name: code, country: 'DE' }] });
  const r = await runPlan(await planFile(path, { client: env.client }), { client: env.client, jobsDir: env.jobsDir });
  expect(r.status).toBe('completed');
  return r.jobId;
}

const folders = () => fs.readdirSync(env.jobsDir).sort();

describe('an undo in its job folder', () => {
  it('is planned into a folder of its own without meta.json, and runs from there', async () => {
    const jobId = await completedJob('UF-1');
    const undo = await planUndo(jobId, { client: env.client, jobsDir: env.jobsDir });
    const dir = jobDir(env.jobsDir, undo.jobId);
    expect(undo.jobId).not.toBe(jobId);
    expect(fs.existsSync(join(dir, PLAN_FILE))).toBe(true);
    expect(fs.existsSync(join(dir, PLAN_ENTRIES_FILE))).toBe(true);
    expect(fs.existsSync(join(dir, META_FILE))).toBe(false);
    expect((await listJobs(env.jobsDir)).map((j) => j.jobId)).not.toContain(undo.jobId);
    expect(undo.plan.undoes).toBe(jobId);
    expect(undo.blocked).toEqual([]);
    expect((await readPlan(env.jobsDir, undo.jobId)).entries.map((e) => [e.key, e.action])).toEqual([
      ['undo:supplier-companies!2', 'delete'],
    ]);

    const run = await runJob(undo.jobId, { client: env.client, jobsDir: env.jobsDir });
    await run.index.close();
    expect(run.result.status).toBe('completed');
    expect(run.result.counts.deleted).toBe(1);
    const listed = (await listJobs(env.jobsDir)).find((j) => j.jobId === undo.jobId);
    expect(listed?.undoes).toBe(jobId);
  });

  it('leaves no folder when it does not run (a dry run, a discarded plan)', async () => {
    const jobId = await completedJob('UF-2');
    const before = folders();
    const dry = await undoJob(jobId, { client: env.client, jobsDir: env.jobsDir, dryRun: true });
    expect(dry.stage).toBe('dry_run');
    expect(dry.plan.entries).toHaveLength(1);
    expect(folders()).toEqual(before);

    const undo = await planUndo(jobId, { client: env.client, jobsDir: env.jobsDir });
    expect(folders()).toContain(undo.jobId);
    await discardUndo(env.jobsDir, undo);
    expect(folders()).toEqual(before);
  });
});
