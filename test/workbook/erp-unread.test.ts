/**
 * ERP sources at the cell, nothing silently ignored: misnamed, unknown and missing columns, no data rows, a
 * code typo at its cause, file kinds (a PDF, a CSV named .xlsx, a legacy .xls), each said for what it is.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import { readSource } from '../../core/workbook/sources/index.js';
import { peekSource } from '../../core/workbook/sources/peek.js';
import { headerOf, rowOf, supplierProduct, writeXlsx, tempDir } from './helpers.js';
import { at, check, mapping } from './erp-helpers.js';

const tmp = tempDir('sl-erp-');
afterAll(() => tmp.cleanup());

describe('nothing silently ignored', () => {
  const header = [...headerOf('supplier-products').filter((f) => f !== 'truck_km'), 'truck_distance_km', 'Kommentar'];
  const row = (i: number) => [
    ...rowOf('supplier-products', supplierProduct(i)).slice(0, header.length - 3),
    22,
    'note',
  ];

  it('a header resembling an absent field is an error at its cell ("did you mean `truck_km`?") and blocks the rows; Kommentar is an ignored column', async () => {
    const path = tmp.file('misnamed.xlsx');
    // the registry order without truck_km: the two extra columns are the last ones
    const fields = headerOf('supplier-products').filter((f) => f !== 'truck_km');
    await writeXlsx(path, {
      'supplier-products': [
        header,
        ...[1, 2, 3].map((i) => [...fields.map((f) => supplierProduct(i)[f] ?? null), 22, 'note']),
      ],
    });
    const parsed = await readWorkbook(path);
    const report = await check(parsed);
    const col = String.fromCharCode(64 + fields.length + 1);
    const err = report.issues.find((i) => i.code === 'misnamed_column')!;
    expect(err).toMatchObject({ severity: 'error', sheet: 'supplier-products', cell: `${col}1`, field: 'truck_km' });
    expect(err.message).toContain('did you mean `truck_km`?');
    expect(report.sheets[0].blockedRows).toEqual([2, 3, 4]);
    expect(report.sheets[0].ignoredColumns).toEqual([
      { header: 'Kommentar', cell: `${String.fromCharCode(64 + fields.length + 2)}1`, reason: 'unknown' },
    ]);
    expect(at(report.issues, 'unknown_column')).toEqual([
      `supplier-products!${String.fromCharCode(64 + fields.length + 2)}1`,
    ]);
    void row;

    // A mapping that says what it is: read as truck_km, nothing blocked.
    const mapped = await readWorkbook(path, {
      mapping: mapping({
        version: 1,
        sheets: { 'supplier-products': { columns: { truck_distance_km: 'truck_km' }, ignore: ['Kommentar'] } },
      }),
    });
    const r2 = await check(mapped);
    expect(r2.errors).toBe(0);
    expect(mapped.sheets[0].rows[0].values.truck_km).toBe(22);
    expect(mapped.sheets[0].ignoredColumns).toEqual([
      { header: 'Kommentar', cell: `${String.fromCharCode(64 + fields.length + 2)}1`, reason: 'mapping' },
    ]);
    // ... or that it is ignored: no error, the rows are read.
    const ignored = await check(
      await readWorkbook(path, {
        mapping: mapping({
          version: 1,
          sheets: { 'supplier-products': { ignore: ['truck_distance_km', 'Kommentar'] } },
        }),
      }),
    );
    expect(ignored.errors).toBe(0);
    expect(ignored.sheets[0].blockedRows).toEqual([]);
  });

  it('a missing required column (no action column): the header error, and the filled rows counted as unread (not "0 rows")', async () => {
    const path = tmp.file('missing.xlsx');
    const fields = headerOf('supplier-products').filter((f) => f !== 'plant_code' && f !== 'action');
    await writeXlsx(path, {
      'supplier-products': [fields, ...[1, 2, 3].map((i) => fields.map((f) => supplierProduct(i)[f] ?? null))],
    });
    const report = await check(await readWorkbook(path));
    expect(report.issues.find((i) => i.code === 'missing_header')).toMatchObject({
      severity: 'error',
      field: 'plant_code',
    });
    expect(report.sheets[0]).toMatchObject({ rows: 0, unreadRows: 3 });
    expect(report.issues.some((i) => i.code === 'no_data_rows')).toBe(false);
  });

  it('an unfilled workbook (headers only) is an error, never green', async () => {
    const path = tmp.file('empty.xlsx');
    await writeXlsx(path, { 'supplier-products': [headerOf('supplier-products')], silos: [headerOf('silos')] });
    const report = await check(await readWorkbook(path));
    expect(report.ok).toBe(false);
    expect(report.issues.map((i) => [i.severity, i.code])).toEqual([['error', 'no_data_rows']]);
  });

  it('a material code typo (MAT-SNAD) is reported at its cause with "did you mean MAT-SAND?"', async () => {
    const path = tmp.file('typo.xlsx');
    await writeXlsx(path, {
      'supplier-products': [
        headerOf('supplier-products'),
        rowOf('supplier-products', supplierProduct(1, { material_code: 'MAT-SAND' })),
        rowOf('supplier-products', supplierProduct(2, { material_code: 'MAT-SAND' })),
        rowOf('supplier-products', supplierProduct(3, { material_code: 'MAT-SNAD' })),
      ],
      silos: [headerOf('silos'), rowOf('silos', { external_id: 'S1', name: 'Silo', plant_code: 'P1' })],
      'silo-items': [
        headerOf('silo-items'),
        ...[1, 2, 3].map((i) =>
          rowOf('silo-items', {
            silo_external_id: 'S1',
            supplier_product_external_id: `SP-${i}`,
            year: 2025,
            amount: 10,
          }),
        ),
      ],
    });
    const report = await check(await readWorkbook(path));
    const col = String.fromCharCode(64 + headerOf('supplier-products').indexOf('material_code') + 1);
    const cause = report.issues.find((i) => i.sheet === 'supplier-products' && i.cell === `${col}4`)!;
    expect(cause.message).toContain('did you mean MAT-SAND?');
    expect(report.sheets.find((s) => s.name === 'supplier-products')!.blockedRows).toEqual([4]);
  });

  it('file kinds: a PDF, a CSV named .xlsx, a legacy .xls — each said for what it is; a .csv is read', async () => {
    const pdf = tmp.file('report.xlsx');
    await writeFile(pdf, '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');
    expect((await readWorkbook(pdf)).issues[0]).toMatchObject({ code: 'other_format', params: { variant: 'pdf' } });
    const pdfCsv = tmp.file('report.csv');
    await writeFile(pdfCsv, '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');
    expect((await readSource(pdfCsv)).issues[0].message).toMatch(/PDF document/);
    const csvXlsx = tmp.file('data.xlsx');
    await writeFile(csvXlsx, 'external_id;name\nA;B\n');
    expect((await readWorkbook(csvXlsx)).issues[0]).toMatchObject({ code: 'csv_renamed' });
    const xls = tmp.file('old.csv');
    const cfb = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(cfb);
    await writeFile(xls, cfb);
    expect((await readSource(xls)).issues[0]).toMatchObject({ code: 'legacy_xls' });
    expect((await readSource(xls)).issues[0].message).toMatch(/save it as "Excel Workbook \(\.xlsx\)"/);
  });

  it('a PDF or an old .xls named .csv is not peeked as text for the Columns step: it is diagnosed as the reader does', async () => {
    const pdf = tmp.file('Bericht.csv');
    await writeFile(pdf, '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');
    await expect(peekSource(pdf)).rejects.toThrow(/Bericht\.csv: .*PDF/);
    const xls = tmp.file('Alt.csv');
    const cfb = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(cfb);
    await writeFile(xls, cfb);
    await expect(peekSource(xls)).rejects.toThrow(/Alt\.csv: .*\.xlsx/);
  });
});
