/**
 * Reading and validating an input workbook for validate / plan / import: streaming read with a progress bar,
 * workbook-local validation, and the issues printed by cell. The service is only read, by the plan's walks that
 * run beside the read (loadForPlan).
 */
import { partsOf } from '../../workbook/sheet-parts.js';
import type { ColumnMapping } from '../../workbook/column-mapping/schema.js';
import { readWhileWalking } from '../../app/read-ahead.js';
import type { ApiClient } from '../../api/index.js';
import type { ParsedWorkbook, ValidationReport } from '../../workbook/types.js';
import type { PlanServices } from '../../app/import.js';
import type { RunContext } from './context.js';
import type { CliProgress } from './types.js';
import { formatIssues } from '../output/views.js';

export interface LoadedWorkbook {
  /** The first source (the workbook, for results); `paths` all of them. */
  path: string;
  paths: string[];
  parsed: ParsedWorkbook;
  report: ValidationReport;
  /** the plan's service reads, started beside the read when a client was given (loadWorkbook's `walkWith`) */
  walks?: PlanServices['walks'];
}

/**
 * Read and check the sources (one workbook, or any number of .xlsx and .csv files) as one workbook. With
 * `walkWith` (a connected client) the plan's service reads run beside the read (app/read-ahead.ts).
 */
export async function loadWorkbook(
  source: string | readonly string[],
  ctx: RunContext,
  o: { mapping?: ColumnMapping; walkWith?: ApiClient } = {},
): Promise<LoadedWorkbook> {
  const paths = typeof source === 'string' ? [source] : [...source];
  let bar: CliProgress | undefined;
  let seen = 0;
  const { parsed, report, walks } = await readWhileWalking(paths, o.walkWith, {
    ...(o.mapping && { mapping: o.mapping }),
    signal: ctx.signal,
    onRead: (p) => {
      if (p.phase !== 'reading') return;
      if (!bar) bar = ctx.progress(p.totalRows ?? 0, 'reading');
      bar.tick(p.rows - seen, p.sheet ?? undefined);
      seen = p.rows;
    },
  });
  bar?.done();
  return { path: paths[0], paths, parsed, report, ...(walks && { walks }) };
}

/**
 * Read and check the sources of a plan (`plan`, `import`) with the plan's service reads beside the read: connected
 * first (the key is not checked apart: the plan's /v2/me checks it), with the client's cap of the run. Only reads
 * go out while the sources are read; a workbook with errors is refused with nothing written. When the connection
 * cannot be made the sources are read alone, and connecting again later says why.
 */
export async function loadForPlan(
  source: string | readonly string[],
  ctx: RunContext,
  o: { mapping?: ColumnMapping; maxConcurrency?: number } = {},
): Promise<LoadedWorkbook> {
  const walkWith = await ctx
    .connect({ checkKey: false, ...(o.maxConcurrency !== undefined && { maxConcurrency: o.maxConcurrency }) })
    .then(
      () => ctx.client,
      () => undefined,
    );
  return loadWorkbook(source, ctx, { ...(o.mapping && { mapping: o.mapping }), ...(walkWith && { walkWith }) });
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
  const unread = w.parsed.sheets.reduce((n, s) => n + (s.unreadRows ?? 0), 0);
  return `${w.parsed.file}: ${w.parsed.sheets.length} sheet(s), ${rows} row(s)${unread ? `, ${unread} row(s) not read` : ''}; ${w.report.errors} error(s), ${w.report.warnings} warning(s)`;
}

/**
 * One line per sheet: its rows, the rows not read because of a header error, the columns that are not read
 * ("ignored columns: Kommentar") — nothing left out silently.
 */
export function sheetLines(w: LoadedWorkbook): string[] {
  return w.parsed.sheets.map((s) => {
    const names = partsOf(s).map((p) => p.sheetName);
    const where = names.length === 1 && s.sheetName === s.name ? s.name : `${s.name} (${names.join(' + ')})`;
    const parts =
      s.unreadRows === undefined
        ? [`${s.rows.length} row(s)`]
        : s.parts && s.rows.length // several sources: the others' rows were read
          ? [`${s.rows.length} row(s)`, `header error: ${s.unreadRows} filled row(s) not read`]
          : [`header error: ${s.unreadRows} filled row(s) not read`];
    const ignored = s.ignoredColumns ?? [];
    if (ignored.length) parts.push(`ignored columns: ${ignored.map((c) => c.header).join(', ')}`);
    return `${where}: ${parts.join('; ')}`;
  });
}

/** The sheets for --json output: rows, unread rows, ignored columns. */
export function sheetsJson(w: LoadedWorkbook): Record<string, unknown>[] {
  return w.parsed.sheets.map((s) => ({
    sheet: s.name,
    name_in_file: s.sheetName,
    ...(s.parts && { sources: s.parts.map((p) => p.sheetName) }),
    rows: s.rows.length,
    ...(s.unreadRows !== undefined && { unread_rows: s.unreadRows }),
    ignored_columns: (s.ignoredColumns ?? []).map((c) => ({ header: c.header, cell: c.cell, reason: c.reason })),
    ...(s.csv && { csv: s.csv }),
  }));
}
