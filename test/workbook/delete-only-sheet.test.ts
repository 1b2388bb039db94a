/**
 * A sheet whose header has its identity column(s) and `action` but lacks other required columns (a sheet of
 * deletes): rows marked delete or ignore are read with just their identity; every other row is an error at its
 * row, in the column the missing header would take, naming the column and what to do. Without an `action`
 * column, or without an identity column, the sheet's header error stays (no row is read). The same for a CSV
 * source, at its cells in the CSV file.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import { readSource } from '../../core/workbook/sources/index.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import { parseColumnMapping } from '../../core/workbook/column-mapping/schema.js';
import type { Issue } from '../../core/workbook/types.js';
import { tempDir, writeXlsx } from './helpers.js';

const tmp = tempDir('sl-delsheet-');
afterAll(() => tmp.cleanup());

const brief = (issues: Issue[]) => issues.map((i) => `${i.severity} ${i.code} ${i.sheet}!${i.cell} ${i.field}`);

describe('a sheet of deletes needs only the identity column', () => {
  it('xlsx: delete and ignore rows read with external_id and action only; other rows are errors at their row, every missing column, in one pass', async () => {
    const path = tmp.file('deletes.xlsx');
    await writeXlsx(path, {
      'supplier-products': [
        ['external_id', 'action'],
        ['SP-1', 'delete'],
        ['SP-2', 'Delete'],
        ['SP-3', null],
        ['SP-4', 'ignore'],
        ['SP-5', 'update'],
        ['SP-6', 'delete'],
        ['SP-7', 'create'],
      ],
    });
    const parsed = await readWorkbook(path);
    const sheet = parsed.sheets.find((s) => s.name === 'supplier-products')!;
    expect(sheet.unreadRows).toBeUndefined();
    expect(sheet.rows.map((r) => r.values.external_id)).toEqual([
      'SP-1',
      'SP-2',
      'SP-3',
      'SP-4',
      'SP-5',
      'SP-6',
      'SP-7',
    ]);
    const report = await validateWorkbook(parsed);
    expect(report.issues.some((i) => i.code === 'missing_header')).toBe(false);
    // name, plant_code, material_code, unit are required and absent: C, D, E, F of each row that would use them.
    const needs = (row: number) =>
      ['name', 'plant_code', 'material_code', 'unit'].map(
        (f, i) => `error missing_column supplier-products!${'CDEF'[i]}${row} ${f}`,
      );
    expect(brief(report.issues)).toEqual([...needs(4), ...needs(6), ...needs(8)]);
    const first = report.issues[0];
    expect(first).toMatchObject({ row: 4, params: { headerRow: 1, headerCell: 'C1', rowAction: 'delete' } });
    expect(first.message).toBe(
      'Column name is missing from row 1, and this row needs it: add column name (e.g. at C1), or mark the row delete.',
    );
    expect(report.sheets[0]).toMatchObject({ rows: 7, blockedRows: [4, 6, 8] });
    expect(report.ok).toBe(false);
  });

  it('xlsx: a sheet of delete rows only has no issue at all', async () => {
    const path = tmp.file('all-deletes.xlsx');
    await writeXlsx(path, {
      'supplier-plants': [
        ['external_id', 'action'],
        ['SPL-1', 'delete'],
        ['SPL-2', 'delete'],
      ],
      'supplier-companies': [
        ['action', 'external_id'],
        ['delete', 'SC-1'],
      ],
    });
    const report = await validateWorkbook(await readWorkbook(path));
    expect(report.issues).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.sheets.map((s) => [s.name, s.rows, s.blockedRows])).toEqual([
      ['supplier-companies', 1, []],
      ['supplier-plants', 2, []],
    ]);
  });

  it('a delete row without its external_id is still an error (the identity is the one thing it needs)', async () => {
    const path = tmp.file('delete-no-id.xlsx');
    await writeXlsx(path, {
      silos: [
        ['external_id', 'action'],
        [null, 'delete'],
        ['S-2', 'delete'],
      ],
    });
    const report = await validateWorkbook(await readWorkbook(path));
    expect(brief(report.issues)).toEqual(['error required silos!A2 external_id']);
  });

  it('without an action column the sheet keeps its header error and no row is read', async () => {
    const path = tmp.file('no-action.xlsx');
    await writeXlsx(path, {
      'supplier-companies': [
        ['external_id', 'country'],
        ['SC-1', 'DE'],
        ['SC-2', 'AT'],
      ],
    });
    const parsed = await readWorkbook(path);
    const report = await validateWorkbook(parsed);
    expect(brief(report.issues)).toEqual(['error missing_header supplier-companies!C1 name']);
    expect(report.sheets[0]).toMatchObject({ rows: 0, unreadRows: 2 });
  });

  it('without an identity column the sheet keeps its header error, action column or not', async () => {
    const path = tmp.file('no-identity.xlsx');
    await writeXlsx(path, {
      'supplier-companies': [
        ['name', 'action'],
        ['Kies AG', 'delete'],
      ],
      'silo-items': [
        ['silo_external_id', 'year', 'amount', 'action'],
        ['S-1', 2024, 5, 'ignore'],
      ],
    });
    const report = await validateWorkbook(await readWorkbook(path));
    expect(brief(report.issues)).toEqual([
      'error missing_header supplier-companies!C1 external_id',
      'error missing_header silo-items!E1 supplier_product_external_id',
    ]);
    expect(report.sheets.map((s) => s.unreadRows)).toEqual([1, 1]);
  });

  it('a child sheet (only ignore besides upsert): an ignored row reads with its key, the others are told to add the column or mark the row ignore', async () => {
    const path = tmp.file('child.xlsx');
    await writeXlsx(path, {
      'hazardous-substances': [
        ['supplier_product_external_id', 'cas_number', 'action'],
        ['SP-1', '7732-18-5', 'ignore'],
        ['SP-1', '64-17-5', null],
      ],
    });
    const report = await validateWorkbook(await readWorkbook(path));
    expect(brief(report.issues)).toEqual(['error missing_column hazardous-substances!D3 mass_share']);
    expect(report.issues[0].message).toBe(
      'Column mass_share is missing from row 1, and this row needs it: add column mass_share (e.g. at D1), or mark the row ignore.',
    );
  });

  it('an action cell that is not an action: the row is not a delete, so the missing columns are errors too', async () => {
    const path = tmp.file('bad-action.xlsx');
    await writeXlsx(path, {
      'supplier-companies': [
        ['external_id', 'action'],
        ['SC-1', 'remove'],
      ],
    });
    const report = await validateWorkbook(await readWorkbook(path));
    expect(brief(report.issues)).toEqual([
      'error not_allowed supplier-companies!B2 action',
      'error missing_column supplier-companies!C2 name',
    ]);
  });

  it('CSV: the same, at the cells of the CSV file; the ERP flag translated to delete by a column mapping', async () => {
    const path = tmp.file('supplier-products.csv');
    await writeFile(path, 'external_id;action\nSP-1;delete\nSP-2;\nSP-3;delete\n');
    const parsed = await readSource(path);
    const report = await validateWorkbook(parsed);
    expect(report.sheets[0]).toMatchObject({ name: 'supplier-products', rows: 3, blockedRows: [3] });
    expect(brief(report.issues)).toEqual(
      ['name', 'plant_code', 'material_code', 'unit'].map(
        (f, i) => `error missing_column supplier-products.csv!${'CDEF'[i]}3 ${f}`,
      ),
    );

    const erp = tmp.file('LIEF_DEL.csv');
    await writeFile(erp, 'Lieferant;Löschkennzeichen\nSC-1;X\nSC-2;X\n');
    const m = parseColumnMapping({
      version: 1,
      sheets: {
        'supplier-companies': {
          source: 'LIEF_*.csv',
          columns: { Lieferant: 'external_id', Löschkennzeichen: 'action' },
          values: { action: { X: 'delete' } },
        },
      },
    });
    if (!m.ok) throw new Error(m.errors.join('\n'));
    const mapped = await readSource(erp, { mapping: m.mapping });
    const r2 = await validateWorkbook(mapped);
    expect(r2.issues).toEqual([]);
    expect(mapped.sheets[0].rows.map((r) => r.values)).toEqual([
      { external_id: 'SC-1', action: 'delete' },
      { external_id: 'SC-2', action: 'delete' },
    ]);
  });

  it('a mapping constant action delete: a file with the codes only is a list of deletes', async () => {
    const path = tmp.file('GONE.csv');
    await writeFile(path, 'Lieferant\nSC-1\nSC-2\n');
    const m = parseColumnMapping({
      version: 1,
      sheets: {
        'supplier-companies': {
          source: 'GONE.csv',
          columns: { Lieferant: 'external_id' },
          constants: { action: 'delete' },
        },
      },
    });
    if (!m.ok) throw new Error(m.errors.join('\n'));
    const parsed = await readSource(path, { mapping: m.mapping });
    const report = await validateWorkbook(parsed);
    expect(report.issues).toEqual([]);
    expect(parsed.sheets[0].rows.map((r) => r.values)).toEqual([
      { external_id: 'SC-1', action: 'delete' },
      { external_id: 'SC-2', action: 'delete' },
    ]);
  });
});
