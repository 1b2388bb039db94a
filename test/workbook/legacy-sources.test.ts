/**
 * Legacy and look-alike spreadsheet files read as sources (workbook/sources/legacy.ts): real .xls and .ods files
 * written by LibreOffice Calc and by Excel, an HTML table and tab-separated text saved with an .xls name, each
 * through the validate operation (app/validate.ts) with its header, rows and cell addresses; mapping suggest's
 * peek; what cannot be read said in words; the results writers reading the same copy.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { readAndValidate } from '../../core/app/validate.js';
import { sourceSheets } from '../../core/jobs/source-sheets.js';
import { readWorkbook } from '../../core/workbook/reader.js';
import { readSource } from '../../core/workbook/sources/index.js';
import { legacyXlsxCopy } from '../../core/workbook/sources/legacy.js';
import { peekSource } from '../../core/workbook/sources/peek.js';
import { mapping } from './erp-helpers.js';
import { headerOf, tempDir } from './helpers.js';

const ROOT = join(import.meta.dirname, '../..');
const LO = join(ROOT, 'test/fixtures/libreoffice');
const LEGACY = join(ROOT, 'test/fixtures/legacy');
const tmp = tempDir('sl-legacy-');
afterAll(() => tmp.cleanup());
const write = (name: string, content: Buffer) => {
  const p = tmp.file(name);
  fs.writeFileSync(p, content);
  return p;
};

/** Rows per sheet of the LibreOffice-written onboarding workbook (test/fixtures/libreoffice/make-fixtures.ts). */
const LO_ROWS = {
  'supplier-companies': 3,
  'supplier-plants': 3,
  'supplier-products': 9,
  'hazardous-substances': 2,
  silos: 2,
  'silo-items': 4,
  'product-instances': 3,
  'prechain-products': 1,
  bom: 8,
};

const rowsPerSheet = (sheets: { name: string; rows: unknown[] }[]) =>
  Object.fromEntries(sheets.filter((s) => s.rows.length).map((s) => [s.name, s.rows.length]));

describe('.xls and .ods files are read, not only diagnosed', () => {
  it.each(['onboarding-filled.xls', 'onboarding-filled.ods'])(
    '%s written by LibreOffice Calc validates like its .xlsx twin: same sheets, headers, rows and values',
    async (file) => {
      const { parsed, report } = await readAndValidate([join(LO, file)]);
      const twin = await readWorkbook(join(LO, 'onboarding-filled.xlsx'));
      expect(parsed.readable).toBe(true);
      expect(parsed.file).toBe(file);
      expect(parsed.bytes).toBe(fs.statSync(join(LO, file)).size);
      expect(report.errors).toBe(0);
      expect(rowsPerSheet(parsed.sheets)).toEqual(LO_ROWS);
      for (const s of twin.sheets) {
        const mine = parsed.sheets.find((x) => x.name === s.name)!;
        expect(mine.columns, s.name).toEqual(s.columns);
        expect(mine.rows, s.name).toEqual(s.rows);
      }
    },
  );

  it('a real .xls written by Excel (xlrd test corpus) feeds a sheet through a column mapping, at its own sheet and rows', async () => {
    const m = mapping({
      version: 1,
      sheets: {
        'supplier-companies': {
          source: 'AXISDEF',
          columns: { PROFIL: 'external_id', i: 'name' },
          constants: { country: 'DE' },
          ignore: ['d'],
        },
      },
    });
    const { parsed } = await readAndValidate([join(LEGACY, 'profiles.xls')], { mapping: m });
    const sc = parsed.sheets.find((s) => s.name === 'supplier-companies')!;
    expect(sc.sheetName).toBe('AXISDEF');
    expect(sc.rows).toHaveLength(14);
    expect(sc.rows[0]).toEqual({ row: 2, values: { external_id: 'P8.2', name: '1', country: 'DE' } });
    // its other sheets are named as not read, as an .xlsx's are
    expect(parsed.ignoredSheets.map((s) => s.sheet)).toEqual([
      'PROFILEDEF',
      'TRAVERSALCHAINAGE',
      'AXISDATUMLEVELS',
      'PROFILELEVELS',
    ]);
  });

  it('mapping suggest peeks every sheet of an .xls under its own name and file', async () => {
    const peeked = await peekSource(join(LEGACY, 'profiles.xls'), { maxRows: 3 });
    expect(peeked.map((p) => p.name)).toEqual([
      'PROFILEDEF',
      'AXISDEF',
      'TRAVERSALCHAINAGE',
      'AXISDATUMLEVELS',
      'PROFILELEVELS',
    ]);
    expect(peeked.every((p) => p.file === 'profiles.xls' && !p.isFile)).toBe(true);
    expect(peeked[1].rows).toEqual([
      ['PROFIL', 'i', 'd'],
      ['P8.2', '1', '100'],
      ['P8.3', '2', '101'],
    ]);
  });

  it('an .xls written by the library: an issue points at the sheet and cell of the .xls', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([
        headerOf('supplier-companies'),
        ['SC-1', 'Kies AG', 'DE'],
        ['SC-2', 'Sand AG', 'Germany'],
      ]),
      'supplier-companies',
    );
    const file = tmp.file('export.xls');
    fs.writeFileSync(file, XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer);
    const { parsed, report } = await readAndValidate([file]);
    expect(parsed.sheets[0].rows).toHaveLength(2);
    const col = String.fromCharCode(65 + headerOf('supplier-companies').indexOf('country'));
    expect(report.issues).toContainEqual(
      expect.objectContaining({ severity: 'error', sheet: 'supplier-companies', cell: `${col}3` }),
    );
  });

  it('an HTML table saved with an .xls name (an ERP "Excel" export) is one sheet named after the file, cells as text', async () => {
    const file = tmp.file('supplier-companies.xls');
    fs.writeFileSync(
      file,
      '<html><head><meta charset="utf-8"></head><body><table>' +
        '<tr><td>external_id</td><td>name</td><td>country</td></tr>' +
        '<tr><td>0012</td><td>Müller GmbH</td><td>DE</td></tr>' +
        '<tr><td>SC-2</td><td>Hofer AG</td><td>AT</td></tr></table></body></html>',
    );
    const { parsed, report } = await readAndValidate([file]);
    expect(report.errors).toBe(0);
    expect(parsed.sheets.map((s) => [s.name, s.sheetName])).toEqual([['supplier-companies', 'supplier-companies']]);
    expect(parsed.sheets[0].rows).toEqual([
      { row: 2, values: { external_id: '0012', name: 'Müller GmbH', country: 'DE' } },
      { row: 3, values: { external_id: 'SC-2', name: 'Hofer AG', country: 'AT' } },
    ]);
  });

  it('tab-separated Windows-1252 text saved with an .xls name (SAP GUI "spreadsheet") is read like a CSV', async () => {
    const file = tmp.file('supplier-plants.xls');
    fs.writeFileSync(
      file,
      iconv.encode(
        'external_id\tname\tsupplier_company_external_id\tcountry\tcity\r\n' +
          'SPL-1\tWerk Süd\tSC-1\tDE\t"Mannheim\r\nHafen"\r\n' +
          'SPL-2\tWerk Nord\tSC-1\tAT\tLinz\r\n',
        'windows-1252',
      ),
    );
    const { parsed, report } = await readAndValidate([file]);
    expect(report.errors).toBe(0);
    expect(parsed.sheets[0].name).toBe('supplier-plants');
    expect(parsed.sheets[0].rows.map((r) => r.values)).toEqual([
      {
        external_id: 'SPL-1',
        name: 'Werk Süd',
        supplier_company_external_id: 'SC-1',
        country: 'DE',
        city: 'Mannheim\r\nHafen',
      },
      { external_id: 'SPL-2', name: 'Werk Nord', supplier_company_external_id: 'SC-1', country: 'AT', city: 'Linz' },
    ]);
  });

  it('the results writers read the same sheets from an .xls as the reader did', async () => {
    const names: string[] = [];
    for await (const s of sourceSheets(join(LO, 'onboarding-filled.xls'), (n) => n === 'silos')) {
      names.push(s.name);
      const rows = [];
      for await (const r of s.rows()) rows.push(r.values);
      expect(rows.slice(0, 2)).toEqual([
        [undefined, 'external_id', 'name', 'plant_code'],
        [undefined, 'LO-SILO-00000', 'LO Silo 0', 'PL-HEID'],
      ]);
    }
    expect(names).toEqual(['silos']);
  });
});

describe('what cannot be read is said in words', () => {
  it('a file over the size cap of a legacy file is refused before it is read', async () => {
    await expect(legacyXlsxCopy(join(LEGACY, 'profiles.xls'), 1024)).rejects.toMatchObject({
      code: 'file_too_large',
      message: expect.stringMatching(/an \.xls file is read up to 1 KB.*\.xlsx.*\.csv/) as unknown,
    });
  });

  it('a damaged .xls names its format and how to save it', async () => {
    const file = tmp.file('damaged.xls');
    const real = fs.readFileSync(join(LEGACY, 'profiles.xls'));
    fs.writeFileSync(file, Buffer.concat([real.subarray(0, 512), Buffer.alloc(4096, 0xff)]));
    const p = await readSource(file);
    expect(p.readable).toBe(false);
    expect(p.issues).toHaveLength(1);
    expect(p.issues[0]).toMatchObject({ code: 'legacy_xls', params: { variant: 'unreadable', ext: '.xls' } });
    expect(p.issues[0].message).toMatch(/^This \.xls file cannot be read .*save it as "Excel Workbook \(\.xlsx\)"/);
  });

  it.each([
    ['EncryptionInfo', { code: 'password_protected', params: { variant: 'encrypted' } }],
    ['WordDocument', { code: 'not_a_workbook', params: { variant: 'office' } }],
  ])('an OLE2 file with an .xls name and a %s stream is said to be what it is', async (stream, expected) => {
    const cfb = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(1016),
      Buffer.from(stream, 'utf16le'),
      Buffer.alloc(512),
    ]);
    const p = await readSource(write(`${stream}.xls`, cfb));
    expect(p.readable).toBe(false);
    expect(p.issues).toEqual([expect.objectContaining(expected)]);
  });

  it('a PDF with an .ods name is a PDF', async () => {
    const file = tmp.file('report.ods');
    fs.writeFileSync(file, '%PDF-1.4\n%âãÏÓ\n');
    expect((await readSource(file)).issues[0]).toMatchObject({ code: 'other_format', params: { variant: 'pdf' } });
  });
});
