/**
 * ERP sources at the cell: nothing silently ignored (misnamed / unknown / missing columns, no data rows, a code
 * typo at its cause, file kinds), CSV sources (encodings, delimiters, quoted line breaks, decimal comma, dates,
 * guards, addresses in the source file), the column-mapping contract and `mapping suggest`.
 */
import { writeFile } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../electron/core/workbook/reader.js';
import { validateWorkbook } from '../../electron/core/workbook/validate.js';
import { readSource, readSources } from '../../electron/core/workbook/sources/index.js';
import { peekSource } from '../../electron/core/workbook/sources/peek.js';
import { parseColumnMapping, type ColumnMapping } from '../../electron/core/workbook/mapping/schema.js';
import { suggestMapping } from '../../electron/core/workbook/mapping/suggest.js';
import type { Issue, ParsedWorkbook } from '../../electron/core/workbook/types.js';
import { headerOf, rowOf, supplierProduct, tempDir, writeXlsx } from './helpers.js';

const tmp = tempDir('sl-erp-');
afterAll(() => tmp.cleanup());

const at = (issues: Issue[], code: string) => issues.filter((i) => i.code === code).map((i) => `${i.sheet}!${i.cell}`);
const check = async (p: ParsedWorkbook) => validateWorkbook(p);

function mapping(doc: unknown): ColumnMapping {
  const r = parseColumnMapping(doc);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.mapping;
}

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

describe('CSV sources', () => {
  const header = 'external_id;name;country';
  const body = ['SC-1;Müller Straße GmbH;DE', 'SC-2;"Café ""Süd""; Zweigwerk\nHalle 2";AT'];

  async function companies(name: string, bytes: Buffer): Promise<ParsedWorkbook> {
    const p = tmp.file(name);
    await writeFile(p, bytes);
    return readSource(p);
  }
  const expectRows = (p: ParsedWorkbook) => {
    expect(p.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(p.sheets[0]).toMatchObject({ name: 'supplier-companies', sheetName: expect.stringMatching(/\.csv$/) });
    expect(p.sheets[0].rows.map((r) => r.values)).toEqual([
      { external_id: 'SC-1', name: 'Müller Straße GmbH', country: 'DE' },
      { external_id: 'SC-2', name: 'Café "Süd"; Zweigwerk\nHalle 2', country: 'AT' },
    ]);
  };
  const text = [header, ...body].join('\r\n') + '\r\n';

  it('UTF-8 with and without BOM, UTF-16 LE with BOM, Windows-1252: the same rows, encoding detected', async () => {
    const a = await companies('supplier-companies.csv', Buffer.from(text, 'utf8'));
    expectRows(a);
    expect(a.sheets[0].csv).toEqual({ encoding: 'utf-8', bom: false, delimiter: ';' });
    for (const [enc, bytes] of [
      ['utf-8', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')])],
      ['utf-16le', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')])],
      ['windows-1252', iconv.encode(text, 'windows-1252')],
    ] as const) {
      const p = await companies('supplier-companies.csv', bytes);
      expectRows(p);
      expect(p.sheets[0].csv?.encoding).toBe(enc);
    }
  });

  it('delimiters ; , and tab are detected (quoted fields with delimiters and line breaks inside)', async () => {
    const records = [
      ['external_id', 'name', 'country'],
      ['SC-1', 'Müller Straße GmbH', 'DE'],
      ['SC-2', 'Café "Süd"; Zweigwerk\nHalle 2', 'AT'],
    ];
    for (const d of [';', ',', '\t']) {
      const p = await companies(
        'supplier-companies.csv',
        Buffer.from(stringify(records, { delimiter: d, quoted_match: /[,;\t]/ }), 'utf8'),
      );
      expect(p.sheets[0].csv?.delimiter).toBe(d);
      expectRows(p);
    }
  });

  it('issues point at the source file and cell; a CSV without a sheet name is said so', async () => {
    const p = await companies(
      'supplier-products.csv',
      Buffer.from(
        `${headerOf('supplier-products').join(';')}\n${rowOf('supplier-products', supplierProduct(1, { truck_km: 'viel' })).join(';')}\n`,
      ),
    );
    const col = String.fromCharCode(64 + headerOf('supplier-products').indexOf('truck_km') + 1);
    expect(at(p.issues, 'wrong_type')).toEqual([`supplier-products.csv!${col}2`]);
    const q = await companies('MAT_2025-11.csv', Buffer.from('a;b\n1;2\n'));
    expect(q.issues[0]).toMatchObject({ code: 'source_without_sheet', severity: 'error', sheet: 'MAT_2025-11.csv' });
  });

  it('decimal comma: "12,5" → 12.5 and "1.250,5" → 1250.5; without the setting "1,250" stays ambiguous', async () => {
    const h = headerOf('supplier-products').join(';');
    const row = (km: string) => rowOf('supplier-products', supplierProduct(1, { truck_km: km })).join(';');
    const path = tmp.file('supplier-products.csv');
    await writeFile(
      path,
      `${h}\n${row('12,5')}\n${row('1.250,5').replace('SP-1', 'SP-2')}\n${row('1,250').replace('SP-1', 'SP-3')}\n`,
    );
    const withSetting = await readSource(path, { mapping: mapping({ version: 1, sheets: {}, csv: { decimal: ',' } }) });
    expect(withSetting.sheets[0].rows.map((r) => r.values.truck_km)).toEqual([12.5, 1250.5, 1.25]);
    const without = await readSource(path);
    expect(without.sheets[0].rows.map((r) => r.values.truck_km)).toEqual([12.5, 1250.5, undefined]);
    expect(at(without.issues, 'number_as_text_ambiguous')).toHaveLength(1);
  });

  it('dates where a year belongs: dd.mm.yyyy, ISO and Excel serials', async () => {
    const path = tmp.file('silo-items.csv');
    await writeFile(
      path,
      'silo_external_id;supplier_product_external_id;year;amount\nS1;SP-1;01.03.2025;5\nS1;SP-2;2024-02-01;5\nS1;SP-3;45292;5\n',
    );
    const p = await readSource(path);
    expect(p.sheets[0].rows.map((r) => r.values.year)).toEqual([2025, 2024, 2024]);
  });

  it('csv.date is applied: DD.MM.YYYY, DD/MM/YYYY and MM/DD/YYYY read in that order (ISO always); a date not in it is an error at its cell', async () => {
    const path = tmp.file('silo-items.csv');
    const rows = (dates: string[]) =>
      ['silo_external_id;supplier_product_external_id;year;amount', ...dates.map((d, i) => `S1;SP-${i};${d};5`)].join(
        '\n',
      ) + '\n';
    const read = async (date: string, dates: string[]) => {
      await writeFile(path, rows(dates));
      const p = await readSource(path, { mapping: mapping({ version: 1, sheets: {}, csv: { date } }) });
      return { years: p.sheets[0].rows.map((r) => r.values.year), errors: at(p.issues, 'wrong_type') };
    };
    expect(await read('DD.MM.YYYY', ['31.12.2025', '2024-02-29', '12/31/2025', '31.02.2025'])).toEqual({
      years: [2025, 2024, undefined, undefined],
      errors: ['silo-items.csv!C4', 'silo-items.csv!C5'],
    });
    expect(await read('MM/DD/YYYY', ['12/31/2025', '31/12/2025', '01.03.2025'])).toEqual({
      years: [2025, undefined, undefined],
      errors: ['silo-items.csv!C3', 'silo-items.csv!C4'],
    });
    expect(await read('DD/MM/YYYY', ['31/12/2025', '12/31/2025'])).toEqual({
      years: [2025, undefined],
      errors: ['silo-items.csv!C3'],
    });
    await writeFile(path, rows(['31.02.2025']));
    const p = await readSource(path, { mapping: mapping({ version: 1, sheets: {}, csv: { date: 'DD.MM.YYYY' } }) });
    expect(p.issues.find((i) => i.code === 'wrong_type')?.message).toContain('a date as DD.MM.YYYY');
    // without csv.date: as before (ISO or day-first text)
    const none = await readSource(path);
    expect(none.sheets[0].rows[0].values.year).toBe(2025);
  });

  it('the same guards: empty file, row limit (reading stops)', async () => {
    const empty = await companies('supplier-companies.csv', Buffer.alloc(0));
    expect(empty.issues[0].code).toBe('file_empty');
    const path = tmp.file('supplier-companies.csv');
    await writeFile(path, [header, ...Array.from({ length: 20 }, (_, i) => `SC-${i};N;DE`)].join('\n'));
    const p = await readSource(path, { limits: { maxRowsPerSheet: 5 } });
    expect(p.readable).toBe(false);
    expect(p.issues[0].code).toBe('too_many_rows');
  });

  it('sources mixed: a workbook and CSV files as one', async () => {
    const wb = tmp.file('mixed.xlsx');
    await writeXlsx(wb, {
      silos: [headerOf('silos'), rowOf('silos', { external_id: 'S1', name: 'Silo', plant_code: 'P1' })],
    });
    const csv = tmp.file('supplier-companies.csv');
    await writeFile(csv, text);
    const p = await readSources([wb, csv]);
    expect(p.sheets.map((s) => `${s.name}:${s.sheetName}`)).toEqual([
      'silos:silos',
      'supplier-companies:supplier-companies.csv',
    ]);
  });

  it('two sources of the same sheet (MAT_2025-10.csv, MAT_2025-11.csv by one glob): the rows of both, each at its own file and cell; a duplicate external_id across them is the duplicate rule at both cells', async () => {
    const m = mapping({
      version: 1,
      sheets: {
        'supplier-products': {
          source: 'MAT_*.csv',
          header_row: 2,
          columns: {
            Nr: 'external_id',
            Text: 'name',
            Werk: 'plant_code',
            Art: 'material_code',
            ME: 'unit',
            LKW: 'truck_km',
          },
        },
      },
      csv: { delimiter: ';', decimal: ',' },
    });
    const oct = tmp.file('MAT_2025-10.csv');
    await writeFile(
      oct,
      'Oktober\nNr;Text;Werk;Art;ME;LKW\nM-1;Sand;PL-1;MAT-SAND;KG;1,5\nM-2;Kies;PL-1;MAT-GRAVEL;KG;viel\n',
    );
    const nov = tmp.file('MAT_2025-11.csv');
    // another column order: each file's own letters
    await writeFile(
      nov,
      'November\nText;Nr;Werk;Art;ME;LKW\nSplitt;M-3;PL-1;MAT-SAND;KG;2,5\nSand neu;M-1;PL-1;MAT-SAND;KG;3\n',
    );
    const p = await readSources([oct, nov], { mapping: m });
    expect(p.issues.filter((i) => i.code === 'duplicate_sheet')).toEqual([]);
    expect(p.sheets).toHaveLength(1);
    expect(p.sheets[0].rows.map((r) => [r.values.external_id, r.values.truck_km])).toEqual([
      ['M-1', 1.5],
      ['M-2', undefined],
      ['M-3', 2.5],
      ['M-1', 3],
    ]);
    expect(at(p.issues, 'wrong_type')).toEqual(['MAT_2025-10.csv!F4']);
    const v = await check(p);
    const dup = v.issues.filter((i) => i.code === 'duplicate_key');
    expect(dup.map((i) => `${i.sheet}!${i.cell}`)).toEqual(['MAT_2025-10.csv!A3', 'MAT_2025-11.csv!B4']);
    expect(dup.map((i) => i.row)).toEqual([3, 4]);
    expect(dup[0].message).toContain('(rows MAT_2025-10.csv!3, MAT_2025-11.csv!4)');
    expect(v.sheets).toEqual([
      expect.objectContaining({ name: 'supplier-products', sheetName: 'MAT_2025-10.csv + MAT_2025-11.csv', rows: 4 }),
    ]);
    // a row rule of a row of the second file is at that file's cell
    const q = await readSources([oct, nov], {
      mapping: mapping({
        ...m,
        sheets: { 'supplier-products': { ...m.sheets['supplier-products'], constants: { secondary_percentage: 130 } } },
      }),
    });
    const range = (await check(q)).issues.filter(
      (i) => i.field === 'secondary_percentage' && i.sheet === 'MAT_2025-11.csv',
    );
    expect(range.map((i) => i.row)).toEqual([3, 4]);
  });
});

describe('the column-mapping contract', () => {
  it('version and sheets required; unknown keys are errors with their path; fields must exist', () => {
    expect(parseColumnMapping({ sheets: {} })).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^version/)],
    });
    expect(parseColumnMapping({ version: 1 })).toMatchObject({ ok: false, errors: [expect.stringMatching(/^sheets/)] });
    const r = parseColumnMapping({
      version: 1,
      sheets: { 'supplier-products': { colums: {} } },
      csv: { delimeter: ';' },
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors).toEqual(
      expect.arrayContaining([
        'sheets.supplier-products.colums: unknown key (a typo?)',
        'csv.delimeter: unknown key (a typo?)',
      ]),
    );
    const f = parseColumnMapping({ version: 1, sheets: { 'supplier-products': { columns: { Werk: 'plant' } } } });
    expect(!f.ok && f.errors[0]).toMatch(
      /^sheets\.supplier-products\.columns\.Werk: "plant" is not a field of supplier-products/,
    );
    expect(parseColumnMapping({ version: 1, sheets: { nonsense: {} } }).ok).toBe(false);
    const issueExample = parseColumnMapping({
      version: 1,
      name: 'SAP MM monthly',
      sheets: {
        'supplier-products': {
          source: 'MAT_*.csv',
          header_row: 1,
          columns: { Materialnummer: 'external_id', Materialkurztext: 'name', Werk: 'plant_code' },
          ignore: ['Kommentar'],
          values: { unit: { Stück: 'UNIT', kg: 'KG' } },
          constants: { country: 'DE' },
        },
      },
      csv: { delimiter: ';', encoding: 'windows-1252', decimal: ',', date: 'DD.MM.YYYY' },
    });
    // country is no field of supplier-products: refused with its path and exactly where it belongs instead
    expect(!issueExample.ok && issueExample.errors).toEqual([
      'sheets.supplier-products.constants.country: "country" is not a field of supplier-products: it belongs to the supplier-plants and the supplier-companies its rows refer to. ' +
        'Give the constant where those rows are read: "sheets": { "supplier-plants": { "constants": { "country": "DE" } } } and "sheets": { "supplier-companies": { "constants": { "country": "DE" } } } ' +
        '(a sheet entry without "source" applies to the source named after the sheet)',
    ]);
    // done as it says, the example is accepted
    expect(
      parseColumnMapping({
        version: 1,
        sheets: {
          'supplier-products': { source: 'MAT_*.csv' },
          'supplier-plants': { constants: { country: 'DE' } },
          'supplier-companies': { constants: { country: 'DE' } },
        },
      }).ok,
    ).toBe(true);
    expect(!parseColumnMapping({ version: 1, sheets: { silos: { constants: { colour: 'red' } } } }).ok).toBe(true);
  });

  it('source glob, header_row with a title above, values and constants', async () => {
    const path = tmp.file('LIEF_2025-11.csv');
    await writeFile(
      path,
      iconv.encode(
        'Lieferantenstamm November 2025\r\nKreditor;Firma;Land;Bemerkung\r\n70001;Müller GmbH;Deutschland;x\r\n70002;Hofer AG;Österreich;\r\n',
        'windows-1252',
      ),
    );
    const m = mapping({
      version: 1,
      sheets: {
        'supplier-companies': {
          source: 'LIEF_*.csv',
          header_row: 2,
          columns: { Kreditor: 'external_id', Firma: 'name', Land: 'country' },
          ignore: ['Bemerkung'],
          values: { country: { Deutschland: 'DE', Österreich: 'AT' } },
        },
      },
    });
    const p = await readSource(path, { mapping: m });
    expect(p.issues).toEqual([]);
    expect(p.sheets[0].rows).toEqual([
      { row: 3, values: { external_id: '70001', name: 'Müller GmbH', country: 'DE' } },
      { row: 4, values: { external_id: '70002', name: 'Hofer AG', country: 'AT' } },
    ]);
    const c = mapping({
      version: 1,
      sheets: {
        'supplier-plants': {
          source: 'LIEF_*.csv',
          header_row: 2,
          columns: { Kreditor: 'external_id', Firma: 'name' },
          constants: { supplier_company_external_id: 'SUP-1', country: 'DE' },
          ignore: ['Land', 'Bemerkung'],
        },
      },
    });
    const q = await readSource(path, { mapping: c });
    expect(q.sheets[0].rows[0].values).toEqual({
      external_id: '70001',
      name: 'Müller GmbH',
      supplier_company_external_id: 'SUP-1',
      country: 'DE',
    });
  });
});

describe('mapping suggest', () => {
  it('finds the sheet, the header row under a title, and fields for headers not written in the synonym table', async () => {
    const path = tmp.file('Einkauf_2025-11.csv');
    await writeFile(
      path,
      iconv.encode(
        'Einkaufsdaten für Werk Heidelberg\r\n\r\nLieferprodukt-ID;Materialbezeichnung (lang);Werk Nr.;Material-Code;Mengeneinh.;LKW-Distanz (km);Notiz\r\nA1;Sand;PL-HEID;MAT-SAND;kg;12,5;\r\n',
        'windows-1252',
      ),
    );
    const { mapping: m, perSource } = suggestMapping(await peekSource(path));
    expect(perSource[0]).toMatchObject({ sheet: 'supplier-products', headerRow: 3 });
    const sp = m.sheets['supplier-products']!;
    expect(sp.source).toBe('Einkauf_*.csv');
    expect(m.csv).toMatchObject({ delimiter: ';', encoding: 'windows-1252', decimal: ',' });
    // Applied (confidence ≥ 0.8): lenient, a synonym behind a unit in brackets, a synonym within the header.
    expect(sp.columns).toEqual({
      'Material-Code': 'material_code',
      'Materialbezeichnung (lang)': 'name',
      'LKW-Distanz (km)': 'truck_km',
    });
    const method = Object.fromEntries(m.suggestions!.map((s) => [s.column, s.method]));
    expect(method).toMatchObject({
      'Material-Code': 'lenient',
      'Materialbezeichnung (lang)': 'synonym',
      'LKW-Distanz (km)': 'synonym',
    });
    // Low confidence is listed, never applied silently; the required fields without a column are named.
    const low = m.suggestions!.filter((s) => s.confidence < 0.8).map((s) => s.column);
    expect(low.length).toBeGreaterThan(0);
    for (const c of low) expect(sp.columns![c]).toBeUndefined();
    expect(m.unmapped_required!['supplier-products']).toEqual(
      expect.arrayContaining(['external_id', 'plant_code', 'unit']),
    );
    expect(m.suggestions!.every((s) => s.confidence > 0 && s.confidence <= 1)).toBe(true);
    // The draft is a valid mapping (its suggestions included).
    expect(parseColumnMapping(JSON.parse(JSON.stringify(m))).ok).toBe(true);
  });

  it('a workbook: each sheet is a source; the title row above the header is skipped', async () => {
    const path = tmp.file('erp.xlsx');
    await writeXlsx(path, {
      Kreditoren: [
        ['Kreditorenliste Stand 30.11.2025'],
        ['Kreditorennummer', 'Firmenname', 'Land', 'Sachbearbeiter'],
        ['70001', 'Müller GmbH', 'DE', 'Meier'],
      ],
      Notizen: [['irgendwas']],
    });
    const { mapping: m, perSource } = suggestMapping(await peekSource(path));
    expect(perSource.map((s) => [s.source, s.sheet, s.headerRow])).toEqual([
      ['Kreditoren', 'supplier-companies', 2],
      ['Notizen', null, 1],
    ]);
    expect(m.sheets['supplier-companies']).toEqual({
      source: 'Kreditoren',
      header_row: 2,
      columns: { Kreditorennummer: 'external_id', Firmenname: 'name', Land: 'country' },
      ignore: ['Sachbearbeiter'],
    });
    expect(m.unmapped_required).toBeUndefined();
    // The draft reads the workbook as it is.
    const parsed = await readWorkbook(path, { mapping: mapping(JSON.parse(JSON.stringify(m))) });
    expect(parsed.sheets[0].rows).toEqual([
      { row: 3, values: { external_id: '70001', name: 'Müller GmbH', country: 'DE' } },
    ]);
  });
});
