/**
 * The import operation, once for every adapter — the CLI's `plan`, `import`, `resume` and `watch`, the app's
 * `import.plan`, `import.run` and `jobs.resume`: plan into a job folder (planJob), refuse a plan with blocked
 * entries (refusedForBlocked, app/import.ts), run the planned job (runImportJob) or resume it (resumeImportJob),
 * and write its results files (app/import-results.ts). Progress and words go out through hooks; what differs
 * between the adapters is an option (whether a completed import remembers the workbook's code mappings, whether
 * resuming a completed job is refused), not a table of adapters.
 */
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { EntryIndex } from '../jobs/entry-index.js';
import {
  jobDir,
  jsonLines,
  newJobDir,
  newJobId,
  PLAN_ENTRIES_FILE,
  readEntriesSync,
  writePlanHeader,
} from '../jobs/job-store.js';
import { SummaryCounter } from '../jobs/plan-sink.js';
import {
  resumeJob,
  runJob,
  withEntries,
  type IndexedJobResult,
  type ResumeOptions,
  type RunOptions,
} from '../jobs/run.js';
import type { JobResult, PlanEntry, PlanHeader } from '../jobs/types.js';
import type { ParsedWorkbook, ValidationReport } from '../workbook/types.js';
import { makePlan, mappingMemory, type PlanOptions, type PlanServices, type RememberMappings } from './import.js';
import { resumableJob } from './jobs.js';
import { identityOf, keptWithDependencies } from './sessions/job-views.js';

/** The engine's job types the adapters name (the CLI imports nothing of jobs/). */
export type { IndexedJobResult } from '../jobs/run.js';
export type {
  EntryOutcome,
  JobProgress,
  JobResult,
  JobResultSummary,
  JobStatus,
  JobSummary,
  OutcomeCounts,
  Plan,
  PlanEntry,
  PlanHeader,
  PlanProblem,
  StopReason,
} from '../jobs/types.js';

/** A plan in its job's folder (plan.json + plan-entries.jsonl; no meta.json until the job runs). */
export interface PlannedJob {
  jobsDir: string;
  jobId: string;
  plan: PlanHeader;
  /** entries left out because they succeeded in the previous job (PlanOptions.previous) */
  excluded: number;
  /** the workbook's mapping rows, to remember once the job completed (asked for with rememberMappings) */
  remember?: RememberMappings;
}

export interface PlanJobOptions extends PlanOptions {
  /** the job's id (default: a new one); its folder must not exist */
  jobId?: string;
  /**
   * Keep the workbook's mapping rows (plants, materials) to remember in the profile once the job completed. The
   * app does: the user chose the workbook and sees the profile. The CLI does not: a scheduled or watched run
   * leaves the profile as saved, and `profile mappings save FILE` is its explicit way.
   */
  rememberMappings?: boolean;
}

/**
 * The dry run into a new job folder: the entries written as they are decided (makePlan) — for a re-run of a
 * job's failed rows into a scratch file first, then only the entries it keeps copied (keepFailedRows) — then
 * the header. The folder is removed when planning fails.
 */
export async function planJob(
  jobsDir: string,
  w: { parsed: ParsedWorkbook; report: ValidationReport },
  services: PlanServices,
  o: PlanJobOptions,
): Promise<PlannedJob> {
  const { jobId = newJobId(), rememberMappings, previous, ...options } = o;
  let excluded = 0;
  try {
    const { dir, entriesPath } = await newJobDir(jobsDir, jobId);
    let plan: PlanHeader;
    if (previous) {
      const all = path.join(dir, `all-${PLAN_ENTRIES_FILE}`);
      const head = await makePlan(w, services, options, all);
      const kept = await keepFailedRows(all, entriesPath, previous);
      await rm(all);
      excluded = kept.excluded;
      plan = { ...head, summary: kept.summary };
    } else {
      plan = await makePlan(w, services, options, entriesPath);
    }
    await writePlanHeader(jobsDir, jobId, plan);
    const remember = rememberMappings ? mappingMemory(w.parsed, w.report) : undefined;
    return { jobsDir, jobId, plan, excluded, ...(remember && { remember }) };
  } catch (e) {
    services.walks?.cancel();
    await discardJob(jobsDir, jobId);
    throw e;
  }
}

/** The entries of a planned job, read one by one from its folder (for synchronous callers: formatPlan). */
export function plannedEntries(p: Pick<PlannedJob, 'jobsDir' | 'jobId'>): Iterable<PlanEntry> {
  return readEntriesSync(path.join(jobDir(p.jobsDir, p.jobId), PLAN_ENTRIES_FILE));
}

/** Remove a job's folder (a plan that is not run). */
export async function discardJob(jobsDir: string, jobId: string): Promise<void> {
  await rm(jobDir(jobsDir, jobId), { recursive: true, force: true });
}

/**
 * A re-run of failed rows: the entries of a plan's file (`from`) whose identity did not succeed in the previous
 * job, and the entries they depend on, copied in plan order to `to`; found through the compact index (one pass),
 * copied in a second pass. Returns the kept entries' summary and how many were left out.
 */
export async function keepFailedRows(
  from: string,
  to: string,
  previous: NonNullable<PlanOptions['previous']>,
): Promise<{ summary: PlanHeader['summary']; excluded: number }> {
  const wanted = previous.failed;
  const seeds: number[] = [];
  const index = await EntryIndex.fromFile(from, (e, i) => {
    if (wanted.has(identityOf(e))) seeds.push(i);
  });
  const keep = keptWithDependencies(index.size, seeds, (i) => index.dependencies(i));
  const counter = new SummaryCounter();
  const fh = await open(to, 'w');
  try {
    let buf = '';
    let i = 0;
    for await (const e of jsonLines<PlanEntry>(from)) {
      if (e && keep[i]) {
        buf += `${JSON.stringify(e)}\n`;
        counter.add(e);
        if (buf.length >= 1 << 20) {
          await fh.write(buf);
          buf = '';
        }
      }
      i++;
    }
    if (buf) await fh.write(buf);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  const summary = counter.summary();
  return { summary, excluded: index.size - summary.entries };
}

export interface ImportRunOptions extends RunOptions {
  /** Called once the job has completed (not when it stopped): e.g. remember the workbook's mappings. */
  onCompleted?: () => void;
  /** Told when onCompleted threw (the job itself is done). */
  onCompletedError?: (e: unknown) => void;
}

/** Run a planned job from its folder (entries read back one by one; a compact index in memory). */
export async function runImportJob(jobId: string, o: ImportRunOptions): Promise<IndexedJobResult> {
  const { onCompleted, onCompletedError, ...run } = o;
  const r = await runJob(jobId, run);
  if (r.result.status === 'completed' && onCompleted) {
    try {
      onCompleted();
    } catch (e) {
      onCompletedError?.(e);
    }
  }
  return r;
}

export interface ImportResumeOptions extends ResumeOptions {
  /**
   * A completed job: `refuse` it in words (the app: nothing to resume), or `answer` its result as it stands (the
   * CLI: scripts may rerun a resume). A job that is not there, or was made against another service than the
   * client's, is refused in words either way.
   */
  completed: 'refuse' | 'answer';
}

/** Resume a stopped job from its folder (no row sent twice; a write whose answer was lost is checked first). */
export async function resumeImportJob(jobId: string, o: ImportResumeOptions): Promise<IndexedJobResult> {
  const { completed, ...resume } = o;
  await resumableJob(o.jobsDir, jobId, o.client.baseUrl, completed);
  return resumeJob(jobId, resume);
}

/**
 * How a job ended for its caller: `ok` — every row succeeded or was unchanged (rows left out on purpose by
 * create-only count as unchanged); `partial` — some rows failed, were skipped or did not run; `stopped` — the job
 * stopped before the end (key refused, daily limit, cancelled, paused).
 */
export function jobVerdict(r: Pick<IndexedJobResult, 'result' | 'index'>): 'ok' | 'partial' | 'stopped' {
  if (r.result.status !== 'completed') return 'stopped';
  if ((r.result.counts.failed ?? 0) > 0 || (r.result.counts.pending ?? 0) > 0) return 'partial';
  for (const [, o] of r.index.notPlain()) if (o.outcome === 'skipped' && o.reason !== 'create_only') return 'partial';
  return 'ok';
}

/** The job's result with every entry's outcome, in plan order (what `--json` prints); the index is closed. */
export function resultWithEntries(r: IndexedJobResult): Promise<JobResult> {
  return withEntries(r);
}
