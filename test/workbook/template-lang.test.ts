/**
 * A German template: the Instructions sheet, the header notes and the cell checks' messages are German, the
 * sheet names, the field names in row 1 and the dropdown lists stay exactly as in the English one (they are the
 * format the reader reads); every sheet purpose and column description has its German text.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_SHEETS, PRODUCTS_REFERENCE_SHEET, columnsOf } from '../../core/workbook/registry.js';
import { readWorkbook } from '../../core/workbook/reader.js';
import { buildTemplate } from '../../core/workbook/template.js';
import { GERMAN_TEXT } from '../../core/workbook/template-words.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import { tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function load(buf: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ExcelJS.Buffer);
  return wb;
}

const noteOf = (cell: ExcelJS.Cell): string =>
  typeof cell.note === 'string' ? cell.note : JSON.stringify(cell.note ?? '');

type Validation = { error?: string; errorTitle?: string };
const validationAt = (ws: ExcelJS.Worksheet, cell: string): Validation | undefined =>
  (ws as unknown as { dataValidations: { model: Record<string, Validation> } }).dataValidations.model[cell];

let de: ExcelJS.Workbook;
let en: ExcelJS.Workbook;
let deBytes: Buffer;
beforeAll(async () => {
  deBytes = await buildTemplate({ lang: 'de' });
  de = await load(deBytes);
  en = await load(await buildTemplate());
});

/** Every text cell of a sheet, joined. */
const textOf = (ws: ExcelJS.Worksheet): string => {
  const out: string[] = [];
  ws.eachRow((row) => row.eachCell((c) => out.push(String(c.value ?? ''))));
  return out.join('\n');
};

describe('German template', () => {
  it('has the same sheets, field names and dropdown lists as the English one', () => {
    expect(de.worksheets.map((w) => w.name)).toEqual(en.worksheets.map((w) => w.name));
    for (const d of DATA_SHEETS) {
      const fields = columnsOf(d).map(([f]) => f);
      const header = (wb: ExcelJS.Workbook) =>
        fields.map(
          (_, i) =>
            wb
              .getWorksheet(d.name)!
              .getRow(1)
              .getCell(i + 1).value,
        );
      expect(header(de)).toEqual(fields);
      expect(header(en)).toEqual(fields);
    }
    expect(textOf(de.getWorksheet('lists')!)).toBe(textOf(en.getWorksheet('lists')!));
  });

  it('writes the Instructions sheet in German, with every sheet purpose in German', () => {
    const text = textOf(de.getWorksheet('Instructions')!);
    expect(text).toContain('Supply-Loader-Arbeitsmappe');
    expect(text).toContain('Schritt');
    expect(text).toContain('Pflichtspalten');
    expect(text).toContain('Eine leere Zelle heißt „nicht gesetzt“');
    for (const d of DATA_SHEETS) expect(text).toContain(GERMAN_TEXT[d.purpose]);
    expect(text).not.toMatch(/One sheet per kind of data|What it does|Required columns|A blank cell/);
  });

  it('writes the header notes and the cell checks in German', () => {
    const sp = de.getWorksheet('supplier-products')!;
    const truck = noteOf(sp.getCell('G1'));
    expect(truck).toBe(
      [
        'truck_km (optional)',
        'Transportstrecke per Lkw vom Lieferantenwerk bis zu Ihrem Werkstor.',
        'Erwartet: eine Zahl ≥ 0 in km.',
        'Einheit: km.',
        'Leer = nicht gesetzt (der Wert beim Dienst bleibt). #CLEAR löscht ihn.',
      ].join('\n'),
    );
    expect(noteOf(sp.getCell('A1'))).toMatch(/^external_id \(Pflichtfeld\)\nIhr Code .*\nErwartet: ein Code/);
    expect(noteOf(sp.getCell('A1'))).toContain('Darf nicht leer sein.');
    const bom = de.getWorksheet('bom')!;
    expect(validationAt(bom, 'B2')).toMatchObject({ errorTitle: 'Hier nicht zulässig' });
    expect(validationAt(bom, 'D2')?.error).toBe('Erwartet: eine Zahl größer als 0 in kg.');
    expect(validationAt(de.getWorksheet('supplier-companies')!, 'C2')?.error).toBe(
      'Wählen Sie einen Wert aus der Liste.',
    );
    for (const d of DATA_SHEETS) {
      columnsOf(d).forEach(([, c], i) => {
        const note = noteOf(
          de
            .getWorksheet(d.name)!
            .getRow(1)
            .getCell(i + 1),
        );
        expect(note).toContain(GERMAN_TEXT[c.description]);
        expect(note).not.toMatch(/Expected:|Must not be blank|Blank = not set|\(required\)/);
      });
    }
  });

  it('the English template stays English', () => {
    expect(textOf(en.getWorksheet('Instructions')!)).toContain('One sheet per kind of data');
    expect(noteOf(en.getWorksheet('supplier-products')!.getCell('G1'))).toContain('Expected: a number ≥ 0 in km.');
  });

  it('has a German text for every sheet purpose and column description of the registry', () => {
    const missing: string[] = [];
    for (const d of [...DATA_SHEETS, PRODUCTS_REFERENCE_SHEET]) {
      if (!GERMAN_TEXT[d.purpose]) missing.push(`${d.name}: ${d.purpose}`);
      for (const [f, c] of columnsOf(d)) if (!GERMAN_TEXT[c.description]) missing.push(`${d.name}.${f}`);
    }
    expect(missing).toEqual([]);
  });

  it('reads back like the English one: the reader finds every sheet, no issue but "no data rows"', async () => {
    const file = join(tmp.dir, 'de.xlsx');
    await writeFile(file, deBytes);
    const parsed = await readWorkbook(file);
    expect(parsed.sheets.map((s) => s.name)).toEqual(DATA_SHEETS.map((d) => d.name));
    expect(parsed.issues).toEqual([]);
    const report = await validateWorkbook(parsed);
    expect(report.issues.map((i) => [i.severity, i.code])).toEqual([['error', 'no_data_rows']]);
  });
});
