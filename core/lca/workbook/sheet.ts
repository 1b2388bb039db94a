/**
 * One data sheet of the LCA workbook: its rows laid out as plain data (SheetBuilder, with the unknown-field
 * columns it met), then written with exceljs's streaming writer (writeSheet). The one place cells are written:
 * server strings stay string cells, never formulas.
 */
import ExcelJS from 'exceljs';
import { type CellValue, type FlatRecord, fitCell } from '../flatten.js';
import { sharedStyles } from '../../workbook/xlsx-layout.js';
import { type ColumnDef, col, text } from './columns.js';
import { withoutFloatNoise } from '../precision.js';

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF4' } };

export type StreamWorkbook = ExcelJS.stream.xlsx.WorkbookWriter;
export type StreamSheet = ReturnType<StreamWorkbook['addWorksheet']>;

/** Extra columns of one sheet, in first-seen order, capped. */
class ExtraColumns {
  readonly keys: string[] = [];
  private readonly seen = new Set<string>();
  overflow = false;
  constructor(
    private readonly reserved: ReadonlySet<string>,
    private readonly max: number,
  ) {}
  /** The record with keys mapped to columns (reserved names prefixed `extra:`), overflow packed. */
  place(rec: FlatRecord): Record<string, CellValue> {
    const out: Record<string, CellValue> = {};
    const more: Record<string, CellValue> = {};
    for (const [k0, v] of Object.entries(rec)) {
      const k = this.reserved.has(k0) ? `extra:${k0}` : k0;
      if (!this.seen.has(k)) {
        if (this.keys.length >= this.max) {
          more[k] = v;
          this.overflow = true;
          continue;
        }
        this.seen.add(k);
        this.keys.push(k);
      }
      out[k] = v;
    }
    if (Object.keys(more).length) out.more_fields = JSON.stringify(more);
    return out;
  }
}

export class SheetBuilder {
  readonly rows: Record<string, CellValue>[] = [];
  readonly extras: ExtraColumns;
  /** Formatting added once the sheet's columns are set (the indicators sheet's colour scales). */
  decorate?: (ws: StreamSheet) => void;
  constructor(
    readonly name: string,
    readonly columns: ColumnDef[],
    maxExtra: number,
  ) {
    this.extras = new ExtraColumns(new Set(columns.map((c) => c.key).concat('more_fields')), maxExtra);
  }
  add(fixed: Record<string, CellValue>, extra: FlatRecord = {}): void {
    this.rows.push({ ...fixed, ...this.extras.place(extra) });
  }
}

/** Columns of a built sheet: its fixed ones, then the extra (unknown-field) ones. */
function sheetColumns(b: SheetBuilder): ColumnDef[] {
  const extraDefs = b.extras.keys.map((k) => col(k, Math.min(40, Math.max(12, k.length + 2))));
  if (b.extras.overflow) extraDefs.push(text('more_fields', 40));
  return [...b.columns, ...extraDefs];
}

/** Write a built sheet (streaming). Returns whether a cell had to be cut. */
export function writeSheet(wb: StreamWorkbook, b: SheetBuilder): boolean {
  const defs = sheetColumns(b);
  const ws = wb.addWorksheet(b.name, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = defs.map((d) => ({ key: d.key, width: d.width, style: d.numFmt ? { numFmt: d.numFmt } : {} }));
  if (defs.length > 0) ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: defs.length } };
  b.decorate?.(ws);
  const header = ws.getRow(1);
  defs.forEach((d, i) => {
    const c = header.getCell(i + 1);
    c.value = d.header;
    c.font = { bold: true };
    c.fill = HEADER_FILL;
  });
  header.commit();
  let cut = false;
  const styled = sharedStyles(ws);
  b.rows.forEach((r, ri) => {
    const row = ws.getRow(ri + 2);
    defs.forEach((d, ci) => {
      const v0 = r[d.key];
      if (v0 === null || v0 === undefined || v0 === '') return; // empty cell: not declared / not given
      cut = writeCell(row.getCell(ci + 1), v0) || cut;
    });
    styled(row);
    row.commit();
  });
  ws.commit();
  return cut;
}

/**
 * Put a value in a cell, cut to what a cell holds (returns whether it was cut). Strings stay string cells: a
 * server text starting with = + - @ never becomes a formula.
 */
export function writeCell(cell: ExcelJS.Cell, v: Exclude<CellValue, null>): boolean {
  // a number as the service meant it: 11147827.5, not the 11147827.499999998 a division left
  const { value, truncated } = fitCell(typeof v === 'number' ? withoutFloatNoise(v) : v);
  cell.value = value;
  return truncated;
}
