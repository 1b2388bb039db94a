/** The results and failed-rows workbooks of import / resume (written by the import engine's writers). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { indexRowMarks, liveRowMarks, type LiveRowMarks, type RowMarks } from '../jobs/row-marks.js';
import { liveResultsFit, writeResultsWorkbook } from '../jobs/results-workbook.js';
import { writeEmptyFailedRowsWorkbook, writeFailedRowsWorkbook } from '../jobs/failed-rows-workbook.js';
import type { EntryIndex } from '../jobs/entry-index.js';
import { csvResultBase, writeCsvSourceResults, type CsvSource } from '../jobs/csv-sources.js';
import type { JobResultSummary, PlanHeader } from '../jobs/types.js';
import type { RunContext } from './context.js';
import { writeAtomic } from '../fs/atomic.js';

export interface ResultFiles {
  report?: string;
  failed?: string;
}

const WORKBOOK_WORDS: Record<keyof ResultFiles, string> = {
  report: 'results workbook',
  failed: 'failed-rows workbook',
};

/** A workbook that could not be written: a warning (the job itself is done and journaled). */
function notWritten(ctx: RunContext, which: keyof ResultFiles, out: string, e: unknown): void {
  ctx.stderr(`warning: the ${WORKBOOK_WORDS[which]} could not be written to ${out}: ${(e as Error).message}\n`);
}

/** Write what was asked; a file that cannot be written is a warning (the job itself is done and journaled). */
export async function writeResultFiles(
  ctx: RunContext,
  inputPath: string | undefined,
  plan: PlanHeader,
  result: JobResultSummary,
  outs: ResultFiles,
  marks?: RowMarks,
): Promise<ResultFiles> {
  const written: ResultFiles = {};
  if (!outs.report && !outs.failed) return written;
  if (!inputPath || !fs.existsSync(inputPath)) {
    ctx.stderr(
      `warning: the input workbook${inputPath ? ` ${inputPath}` : ''} is not there any more: no results workbook is written (the outcomes are in the job's journal).\n`,
    );
    return written;
  }
  if (outs.report) {
    try {
      await writeResultsWorkbook(inputPath, plan, result, outs.report, marks);
      written.report = outs.report;
    } catch (e) {
      notWritten(ctx, 'report', outs.report, e);
    }
  }
  if (outs.failed) {
    try {
      await writeFailedRowsWorkbook(inputPath, plan, result, outs.failed, marks);
      written.failed = outs.failed;
    } catch (e) {
      notWritten(ctx, 'failed', outs.failed, e);
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
  ctx: RunContext,
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
          if (!failed) notWritten(ctx, 'report', out, e);
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
            notWritten(ctx, 'failed', outs.failed, e);
          }
        } else {
          const w = await writeResultFiles(
            ctx,
            inputPath,
            plan,
            r,
            { failed: outs.failed },
            await indexRowMarks(index),
          );
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
  ctx: RunContext,
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
      ctx.stderr(`warning: the results of ${s.path} could not be written: ${(e as Error).message}\n`);
    }
  }
  return written;
}
