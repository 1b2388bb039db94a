/**
 * Tests plan and run through the job folder, the one form of a plan: `planInMemory` plans into a temporary
 * plan-entries file and reads the entries back (to look at them); `runPlan` writes a plan into a new job
 * folder and runs it there; `resumeToResult` resumes a job; `undoPlan` and `undoToResult` plan and run undos.
 * The results come with every entry's outcome.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient } from '../../core/api/index.js';
import { planJob, plannedEntries } from '../../core/app/import-job.js';
import { readAndValidate } from '../../core/app/validate.js';
import { planImport, type PlanContext } from '../../core/jobs/plan.js';
import { createJobDir, newJobId, readEntriesSync, readPlan } from '../../core/jobs/job-store.js';
import { rowMarks, type RowMarks } from '../../core/jobs/row-marks.js';
import {
  loadIndexed,
  resumeJob,
  runJob,
  withEntries,
  type ResumeOptions,
  type RunOptions,
} from '../../core/jobs/run.js';
import type { JobResult, Plan, PlanEntry } from '../../core/jobs/types.js';
import {
  discardUndo,
  planUndo,
  undoJob,
  type UndoJobOptions,
  type UndoJobResult,
  type UndoOptions,
} from '../../core/jobs/undo.js';
import type { ParsedWorkbook } from '../../core/workbook/types.js';

/** The plan of a workbook with its entries read back from the file they were planned into. */
export async function planInMemory(parsed: ParsedWorkbook, ctx: PlanContext): Promise<Plan> {
  const dir = await mkdtemp(join(tmpdir(), 'sl-plan-'));
  try {
    const path = join(dir, 'plan-entries.jsonl');
    // The entries before the summary, as a plan is laid out (saved plans, --json, snapshots).
    const { summary, requests, preflight, ...head } = await planImport(parsed, ctx, path);
    return { ...head, entries: [...readEntriesSync(path)], summary, requests, preflight };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Write `plan` into a new job folder (or the one of `jobId`) and run the job there. */
export async function runPlan(plan: Plan, opts: RunOptions & { jobId?: string }): Promise<JobResult> {
  const { jobId = newJobId(), ...run } = opts;
  await createJobDir(run.jobsDir, jobId, plan);
  return withEntries(await runJob(jobId, run));
}

/** resumeJob with every entry's outcome. */
export async function resumeToResult(jobId: string, opts: ResumeOptions): Promise<JobResult> {
  return withEntries(await resumeJob(jobId, opts));
}

/** The undo plan of a job, read back from the folder planUndo wrote it into (the folder is removed). */
export async function undoPlan(jobId: string, o: UndoOptions): Promise<Plan> {
  const u = await planUndo(jobId, o);
  try {
    return await readPlan(o.jobsDir, u.jobId);
  } finally {
    await discardUndo(o.jobsDir, u);
  }
}

/** undoJob with every entry's outcome of the undo job, when it ran. */
export async function undoToResult(
  jobId: string,
  o: UndoJobOptions,
): Promise<
  Exclude<UndoJobResult, { stage: 'run' }> | { stage: 'run'; plan: Plan; blocked: PlanEntry[]; result: JobResult }
> {
  const r = await undoJob(jobId, o);
  return r.stage === 'run' ? { ...r, result: await withEntries(r.result) } : r;
}

/** The row marks of a job on disk (from its compact index), for its results workbooks. */
export async function marksOfJob(jobsDir: string, jobId: string): Promise<RowMarks> {
  const { index } = await loadIndexed(jobsDir, jobId);
  try {
    return await rowMarks(index);
  } finally {
    await index.close();
  }
}

/** A job folder's plan entries, each as its JSON line (two plans compared entry for entry). */
export const entriesOf = (p: { jobsDir: string; jobId: string }) =>
  [...plannedEntries(p)].map((e) => JSON.stringify(e));

/** The plan of `file` made after its read, without walks ahead: what a plan made with them must equal. */
export async function planAfterRead(env: { jobsDir: string; client: ApiClient }, file: string) {
  return planJob(env.jobsDir, await readAndValidate([file]), { client: env.client }, { createOnly: false });
}
