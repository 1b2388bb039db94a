/** `template --lang de|en`: the Instructions sheet and header notes in the language asked for; another is exit 2. */
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { cli, tmpDir } from './helpers.js';

async function instructions(file: string): Promise<{ title: unknown; note: string; header: unknown }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const note = wb.getWorksheet('supplier-products')!.getCell('A1').note;
  return {
    title: wb.getWorksheet('Instructions')!.getCell('A1').value,
    note: typeof note === 'string' ? note : JSON.stringify(note),
    header: wb.getWorksheet('supplier-products')!.getCell('A1').value,
  };
}

describe('template --lang', () => {
  const dir = tmpDir();

  it('--lang de writes a German template with the same column names', async () => {
    const r = await cli(['template', '-o', 'de.xlsx', '--lang', 'de'], { cwd: dir });
    expect(r.code).toBe(0);
    const de = await instructions(path.join(dir, 'de.xlsx'));
    expect(de.title).toBe('Supply-Loader-Arbeitsmappe');
    expect(de.header).toBe('external_id');
    expect(de.note).toMatch(/^external_id \(Pflichtfeld\)/);
  });

  it('--lang en and no --lang write the English one', async () => {
    for (const args of [['--lang', 'en'], []]) {
      const r = await cli(['template', '-o', 'en.xlsx', ...args], { cwd: dir });
      expect(r.code).toBe(0);
      const en = await instructions(path.join(dir, 'en.xlsx'));
      expect(en.title).toBe('Supply Loader workbook');
      expect(en.note).toMatch(/^external_id \(required\)/);
    }
  });

  it('another language is a usage error (exit 2) that names the choices', async () => {
    const r = await cli(['template', '-o', 'fr.xlsx', '--lang', 'fr'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('one of: en, de');
  });
});
