/**
 * A damaged workbook is told in words: what is wrong, the file (and the sheet), and how to get a readable copy;
 * never the zip reader's or the XML parser's own words.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSources } from '../../core/workbook/sources/index.js';
import { rewriteZip, tempDir, writeXlsx } from './helpers.js';

const tmp = tempDir('sl-damaged-');
afterAll(() => tmp.cleanup());

/** Words of the libraries underneath that must never reach a user. */
const RAW =
  /central directory|signature|entity name|close tag|closing tag|only one root|disallowed|unexpected|saxes|\d+:\d+:|Cannot read properties|\bat \w+ \(/i;

const good = tmp.file('good.xlsx');
beforeAll(async () => {
  await writeXlsx(good, {
    'supplier-companies': [
      ['external_id', 'name', 'country'],
      ['S1', 'A', 'DE'],
      ['S2', 'B', 'DE'],
    ],
  });
});

async function fileError(name: string) {
  const p = await readSources([tmp.file(name)]);
  const errors = p.issues.filter((i) => i.severity === 'error');
  expect(errors).toHaveLength(1);
  const [e] = errors;
  expect(e.message).toContain(name);
  expect(e.message).not.toMatch(RAW);
  expect(JSON.stringify(e.params ?? {})).not.toMatch(RAW);
  expect(e.message).toMatch(/Excel or LibreOffice/);
  expect(p.sheets).toEqual([]);
  return e;
}

const sheetXml = (n: string) => /worksheets\/sheet1\.xml$/.test(n);

describe('a damaged .xlsx', () => {
  it('cut off (half of it, or its last bytes): incomplete, get it again', async () => {
    const bytes = await readFile(good);
    await writeFile(tmp.file('half.xlsx'), bytes.subarray(0, bytes.length >> 1));
    await writeFile(tmp.file('tail.xlsx'), bytes.subarray(0, bytes.length - 10));
    for (const name of ['half.xlsx', 'tail.xlsx']) {
      const e = await fileError(name);
      expect(e.code).toBe('corrupt_zip');
      expect(e.message).toMatch(/incomplete.*Get the file again/);
    }
  });

  it('malformed XML in a sheet: names the sheet', async () => {
    await rewriteZip(good, tmp.file('close-tag.xlsx'), (n, d) =>
      sheetXml(n) ? Buffer.from(d.toString().replace('</row>', '</rox>')) : d,
    );
    const e = await fileError('close-tag.xlsx');
    expect(e.code).toBe('unreadable');
    expect(e.message).toMatch(/sheet "supplier-companies" are not valid/);
  });

  it('a broken entity in the shared strings: names the part holding the text of the cells', async () => {
    await rewriteZip(good, tmp.file('entity.xlsx'), (n, d) =>
      n.endsWith('sharedStrings.xml') ? Buffer.from(d.toString().replace('<t>S1</t>', '<t>S &x y; 1</t>')) : d,
    );
    const e = await fileError('entity.xlsx');
    expect(e.message).toMatch(/text of its cells.*not valid/);
  });

  it('a sheet whose XML is cut off inside a whole zip is refused, not read as far as it goes', async () => {
    await rewriteZip(good, tmp.file('cut-sheet.xlsx'), (n, d) => (sheetXml(n) ? d.subarray(0, d.length - 40) : d));
    const e = await fileError('cut-sheet.xlsx');
    expect(e.message).toMatch(/sheet "supplier-companies" is cut off/);
  });

  it("a damaged .xls: the file named, the library's words left out", async () => {
    const cfb = Buffer.alloc(4096, 0x41);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(cfb);
    Buffer.from('Workbook', 'utf16le').copy(cfb, 1024);
    await writeFile(tmp.file('broken.xls'), cfb);
    const e = await fileError('broken.xls');
    expect(e.code).toBe('legacy_xls');
  });
});
