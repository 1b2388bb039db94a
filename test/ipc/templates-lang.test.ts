/** `templates.generate` with the UI's language: a German UI downloads a German template (same columns). */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { AppServices } from '../../core/app/services.js';
import { procedures } from '../../core/ipc/contract.js';
import { templatesHandlers } from '../../core/ipc/handlers/templates.js';

async function instructionsTitle(base64: string): Promise<{ title: unknown; header: unknown }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(base64, 'base64') as unknown as ExcelJS.Buffer);
  return {
    title: wb.getWorksheet('Instructions')!.getCell('A1').value,
    header: wb.getWorksheet('bom')!.getCell('A1').value,
  };
}

describe('templates.generate lang', () => {
  const generate = (input: unknown) =>
    templatesHandlers['templates.generate'](procedures['templates.generate'].input.parse(input), {} as AppServices);

  it('lang de: the Instructions sheet is German, the column names unchanged', async () => {
    const g = await generate({ sheet: 'bom', lang: 'de' });
    expect(await instructionsTitle(g.dataBase64)).toEqual({
      title: 'Supply-Loader-Arbeitsmappe',
      header: 'product_instance_external_id',
    });
  });

  it('without lang (an older caller): English', async () => {
    const g = await generate({ sheet: 'bom' });
    expect((await instructionsTitle(g.dataBase64)).title).toBe('Supply Loader workbook');
  });
});
