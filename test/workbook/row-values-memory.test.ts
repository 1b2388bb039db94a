/**
 * A sheet's rows keep their values in the object itself (core/workbook/sheet-rows.ts rowValuesOfSheet): a row of
 * six cells costs no second array, also when a sheet of fewer cells was read before it. Measured against copies
 * built as `{}` literals, which keep four in the object and the rest in a second array.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { IssueList } from '../../core/workbook/issues.js';
import { getSheet } from '../../core/workbook/registry.js';
import { SheetRowReader } from '../../core/workbook/sheet-rows.js';
import type { DataSheetName, ParsedSheet, RowValues } from '../../core/workbook/types.js';

const ROWS = 20_000;

function read(name: DataSheetName, header: string[], cells: (i: number) => unknown[], rows: number): ParsedSheet {
  const parsed: ParsedSheet = { name, sheetName: name, hidden: false, columns: {}, rows: [] };
  const reader = new SheetRowReader(getSheet(name), parsed, new IssueList(100));
  reader.row(1, [undefined, ...header]);
  for (let i = 0; i < rows; i++) reader.row(i + 2, [undefined, ...cells(i)]);
  reader.end();
  return parsed;
}

describe('row values', () => {
  it('hold six cells without a second array per row, after a sheet of three', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const companies = read(
      'supplier-companies',
      ['external_id', 'name', 'country'],
      (i) => [`SC-${i}`, `Company ${i}`, 'DE'],
      50,
    );
    expect(companies.rows).toHaveLength(50);
    const products = read(
      'supplier-products',
      ['external_id', 'name', 'plant_code', 'material_code', 'supplier_plant_external_id', 'unit'],
      (i) => [`SP-${i}`, `Product ${i}`, 'P1', 'MAT-1', 'SPL-1', 'kg'],
      ROWS,
    );
    expect(products.rows).toHaveLength(ROWS);
    expect(Object.keys(products.rows[0].values)).toHaveLength(6);
    expect(Object.getPrototypeOf(products.rows[0].values)).toBe(Object.prototype);

    const settled = async () => {
      await new Promise((r) => setImmediate(r));
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = await settled();
    for (const r of products.rows) {
      const copy: RowValues = {};
      for (const k of Object.keys(r.values)) copy[k] = r.values[k];
      r.values = copy;
    }
    const perRow = ((await settled()) - before) / ROWS;
    expect(products.rows).toHaveLength(ROWS); // (the rows stay alive through the measurement)
    // A copy's second array (two cells past the four in the object) is ~40 bytes; the values read hold none.
    expect(perRow).toBeGreaterThan(16);
  });
});
