/**
 * Header and rows of one sheet, whatever the source (an .xlsx worksheet streamed by exceljs, or a CSV file):
 * the header row mapped to fields (by name, leniently, or through a column mapping), unknown headers that
 * resemble a missing field are errors ("did you mean truck_km?"), other unknown ones are listed as ignored
 * columns; a required column the header lacks is an error of the sheet (no row read), unless the header has
 * `action` and the sheet's key: then it is an error of each row that is not marked delete or ignore (a sheet of
 * deletes needs only its identity); then each row's cells coerced by column type, value translations and
 * constants of the mapping applied, and every problem as an Issue at its cell of the source.
 */
import {
  NEEDS_FULL_COERCION,
  coerceCell,
  decodeCellText,
  decodeEscapes,
  excelSerialToDate,
  quickCoerce,
  unwrapCell,
  type CoerceContext,
  type DateOrder,
} from './coerce.js';
import { expectation, expectationParams, type Column } from './columns.js';
import type { IssueList } from './issues.js';
import type { SheetMapping } from './column-mapping/schema.js';
import { columnsOf, normaliseHeader } from './registry.js';
import type { SheetDef } from './sheet-def.js';
import { columnLetter } from './cell-ref.js';
import { closestNames } from './similar.js';
import type { StyleKind } from './number-formats.js';
import { SNAPSHOT_COLUMN, type CellScalar, type ParsedRow, type ParsedSheet, type RowValues } from './types.js';

/**
 * Rows' values of one sheet: objects of plain-object prototype made by a constructor of the sheet's own, so that
 * V8 learns how many cells that sheet's rows have and keeps them in the object itself (a `{}` holds four: a sheet
 * of six or more fields would keep the rest in a second array per row, ~25 bytes a row more for every row a large
 * workbook holds while it is planned). One constructor per sheet: V8 sizes a constructor's objects by its first
 * few, so a sheet of three fields read first would size them for another sheet too.
 */
function rowValuesOfSheet(): () => RowValues {
  const RowValuesObject = function RowValues() {} as unknown as new () => RowValues;
  RowValuesObject.prototype = Object.prototype;
  return () => new RowValuesObject();
}

interface MappedColumn {
  col: number;
  letter: string;
  field: string;
  column: Column;
  ctx: CoerceContext;
  allowed?: ReadonlySet<string>;
  /** Value translations of the mapping (`values`), keyed by the trimmed, lower-cased source value. */
  translate?: Map<string, CellScalar>;
}

export interface SheetRowsOptions {
  /** 1-based row of the header (title rows above it are skipped). Default 1. */
  headerRow?: number;
  mapping?: SheetMapping;
  date1904?: boolean;
  /** Decimal mark of numbers typed as text (a CSV's locale); absent: guessed, ambiguous ones refused. */
  decimal?: '.' | ',';
  /** Order of dates typed as text (a CSV's locale, `csv.date`); absent: ISO or day-first. */
  dateOrder?: DateOrder;
  /**
   * The cells are an .xlsx's: their text holds Excel's `_xHHHH_` escapes, decoded once as each row comes in
   * (header, values, snapshot). A CSV's text is taken as it is.
   */
  excelText?: boolean;
  /** Cell → cached formula error text (xlsx feed). */
  errorCells?: Map<string, string>;
  /** Cell → date/percent number format (xlsx feed). */
  styledCells?: Map<string, StyleKind>;
}

export class SheetRowReader {
  readonly headerRow: number;
  mapped: MappedColumn[] | null = null;
  /** Columns with data but no header (warned once each). */
  private readonly headerless = new Set<number>();
  private readonly headerCols = new Set<number>();
  private lastHeaderCol = 0;
  /** The header has an error that makes the rows unreadable (missing required or duplicate column). */
  skipRows = false;
  /** Fields a misnamed column probably holds: every row is blocked (its value would be lost silently). */
  private blockFields: string[] = [];
  /**
   * Required columns the header lacks while it has an `action` column (and every identity column): rows marked
   * delete or ignore read without them; any other row gets an error at the cell the column would have.
   */
  private missingForRows: { field: string; letter: string }[] = [];
  private snapshotCol?: number;
  private constants: [MappedColumn, CellScalar][] = [];
  /** A new row's values (this sheet's own constructor: rowValuesOfSheet). */
  private readonly newValues = rowValuesOfSheet();
  rowsRead = 0;

  constructor(
    readonly def: SheetDef,
    readonly parsed: ParsedSheet,
    private readonly issues: IssueList,
    private readonly o: SheetRowsOptions = {},
  ) {
    this.headerRow = o.headerRow ?? 1;
  }

  /** Feed one source row (values 1-based: values[1] is column A). Returns true when it was a data row. */
  row(rowNumber: number, values: unknown[]): boolean {
    if (rowNumber < this.headerRow) return false;
    if (this.o.excelText) decodeRow(values);
    if (this.mapped === null) {
      this.header(rowNumber === this.headerRow ? values : []);
      if (rowNumber === this.headerRow) return false;
    }
    if (this.skipRows) {
      if (values.some((v) => !isBlank(v))) this.parsed.unreadRows = (this.parsed.unreadRows ?? 0) + 1;
      return false;
    }
    this.data(rowNumber, values);
    return true;
  }

  /** End of the sheet: a sheet with no rows at all still gets its header checked. */
  end(): void {
    if (this.mapped === null) this.header([]);
  }

  private cellAt(col: number): string {
    return `${columnLetter(col)}${this.headerRow}`;
  }

  private header(values: unknown[]): void {
    const { def, parsed, issues } = this;
    const sheet = parsed.sheetName;
    const hr = this.headerRow;
    const cols = columnsOf(def);
    const fields = new Map(cols);
    const m = this.o.mapping;
    const byHeader = new Map(Object.entries(m?.columns ?? {}));
    const byHeaderLenient = new Map([...byHeader].map(([h, f]) => [normaliseHeader(h), f]));
    const ignore = new Set((m?.ignore ?? []).map((h) => normaliseHeader(h)));
    const mapped: MappedColumn[] = [];
    const at = new Map<string, number>();
    const unknown: { col: number; text: string }[] = [];
    const ignoredColumns: NonNullable<ParsedSheet['ignoredColumns']> = [];
    let fatal = false;
    const constantFields = new Set(Object.keys(m?.constants ?? {}));
    for (let c = 1; c < values.length; c++) {
      const text = headerText(values[c]);
      if (!text) continue;
      this.headerCols.add(c);
      this.lastHeaderCol = c;
      if (text === SNAPSHOT_COLUMN) {
        this.snapshotCol = c;
        continue;
      }
      // Supply Loader's own columns (`_result`, `_id`, `_err_code`, `_message` of a results workbook): not data.
      if (text.startsWith('_')) continue;
      let field = byHeader.get(text) ?? byHeaderLenient.get(normaliseHeader(text));
      if (!field && ignore.has(normaliseHeader(text))) {
        ignoredColumns.push({ header: text, cell: this.cellAt(c), reason: 'mapping' });
        continue;
      }
      if (!field) field = fields.has(text) ? text : undefined;
      if (!field) {
        const n = normaliseHeader(text);
        if (fields.has(n)) {
          field = n;
          issues.add({
            severity: 'warning',
            code: 'header_normalised',
            sheet,
            cell: this.cellAt(c),
            row: hr,
            field,
            message: `Header "${text}" is read as ${field}; write it exactly as ${field}.`,
            params: { header: text },
          });
        }
      }
      if (!field) {
        unknown.push({ col: c, text });
        continue;
      }
      const first = at.get(field);
      if (first !== undefined) {
        fatal = true;
        issues.add({
          severity: 'error',
          code: 'duplicate_header',
          sheet,
          cell: this.cellAt(c),
          row: hr,
          field,
          message: `Column ${field} appears twice (${this.cellAt(first)} and ${this.cellAt(c)}); keep one of them.`,
          params: { firstCell: this.cellAt(first) },
        });
        continue;
      }
      at.set(field, c);
      mapped.push(this.mappedColumn(c, field, fields.get(field)!));
    }
    // Constants: a field with the same value on every row (no column in the source).
    const constants: [MappedColumn, CellScalar][] = [];
    for (const [field, value] of Object.entries(m?.constants ?? {})) {
      const column = fields.get(field);
      if (!column || at.has(field)) continue;
      constants.push([this.mappedColumn(0, field, column), value]);
    }
    this.constants = constants;
    const missing = cols.filter(([f, c]) => c.required && !at.has(f) && !constantFields.has(f)).map(([f]) => f);
    const free = this.cellAt(this.lastHeaderCol + 1);
    // With an `action` column and every identity column, a row marked delete or ignore needs nothing else: the
    // missing columns are then an error of each row that would use them, not of the sheet.
    const key = def.key ?? [];
    const hasAction = fields.has('action') && (at.has('action') || constantFields.has('action'));
    const perRow = missing.length > 0 && hasAction && key.length > 0 && key.every((f) => at.has(f));
    if (perRow)
      this.missingForRows = missing.map((field, i) => ({ field, letter: columnLetter(this.lastHeaderCol + 1 + i) }));
    for (const f of perRow ? [] : missing) {
      fatal = true;
      issues.add({
        severity: 'error',
        code: 'missing_header',
        sheet,
        cell: free,
        row: hr,
        field: f,
        message:
          values.length === 0
            ? `Row ${hr} must hold the field names; required column ${f} is missing.`
            : `Required column ${f} is missing from row ${hr} (add it, e.g. at ${free}).`,
        ...(values.length === 0 && { params: { variant: 'empty' } }),
      });
    }
    // An unknown header that resembles a field the sheet lacks: its data would be lost silently → an error.
    const absent = cols.filter(([f]) => !at.has(f) && !constantFields.has(f)).map(([f]) => f);
    const claimed = new Set<string>();
    for (const u of unknown) {
      const guess = closestNames(
        u.text,
        absent.filter((f) => !claimed.has(f)),
        0.75,
        1,
      )[0];
      if (guess) {
        claimed.add(guess);
        if (!missing.includes(guess)) this.blockFields.push(guess);
        issues.add({
          severity: 'error',
          code: 'misnamed_column',
          sheet,
          cell: this.cellAt(u.col),
          row: hr,
          field: guess,
          message: `Column "${u.text}" is not a field of ${def.name}: did you mean \`${guess}\`? Rename the header (or map it in a column mapping, or list it under "ignore"); until then the rows of this sheet are blocked.`,
          params: { header: u.text, sheetName: def.name, hint: guess },
        });
        continue;
      }
      ignoredColumns.push({ header: u.text, cell: this.cellAt(u.col), reason: 'unknown' });
      issues.add({
        severity: 'warning',
        code: 'unknown_column',
        sheet,
        cell: this.cellAt(u.col),
        row: hr,
        field: null,
        message: `Column "${u.text}" is not a field of ${def.name}; it is ignored.`,
        params: { header: u.text, sheetName: def.name },
      });
    }
    if (ignoredColumns.length) parsed.ignoredColumns = ignoredColumns;
    this.mapped = mapped;
    this.skipRows = fatal;
    if (fatal) parsed.unreadRows = 0;
    for (const mc of mapped) parsed.columns[mc.field] = mc.letter;
  }

  private mappedColumn(col: number, field: string, column: Column): MappedColumn {
    const translations = this.o.mapping?.values?.[field];
    return {
      col,
      letter: col ? columnLetter(col) : '',
      field,
      column,
      ctx: {
        field,
        expected: expectation(column),
        expectedParams: expectationParams(column),
        date1904: this.o.date1904 ?? false,
        ...(this.o.decimal && { decimal: this.o.decimal }),
        ...(this.o.dateOrder && { dateOrder: this.o.dateOrder }),
      },
      allowed: column.allowed ? new Set(column.allowed) : undefined,
      ...(translations && {
        translate: new Map(Object.entries(translations).map(([k, v]) => [k.trim().toLowerCase(), v])),
      }),
    };
  }

  private data(rowNumber: number, values: unknown[]): void {
    const { issues } = this;
    const mapped = this.mapped!;
    const sheet = this.parsed.sheetName;
    const out = this.newValues();
    let invalid: string[] | undefined;
    let any = false;
    for (let i = 0; i < mapped.length; i++) {
      const m = mapped[i];
      let raw = values[m.col];
      if (raw === undefined || raw === null) continue;
      if (m.translate && (typeof raw === 'string' || typeof raw === 'number')) {
        const t = m.translate.get(String(raw).trim().toLowerCase());
        if (t !== undefined) raw = t;
      }
      if (this.o.styledCells?.size && typeof raw === 'number') {
        const kind = this.o.styledCells.get(`${m.letter}${rowNumber}`);
        if (kind === 'date') raw = excelSerialToDate(raw, m.ctx.date1904);
        else if (kind === 'percent' && m.column.unit === '%') {
          const shown = Math.round(raw * 100 * 1e9) / 1e9;
          out[m.field] = shown;
          any = true;
          issues.add({
            severity: 'warning',
            code: 'percent_format',
            sheet,
            cell: `${m.letter}${rowNumber}`,
            row: rowNumber,
            field: m.field,
            message: `${m.field}: the cell is formatted as a percentage (${shown} %); it is read as ${shown}`,
            params: { value: shown },
          });
          continue;
        }
      }
      const quick = quickCoerce(raw, m.column, m.allowed);
      if (quick !== NEEDS_FULL_COERCION) {
        if (quick === undefined) continue;
        out[m.field] = quick;
        any = true;
        continue;
      }
      const r = coerceCell(raw, m.column, m.ctx);
      switch (r.kind) {
        case 'blank':
          break;
        case 'value':
          out[m.field] = r.value;
          any = true;
          if (r.warning) {
            const { code, message, params } = r.warning;
            issues.add({
              severity: 'warning',
              code,
              sheet,
              cell: `${m.letter}${rowNumber}`,
              row: rowNumber,
              field: m.field,
              message,
              ...(params && { params }),
            });
          }
          break;
        case 'clear':
          out[m.field] = null;
          any = true;
          break;
        case 'error': {
          any = true;
          (invalid ??= []).push(m.field);
          const cell = `${m.letter}${rowNumber}`;
          let { code, message, params } = r.error;
          // exceljs drops a formula's error result; the feed saw the cached error text in the XML.
          const shown =
            code === 'formula_error' || code === 'formula_without_result' ? this.o.errorCells?.get(cell) : undefined;
          if (shown) {
            code = 'formula_error';
            const f = (raw as { formula?: unknown }).formula;
            message = `${m.field}: the formula${typeof f === 'string' && f ? ` =${f.slice(0, 60)}` : ''} gives the error ${shown}; fix it or type the value`;
            params = {
              variant: 'formulaShown',
              formula: typeof f === 'string' && f ? `=${f.slice(0, 60)}` : '',
              error: shown,
            };
          }
          issues.add({
            severity: 'error',
            code,
            sheet,
            cell,
            row: rowNumber,
            field: m.field,
            message,
            ...(params && { params }),
          });
          break;
        }
      }
    }
    // Data in a column without a header: warned once per column.
    if (values.length - 1 > this.lastHeaderCol || this.headerCols.size < this.lastHeaderCol) {
      for (let c = 1; c < values.length; c++) {
        if (this.headerCols.has(c) || this.headerless.has(c)) continue;
        if (isBlank(values[c])) continue;
        this.headerless.add(c);
        issues.add({
          severity: 'warning',
          code: 'data_without_header',
          sheet,
          cell: `${columnLetter(c)}${rowNumber}`,
          row: rowNumber,
          field: null,
          message: `Column ${columnLetter(c)} has data but no field name in row ${this.headerRow}; it is ignored.`,
          params: { column: columnLetter(c) },
        });
      }
    }
    if (!any) return;
    for (const [m, value] of this.constants) {
      const r = coerceCell(value, m.column, m.ctx);
      if (r.kind === 'value') out[m.field] = r.value;
      else if (r.kind === 'error') {
        (invalid ??= []).push(m.field);
        issues.add({
          severity: 'error',
          code: r.error.code,
          sheet,
          cell: null,
          row: rowNumber,
          field: m.field,
          message: `${r.error.message} (the mapping's constant)`,
          ...(r.error.params && { params: r.error.params }),
        });
      }
    }
    if (this.blockFields.length) for (const f of this.blockFields) if (!(invalid ??= []).includes(f)) invalid.push(f);
    if (this.missingForRows.length) invalid = this.missingColumns(rowNumber, out, invalid);
    const parsedRow: ParsedRow = { row: rowNumber, values: out };
    if (invalid) parsedRow.invalid = invalid;
    if (this.snapshotCol !== undefined) {
      const snap = unwrapCell(values[this.snapshotCol]);
      if (typeof snap === 'string' && snap.trim() !== '') parsedRow.snapshot = snap.trim();
    }
    this.parsed.rows.push(parsedRow);
    this.rowsRead++;
  }

  /** A row that would use a column the header lacks (any action but delete and ignore): an error per column. */
  private missingColumns(rowNumber: number, out: RowValues, invalid: string[] | undefined): string[] | undefined {
    const action = out.action;
    if (action === 'delete' || action === 'ignore') return invalid;
    const hr = this.headerRow;
    const alt = this.def.columns.action?.allowed?.includes('delete') ? 'delete' : 'ignore';
    for (const { field, letter } of this.missingForRows) {
      if (!(invalid ??= []).includes(field)) invalid.push(field);
      this.issues.add({
        severity: 'error',
        code: 'missing_column',
        sheet: this.parsed.sheetName,
        cell: `${letter}${rowNumber}`,
        row: rowNumber,
        field,
        message: `Column ${field} is missing from row ${hr}, and this row needs it: add column ${field} (e.g. at ${letter}${hr}), or mark the row ${alt}.`,
        params: { headerRow: hr, headerCell: `${letter}${hr}`, rowAction: alt },
      });
    }
    return invalid;
  }
}

function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/** The `_xHHHH_` escapes of a row's text decoded in place (the row array is the reader's own, one per row). */
function decodeRow(values: unknown[]): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'string') {
      if (v.includes('_x')) values[i] = decodeEscapes(v);
    } else if (typeof v === 'object' && v !== null) values[i] = decodeCellText(v);
  }
}

function headerText(raw: unknown): string {
  const v = unwrapCell(raw);
  if (v === undefined || (typeof v === 'object' && !(v instanceof Date))) return '';
  return String(v).trim();
}
