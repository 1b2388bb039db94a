/**
 * The columns the LCA workbook's sheets share (instance, result year, value, per declared unit), their number
 * formats, and the cells that fill them.
 */
import type { CellValue } from '../flatten.js';
import { declaredUnitLabel, perDeclaredUnit } from '../analysis.js';
import type { InstanceLca, ResultYear } from '../model.js';

export const VALUE_FORMAT = '0.000E+00';
export const QUANTITY_FORMAT = '#,##0.###';
export const SHARE_FORMAT = '0.00%';
export const PCT_FORMAT = '0.00';
export const TEXT = '@';

export interface ColumnDef {
  key: string;
  header: string;
  width: number;
  numFmt?: string;
}

/** A column headed by its key. */
export function col(key: string, width: number, numFmt?: string): ColumnDef {
  return numFmt === undefined ? { key, header: key, width } : { key, header: key, width, numFmt };
}
/** A text column (a server text is never read as a number or a date). */
export const text = (key: string, width: number): ColumnDef => col(key, width, TEXT);

/** Instance columns every data sheet starts with. */
export const INSTANCE_COLUMNS: ColumnDef[] = [
  text('product_article', 16),
  text('product_name', 30),
  text('instance_external_id', 20),
  text('plant_code', 12),
];
export const YEAR_COLUMN = col('year', 8, '0');
/** A result year: the results and indicators sheets follow the instance columns with these. */
export const RESULT_YEAR_COLUMNS: ColumnDef[] = [YEAR_COLUMN, col('partial_year', 12), text('status', 11)];
/** One value: the results and breakdown sheets end with these. */
export const VALUE_COLUMNS: ColumnDef[] = [
  text('indicator', 16),
  text('module', 9),
  col('value', 14, VALUE_FORMAT),
  text('unit', 22),
];
/** Per declared unit: the results sheet follows VALUE_COLUMNS with these (full precision in the cell). */
export const PER_UNIT_COLUMNS: ColumnDef[] = [
  col('production_quantity', 14, QUANTITY_FORMAT),
  text('declared_unit', 13),
  col('value_per_declared_unit', 16, VALUE_FORMAT),
  text('per_declared_unit_note', 40),
];

export const yesNo = (b: boolean | null): CellValue => (b === null ? null : b ? 'yes' : 'no');

/** Cells of PER_UNIT_COLUMNS. */
export function perUnitCells(i: InstanceLca, y: ResultYear, value: number | null): Record<string, CellValue> {
  const pu = perDeclaredUnit(value, y.production_quantity);
  return {
    production_quantity: y.production_quantity,
    declared_unit: declaredUnitLabel(i.instance.product_unit),
    value_per_declared_unit: pu.value,
    per_declared_unit_note: pu.note,
  };
}

/** Cells of INSTANCE_COLUMNS. */
export function instanceCells(i: InstanceLca): Record<string, CellValue> {
  return {
    product_article: i.instance.product_article,
    product_name: i.instance.product_name,
    instance_external_id: i.instance.external_id ?? i.instance.id,
    plant_code: i.instance.plant_code,
  };
}

/** Cells of INSTANCE_COLUMNS and RESULT_YEAR_COLUMNS. */
export function resultYearCells(i: InstanceLca, y: ResultYear): Record<string, CellValue> {
  return { ...instanceCells(i), year: y.year, partial_year: yesNo(y.partial_year), status: y.status };
}
