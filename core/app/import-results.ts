/**
 * The results files of an import job: results and failed-rows workbooks (written by the import engine's
 * writers), and the results CSVs of CSV sources. A file that cannot be written is a warning told through `warn`
 * (the job itself is done and journaled).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { liveRowMarks, rowMarks, type LiveRowMarks, type RowMarks } from '../jobs/row-marks.js';
import { liveResultsFit, writeResultsWorkbook } from '../jobs/results-workbook.js';
import { writeEmptyFailedRowsWorkbook, writeFailedRowsWorkbook } from '../jobs/failed-rows-workbook.js';
import type { EntryIndex } from '../jobs/entry-index.js';
import { csvResultBase, csvSourcesOf, writeCsvSourceResults, type CsvSource } from '../jobs/csv-sources.js';
import type { ColumnMapping } from '../workbook/column-mapping/schema.js';
import type { ParsedWorkbook } from '../workbook/types.js';
import type { JobResultSummary, PlanHeader } from '../jobs/types.js';
import { writeAtomic } from '../fs/atomic.js';
import { isTextSource, sourceBaseName } from '../workbook/sources/index.js';

export interface ResultFiles {
  report?: string;
  failed?: string;
}

const WORKBOOK_WORDS: Record<keyof ResultFiles, string> = {
  report: 'results workbook',
  failed: 'failed-rows workbook',
};

/** Told a warning line (a file that could not be written; the job itself is done and journaled). */
export type Warn = (line: string) => void;

/** A workbook that could not be written: a warning. */
function notWritten(warn: Warn, which: keyof ResultFiles, out: string, e: unknown): void {
  warn(`warning: the ${WORKBOOK_WORDS[which]} could not be written to ${out}: ${(e as Error).message}`);
}

/**
 * Write what was asked; a file that cannot be written is a warning (the job itself is done and journaled). The
 * row marks, or how to make them (only when a file is written).
 */
export async function writeResultFiles(
  warn: Warn,
  inputPath: string | undefined,
  plan: PlanHeader,
  result: JobResultSummary,
  outs: ResultFiles,
  marks: RowMarks | (() => Promise<RowMarks>),
): Promise<ResultFiles> {
  const written: ResultFiles = {};
  if (!outs.report && !outs.failed) return written;
  if (!inputPath || !fs.existsSync(inputPath)) {
    warn(
      `warning: the input workbook${inputPath ? ` ${inputPath}` : ''} is not there any more: no results workbook is written (the outcomes are in the job's journal).`,
    );
    return written;
  }
  const rows = typeof marks === 'function' ? await marks() : marks;
  if (outs.report) {
    try {
      await writeResultsWorkbook(inputPath, plan, result, outs.report, rows);
      written.report = outs.report;
    } catch (e) {
      notWritten(warn, 'report', outs.report, e);
    }
  }
  if (outs.failed) {
    try {
      await writeFailedRowsWorkbook(inputPath, plan, result, outs.failed, rows);
      written.failed = outs.failed;
    } catch (e) {
      notWritten(warn, 'failed', outs.failed, e);
    }
  }
  return written;
}

/** The results and failed-rows workbooks of an import made beside its job: see liveResultFiles. */
export interface LiveResultFiles {
  /**
   * For RunOptions: the job's index before its first write; the writers start once its first writes are on their
   * way (they would otherwise hold up the job's first requests by ~40 ms of CPU); each entry once settled.
   */
  onIndex(index: EntryIndex): void;
  onWritesUnderway(): void;
  onSettled(i: number): void;
  /** The job stopped with this result: what is left of the workbooks is written; the files written. */
  finish(result: JobResultSummary): Promise<ResultFiles>;
  /** The job could not run (it threw): nothing is written, and nothing said. */
  fail(e: unknown): Promise<void>;
}

/**
 * `--report OUT.xlsx` and `--failed OUT.xlsx` of a workbook, made while the job runs, not after it: the job
 * mostly waits for the service, so meanwhile
 * - the results workbook copies the input's rows, each once its entry has settled, leaving only the last rows
 *   and the Report sheet for after the job;
 * - the failed-rows workbook of a job in which every row succeeds (the empty template) is made aside, and only
 *   copied into place if that is how the job ends; otherwise it is written after the job as always.
 * For an input that fits (liveResultsFit: at most 1 MiB, its rows are held meanwhile); null for a larger one
 * (written after the job, streamed, by writeResultFiles). A workbook that cannot be written is a warning, as there.
 */
export function liveResultFiles(
  warn: Warn,
  inputPath: string,
  plan: PlanHeader,
  outs: ResultFiles,
): LiveResultFiles | null {
  if ((!outs.report && !outs.failed) || !liveResultsFit(inputPath)) return null;
  let index: EntryIndex | null = null;
  let marks: LiveRowMarks | null = null;
  let report: Promise<string | undefined> = Promise.resolve(undefined);
  let emptyFailed: { dir: string; file: Promise<string | null> } | null = null;
  let failed = false;
  let settle!: { resolve: (r: JobResultSummary) => void; reject: (e: unknown) => void };
  const result = new Promise<JobResultSummary>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => {}); // rejected only when the job threw; the writer is told through its marks too
  const dropEmptyFailed = () => emptyFailed && fs.promises.rm(emptyFailed.dir, { recursive: true, force: true });
  /** The writers, started once the job's first writes are out (onWritesUnderway), or at its end if it had none. */
  let started = false;
  const start = () => {
    if (started || failed || !marks) return;
    started = true;
    const out = outs.report;
    if (out)
      report = writeResultsWorkbook(inputPath, plan, result, out, marks).then(
        () => out,
        (e: unknown) => {
          if (!failed) notWritten(warn, 'report', out, e);
          return undefined;
        },
      );
    if (outs.failed) {
      let dir: string;
      try {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-live-failed-'));
      } catch {
        // No temporary folder: the failed-rows workbook is written after the job, as for a larger input.
        return;
      }
      const file = path.join(dir, 'failed.xlsx');
      emptyFailed = {
        dir,
        file: writeEmptyFailedRowsWorkbook(file).then(
          () => file,
          () => null,
        ),
      };
    }
  };
  return {
    onIndex(i) {
      index = i;
      marks = liveRowMarks(i);
    },
    onWritesUnderway: start,
    onSettled: (i) => marks?.settled(i),
    async finish(r) {
      start();
      marks?.finish();
      settle.resolve(r);
      const written: ResultFiles = {};
      const reportPath = await report;
      if (reportPath) written.report = reportPath;
      if (outs.failed && index) {
        const made = marks && !marks.anyNotSucceeded ? await emptyFailed?.file : null;
        if (made) {
          try {
            await writeAtomic(outs.failed, (tmp) => fs.promises.copyFile(made, tmp));
            written.failed = outs.failed;
          } catch (e) {
            notWritten(warn, 'failed', outs.failed, e);
          }
        } else {
          const w = await writeResultFiles(warn, inputPath, plan, r, { failed: outs.failed }, await rowMarks(index));
          if (w.failed) written.failed = w.failed;
        }
      }
      await emptyFailed?.file;
      await dropEmptyFailed();
      return written;
    },
    async fail(e) {
      failed = true;
      marks?.fail(e);
      settle.reject(e);
      await report;
      await emptyFailed?.file;
      await dropEmptyFailed();
    },
  };
}

/**
 * `--report DIR` / `--failed DIR` with CSV sources: `<source name>.results.csv` and `<source name>.failed.csv`
 * per CSV source, in the source's encoding, delimiter and columns.
 */
export async function writeCsvResultFiles(
  warn: Warn,
  sources: readonly CsvSource[],
  marks: RowMarks,
  dirs: ResultFiles,
): Promise<string[]> {
  const written: string[] = [];
  for (const s of sources) {
    const base = csvResultBase(s.path);
    const results = dirs.report ? path.join(dirs.report, `${base}.results.csv`) : undefined;
    const failed = dirs.failed ? path.join(dirs.failed, `${base}.failed.csv`) : undefined;
    try {
      await writeCsvSourceResults(s, marks, {
        ...(results && { results }),
        ...(failed && { failed }),
      });
      if (results) written.push(results);
      if (failed) written.push(failed);
    } catch (e) {
      warn(`warning: the results of ${s.path} could not be written: ${(e as Error).message}`);
    }
  }
  return written;
}

/** The results files an import wrote: of a workbook, of CSV sources, of the workbooks among mixed sources. */
export interface WrittenResults {
  files: ResultFiles;
  /** CSV results written (CSV sources). */
  csvFiles: string[];
  /** Results and failed-rows workbooks of the workbooks among mixed sources (written into the folders). */
  workbookFiles: string[];
}

/**
 * The results and failed-rows workbooks of a workbook among mixed sources, in the folders `dirs` names:
 * `<name>.results.xlsx` and `<name>.failed.xlsx`, the name without its extension (`X.xls` → `X.results.xlsx`).
 */
export function workbookResultFiles(wbPath: string, dirs: ResultFiles): ResultFiles {
  const base = sourceBaseName(wbPath);
  return {
    ...(dirs.report && { report: path.join(dirs.report, `${base}.results.xlsx`) }),
    ...(dirs.failed && { failed: path.join(dirs.failed, `${base}.failed.xlsx`) }),
  };
}

/**
 * The results of a job that ran: for a workbook, its results and failed-rows workbooks (`outs` are files; those
 * made beside the job, `live`, finished); for CSV sources (`csvSources` given, `outs` are folders) each source's
 * results CSVs and each workbook among them as workbooks. The marks come from the job's compact index.
 */
export async function writeImportResults(
  warn: Warn,
  run: { plan: PlanHeader; result: JobResultSummary; index: EntryIndex },
  o: {
    /** the sources as given (the first one is a workbook's input) */
    sources: readonly string[];
    outs: ResultFiles;
    csvSources?: readonly CsvSource[];
    live?: LiveResultFiles | null;
  },
): Promise<WrittenResults> {
  const out: WrittenResults = { files: {}, csvFiles: [], workbookFiles: [] };
  const wanted = Boolean(o.outs.report || o.outs.failed);
  if (o.csvSources) {
    if (!wanted) return out;
    const marks = await rowMarks(run.index);
    for (const wbPath of o.sources.filter((s) => !isTextSource(s))) {
      const w = await writeResultFiles(warn, wbPath, run.plan, run.result, workbookResultFiles(wbPath, o.outs), marks);
      out.workbookFiles.push(...[w.report, w.failed].filter((f): f is string => f !== undefined));
    }
    out.csvFiles = await writeCsvResultFiles(warn, o.csvSources, marks, o.outs);
  } else if (o.live) {
    out.files = await o.live.finish(run.result);
  } else if (wanted) {
    out.files = await writeResultFiles(warn, o.sources[0], run.plan, run.result, o.outs, await rowMarks(run.index));
  }
  return out;
}

/**
 * The CSV sources of an import's sheets, each with the file it was read from (`sources`, matched by file name):
 * their results are written in their own layout and headers.
 */
export function csvResultSources(
  parsed: ParsedWorkbook,
  mapping: ColumnMapping | undefined,
  sources: readonly string[],
): CsvSource[] {
  return csvSourcesOf(parsed, mapping, (name) => sources.find((p) => path.basename(p) === name));
}

/** writeResultFiles of a job from its compact index (a resumed job's): its row marks made only when needed. */
export async function writeJobResultFiles(
  warn: Warn,
  inputPath: string | undefined,
  run: { header: PlanHeader; result: JobResultSummary; index: EntryIndex },
  outs: ResultFiles,
): Promise<ResultFiles> {
  return writeResultFiles(warn, inputPath, run.header, run.result, outs, () => rowMarks(run.index));
}
