/**
 * runJob / resumeJob: execute a plan in dependency order (companies → supplier plants → supplier products →
 * silos → product instances → prechain products → BOMs), concurrently within a level (the client's adaptive
 * limiter bounds what is really in flight), with a journal that makes any interruption resumable with no
 * duplicate and no lost row.
 *
 * The entry points: a job started from its folder (the one form of a plan: plan.json + plan-entries.jsonl),
 * resumed (after the key's manufacturer is checked), or loaded as it stands on disk. The options are `run-options.ts`, the run itself
 * `job-run.ts`, each entry's write `writes.ts`, the result and its loading `job-result.ts`.
 */
import { ApiError } from '../api/index.js';
import { applyJournal, loadIndexed, readIndexWithStatics, type IndexedJobResult } from './job-result.js';
import { JobRun, STATUS_MESSAGE } from './job-run.js';
import type { ResumeOptions, RunOptions } from './run-options.js';
import { effectiveStatus, readMeta, writeMeta } from './job-store.js';
import { RESUMABLE_STATUSES, type JobMeta, type PlanHeader } from './types.js';

export { JobControl, type RunOptions, type ResumeOptions } from './run-options.js';
export { loadIndexed, withEntries, type IndexedJobResult } from './job-result.js';

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

/**
 * Run the job of a folder that holds its plan (planned into it with planImport and writePlanHeader, or
 * createJobDir): the entries are read back from plan-entries.jsonl; only the compact index is in memory.
 */
export async function runJob(jobId: string, opts: RunOptions): Promise<IndexedJobResult> {
  const { header, index } = await readIndexWithStatics(opts.jobsDir, jobId);
  const meta = newMeta(header, jobId, opts);
  await writeMeta(opts.jobsDir, meta);
  opts.onStart?.(jobId);
  opts.onIndex?.(index);
  return new JobRun(header, index, meta, opts, new Map()).execute();
}

/**
 * Resume a stopped job from its folder (a completed one is loaded as it stands), after the key's manufacturer
 * is checked; the outcomes stay in the compact index.
 */
export async function resumeJob(jobId: string, opts: ResumeOptions): Promise<IndexedJobResult> {
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
