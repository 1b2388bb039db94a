/**
 * Reading and validating an input workbook for validate / plan / import: streaming read with a progress bar,
 * workbook-local validation, and the issues printed by cell. Nothing here talks to the service.
 */
import { readWorkbook } from '../workbook/reader.js';
import { validateWorkbook } from '../workbook/validate.js';
import type { ParsedWorkbook, ValidationReport } from '../workbook/types.js';
import type { RunContext } from './context.js';
import type { CliProgress } from './types.js';
import { formatIssues } from './views.js';

export interface LoadedWorkbook {
  path: string;
  parsed: ParsedWorkbook;
  report: ValidationReport;
}

export async function loadWorkbook(path: string, ctx: RunContext): Promise<LoadedWorkbook> {
  let bar: CliProgress | undefined;
  let seen = 0;
  const parsed = await readWorkbook(path, {
    signal: ctx.signal,
    onProgress: (p) => {
      if (p.phase !== 'reading') return;
      if (!bar) bar = ctx.progress(p.totalRows ?? 0, 'reading');
      bar.tick(p.rows - seen, p.sheet ?? undefined);
      seen = p.rows;
    },
  });
  bar?.done();
  const report = await validateWorkbook(parsed, { signal: ctx.signal });
  return { path, parsed, report };
}

/** Print the workbook's issues on stderr (people) — errors first, capped — or to `write`. */
export function printIssues(ctx: RunContext, w: LoadedWorkbook, write: (s: string) => void = ctx.stderr): void {
  if (w.report.issues.length === 0) return;
  for (const line of formatIssues(w.report.issues)) write(`${line}\n`);
}

export function workbookFailed(w: LoadedWorkbook): boolean {
  return !w.parsed.readable || w.report.errors > 0;
}

export function issueSummary(w: LoadedWorkbook): string {
  const rows = w.parsed.sheets.reduce((n, s) => n + s.rows.length, 0);
  return `${w.parsed.file}: ${w.parsed.sheets.length} sheet(s), ${rows} row(s); ${w.report.errors} error(s), ${w.report.warnings} warning(s)`;
}
