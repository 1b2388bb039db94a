/** writeWorkbook: rows in the template format; server text never becomes a formula; it reads back the same. */
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import { writeWorkbook } from '../../core/workbook/writer.js';
import { tempDir, zipEntries } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const companies = [
  { external_id: 'SC-1', name: '=HYPERLINK("http://evil.example","click")', country: 'DE', _snapshot: 'h1' },
  { external_id: '00123', name: '+49 621 1234', country: null, _snapshot: 'h2' },
  { external_id: 'SC-3', name: '-5', country: 'AT', _snapshot: 'h3' },
  { external_id: 'SC-4', name: '@SUM(A1:A2)', country: undefined, _snapshot: 'h4' },
];

describe('writeWorkbook', () => {
  it('writes server text starting with =, +, - or @ as text cells, never formulas', async () => {
    const path = tmp.file('export.xlsx');
    await writeWorkbook(
      [
        {
          sheet: 'supplier-companies',
          rows: companies,
          extraColumns: [{ key: '_snapshot', header: '_snapshot', hidden: true }],
        },
      ],
      path,
    );
    const parts = await zipEntries(path);
    const sheetXml = [...parts]
      .find(([n, d]) => /worksheets\/sheet\d+\.xml$/.test(n) && d.toString('utf8').includes('<c r="B2"'))![1]
      .toString('utf8');
    expect(sheetXml).not.toMatch(/<f>/);
    for (const cell of ['A3', 'B2', 'B3', 'B4', 'B5'])
      expect(sheetXml).toMatch(new RegExp(`<c r="${cell}"[^>]* t="s"`));

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const ws = wb.getWorksheet('supplier-companies')!;
    expect(ws.getCell('B2').value).toBe('=HYPERLINK("http://evil.example","click")');
    expect(ws.getCell('B2').formula).toBeUndefined();
    expect(ws.getCell('B5').type).toBe(ExcelJS.ValueType.String);
    expect(ws.getCell('A3').value).toBe('00123');
    expect(ws.getRow(1).values).toEqual([undefined, 'external_id', 'name', 'country', 'action', '_snapshot']);
    expect(ws.getColumn(5).hidden).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(String(ws.getCell('A1').note)).toMatch(/required/);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Instructions', 'supplier-companies', 'lists']);
  });

  it('reads back as the same rows (export → import round trip), the snapshot kept per row', async () => {
    const path = tmp.file('roundtrip.xlsx');
    await writeWorkbook(
      [
        {
          sheet: 'supplier-companies',
          rows: companies,
          extraColumns: [{ key: '_snapshot', header: '_snapshot', hidden: true }],
        },
        {
          sheet: 'silo-items',
          rows: [{ silo_external_id: 'S-1', supplier_product_external_id: 'SP-1', year: 2024, amount: 1234.5 }],
        },
        {
          sheet: 'products',
          rows: [{ external_id: 'A-1', name: 'Beton', unit: 'M3', id: '00000000-0000-4000-8000-000000000001' }],
        },
      ],
      path,
    );
    const parsed = await readWorkbook(path);
    expect(parsed.issues).toEqual([]);
    expect(parsed.sheets.map((s) => s.name)).toEqual(['supplier-companies', 'silo-items']);
    expect(parsed.sheets[0].rows.map((r) => r.values)).toEqual([
      { external_id: 'SC-1', name: '=HYPERLINK("http://evil.example","click")', country: 'DE' },
      { external_id: '00123', name: '+49 621 1234' },
      { external_id: 'SC-3', name: '-5', country: 'AT' },
      { external_id: 'SC-4', name: '@SUM(A1:A2)' },
    ]);
    expect(parsed.sheets[0].rows.map((r) => r.snapshot)).toEqual(['h1', 'h2', 'h3', 'h4']);
    expect(parsed.sheets[1].rows[0].values).toEqual({
      silo_external_id: 'S-1',
      supplier_product_external_id: 'SP-1',
      year: 2024,
      amount: 1234.5,
    });
    expect((await validateWorkbook(parsed)).ok).toBe(true);
  });

  it('streams large exports (rows from a generator) without holding them', async () => {
    const path = tmp.file('large-export.xlsx');
    function* rows() {
      for (let i = 0; i < 20_000; i++) yield { external_id: `SC-${i}`, name: `Company ${i}`, country: 'DE' };
    }
    await writeWorkbook([{ sheet: 'supplier-companies', rows: rows() }], path, { instructions: false });
    const parsed = await readWorkbook(path);
    expect(parsed.sheets[0].rows).toHaveLength(20_000);
    expect(parsed.sheets[0].rows[19_999].values).toEqual({
      external_id: 'SC-19999',
      name: 'Company 19999',
      country: 'DE',
    });
  });
});
