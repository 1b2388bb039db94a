/**
 * The parsed workbook as the planner sees it: per registry sheet, each row with its typed values (when the
 * row is valid), the problems that block it (validation errors at their cells) and its export snapshot.
 */
import { getSheet, type SheetRows } from '../workbook/registry.js';
import { rowActionOf } from '../workbook/validate.js';
import {
  DELETE_ROW_FIELDS,
  type RowAction,
  type DataSheetName,
  type Issue,
  type ParsedRow,
  type ParsedSheet,
  type ParsedWorkbook,
  type ValidationReport,
} from '../workbook/types.js';
import { fieldOfRulePath } from '../workbook/sheet-def.js';
import { sourceCellOf, sourceRowOf } from '../workbook/sheet-parts.js';
import { SNAPSHOT_COLUMN } from './snapshot.js';
import type { PlanProblem } from './types.js';

export interface WbRow<T> {
  sheet: DataSheetName;
  /** Sheet name as in the file. */
  sheetName: string;
  row: number;
  values: ParsedRow['values'];
  /** Typed values when the row has no error; null otherwise. */
  typed: T | null;
  problems: PlanProblem[];
  /** The hidden `_snapshot` of an exported row, when present. */
  snapshot?: string;
  /** The row's `action` cell (blank = upsert); an action the sheet does not allow counts as upsert (and is an error). */
  action: RowAction;
}

export interface WorkbookRows {
  sheets: Map<DataSheetName, ParsedSheet>;
  /** Rows to create or update (action blank, upsert, create or update). */
  rows<N extends DataSheetName>(name: N): WbRow<SheetRows[N]>[];
  /** Rows with action `delete` (typed is null: only external_id is used) or `ignore`. */
  actionRows(name: DataSheetName, action: 'delete' | 'ignore'): WbRow<unknown>[];
  /** A1 address of a field's cell in a sheet, when the column exists. */
  cell(sheet: DataSheetName, field: string, row: number): string | null;
  sheetName(sheet: DataSheetName): string;
  /**
   * Index every sheet's rows now, letting the event loop run between groups of rows: the service's answers in
   * flight (the walks' pages) are handled while a large workbook is indexed, not after it.
   */
  prepare(signal?: AbortSignal): Promise<void>;
}

/** Rows indexed between two turns of the event loop (prepare). */
const ROWS_PER_TURN = 2000;

/** The problems of a row without any (shared by every such row; frozen, so an accidental push throws). */
const NO_PROBLEMS: PlanProblem[] = Object.freeze([]) as unknown as PlanProblem[];

/**
 * Whether the typed values hold exactly the cells read, in the same order: then the row keeps one object for
 * both (a 200,000-row workbook would otherwise hold every row's values twice while it is planned).
 */
function sameRecord(typed: Record<string, unknown>, values: Record<string, unknown>): boolean {
  const a = Object.keys(typed);
  const b = Object.keys(values);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] || typed[a[i]] !== values[b[i]]) return false;
  return true;
}

/** The snapshot of a row: a `snapshot` the reader kept for it, or a `_snapshot` value among its cells. */
export function rowSnapshot(r: ParsedRow): string | undefined {
  const v = r.snapshot ?? (r.values as Record<string, unknown>)[SNAPSHOT_COLUMN];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

export function issueToProblem(i: Issue): PlanProblem {
  return {
    kind: 'validation',
    sheet: i.sheet,
    cell: i.cell,
    row: i.row,
    field: i.field,
    message: i.message,
    code: i.code,
    ...(i.params && { params: i.params }),
  };
}

/**
 * Index the workbook. Errors come from the validation report when given (workbook/validate.ts validateWorkbook: row schema,
 * spec rules, cross-sheet checks); otherwise from the reader's issues plus each row's schema and the
 * registry's row rules.
 */
export function indexWorkbook(parsed: ParsedWorkbook, validation?: ValidationReport): WorkbookRows {
  const sheets = new Map<DataSheetName, ParsedSheet>();
  for (const s of parsed.sheets) if (!sheets.has(s.name)) sheets.set(s.name, s);
  const issues = validation ? validation.issues : parsed.issues;
  const errorsAt = new Map<string, Issue[]>();
  for (const i of issues) {
    if (i.severity !== 'error' || i.sheet === null || i.row === null) continue;
    const k = `${i.sheet}\u0000${i.row}`;
    const list = errorsAt.get(k);
    if (list) list.push(i);
    else errorsAt.set(k, [i]);
  }
  const blockedBySheet = new Map<DataSheetName, Set<number>>();
  for (const s of validation?.sheets ?? []) blockedBySheet.set(s.name, new Set(s.blockedRows));
  const cache = new Map<DataSheetName, WbRow<unknown>[]>();

  // At the source's own address (a sheet fed by several sources: the file the row came from).
  const cell = (sheet: DataSheetName, field: string, row: number): string | null => {
    const s = sheets.get(sheet);
    return s ? sourceCellOf(s, field, row).cell : null;
  };

  /** The row builder of a sheet (undefined: no such sheet). */
  const builder = (name: DataSheetName): ((r: ParsedRow) => WbRow<unknown>) | undefined => {
    const s = sheets.get(name);
    if (!s) return undefined;
    const def = getSheet(name);
    const fields = new Set(Object.keys(def.columns));
    const actionOf = rowAction(name);
    return (r) => {
      const at = sourceRowOf(s, r.row);
      const sheetName = at.part.sheetName;
      const found = errorsAt.get(`${sheetName}\u0000${at.row}`);
      // Most rows have none: they share one empty list (frozen: a row's problems are copied, never added to).
      let problems = found ? found.map(issueToProblem) : NO_PROBLEMS;
      const action = actionOf(r);
      if (action === 'delete' || action === 'ignore') {
        // Only the external_id is used: problems elsewhere in the row do not block a delete.
        const own = found
          ? problems.filter((p) => p.field === null || DELETE_ROW_FIELDS.includes(p.field))
          : NO_PROBLEMS;
        return { sheet: name, sheetName, row: r.row, values: r.values, typed: null, problems: own, action };
      }
      // The row's cells of the sheet's fields: the row's own values when it has no other (nearly every row), so
      // that nothing is copied per row.
      let own: Record<string, unknown> = r.values;
      for (const k in r.values) {
        if (fields.has(k)) continue;
        own = {};
        for (const f in r.values) if (fields.has(f)) own[f] = r.values[f];
        break;
      }
      let typed: unknown = null;
      if (problems.length === 0 && !(r.invalid && r.invalid.length > 0) && !blockedBySheet.get(name)?.has(r.row)) {
        // The zod schema decides; the quick check (never looser) spares it the rows that are plainly fine, as
        // validation does (workbook/validate-row.ts).
        const res = def.quickAccept(own) ? { success: true as const, data: own } : def.schema.safeParse(own);
        if (res.success) {
          const violations = validation ? [] : (def.rowRules?.(res.data) ?? []);
          for (const v of violations) {
            const field = fieldOfRulePath(v.path);
            (problems === NO_PROBLEMS ? (problems = []) : problems).push({
              kind: 'validation',
              sheet: sheetName,
              cell: cell(name, field, r.row),
              row: at.row,
              field,
              message: v.msg,
              code: 'row_rule',
              params: { detail: v.msg, errCode: v.err_code },
            });
          }
          if (violations.length === 0)
            typed =
              res.data === r.values || sameRecord(res.data as Record<string, unknown>, r.values) ? r.values : res.data;
        } else {
          for (const iss of res.error.issues.slice(0, 3)) {
            const field = typeof iss.path[0] === 'string' ? iss.path[0] : null;
            (problems === NO_PROBLEMS ? (problems = []) : problems).push({
              kind: 'validation',
              sheet: sheetName,
              cell: field ? cell(name, field, r.row) : null,
              row: at.row,
              field,
              message: `${field ?? 'row'}: ${iss.message}`,
              code: 'row_rule',
              params: { detail: iss.message },
            });
          }
        }
      } else if (problems.length === 0) {
        problems = [];
        problems.push({
          kind: 'validation',
          sheet: sheetName,
          cell: null,
          row: at.row,
          field: null,
          message: 'the row has errors (see the validation report)',
          code: 'row_has_errors',
        });
      }
      const out: WbRow<unknown> = {
        sheet: name,
        sheetName,
        row: r.row,
        values: r.values,
        typed,
        problems,
        action,
      };
      const snap = rowSnapshot(r);
      if (snap) out.snapshot = snap;
      return out;
    };
  };
  const build = (name: DataSheetName): WbRow<unknown>[] => {
    const one = builder(name);
    return one ? sheets.get(name)!.rows.map(one) : [];
  };

  const all = (name: DataSheetName): WbRow<unknown>[] => {
    let rows = cache.get(name);
    if (!rows) {
      rows = build(name);
      cache.set(name, rows);
    }
    return rows;
  };
  const writes = new Map<DataSheetName, WbRow<unknown>[]>();
  return {
    sheets,
    rows<N extends DataSheetName>(name: N): WbRow<SheetRows[N]>[] {
      let rows = writes.get(name);
      if (!rows) {
        rows = all(name).filter((r) => r.action !== 'delete' && r.action !== 'ignore');
        writes.set(name, rows);
      }
      return rows as WbRow<SheetRows[N]>[];
    },
    actionRows: (name, action) => all(name).filter((r) => r.action === action),
    cell,
    sheetName: (sheet) => sheets.get(sheet)?.sheetName ?? sheet,
    async prepare(signal) {
      for (const name of sheets.keys()) {
        const one = builder(name);
        if (cache.has(name) || !one) continue;
        const rows = sheets.get(name)!.rows;
        const out: WbRow<unknown>[] = new Array(rows.length);
        for (let i = 0; i < rows.length; i++) {
          if (i > 0 && i % ROWS_PER_TURN === 0) {
            await new Promise((r) => setImmediate(r));
            signal?.throwIfAborted();
          }
          out[i] = one(rows[i]);
        }
        cache.set(name, out);
      }
    },
  };
}

/** A row's action in a sheet (WbRow.action): its `action` cell when the sheet allows it, else upsert. */
export function rowAction(name: DataSheetName): (r: Pick<ParsedRow, 'values'>) => RowAction {
  const allowed = getSheet(name).columns.action?.allowed ?? [];
  return (r) => {
    const declared = rowActionOf(r);
    return allowed.includes(declared) ? declared : 'upsert';
  };
}

/** A code cell as text, also for rows that are not valid (to group and to point dependents at them). */
export function rawCode(r: Pick<WbRow<unknown>, 'values'>, field: string): string | null {
  const v = r.values[field];
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number') return String(v);
  return null;
}
