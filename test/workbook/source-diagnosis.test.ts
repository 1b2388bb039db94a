/**
 * A file is told what it is under its own name (SYLK, DIF, a web page, text with another extension: never "an
 * .xlsx name"), a CSV with a NUL byte is read as a CSV, a CSV's encoding is that of the whole file (never
 * "UTF-8" for a file that is not, never a warning for one that is), and CSV values with line breaks survive the
 * results files as written.
 */
import fs from 'node:fs';
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCsvResults } from '../../core/workbook/csv-results.js';
import { readSource } from '../../core/workbook/sources/index.js';
import { peekSource } from '../../core/workbook/sources/peek.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('sl-diagnosis-');
afterAll(() => tmp.cleanup());

const write = (name: string, content: string | Buffer) => {
  const p = tmp.file(name);
  fs.writeFileSync(p, content);
  return p;
};

describe('a diagnosis names the file as it is', () => {
  it.each([
    ['export.slk', 'ID;PWXL;N;E\r\nC;Y1;X1;K"external_id"\r\nE\r\n', 'slk', /SYLK file/],
    ['export.dif', 'TABLE\r\n0,1\r\n"EXCEL"\r\nVECTORS\r\n0,1\r\n""\r\n', 'dif', /DIF file/],
    [
      'export.htm',
      '<!DOCTYPE html><html><body><table><tr><td>a</td></tr></table></body></html>',
      'html_page',
      /web page/,
    ],
  ])('%s is said to be what it is, never a file with an .xlsx name', async (file, content, variant, words) => {
    const p = await readSource(write(file, content));
    expect(p.readable).toBe(false);
    expect(p.issues[0]).toMatchObject({ code: 'other_format', params: { variant } });
    expect(p.issues[0].message).toMatch(words);
    expect(p.issues[0].message).not.toMatch(/\.xlsx name/);
  });

  it('text with an extension Supply Loader does not read is named by its own extension', async () => {
    const p = await readSource(write('export.prn', 'external_id;name\r\nSC-1;Kies AG\r\n'));
    expect(p.issues[0]).toMatchObject({ code: 'csv_renamed', params: { ext: '.prn' } });
    expect(p.issues[0].message).toMatch(/^This is a text \(CSV\) file with an \.prn name/);
  });

  it('a CSV with a NUL byte is read as a CSV, not called a broken workbook', async () => {
    const p = await readSource(
      write('supplier-companies.csv', 'external_id;name;country\r\nSC-1;Kies\u0000 AG;DE\r\nSC-2;Sand AG;AT\r\n'),
    );
    expect(p.issues.filter((i) => i.sheet === null)).toEqual([]);
    expect(p.sheets[0].csv).toMatchObject({ encoding: 'utf-8', delimiter: ';' });
    expect(p.sheets[0].rows.map((r) => r.values.external_id)).toEqual(['SC-1', 'SC-2']);
  });
});

describe('the encoding of a CSV is that of the whole file', () => {
  const ascii = (rows: number) =>
    'external_id;name;country\r\n' +
    Array.from({ length: rows }, (_, i) => `SC-${i};Lieferant ${i} GmbH;DE\r\n`).join('');

  it('Windows-1252 past the first megabyte: read as Windows-1252 (peek too), the value intact, no warning', async () => {
    const text = `${ascii(50_000)}SC-X;Müller GmbH;AT\r\n`;
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const p = await readSource(write('supplier-companies.csv', iconv.encode(text, 'windows-1252')));
    expect(p.sheets[0].csv?.encoding).toBe('windows-1252');
    expect(p.sheets[0].rows.at(-1)?.values.name).toBe('Müller GmbH');
    expect(p.issues).toEqual([]);
    const peeked = await peekSource(tmp.file('supplier-companies.csv'));
    expect(peeked[0].csv?.encoding).toBe('windows-1252');
  });

  it('a valid UTF-8 file (a U+FFFD character of its own, a multi-byte character across chunks) is UTF-8, never warned about', async () => {
    const text = `${ascii(50_000)}SC-X;Müller \ufffd GmbH;AT\r\n${'SC-Y;€€€;DE\r\n'.repeat(30_000)}`;
    const p = await readSource(write('supplier-companies.csv', text));
    expect(p.sheets[0].csv?.encoding).toBe('utf-8');
    expect(p.issues).toEqual([]);
    expect(p.sheets[0].rows.find((r) => r.values.external_id === 'SC-X')?.values.name).toBe('Müller \ufffd GmbH');
  });

  it('a file whose BOM says UTF-8 while a byte is not: the cell is told', async () => {
    const bytes = Buffer.concat([
      Buffer.from('\ufeffexternal_id;name;country\r\nSC-1;M', 'utf8'),
      Buffer.from([0xfc]),
      Buffer.from('ller;DE\r\n'),
    ]);
    const p = await readSource(write('supplier-companies.csv', bytes));
    expect(p.issues).toContainEqual(
      expect.objectContaining({ code: 'control_characters', sheet: 'supplier-companies.csv' }),
    );
  });
});

describe('CSV values exactly as written', () => {
  it('line breaks inside quoted fields (CRLF, LF, CR) are read as written and stay one value in the results files', async () => {
    const source = write(
      'supplier-companies.csv',
      'external_id;name;country\r\n"SC-1";"Kies\r\nAG";DE\r\n"SC-2";"Sand\nAG";DE\r\n"SC-3";"Ton\rAG";DE\r\n',
    );
    const p = await readSource(source);
    expect(p.sheets[0].rows.map((r) => r.values.name)).toEqual(['Kies\r\nAG', 'Sand\nAG', 'Ton\rAG']);
    const results = tmp.file('results.csv');
    await writeCsvResults({
      source,
      format: p.sheets[0].csv!,
      headerRow: 1,
      outcomes: { get: () => ({ result: 'created', failed: false }) },
      results,
    });
    // read back as a spreadsheet program does: any line break outside quotes ends a record
    const back = parseSync(fs.readFileSync(results, 'utf8'), {
      delimiter: ';',
      record_delimiter: ['\r\n', '\n', '\r'],
    }) as string[][];
    expect(back.map((r) => r[1])).toEqual(['name', 'Kies\r\nAG', 'Sand\nAG', 'Ton\rAG']);
  });
});
