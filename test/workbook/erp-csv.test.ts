/**
 * CSV sources at the cell: encodings, delimiters, quoted line breaks, decimal comma, dates, the same guards as
 * workbooks, addresses in the source file, sources mixed, and several files feeding one sheet.
 */
import { writeFile } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { readSource, readSources } from '../../core/workbook/sources/index.js';
import type { ParsedWorkbook } from '../../core/workbook/types.js';
import { headerOf, rowOf, supplierProduct, writeXlsx, tempDir } from './helpers.js';
import { at, check, mapping } from './erp-helpers.js';

const tmp = tempDir('sl-erp-');
afterAll(() => tmp.cleanup());

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

  it('text that looks like an Excel _xHHHH_ escape is kept as it is (a CSV has no escapes)', async () => {
    const p = await companies(
      'supplier-companies.csv',
      Buffer.from('external_id;name;country\r\nSC_x0031_;A_x000D_B;DE\r\n', 'utf8'),
    );
    expect(p.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(p.sheets[0].rows.map((r) => r.values)).toEqual([
      { external_id: 'SC_x0031_', name: 'A_x000D_B', country: 'DE' },
    ]);
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
