/** The results and failed-rows workbooks of import / resume (written by the import engine's writers). */
import fs from 'node:fs';
import path from 'node:path';
import { writeFailedRowsWorkbook, writeResultsWorkbook, type RowMarks } from '../jobs/results.js';
import { csvResultBase, writeCsvSourceResults, type CsvSource } from '../jobs/csv-sources.js';
import type { JobResultSummary, PlanHeader } from '../jobs/types.js';
import type { RunContext } from './context.js';

export interface ResultFiles {
  report?: string;
  failed?: string;
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
      ctx.stderr(`warning: the results workbook could not be written to ${outs.report}: ${(e as Error).message}\n`);
    }
  }
  if (outs.failed) {
    try {
      await writeFailedRowsWorkbook(inputPath, plan, result, outs.failed, marks);
      written.failed = outs.failed;
    } catch (e) {
      ctx.stderr(`warning: the failed-rows workbook could not be written to ${outs.failed}: ${(e as Error).message}\n`);
    }
  }
  return written;
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
      await writeCsvSourceResults(
        s,
        marks,
        {
          ...(results && { results }),
          ...(failed && { failed }),
        },
      );
      if (results) written.push(results);
      if (failed) written.push(failed);
    } catch (e) {
      ctx.stderr(`warning: the results of ${s.path} could not be written: ${(e as Error).message}\n`);
    }
  }
  return written;
}
