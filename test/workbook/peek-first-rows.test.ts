/**
 * The Columns step's peek reads each sheet's first rows only: the rest of a worksheet's part is neither inflated
 * nor parsed, nor the shared strings after the last one those rows use (feed.ts ElementCap). Shown by a sheet whose
 * XML is broken after its 40th row, and by shared strings broken after the ones the first rows use: the first 30
 * rows of each sheet are peeked as from the intact file.
 */
import { describe, expect, it } from 'vitest';
import { peekSource } from '../../core/workbook/sources/peek.js';
import { rewriteZip, tempDir, writeXlsx } from './helpers.js';

const tmp = tempDir('sl-peek-first-');

describe('peekSource reads the first rows of each sheet', () => {
  it('a sheet broken after its first rows peeks as the intact one, and so does the sheet after it', async () => {
    const intact = tmp.file('intact.xlsx');
    const rows = Array.from({ length: 200 }, (_, i) => [`7${String(i).padStart(4, '0')}`, `Firma ${i}`, i * 1.5]);
    await writeXlsx(intact, {
      Kreditoren: [['Kreditorennummer', 'Firmenname', 'Menge'], ...rows],
      Notizen: [['irgendwas'], ['mehr']],
    });
    const broken = tmp.file('broken.xlsx');
    let cut = false;
    await rewriteZip(intact, broken, (name, data) => {
      if (name !== 'xl/worksheets/sheet1.xml') return data;
      const xml = data.toString('utf8');
      const at = xml.indexOf('<row r="41"');
      expect(at).toBeGreaterThan(0);
      cut = true;
      return Buffer.from(`${xml.slice(0, at)}<row r="41"><c r="A41"><v>1</c></x></row>${xml.slice(at)}`);
    });
    expect(cut).toBe(true);

    const whole = await peekSource(intact);
    expect(whole.map((s) => [s.name, s.rows.length])).toEqual([
      ['Kreditoren', 30],
      ['Notizen', 2],
    ]);
    expect(whole[0].rows[29]).toEqual(['70028', 'Firma 28', '42']);
    expect(await peekSource(broken)).toEqual(whole.map((s) => ({ ...s, file: 'broken.xlsx' })));
    // a peek of more rows than are intact reaches the damage, and says so
    await expect(peekSource(broken, { maxRows: 60 })).rejects.toThrow(/broken\.xlsx: the workbook cannot be read/);
  });

  it('shared strings broken after the ones the first rows use: peeked as the intact ones', async () => {
    const intact = tmp.file('strings.xlsx');
    // 3 header strings and 2 a row: the first 30 rows use 61 shared strings, the first 100 rows 201.
    const rows = Array.from({ length: 200 }, (_, i) => [`K${i}`, `Firma ${i}`, i]);
    await writeXlsx(intact, {
      Kreditoren: [['Kreditorennummer', 'Firmenname', 'Menge'], ...rows],
      Zahlen: [
        [1, 2],
        [3, 4],
      ],
    });
    const broken = tmp.file('strings-broken.xlsx');
    let cut = false;
    await rewriteZip(intact, broken, (name, data) => {
      if (name !== 'xl/sharedStrings.xml') return data;
      const xml = data.toString('utf8');
      let at = 0;
      for (let i = 0; i < 150; i++) at = xml.indexOf('</si>', at) + '</si>'.length;
      cut = true;
      return Buffer.from(`${xml.slice(0, at)}<si><t>x</t></x></si>${xml.slice(at)}`);
    });
    expect(cut).toBe(true);
    const whole = await peekSource(intact);
    expect(whole[0].rows[30]).toBeUndefined();
    expect(whole[0].rows[29]).toEqual(['K28', 'Firma 28', '28']);
    expect(await peekSource(broken)).toEqual(whole.map((s) => ({ ...s, file: 'strings-broken.xlsx' })));
    expect((await peekSource(broken, { maxRows: 60 }))[0].rows[59]).toEqual(['K58', 'Firma 58', '58']);
    await expect(peekSource(broken, { maxRows: 100 })).rejects.toThrow(
      /strings-broken\.xlsx: the workbook cannot be read/,
    );
  });
});
