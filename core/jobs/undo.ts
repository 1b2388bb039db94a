/**
 * Undo a finished job: the undo plan is computed from the job's plan entries (their action, and their `before`:
 * the state read before the job changed anything) and its journal outcomes (the ids of what it wrote), against
 * the service as it is now. The plan is written into the undo job's folder (plan.json + plan-entries.jsonl, as
 * an import's) and run from there by runJob (journaled, resumable), with `undoes` naming the job it takes back:
 * - entities the job created (planned as creates: whatever the answer said, a create whose answer was lost and
 *   was found by its external_id is the job's own) → DELETEd (after everything else, in reverse dependency order);
 * - updated fields → PATCHed back to their before values (only the fields the job changed; hazardous substances
 *   and silo items follow their owner's before-state, as they were written with it);
 * - a replaced BOM → PUT back as it was (the BOM of an instance the job created goes with the instance);
 * - production figures the job changed → PUT back to their before values; years it added cannot be taken back
 *   (the API sets years, it cannot remove one): such an entry is `blocked` and says so;
 * - deleted entities → re-created from the before snapshot (a new id: the entry's note says so), a product
 *   instance with its BOM and production figures (read at plan time); references to other entities the job
 *   deleted take the ids of their re-creation.
 * Every entry of the undo carries the before-state its own undo needs (an undo of an undo puts back exactly what
 * the first undo took away).
 *
 * A row whose entity changed on the service since the job — the service's values differ from what the job wrote
 * for the fields it changed, a created entity was modified, an updated one was deleted, a deleted one was
 * created again by someone — is not touched: its entry is a `conflict` that says what changed, and blocks the
 * undo as a blocked row blocks an import.
 *
 * Refused, in words: a job that is not completed, one made for another manufacturer or against another service
 * than the client's, and one that an undo already took back (undo that undo instead).
 */
import { rm } from 'node:fs/promises';
import { createJobDir, jobDir, newJobId, readPlan } from './job-store.js';
import { runJob, type IndexedJobResult, type RunOptions } from './run.js';
import type { Plan, PlanEntry, PlanHeader } from './types.js';
import { undoPlanOf, type UndoOptions } from './undo-plan.js';

export type { UndoOptions } from './undo-plan.js';

/** An undo planned into its job's folder: the folder's job id, the plan's header, its entries that block it. */
export interface PlannedUndo {
  jobId: string;
  plan: PlanHeader;
  blocked: PlanEntry[];
}

/**
 * The undo plan of a completed job (reads only), written into a new job folder (plan.json and
 * plan-entries.jsonl, no meta.json: no job until runJob starts it there). Throws, in words, for a job that is not
 * completed (resume it first), was made for another manufacturer or against another service than the client's,
 * or was undone already.
 */
export async function planUndo(jobId: string, o: UndoOptions): Promise<PlannedUndo> {
  const plan = await undoPlanOf(jobId, o);
  const undoId = newJobId();
  await createJobDir(o.jobsDir, undoId, plan);
  const { entries, ...header } = plan;
  return { jobId: undoId, plan: header, blocked: undoBlocked(entries) };
}

/** Remove the folder of an undo that was planned and not run. */
export async function discardUndo(jobsDir: string, undo: Pick<PlannedUndo, 'jobId'>): Promise<void> {
  await rm(jobDir(jobsDir, undo.jobId), { recursive: true, force: true });
}

/** Entries an undo would not send: conflicts (and production figures, which cannot be taken back). */
function undoBlocked(entries: readonly PlanEntry[]): PlanEntry[] {
  return entries.filter((e) => e.action === 'conflict' || e.action === 'blocked');
}

export interface UndoJobOptions extends UndoOptions, Omit<RunOptions, 'client' | 'jobsDir' | 'signal' | 'inputPath'> {
  /** Plan only: nothing is sent. */
  dryRun?: boolean;
  /** Undo the rest when some entries are conflicts (by default nothing is sent then). */
  skipBlocked?: boolean;
}

/**
 * What an undo did, with its plan read back from its folder (removed when nothing ran). Run: the job's result,
 * its outcomes in the compact index (the caller closes it).
 */
export type UndoJobResult =
  | { stage: 'dry_run'; plan: Plan; blocked: PlanEntry[] }
  | { stage: 'blocked'; plan: Plan; blocked: PlanEntry[] }
  | { stage: 'run'; plan: Plan; blocked: PlanEntry[]; result: IndexedJobResult };

/**
 * Undo a job, the operation the CLI's `undo` (and a desktop action) adapts: always its own dry run first
 * (planUndo, into the undo job's folder); nothing is sent for a dry run, nor when entries are conflicts without
 * `skipBlocked`; else the undo runs from its folder as a journaled, resumable job (resumeJob continues it) whose
 * meta names the job it undoes.
 */
export async function undoJob(jobId: string, o: UndoJobOptions): Promise<UndoJobResult> {
  const { dryRun, skipBlocked, ...run } = o;
  const undo = await planUndo(jobId, o);
  const { blocked } = undo;
  // Read back from the folder for the caller to show (the undo plan was built whole in memory anyway).
  const plan = await readPlan(o.jobsDir, undo.jobId);
  const stage = dryRun ? 'dry_run' : blocked.length > 0 && !skipBlocked ? 'blocked' : null;
  if (stage) {
    await discardUndo(o.jobsDir, undo);
    return { stage, plan, blocked };
  }
  const result = await runJob(undo.jobId, run);
  return { stage: 'run', plan, blocked, result };
}
