/**
 * The planner's row index holds as little per row as it can (a 200,000-row plan stays under 400 MiB): a valid row's typed values are
 * its read values themselves when the schema changed nothing (or the quick check accepted the row without it), and rows without
 * problems share one empty list.
 */
import { describe, expect, it, vi } from 'vitest';
import { getSheet } from '../../core/workbook/registry.js';
import { indexWorkbook } from '../../core/jobs/workbook-rows.js';
import type { ParsedWorkbook, RowValues } from '../../core/workbook/types.js';

function workbook(rows: RowValues[]): ParsedWorkbook {
  return {
    file: 'x.xlsx',
    bytes: 0,
    readable: true,
    sheets: [
      {
        name: 'supplier-companies',
        sheetName: 'supplier-companies',
        hidden: false,
        columns: { external_id: 'A', name: 'B', country: 'C' },
        rows: rows.map((values, i) => ({ row: i + 2, values })),
      },
    ],
    ignoredSheets: [],
    issues: [],
    stats: { rows: rows.length, ms: 0 },
  };
}

describe('indexWorkbook: one copy of each row', () => {
  it('a valid row whose typed values equal its read values keeps one object for both', () => {
    const values: RowValues = { external_id: 'SC-1', name: 'Kalkwerk GmbH', country: 'DE' };
    const [row] = indexWorkbook(workbook([values])).rows('supplier-companies');
    expect(row.typed).toBe(values);
    expect(row.problems).toEqual([]);
  });

  it('a row the quick check accepts keeps its read values as typed values, in any order, without the zod schema', () => {
    const parse = vi.spyOn(getSheet('supplier-companies').schema, 'safeParse');
    try {
      const values: RowValues = { country: 'DE', name: 'Kalkwerk GmbH', external_id: 'SC-1' };
      const [row] = indexWorkbook(workbook([values])).rows('supplier-companies');
      expect(row.typed).toBe(values);
      expect(parse).not.toHaveBeenCalled();
      // a value the quick check leaves to the schema (spaces around a name): the schema decides
      const spaced: RowValues = { external_id: 'SC-2', name: ' Kalkwerk ', country: 'DE' };
      const [other] = indexWorkbook(workbook([spaced])).rows('supplier-companies');
      expect(parse).toHaveBeenCalledTimes(1);
      expect(other.typed).toEqual(spaced);
    } finally {
      parse.mockRestore();
    }
  });

  it('rows without problems share one frozen empty list; a row with problems has its own', () => {
    const rows = indexWorkbook(
      workbook([
        { external_id: 'SC-1', name: 'A', country: 'DE' },
        { external_id: 'SC-2', name: 'B', country: 'AT' },
        { external_id: 'SC-3', name: 'C', country: 'not a country' },
      ]),
    ).rows('supplier-companies');
    expect(rows[0].problems).toBe(rows[1].problems);
    expect(Object.isFrozen(rows[0].problems)).toBe(true);
    expect(rows[2].typed).toBeNull();
    expect(rows[2].problems.length).toBeGreaterThan(0);
    expect(rows[2].problems).not.toBe(rows[0].problems);
  });
});

describe('indexWorkbook: cells that are not fields of the sheet', () => {
  it('are left out of the typed values, and the read values keep them', () => {
    const values: RowValues = { external_id: 'SC-1', _snapshot: 'abc', name: 'Kalkwerk GmbH', country: 'DE' };
    const [row] = indexWorkbook(workbook([values])).rows('supplier-companies');
    expect(row.typed).toEqual({ external_id: 'SC-1', name: 'Kalkwerk GmbH', country: 'DE' });
    expect(row.typed).not.toBe(values);
    expect(values).toEqual({ external_id: 'SC-1', _snapshot: 'abc', name: 'Kalkwerk GmbH', country: 'DE' });
    expect(row.snapshot).toBe('abc');
  });
});

describe('indexWorkbook: prepare', () => {
  const many = Array.from({ length: 10_000 }, (_, i) => ({
    external_id: `SC-${i}`,
    name: `Werk ${i}`,
    country: 'DE',
  })) as RowValues[];

  it('indexes a large sheet with turns of the event loop between groups of rows, the same rows as at once', async () => {
    const wb = indexWorkbook(workbook(many));
    let turns = 0;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await wb.prepare();
    counting = false;
    // an answer arriving meanwhile is handled between groups of rows, not after the last one
    expect(turns).toBeGreaterThanOrEqual(4);
    expect(wb.rows('supplier-companies')).toEqual(indexWorkbook(workbook(many)).rows('supplier-companies'));
  });

  it('stops on the signal', async () => {
    const c = new AbortController();
    c.abort(new Error('cancelled'));
    await expect(indexWorkbook(workbook(many)).prepare(c.signal)).rejects.toThrow('cancelled');
  });
});
