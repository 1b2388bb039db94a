/** The results and failed-rows workbooks of import / resume (written by the import engine's writers). */
import fs from 'node:fs';
import path from 'node:path';
import { writeFailedRowsWorkbook, writeResultsWorkbook } from '../jobs/results.js';
import { SUCCESS_OUTCOMES, type EntryOutcome, type JobResult, type Plan } from '../jobs/types.js';
import { writeCsvResults, type SourceRowOutcome } from '../workbook/csv-results.js';
import type { DataSheetName, ParsedSheet } from '../workbook/types.js';
import type { RunContext } from './context.js';

export interface ResultFiles {
  report?: string;
  failed?: string;
}

/** Write what was asked; a file that cannot be written is a warning (the job itself is done and journaled). */
export async function writeResultFiles(
  ctx: RunContext,
  inputPath: string | undefined,
  plan: Plan,
  result: JobResult,
  outs: ResultFiles,
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
      await writeResultsWorkbook(inputPath, plan, result, outs.report);
      written.report = outs.report;
    } catch (e) {
      ctx.stderr(`warning: the results workbook could not be written to ${outs.report}: ${(e as Error).message}\n`);
    }
  }
  if (outs.failed) {
    try {
      await writeFailedRowsWorkbook(inputPath, plan, result, outs.failed);
      written.failed = outs.failed;
    } catch (e) {
      ctx.stderr(`warning: the failed-rows workbook could not be written to ${outs.failed}: ${(e as Error).message}\n`);
    }
  }
  return written;
}

/**
 * The outcome of every source row of one sheet, from the plan and the job (issue 12 §3: results of a CSV
 * source in its own layout). Rows covered by an entry get that entry's outcome (hazardous substances with
 * their product, BOM rows with their BOM).
 */
export function rowOutcomesOf(plan: Plan, result: JobResult, sheet: DataSheetName): Map<number, SourceRowOutcome> {
  const byKey = new Map(result.entries.map((e) => [e.key, e]));
  const out = new Map<number, SourceRowOutcome>();
  for (const e of plan.entries) {
    const r = byKey.get(e.key);
    const oc = r && r.outcome !== 'pending' ? (r as EntryOutcome) : undefined;
    const outcome = oc?.outcome ?? (e.action === 'blocked' || e.action === 'conflict' ? 'blocked' : 'not run');
    const problems = e.problems?.map((p) => `${p.sheet ?? ''}${p.cell ? `!${p.cell}` : ''} ${p.message}`.trim()).join('; ');
    const message = oc?.msg ?? oc?.explanation ?? (problems || (oc?.reason ? `skipped: ${oc.reason}` : undefined));
    const row: SourceRowOutcome = {
      result: outcome,
      ...(oc?.id ? { id: oc.id } : e.id ? { id: e.id } : {}),
      ...(oc?.err_code && { err_code: oc.err_code }),
      ...(message && { message }),
      failed: !(SUCCESS_OUTCOMES as readonly string[]).includes(outcome),
    };
    for (const ref of e.rows.length ? e.rows : [{ sheet: e.sheet, row: e.row }]) if (ref.sheet === sheet) out.set(ref.row, row);
  }
  return out;
}

/**
 * `--report DIR` / `--failed DIR` with CSV sources: `<source name>.results.csv` and `<source name>.failed.csv`
 * per CSV source, in the source's encoding, delimiter and columns.
 */
export async function writeCsvResultFiles(
  ctx: RunContext,
  sources: readonly { path: string; sheet: ParsedSheet; headerRow: number }[],
  plan: Plan,
  result: JobResult,
  dirs: ResultFiles,
): Promise<string[]> {
  const written: string[] = [];
  for (const s of sources) {
    if (!s.sheet.csv) continue;
    const base = path.basename(s.path).replace(/\.(csv|txt|tsv)$/i, '');
    const results = dirs.report ? path.join(dirs.report, `${base}.results.csv`) : undefined;
    const failed = dirs.failed ? path.join(dirs.failed, `${base}.failed.csv`) : undefined;
    try {
      await writeCsvResults({
        source: s.path,
        format: s.sheet.csv,
        headerRow: s.headerRow,
        outcomes: rowOutcomesOf(plan, result, s.sheet.name),
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
