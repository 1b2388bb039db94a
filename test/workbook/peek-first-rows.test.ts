/**
 * The Columns step's peek reads each sheet's first rows only: the rest of a worksheet's part is neither inflated
 * nor parsed (feed.ts RowCap). Shown by a sheet whose XML is broken after its 40th row: its first 30 rows and the
 * sheet after it are peeked as from the intact file.
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
});
