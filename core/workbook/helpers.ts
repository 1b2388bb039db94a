/** Small helpers for callers of the reader and validation (CLI, UI, planner). */
import type { SheetRows } from './registry.js';
import type { DataSheetName, Issue, ParsedRow, ParsedWorkbook, ValidationReport } from './types.js';

/** `supplier-products!C7 plant_code: …` — one line for a terminal or a log. */
export function formatIssue(i: Issue): string {
  const where = i.sheet === null ? 'file' : i.cell ? `${i.sheet}!${i.cell}` : i.sheet;
  return `${i.severity === 'error' ? 'error' : 'warning'} ${where}: ${i.message}`;
}

export interface TypedRow<S extends DataSheetName> {
  row: number;
  data: SheetRows[S];
  /** The row has an error (from reading or validation): the planner marks it blocked. */
  blocked: boolean;
}

/**
 * Rows of one sheet with their typed values. Values of a row that is not blocked satisfy the sheet's row
 * schema; a blocked row's values are whatever could be read.
 */
export function rowsOf<S extends DataSheetName>(
  parsed: ParsedWorkbook,
  report: ValidationReport,
  sheet: S,
): TypedRow<S>[] {
  const s = parsed.sheets.find((x) => x.name === sheet);
  if (!s) return [];
  const blocked = new Set(report.sheets.find((x) => x.name === sheet)?.blockedRows ?? []);
  return s.rows.map((r: ParsedRow) => ({
    row: r.row,
    data: r.values as unknown as SheetRows[S],
    blocked: blocked.has(r.row),
  }));
}
