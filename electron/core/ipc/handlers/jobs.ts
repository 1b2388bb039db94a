/** Handlers of the `jobs` namespace (contract/jobs.ts): list, view, pause, resume, undo, results files. */
import fs from 'node:fs';
import path from 'node:path';
import { CSV_MIME } from '../../app/downloads.js';
import { findJob } from '../../app/jobs.js';
import { resolveConnection } from '../../app/profiles.js';
import { filterJobEntries, jobRowView, page, undoPlanView } from '../../app/work-views.js';
import { csvResultBase, keptCsvSources, keptWorkbookName, writeCsvSourceResults, type CsvSource } from '../../jobs/csv-sources.js';
import { jobDir } from '../../jobs/job-store.js';
import { writeFailedRowsWorkbook, writeResultsWorkbook } from '../../jobs/results.js';
import { isTextSource } from '../../workbook/sources/index.js';
import type { NamespaceHandlers } from '../contract.js';
import type { jobsProcedures } from '../contract/jobs.js';
import { AppError, withWords } from '../errors.js';
import type { AppServices } from '../services.js';

function baseName(file: string): string {
  return path.basename(file).replace(/\.(xlsx|xlsm)$/i, '') || 'workbook';
}

/** The workbook a job was made from: its copy in the job folder, else the path the CLI recorded. */
async function jobInput(app: AppServices, jobId: string, source?: string): Promise<{ input: string; file: string }> {
  const w = app.work;
  if (w.jobs.isRunning(jobId))
    throw new AppError('invalid_input', 'The job is still running. Wait until it stops, or pause it.');
  const meta = await findJob(w.jobs.jobsDir, jobId);
  const input = w.jobs.inputPath(jobId) ?? meta.inputPath;
  if (!input || !fs.existsSync(input)) {
    throw new AppError(
      'not_found',
      'The workbook this job was made from is no longer there, so no results workbook can be made. The outcomes are still listed here.',
    );
  }
  // the workbook among several sources is named by `source` (meta.file names them all)
  return { input, file: source ?? meta.file };
}

/**
 * The CSV source a job kept in its folder (jobs/csv-sources.ts), or undefined for a job of a workbook. A job of
 * several CSV sources makes one file per source: `source` names it (JobView.csvSources).
 */
async function jobCsvSource(
  app: AppServices,
  jobId: string,
  source: string | undefined,
): Promise<(CsvSource & { file: string }) | undefined> {
  const w = app.work;
  if (w.jobs.isRunning(jobId))
    throw new AppError('invalid_input', 'The job is still running. Wait until it stops, or pause it.');
  const dir = jobDir(w.jobs.jobsDir, jobId);
  const kept = await keptCsvSources(dir);
  if (kept.length === 0) return undefined;
  // a workbook among the sources (mixed): its results are a workbook
  if (source !== undefined && source === (await keptWorkbookName(dir))) return undefined;
  const names = kept.map((k) => k.file).join(', ');
  if (source === undefined && kept.length > 1)
    throw new AppError(
      'invalid_input',
      `This job read ${kept.length} CSV files (${names}): say which one's results to make.`,
    );
  const k = source === undefined ? kept[0] : kept.find((x) => x.file === source);
  if (!k) throw new AppError('not_found', `This job read no CSV file named ${source} (it read ${names}).`);
  if (!fs.existsSync(k.path))
    throw new AppError('not_found', `The copy of ${k.file} in the job's folder is gone: no results file can be made.`);
  return k;
}

type Table = NamespaceHandlers<keyof typeof jobsProcedures, AppServices>;

export const jobsHandlers: Table = withWords<Table>({
  'jobs.list': async (_input, app) => ({ jobs: await app.work.jobs.list() }),

  'jobs.get': async (input, app) => app.work.jobs.view(input.jobId),

  'jobs.rows': async (input, app) => {
    const loaded = await app.work.jobs.load(input.jobId);
    const indices = filterJobEntries(loaded.index, input.filter);
    return page(indices, input.offset, input.limit, (i) => {
      const e = loaded.plan.entries[i];
      return jobRowView(e, loaded.index.outcomes.get(e.key) ?? { key: e.key, outcome: 'pending' });
    });
  },

  'jobs.pause': async (input, app) => ({ accepted: app.work.jobs.pause(input.jobId) }),

  'jobs.cancel': async (input, app) => ({ accepted: app.work.jobs.cancel(input.jobId) }),

  'jobs.resume': async (input, app) => {
    const conn = await resolveConnection(app);
    return { jobId: await app.work.jobs.resume(input.jobId, conn) };
  },

  'jobs.undoPlan': async (input, app) => {
    const conn = await resolveConnection(app);
    return undoPlanView(input.jobId, await app.work.jobs.undoPlan(input.jobId, conn));
  },

  'jobs.undo': async (input, app) => {
    const conn = await resolveConnection(app);
    return { jobId: await app.work.jobs.undo(input.jobId, conn, input.skipBlocked) };
  },

  'jobs.resultsWorkbook': async (input, app) => {
    const w = app.work;
    const csv = await jobCsvSource(app, input.jobId, input.source);
    if (csv) {
      const { plan, result } = await w.jobs.load(input.jobId);
      const name = `${csvResultBase(csv.file)}.results.csv`;
      const out = path.join(jobDir(w.jobs.jobsDir, input.jobId), name);
      await writeCsvSourceResults(csv, plan, result, { results: out });
      return w.downloads.register(out, name, CSV_MIME);
    }
    const { input: src, file } = await jobInput(app, input.jobId, input.source);
    if (isTextSource(file))
      throw new AppError(
        'not_found',
        `${file} is a CSV source this job did not keep a copy of (it was started by an older version): its results are listed here row by row.`,
      );
    const { plan, result } = await w.jobs.load(input.jobId);
    const out = path.join(jobDir(w.jobs.jobsDir, input.jobId), 'results.xlsx');
    await writeResultsWorkbook(src, plan, result, out);
    return w.downloads.register(out, `${baseName(file)}-results.xlsx`);
  },

  'jobs.failedWorkbook': async (input, app) => {
    const w = app.work;
    const csv = await jobCsvSource(app, input.jobId, input.source);
    if (csv) {
      const { plan, result } = await w.jobs.load(input.jobId);
      const name = `${csvResultBase(csv.file)}.failed.csv`;
      const out = path.join(jobDir(w.jobs.jobsDir, input.jobId), name);
      const { failedRows } = await writeCsvSourceResults(csv, plan, result, { failed: out });
      return { ...w.downloads.register(out, name, CSV_MIME), rows: failedRows };
    }
    const { input: src, file } = await jobInput(app, input.jobId, input.source);
    if (isTextSource(file))
      throw new AppError(
        'not_found',
        `${file} is a CSV source this job did not keep a copy of (it was started by an older version): its rows are listed here.`,
      );
    const { plan, result } = await w.jobs.load(input.jobId);
    const out = path.join(jobDir(w.jobs.jobsDir, input.jobId), 'failed-rows.xlsx');
    const { rows } = await writeFailedRowsWorkbook(src, plan, result, out);
    return { ...w.downloads.register(out, `${baseName(file)}-failed-rows.xlsx`), rows };
  },
});
