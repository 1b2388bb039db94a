/**
 * Import jobs run on the main side (Electron main process, or the browser-mode server), never in the page.
 * The engine (runJob / resumeJob, from the job's folder) is async and yields between requests, so the IPC loop keeps
 * answering while a job runs; progress goes out as `jobs.progress` events (the engine throttles them to ≤ 10/s)
 * and every start and stop as `jobs.changed`.
 *
 * - One job at a time per connection profile (two jobs writing to one account at once would fight over the
 *   same rows and the same rate limit).
 * - Pause (JobControl) and cancel (AbortSignal) stop after the requests in flight; both leave the job
 *   resumable. Closing the app cancels running jobs the same way.
 * - The workbook is copied into the job's folder when the job starts: the results and failed-rows workbooks
 *   are made from exactly the file the plan was made from, even if the user edits the original afterwards.
 *   CSV sources are kept there under their own names, with their header row and format (jobs/csv-sources.ts).
 */
import { copyFile } from 'node:fs/promises';
import fs from 'node:fs';
import path from 'node:path';
import { createApiClient, type ApiClient } from '../../api/index.js';
import { keepCsvSources, keptCsvSources, keptWorkbookName, type CsvSource } from '../../jobs/csv-sources.js';
import { jobDir, listJobs, readMeta, readPlan, effectiveStatus } from '../../jobs/job-store.js';
import { JobControl, loadIndexed, runJob, type IndexedJobResult, type RunOptions } from '../../jobs/run.js';
import { resumeImportJob, runImportJob } from '../import-job.js';
import { rowlessCounts } from '../../jobs/row-marks.js';
import { discardUndo, planUndo, type PlannedUndo } from '../../jobs/undo.js';
import type { JobMeta, JobProgress, JobResultSummary, JobStatus, Plan } from '../../jobs/types.js';
import { RESUMABLE_STATUSES } from '../../jobs/types.js';
import type { JobListItem, JobProgressView, JobRowFilter, JobRowView, JobView } from '../../contract/index.js';
import { AppError } from '../errors.js';
import type { Connection } from '../profiles.js';
import type { SessionServices } from '../host.js';
import { sameService, undoneByOf } from '../../jobs/undo-refusal.js';
import { resumableJob, undoableJob } from '../jobs.js';
import { jobRowView, notSucceeded, page, positionsPassing, jobEntryFilter } from './job-views.js';
import { succeeded } from '../../names.js';
import { requestsController } from '../../api/signal.js';
import { isLegacySource, writeXlsxCopy } from '../../workbook/sources/legacy.js';

export const INPUT_COPY = 'input';

interface RunningJob {
  jobId: string;
  profileId: string;
  controller: AbortController;
  control: JobControl;
  client: ApiClient;
  progress: JobProgressView | null;
  done: Promise<void>;
}

/** Read from a job's folder at `loadedAt`, when its meta said `stamp` (updatedAt and whether it ran here). */
interface ReadAt {
  stamp: string;
  loadedAt: number;
}

/** Still good: the job has not changed since, or it runs and was read less than a second ago. */
function fresh(cached: ReadAt, stamp: string, running: boolean): boolean {
  return cached.stamp === stamp || (running && Date.now() - cached.loadedAt < 1000);
}

const stampOf = (meta: JobMeta, running: boolean) => `${meta.updatedAt}|${running}`;

/** A job's entries opened for paging its rows (the Jobs screen's table): the index, and the last filter's matches. */
interface OpenedRows extends ReadAt {
  jobId: string;
  opened: IndexedJobResult;
  filter: { key: string; indices: number[] } | null;
}

/** What a job's view shows, counted from its compact index (no entry held): kept per job until it changes. */
interface JobFigures extends ReadAt {
  result: JobResultSummary;
  createOnly: boolean;
  /** entries (and their rows) that did not succeed: failed, skipped other than create-only, not run */
  notOk: number;
  notOkRows: number;
  /** rows of the entries that did not succeed in any way (the failed-rows workbook's rows) */
  failedRows: number;
}

export function progressView(p: JobProgress): JobProgressView {
  return {
    jobId: p.jobId,
    status: p.status,
    done: p.done,
    total: p.total,
    rowsPerS: Number.isFinite(p.rowsPerS) ? p.rowsPerS : 0,
    etaS: p.etaS !== null && Number.isFinite(p.etaS) ? p.etaS : null,
    byOutcome: { ...p.byOutcome } as Record<string, number>,
    level: p.level,
  };
}

/** Words for an error that stopped a job outside the engine's own statuses (never a stack). */
function words(e: unknown): string {
  if (e instanceof AppError) return e.message;
  const m = e instanceof Error ? e.message : String(e);
  return m.split('\n')[0].slice(0, 500);
}

export class JobsRunner {
  private readonly running = new Map<string, RunningJob>();
  private readonly errors = new Map<string, string>();
  private readonly figures = new Map<string, JobFigures>();
  /** The job whose rows are being paged (one at a time: the Jobs screen shows one job's rows). */
  private opened: OpenedRows | null = null;

  constructor(
    private readonly app: SessionServices,
    readonly jobsDir: string,
  ) {}

  isRunning(jobId: string): boolean {
    return this.running.has(jobId);
  }

  /** The job running on a profile, if any. */
  runningFor(profileId: string): string | undefined {
    for (const r of this.running.values()) if (r.profileId === profileId) return r.jobId;
    return undefined;
  }

  private refuseIfBusy(profileId: string): void {
    const busy = this.runningFor(profileId);
    if (busy) {
      throw new AppError(
        'unavailable',
        `An import (job ${busy}) is already running on this connection. Wait for it to finish, or pause or cancel it first.`,
      );
    }
  }

  /**
   * Start the job of a folder that holds its plan already (the dry run planned into it: app/sessions/imports.ts);
   * resolves once its meta.json exists. The entries are read back from the folder, never held in memory.
   */
  async start(
    jobId: string,
    o: {
      conn: Connection;
      inputPath: string;
      /** CSV sources: kept in the job's folder under their own names (their results are made from the copies) */
      csvSources?: readonly CsvSource[];
      /** a workbook among the CSV sources (mixed): its name; `inputPath` is it, kept as the job's input copy */
      workbookName?: string;
      /** called once the job has completed (not when it stopped) */
      onCompleted?: () => void;
    },
  ): Promise<string> {
    this.refuseIfBusy(o.conn.profileId);
    const dir = jobDir(this.jobsDir, jobId);
    let input = o.inputPath;
    if (o.csvSources?.length && !o.workbookName) {
      await keepCsvSources(dir, o.csvSources);
    } else {
      if (o.csvSources?.length) await keepCsvSources(dir, o.csvSources, o.workbookName);
      const ext = path.extname(o.inputPath).toLowerCase() === '.xlsm' ? '.xlsm' : '.xlsx';
      input = path.join(dir, `${INPUT_COPY}${ext}`);
      // An .xls / .ods is kept as its .xlsx copy: the job's results are read from it like any workbook's.
      if (isLegacySource(o.inputPath)) await writeXlsxCopy(o.inputPath, input);
      else await copyFile(o.inputPath, input);
    }
    await this.launch(jobId, o.conn, (opts) =>
      runImportJob(jobId, {
        ...opts,
        inputPath: input,
        ...(o.onCompleted && { onCompleted: o.onCompleted }),
        onCompletedError: (e) => this.app.log.warn({ jobId, err: e }, 'after-completion step of the import failed'),
      }),
    );
    return jobId;
  }

  /** Resume a stopped job with a connection (a key of the same manufacturer). */
  async resume(jobId: string, conn: Connection): Promise<string> {
    if (this.running.has(jobId)) throw new AppError('invalid_input', 'This job is running already.');
    // Refused here, in words to the caller, before the job is launched (a refusal inside it would be its error).
    await resumableJob(this.jobsDir, jobId, conn.baseUrl);
    this.refuseIfBusy(conn.profileId);
    await this.launch(jobId, conn, (opts) => resumeImportJob(jobId, { ...opts, completed: 'refuse' }));
    return jobId;
  }

  /**
   * The undo plan of a completed job (reads only), with the active connection: refused in words for a job made
   * against another service or already taken back by an undo (app/jobs.ts undoableJob).
   */
  async undoPlan(jobId: string, conn: Connection): Promise<Plan> {
    const undo = await this.planUndo(jobId, conn);
    try {
      return await readPlan(this.jobsDir, undo.jobId);
    } finally {
      await discardUndo(this.jobsDir, undo);
    }
  }

  /** The undo planned into its job's folder (app/jobs.ts undoableJob refuses first, in words). */
  private async planUndo(jobId: string, conn: Connection): Promise<PlannedUndo> {
    if (this.running.has(jobId)) throw new AppError('invalid_input', 'This job is running: wait until it stops.');
    await undoableJob(this.jobsDir, jobId, conn.baseUrl);
    const client = createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
    try {
      return await planUndo(jobId, { client, jobsDir: this.jobsDir });
    } finally {
      await client.close().catch(() => {});
    }
  }

  /**
   * Undo a completed job: planned again (the service may have changed since the user saw the undo's dry run),
   * refused while entries are conflicts unless skipBlocked, then run as a job of its own (meta.undoes).
   */
  async undo(jobId: string, conn: Connection, skipBlocked: boolean): Promise<string> {
    this.refuseIfBusy(conn.profileId);
    const undo = await this.planUndo(jobId, conn);
    const blocked = undo.blocked.length;
    if (blocked > 0 && !skipBlocked) {
      await discardUndo(this.jobsDir, undo);
      throw new AppError(
        'invalid_input',
        `${blocked} row(s) of the undo are conflicts or cannot be undone: nothing was sent. Confirm that the rest is undone without them.`,
      );
    }
    try {
      this.refuseIfBusy(conn.profileId);
      await this.launch(undo.jobId, conn, (opts) => runJob(undo.jobId, opts));
    } catch (e) {
      await discardUndo(this.jobsDir, undo);
      throw e;
    }
    return undo.jobId;
  }

  private async launch(
    jobId: string,
    conn: Connection,
    exec: (o: Omit<RunOptions, 'inputPath'>) => Promise<IndexedJobResult>,
  ): Promise<void> {
    const client = createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
    const rj: RunningJob = {
      jobId,
      profileId: conn.profileId,
      controller: requestsController(),
      control: new JobControl(),
      client,
      progress: null,
      done: Promise.resolve(),
    };
    this.running.set(jobId, rj);
    this.errors.delete(jobId);
    this.figures.delete(jobId);
    let started!: () => void;
    const startedP = new Promise<void>((resolve) => (started = resolve));
    rj.done = (async () => {
      try {
        const { index } = await exec({
          client,
          jobsDir: this.jobsDir,
          signal: rj.controller.signal,
          control: rj.control,
          onStart: () => {
            started();
            this.app.emit('jobs.changed', { jobId, status: 'running', running: true });
          },
          onProgress: (p) => {
            rj.progress = progressView(p);
            this.app.emit('jobs.progress', rj.progress);
          },
        });
        await index.close();
      } catch (e) {
        this.errors.set(jobId, words(e));
        this.app.log.warn({ jobId, err: e }, 'import job stopped with an error');
      } finally {
        this.running.delete(jobId);
        this.figures.delete(jobId);
        started();
        await client.close().catch(() => {});
        let status: JobStatus | null = null;
        try {
          status = effectiveStatus(await readMeta(this.jobsDir, jobId));
        } catch {
          status = null;
        }
        this.app.emit('jobs.changed', { jobId, status, running: false });
      }
    })();
    await startedP;
  }

  pause(jobId: string): boolean {
    const r = this.running.get(jobId);
    if (!r) return false;
    r.control.pause();
    return true;
  }

  cancel(jobId: string): boolean {
    const r = this.running.get(jobId);
    if (!r) return false;
    r.controller.abort(new Error('cancelled by the user'));
    return true;
  }

  /** The stored jobs, newest first; `serviceUrl`: the active connection's base URL (null: not known yet). */
  async list(serviceUrl: string | null): Promise<JobListItem[]> {
    // Taken before the metas are read, for the reason given in view().
    const running = new Set(this.running.keys());
    const jobs = await listJobs(this.jobsDir);
    const undoneBy = undoneByOf(jobs.map((j) => (running.has(j.jobId) ? { ...j, status: 'running' as const } : j)));
    return jobs.map((j) => ({
      jobId: j.jobId,
      status: running.has(j.jobId) ? 'running' : j.status,
      reason: j.reason ?? null,
      file: j.file,
      baseUrl: j.baseUrl,
      maskedKey: j.maskedKey,
      createdAt: j.createdAt,
      finishedAt: j.finishedAt,
      entries: j.entries,
      rows: j.rows,
      counts: { ...j.counts } as Record<string, number>,
      resumable: !running.has(j.jobId) && j.resumable,
      running: running.has(j.jobId),
      undoes: j.undoes ?? null,
      undoneBy: undoneBy.get(j.jobId) ?? null,
      otherService: serviceUrl !== null && !sameService(j.baseUrl, serviceUrl),
    }));
  }

  /** A job's meta; not_found in words when this computer has no such job (or it could not start). */
  async meta(jobId: string): Promise<JobMeta> {
    try {
      return await readMeta(this.jobsDir, jobId);
    } catch {
      const err = this.errors.get(jobId);
      throw new AppError(
        'not_found',
        err ? `Job ${jobId} could not start: ${err}` : `There is no job ${jobId} on this computer.`,
      );
    }
  }

  inputPath(jobId: string): string | null {
    for (const ext of ['.xlsx', '.xlsm']) {
      const p = path.join(jobDir(this.jobsDir, jobId), `${INPUT_COPY}${ext}`);
      if (fs.existsSync(p)) return p;
    }
    return null;
  }

  /**
   * A job's figures for its view, read from the job folder through the compact index (plan-entries.jsonl and
   * the journal scanned, no entry kept): a job of 200,000 rows is looked at in the memory of its index, not of
   * its plan. Kept until the job changes; a running job is counted again at most once a second.
   */
  private async jobFigures(jobId: string, stamp: string, running: boolean): Promise<JobFigures> {
    const cached = this.figures.get(jobId);
    if (cached && fresh(cached, stamp, running)) return cached;
    const { result, header, index } = await loadIndexed(this.jobsDir, jobId);
    try {
      let notOk = 0;
      let notOkRows = 0;
      let failedRows = 0;
      for (let i = 0; i < index.size; i++) {
        const o = index.outcomeOf(i);
        // A delete without a worksheet row (a mirrored sheet's) is one row of the failed-rows workbook.
        const rows = rowlessCounts(index.actionOf(i), index.rowCount(i)) ? 1 : index.rowCount(i);
        if (notSucceeded(o)) {
          notOk++;
          notOkRows += rows;
        }
        if (!succeeded(o.outcome)) failedRows += rows;
      }
      const f: JobFigures = {
        result,
        createOnly: header.options.createOnly,
        notOk,
        notOkRows,
        failedRows,
        stamp,
        loadedAt: Date.now(),
      };
      this.figures.set(jobId, f);
      return f;
    } finally {
      await index.close();
    }
  }

  /**
   * `jobs.rows`: a page of a job's rows that pass a filter, read back from its folder through the compact index
   * (the entries shown are read by their byte offsets; a filter is one pass over plan-entries.jsonl, its matches
   * kept as positions for the next pages). A running job is read again at most once a second.
   */
  async rows(
    jobId: string,
    filter: JobRowFilter,
    offset: number,
    limit: number,
  ): Promise<{ total: number; offset: number; rows: JobRowView[] }> {
    const meta = await this.meta(jobId);
    const running = this.running.has(jobId);
    const stamp = stampOf(meta, running);
    let o = this.opened;
    if (!o || o.jobId !== jobId || !fresh(o, stamp, running)) {
      const opened = await loadIndexed(this.jobsDir, jobId);
      // The one it replaces may still be read by a page asked for just before: closed a little later.
      const replaced = this.opened;
      if (replaced) setTimeout(() => void replaced.opened.index.close().catch(() => {}), 10_000).unref();
      o = this.opened = { jobId, opened, stamp, loadedAt: Date.now(), filter: null };
    }
    const { index, header } = o.opened;
    const key = JSON.stringify([filter.sheet ?? '', filter.outcome ?? '', filter.search?.trim().toLowerCase() ?? '']);
    if (o.filter?.key !== key) {
      const passes = jobEntryFilter(filter);
      o.filter = { key, indices: await positionsPassing(index, passes && ((e, i) => passes(e, index.outcomeOf(i)))) };
    }
    const indices = o.filter.indices;
    const at = page(indices, offset, limit, (i) => i);
    const rows: JobRowView[] = [];
    for (const i of at.rows) rows.push(jobRowView(await index.entry(i), index.outcomeOf(i), header));
    return { ...at, rows };
  }

  async view(jobId: string): Promise<JobView> {
    // Whether the job runs is taken BEFORE its files are read: a job that ends while we read would otherwise be
    // shown as not running with the meta it had while running ("running" in no process).
    const running = this.running.get(jobId);
    const meta = await this.meta(jobId);
    const { result, createOnly, notOk, notOkRows, failedRows } = await this.jobFigures(
      jobId,
      stampOf(meta, running !== undefined),
      running !== undefined,
    );
    const status: JobStatus = running ? 'running' : effectiveStatus(meta);
    const kept = await keptCsvSources(jobDir(this.jobsDir, jobId));
    const csvSources = kept.length > 0;
    return {
      jobId,
      status,
      reason: meta.reason ?? null,
      file: meta.file,
      baseUrl: meta.baseUrl,
      maskedKey: meta.maskedKey,
      createdAt: meta.createdAt,
      startedAt: meta.startedAt,
      finishedAt: meta.finishedAt,
      durationMs: Math.max(0, Math.round(result.durationMs)),
      entries: meta.entries,
      rows: meta.rows,
      counts: result.counts as Record<string, number>,
      bySheet: result.bySheet as Record<string, Record<string, number>>,
      entitlementLimits: result.entitlementLimits,
      resumable: !running && RESUMABLE_STATUSES.includes(status),
      running: running !== undefined,
      progress: running?.progress ?? null,
      notSucceeded: notOk,
      notSucceededRows: notOkRows,
      failedRows,
      inputAvailable:
        this.inputPath(jobId) !== null || csvSources || (meta.inputPath !== undefined && fs.existsSync(meta.inputPath)),
      resultsFormat: csvSources ? 'csv' : 'xlsx',
      csvSources: kept.map((k) => k.file),
      workbookSource:
        csvSources && this.inputPath(jobId) !== null ? await keptWorkbookName(jobDir(this.jobsDir, jobId)) : null,
      createOnly,
      error: this.errors.get(jobId) ?? null,
      undoes: meta.undoes ?? null,
    };
  }

  /** Cancel running jobs (they stay resumable) and wait a little for their journals to settle. */
  async dispose(): Promise<void> {
    if (this.opened) await this.opened.opened.index.close().catch(() => {});
    this.opened = null;
    const all = [...this.running.values()];
    for (const r of all) r.controller.abort(new Error('the app is closing'));
    await Promise.race([Promise.all(all.map((r) => r.done)), new Promise((r) => setTimeout(r, 5000).unref())]);
  }
}
