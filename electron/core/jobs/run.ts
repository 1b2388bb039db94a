/**
 * runJob / resumeJob: execute a plan in dependency order (companies → supplier plants → supplier products →
 * silos → product instances → prechain products → BOMs), concurrently within a level (the client's adaptive
 * limiter bounds what is really in flight), with a journal that makes any interruption resumable with no
 * duplicate and no lost row.
 *
 * The entry points: a job started from a plan in memory or from its folder, resumed (after the key's
 * manufacturer is checked), or loaded as it stands on disk. The options are `run-options.ts`, the run itself
 * `job-run.ts`, each entry's write `writes.ts`, the result and its loading `job-result.ts`.
 */
import { ApiError } from '../api/index.js';
import { EntryIndex } from './entry-index.js';
import {
  applyJournal,
  loadIndexed,
  readIndexWithStatics,
  staticOutcome,
  withEntries,
  type IndexedJobResult,
} from './job-result.js';
import { JobRun, STATUS_MESSAGE } from './job-run.js';
import type { ResumeOptions, RunOptions } from './run-options.js';
import { createJobDir, effectiveStatus, newJobId, readMeta, writeMeta } from './job-store.js';
import { RESUMABLE_STATUSES, type JobMeta, type JobResult, type Plan, type PlanHeader } from './types.js';

export { JobControl, type RunOptions, type ResumeOptions } from './run-options.js';
export { loadIndexed, loadJob, loadJobResult, withEntries, type IndexedJobResult } from './job-result.js';

function newMeta(plan: PlanHeader, jobId: string, opts: RunOptions): JobMeta {
  const now = new Date().toISOString();
  const meta: JobMeta = {
    format: 'supply-loader/job@1',
    jobId,
    status: 'running',
    file: plan.file,
    baseUrl: opts.client.baseUrl,
    manufacturerId: plan.manufacturerId,
    maskedKey: opts.client.maskedKey,
    createdAt: now,
    startedAt: now,
    finishedAt: null,
    updatedAt: now,
    pid: process.pid,
    entries: plan.summary.entries,
    rows: plan.summary.rows,
    counts: {},
    sessions: [],
  };
  if (opts.inputPath) meta.inputPath = opts.inputPath;
  if (plan.undoes) meta.undoes = plan.undoes;
  return meta;
}

/** Run a plan held in memory (the desktop app, undo): the job folder is written first, then run. */
export async function runJob(plan: Plan, opts: RunOptions): Promise<JobResult> {
  if (plan.format !== 'supply-loader/plan@1') throw new Error('This is not a Supply Loader plan');
  const jobId = opts.jobId ?? newJobId();
  await createJobDir(opts.jobsDir, jobId, plan);
  const meta = newMeta(plan, jobId, opts);
  await writeMeta(opts.jobsDir, meta);
  opts.onStart?.(jobId);
  const index = EntryIndex.fromEntries(plan.entries);
  plan.entries.forEach((e, i) => {
    const o = staticOutcome(e);
    if (o) index.setOutcome(i, o);
  });
  opts.onIndex?.(index);
  const { entries: _e, ...header } = plan;
  return withEntries(await new JobRun(header, index, meta, opts, new Map()).execute());
}

/**
 * Run a job whose folder holds its plan already (planned into it with planImportToFile and writePlanHeader):
 * the CLI's import. The entries are read back from plan-entries.jsonl; only the compact index is in memory.
 */
export async function runPlannedJob(jobId: string, opts: Omit<RunOptions, 'jobId'>): Promise<IndexedJobResult> {
  const { header, index } = await readIndexWithStatics(opts.jobsDir, jobId);
  const meta = newMeta(header, jobId, opts);
  await writeMeta(opts.jobsDir, meta);
  opts.onStart?.(jobId);
  opts.onIndex?.(index);
  return new JobRun(header, index, meta, opts, new Map()).execute();
}

export async function resumeJob(jobId: string, opts: ResumeOptions): Promise<JobResult> {
  return withEntries(await resumeIndexed(jobId, opts));
}

/** resumeJob with the outcomes left in the compact index (the CLI's resume of a large job). */
export async function resumeIndexed(jobId: string, opts: ResumeOptions): Promise<IndexedJobResult> {
  const meta = await readMeta(opts.jobsDir, jobId);
  const status = effectiveStatus(meta);
  if (status === 'completed') return loadIndexed(opts.jobsDir, jobId);
  if (status === 'running')
    throw new Error(`Job ${jobId} is running in another process (pid ${meta.pid}); it cannot be resumed twice.`);
  if (!RESUMABLE_STATUSES.includes(status)) throw new Error(`Job ${jobId} cannot be resumed (status ${status}).`);
  const head = await readIndexWithStatics(opts.jobsDir, jobId);
  opts.onStart?.(jobId);
  try {
    const me = await opts.client.me({ signal: opts.signal });
    if (me.manufacturer_id.toLowerCase() !== head.header.manufacturerId.toLowerCase()) {
      throw new Error(
        `The API key belongs to another manufacturer than job ${jobId} (${head.header.manufacturerId}); use a key of that manufacturer.`,
      );
    }
  } catch (e) {
    if (e instanceof ApiError && e.classification === 'auth') {
      meta.status = 'aborted';
      meta.reason = 'auth';
      meta.message = STATUS_MESSAGE.auth;
      meta.maskedKey = opts.client.maskedKey;
      meta.updatedAt = new Date().toISOString();
      await writeMeta(opts.jobsDir, meta);
      return loadIndexed(opts.jobsDir, jobId);
    }
    throw e;
  }
  const openIntents = await applyJournal(opts.jobsDir, jobId, head.index);
  return new JobRun(head.header, head.index, meta, opts, openIntents).execute();
}
