/**
 * The results and failed-rows files of a job, made on demand (the app's Jobs screen: jobs.resultsWorkbook and
 * jobs.failedWorkbook): a workbook from the job's copy of its input (else the path the CLI recorded), a CSV file
 * per kept CSV source in its own layout; which source is meant when a job read several (`source`).
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  csvResultBase,
  keptCsvSources,
  keptWorkbookName,
  writeCsvSourceResults,
  type CsvSource,
} from '../jobs/csv-sources.js';
import { jobDir } from '../jobs/job-store.js';
import { rowMarks } from '../jobs/row-marks.js';
import { writeResultsWorkbook } from '../jobs/results-workbook.js';
import { writeFailedRowsWorkbook } from '../jobs/failed-rows-workbook.js';
import { loadIndexed } from '../jobs/run.js';
import { isTextSource } from '../workbook/sources/index.js';
import { AppError } from './errors.js';
import type { AppServices } from './services.js';
import { CSV_MIME, XLSX_MIME } from './sessions/downloads.js';
import { findJob } from './jobs.js';

function baseName(file: string): string {
  return path.basename(file).replace(/\.(xlsx|xlsm|xls|ods)$/i, '') || 'workbook';
}

/** The workbook a job was made from: its copy in the job folder, else the path the CLI recorded. */
async function jobInput(app: AppServices, jobId: string, source?: string): Promise<{ input: string; file: string }> {
  const w = app.sessions;
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
  const w = app.sessions;
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

/** The file made, where it is, the name to offer it under, and (failed rows) how many rows it holds. */
export interface JobResultFile {
  path: string;
  fileName: string;
  mimeType: string;
  rows: number;
}

const WORDS = {
  results: {
    csv: 'results',
    xlsx: 'results.xlsx',
    suffix: 'results',
    listed: 'its results are listed here row by row',
  },
  failed: { csv: 'failed', xlsx: 'failed-rows.xlsx', suffix: 'failed-rows', listed: 'its rows are listed here' },
} as const;

/** Make a job's results (`results`) or failed-rows (`failed`) file of one of its sources. */
export async function jobResultFile(
  app: AppServices,
  jobId: string,
  source: string | undefined,
  kind: 'results' | 'failed',
): Promise<JobResultFile> {
  const w = app.sessions;
  const k = WORDS[kind];
  const csv = await jobCsvSource(app, jobId, source);
  if (csv) {
    await w.jobs.meta(jobId); // a job that is not there: refused in words
    // From the job's compact index, as the workbooks below: no entry of the plan held.
    const { index } = await loadIndexed(w.jobs.jobsDir, jobId);
    const name = `${csvResultBase(csv.file)}.${k.csv}.csv`;
    const out = path.join(jobDir(w.jobs.jobsDir, jobId), name);
    try {
      const { failedRows } = await writeCsvSourceResults(
        csv,
        await rowMarks(index),
        kind === 'results' ? { results: out } : { failed: out },
      );
      return { path: out, fileName: name, mimeType: CSV_MIME, rows: failedRows };
    } finally {
      await index.close();
    }
  }
  const { input: src, file } = await jobInput(app, jobId, source);
  if (isTextSource(file))
    throw new AppError(
      'not_found',
      `${file} is a CSV source this job did not keep a copy of (it was started by an older version): ${k.listed}.`,
    );
  // From the job's compact index, as the CLI writes them: no entry of the plan held (a job of 200,000 rows).
  const { header, result, index } = await loadIndexed(w.jobs.jobsDir, jobId);
  const out = path.join(jobDir(w.jobs.jobsDir, jobId), k.xlsx);
  let rows: number;
  try {
    const marks = await rowMarks(index);
    rows =
      kind === 'results'
        ? (await writeResultsWorkbook(src, header, result, out, marks), 0)
        : (await writeFailedRowsWorkbook(src, header, result, out, marks)).rows;
  } finally {
    await index.close();
  }
  return { path: out, fileName: `${baseName(file)}-${k.suffix}.xlsx`, mimeType: XLSX_MIME, rows };
}
