/**
 * Workbook-local validation, in order: each row (validate-row.ts: its sheet's zod row schema, then the spec
 * rules of one row), duplicate keys in each sheet (duplicate-keys.ts), then each sheet's checks across rows and
 * sheets that need no service (its `workbookRules`: a (component_type, component) twice in one instance's BOM
 * in sheets/bom.ts, silo items at the silo's plant and of one material type in sheets/silo-items.ts); and the
 * codes the workbook refers to (defined in the workbook or to be resolved on the service, see references.ts).
 * Cancellable, with progress. The issues come out in sheet, row and column order.
 *
 * It runs beside the service walks on the main thread (a plan starts them before the rows are read), so every
 * step is done in slices with a turn of the event loop between them (Slicer): the rows, and the checks across
 * rows, written as generators that may pause every few rows (STEP_ROWS).
 */
import { checkDuplicateKeys } from './duplicate-keys.js';
import { referencedCodesWork } from './references.js';
import { DATA_SHEETS, getSheet } from './registry.js';
import { partsOf, sourceRowOf } from './sheet-parts.js';
import {
  type Issue,
  type ParsedSheet,
  type ParsedWorkbook,
  type ReadProgress,
  type ReferencedCodes,
  type SheetValidation,
  type ValidationReport,
  DELETE_ROW_FIELDS,
  type RowAction,
} from './types.js';
import { rowActionOf, validateRow } from './validate-row.js';
import { ValidationContext } from './validation-context.js';
import { Slicer, STEP_ROWS, Throttle } from '../throttle.js';

/** The row's `action` cell (blank = upsert). */
export { rowActionOf } from './validate-row.js';

export interface ValidateOptions {
  signal?: AbortSignal;
  onProgress?: (p: ReadProgress) => void;
  maxIssues?: number;
  /** The work between two turns of the event loop, ms (see Slicer; 0: a turn at every point it may pause). */
  sliceMs?: number;
}

/** Rows checked between two looks at the clock (a row takes µs). */
const ROWS_PER_LOOK = 8;

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Validate a parsed workbook. Throws only when aborted. */
export async function validateWorkbook(
  parsed: ParsedWorkbook,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const ctx = new ValidationContext(parsed, options.maxIssues ?? 10_000);
  const total = parsed.sheets.reduce((n, s) => n + s.rows.length, 0);
  let done = 0;
  let current = '';
  // Once the last event (fraction 1) is out, the turns of the steps after it tell nothing: progress never goes back.
  let told = false;
  const throttle = new Throttle();
  const slicer = new Slicer({
    sliceMs: options.sliceMs,
    every: ROWS_PER_LOOK,
    onTurn: () => {
      if (signal?.aborted) throw abortError(signal);
      if (onProgress && !told && throttle.pass()) {
        onProgress({
          phase: 'validating',
          sheet: current,
          rows: done,
          totalRows: total,
          fraction: total ? Math.min(0.99, done / total) : 0,
        });
      }
    },
  });

  let references: ReferencedCodes = {};
  if (parsed.readable) {
    // 1. rows: schema, then the spec rules of one row
    for (const sheet of orderedSheets(parsed)) {
      const def = getSheet(sheet.name);
      current = sheet.sheetName;
      for (const row of sheet.rows) {
        validateRow(ctx, def, sheet, row);
        done++;
        if (slicer.due()) await slicer.turn();
      }
    }
    current = '';
    await slicer.turn();
    // 2. across rows and sheets
    for (const sheet of orderedSheets(parsed)) await slicer.run(checkDuplicateKeys(ctx, getSheet(sheet.name), sheet));
    for (const def of DATA_SHEETS) if (def.workbookRules) await slicer.run(def.workbookRules(ctx));
    references = await slicer.run(referencedCodesWork(parsed));
  }
  // An empty or unfilled workbook is never "no problems": nothing would be imported.
  const unread = parsed.sheets.some((s) => s.unreadRows !== undefined);
  if (parsed.readable && total === 0 && !unread && !parsed.issues.some((i) => i.code === 'no_known_sheet'))
    ctx.issues.add({
      severity: 'error',
      code: 'no_data_rows',
      sheet: null,
      cell: null,
      row: null,
      field: null,
      message: `No data rows: ${parsed.file} has no filled row below the header of any sheet. Nothing would be imported.`,
      params: { file: parsed.file },
    });
  signal?.throwIfAborted();
  told = true;
  onProgress?.({ phase: 'validating', sheet: null, rows: total, totalRows: total, fraction: 1 });

  const issues = sortIssues(parsed, [...(await slicer.run(readerIssues(parsed))), ...ctx.issues.done()]);
  const errors = issues.filter((i) => i.severity === 'error').length;
  const sheets: SheetValidation[] = orderedSheets(parsed).map((s) => ({
    name: s.name,
    rows: s.rows.length,
    blockedRows: [...(ctx.blocked.get(s.name) ?? [])].sort((a, b) => a - b),
    sheetName: partsOf(s)
      .map((p) => p.sheetName)
      .join(' + '),
    ...(s.unreadRows !== undefined && { unreadRows: s.unreadRows }),
    ...(s.ignoredColumns && { ignoredColumns: s.ignoredColumns }),
  }));
  return { ok: errors === 0 && parsed.readable, errors, warnings: issues.length - errors, issues, sheets, references };
}

/** The reader's issues, without those at cells a delete row does not use or of ignored rows. */
function* readerIssues(parsed: ParsedWorkbook): Generator<void, Issue[]> {
  let step = 0;
  const special = new Map<string, RowAction>();
  for (const s of parsed.sheets)
    for (const r of s.rows) {
      if (++step % STEP_ROWS === 0) yield;
      const a = rowActionOf(r);
      if (a === 'delete' || a === 'ignore') {
        const at = sourceRowOf(s, r.row);
        special.set(`${at.part.sheetName}\u0000${at.row}`, a);
      }
    }
  if (special.size === 0) return parsed.issues;
  return parsed.issues.filter((i) => {
    if (i.sheet === null || i.row === null) return true;
    const a = special.get(`${i.sheet}\u0000${i.row}`);
    if (!a) return true;
    return a === 'delete' && (i.field === null || DELETE_ROW_FIELDS.includes(i.field));
  });
}

function orderedSheets(parsed: ParsedWorkbook): ParsedSheet[] {
  const order = new Map(DATA_SHEETS.map((d, i) => [d.name, i]));
  return [...parsed.sheets].sort((a, b) => (order.get(a.name) ?? 99) - (order.get(b.name) ?? 99));
}

// ---------------------------------------------------------------- order

function colNumber(cell: string | null): number {
  if (!cell) return 0;
  let n = 0;
  for (const ch of cell) {
    const c = ch.charCodeAt(0);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n;
}

/** Issues in sheet (the registry's order), row and column order; issues of one cell keep their order. */
export function sortIssues(parsed: ParsedWorkbook, issues: Issue[]): Issue[] {
  const order = new Map<string, number>();
  for (const s of orderedSheets(parsed)) for (const p of partsOf(s)) order.set(p.sheetName, order.size);
  const rank = (i: Issue) => (i.sheet === null ? -1 : (order.get(i.sheet) ?? 1000));
  return issues
    .map((issue, idx) => ({ issue, idx }))
    .sort(
      (a, b) =>
        rank(a.issue) - rank(b.issue) ||
        (a.issue.row ?? 0) - (b.issue.row ?? 0) ||
        colNumber(a.issue.cell) - colNumber(b.issue.cell) ||
        a.idx - b.idx,
    )
    .map((x) => x.issue);
}
