/** File-level guards: each bad file is one clear error in words, before (or instead of) reading rows. */
import { copyFile, readFile, truncate, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import type { ParsedWorkbook, ReadLimits } from '../../core/workbook/types.js';
import { headerOf, rewriteZip, rowOf, supplierProduct, tempDir, writeXlsx, writeZip, zipEntries } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let base: string;
beforeAll(async () => {
  base = tmp.file('base.xlsx');
  await writeXlsx(base, {
    'supplier-products': [
      headerOf('supplier-products'),
      ...Array.from({ length: 50 }, (_, i) => rowOf('supplier-products', supplierProduct(i))),
    ],
  });
});

/** Exactly one error, at file level, with this code; nothing read. */
async function fileError(path: string, code: string, limits?: Partial<ReadLimits>): Promise<string> {
  const p: ParsedWorkbook = await readWorkbook(path, { limits });
  const errors = p.issues.filter((i) => i.severity === 'error');
  expect(errors, JSON.stringify(p.issues)).toHaveLength(1);
  expect(errors[0]).toMatchObject({ code, sheet: null, cell: null, row: null });
  expect(errors[0].message).not.toMatch(/\n\s+at |TypeError|undefined/);
  expect(p.readable).toBe(false);
  expect(p.sheets).toEqual([]);
  return errors[0].message;
}

const sheetPart = (entries: Map<string, Buffer>) =>
  [...entries.keys()].find((n) => /worksheets\/sheet\d+\.xml$/.test(n))!;

describe('file format', () => {
  it('the base workbook reads', async () => {
    const p = await readWorkbook(base);
    expect(p.readable).toBe(true);
    expect(p.sheets[0].rows).toHaveLength(50);
  });

  it('missing and empty files', async () => {
    expect(await fileError(tmp.file('nope.xlsx'), 'file_not_found')).toMatch(/does not exist/);
    const empty = tmp.file('empty.xlsx');
    await writeFile(empty, '');
    expect(await fileError(empty, 'file_empty')).toMatch(/empty/);
  });

  it('a CSV renamed to .xlsx', async () => {
    const p = tmp.file('csv.xlsx');
    await writeFile(p, 'external_id;name;country\nSC-1;Kieswerk;DE\n');
    expect(await fileError(p, 'csv_renamed')).toMatch(/CSV/);
  });

  it('a legacy .xls and a password-protected workbook (both compound files)', async () => {
    const cfb = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(cfb);
    Buffer.from('Workbook', 'utf16le').copy(cfb, 1024);
    const xls = tmp.file('old.xlsx');
    await writeFile(xls, cfb);
    expect(await fileError(xls, 'legacy_xls')).toMatch(/\.xls\b/);
    Buffer.from('EncryptedPackage', 'utf16le').copy(cfb, 2048);
    const enc = tmp.file('encrypted.xlsx');
    await writeFile(enc, cfb);
    expect(await fileError(enc, 'password_protected')).toMatch(/password/);
  });

  it('a damaged (truncated) zip', async () => {
    const p = tmp.file('truncated.xlsx');
    await copyFile(base, p);
    const size = (await readFile(p)).length;
    await truncate(p, Math.floor(size / 2));
    expect(await fileError(p, 'corrupt_zip')).toMatch(/damaged/);
  });

  it('a zip that is not a workbook, an .ods', async () => {
    const zip = tmp.file('notes.xlsx');
    await writeZip(zip, [{ name: 'notes.txt', data: Buffer.from('hello') }]);
    expect(await fileError(zip, 'not_a_workbook')).toMatch(/not an Excel workbook/);
    const ods = tmp.file('calc.xlsx');
    await writeZip(ods, [
      { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.spreadsheet') },
      { name: 'content.xml', data: Buffer.from('<x/>') },
    ]);
    expect(await fileError(ods, 'other_format')).toMatch(/OpenDocument/);
  });

  it('a file over the size limit', async () => {
    expect(await fileError(base, 'file_too_large', { maxFileBytes: 1000 })).toMatch(/limit is 1 KB/);
  });
});

describe('hostile files', () => {
  it('a zip bomb built here: a tiny file whose sheet inflates far beyond the ratio limit', async () => {
    const entries = await zipEntries(base);
    const sheet = sheetPart(entries);
    const xml = entries.get(sheet)!.toString('utf8');
    // 24 MB of empty rows: deflates ~1000:1
    const bomb = Buffer.from(xml.replace('</sheetData>', `${'<row r="99"/>'.repeat(2_000_000)}</sheetData>`));
    const p = tmp.file('bomb.xlsx');
    await writeZip(
      p,
      [...entries].map(([name, data]) => ({ name, data: name === sheet ? bomb : data })),
    );
    expect((await readFile(p)).length).toBeLessThan(200_000);
    expect(await fileError(p, 'zip_bomb')).toMatch(/zip bomb/);
    // the total-size limit too
    expect(await fileError(base, 'zip_bomb', { maxUncompressedBytes: 10_000 })).toMatch(/limit/);
  });

  it('a zip whose headers understate a part: found while inflating, early or mid-part', async () => {
    const entries = await zipEntries(base);
    const sheet = sheetPart(entries);
    const small = tmp.file('lie-small.xlsx');
    await rewriteZip(base, small, (name, data) => (name === sheet ? { name, data, declaredSize: 100 } : data));
    expect(await fileError(small, 'zip_bomb')).toMatch(/different size/);
    // past the part's first 64 KB (which the guards read before parsing)
    const big = Buffer.from(
      entries
        .get(sheet)!
        .toString('utf8')
        .replace('</sheetData>', `${'<row r="99999"/>'.repeat(20_000)}</sheetData>`),
    );
    const mid = tmp.file('lie-mid.xlsx');
    await writeZip(
      mid,
      [...entries].map(([name, data]) =>
        name === sheet ? { name, data: big, declaredSize: 200_000 } : { name, data },
      ),
    );
    expect(await fileError(mid, 'zip_bomb')).toMatch(/different size/);
  });

  it('XML entity declarations are refused (DOCTYPE in a sheet, ENTITY in the shared strings)', async () => {
    const entries = await zipEntries(base);
    const sheet = sheetPart(entries);
    const dt = tmp.file('doctype.xlsx');
    await rewriteZip(base, dt, (name, data) =>
      name === sheet
        ? Buffer.from(
            data
              .toString('utf8')
              .replace('?>', '?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'),
          )
        : data,
    );
    expect(await fileError(dt, 'xml_entity')).toMatch(/DOCTYPE/);
    const ent = tmp.file('entity.xlsx');
    await rewriteZip(base, ent, (name, data) =>
      name === 'xl/sharedStrings.xml'
        ? Buffer.from(
            data.toString('utf8').replace('?>', '?><!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'),
          )
        : data,
    );
    expect(await fileError(ent, 'xml_entity')).toMatch(/unsafe/);
  });

  it('a declared dimension beyond the row limit is no refusal: the rows that hold data count', async () => {
    const entries = await zipEntries(base);
    const sheet = sheetPart(entries);
    const p = tmp.file('million.xlsx');
    await rewriteZip(base, p, (name, data) =>
      name === sheet
        ? Buffer.from(data.toString('utf8').replace(/<dimension ref="[^"]*"\/>/, '<dimension ref="A1:N1048576"/>'))
        : data,
    );
    expect(entries.get(sheet)!.toString('utf8')).toMatch(/<dimension ref=/);
    const read = await readWorkbook(p);
    expect(read.issues.filter((i) => i.code === 'too_many_rows')).toEqual([]);
    expect(read.readable).toBe(true);
  });
});
