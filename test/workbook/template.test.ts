/** Templates read back with exceljs: headers, notes, dropdowns, number validation, frozen header; up to date. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNITS } from '../../core/spec/constants.js';
import { DOC_BEGIN, DOC_END, sheetsMarkdown } from '../../core/workbook/describe.js';
import { readWorkbook } from '../../core/workbook/reader.js';
import { DATA_SHEETS } from '../../core/workbook/registry.js';
import { allTemplates, buildTemplate } from '../../core/workbook/template.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import { VALIDATION_ROWS } from '../../core/workbook/xlsx-layout.js';
import { headerOf, tempDir, zipEntries } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

let wb: ExcelJS.Workbook;
beforeAll(async () => {
  wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await buildTemplate()) as unknown as ExcelJS.Buffer);
});

type Validation = { type: string; formulae?: unknown[]; operator?: string; errorStyle?: string };
const validationAt = (ws: ExcelJS.Worksheet, cell: string): Validation | undefined =>
  (ws as unknown as { dataValidations: { model: Record<string, Validation> } }).dataValidations.model[cell];

describe('combined onboarding template', () => {
  it('has Instructions, every data sheet in onboarding order, and a hidden lists sheet', () => {
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Instructions', ...DATA_SHEETS.map((d) => d.name), 'lists']);
    expect(wb.getWorksheet('lists')!.state).toBe('hidden');
    for (const d of DATA_SHEETS) expect(wb.getWorksheet(d.name)!.state).toBe('visible');
  });

  it('row 1 holds the field names exactly, each with a note; the header row is frozen', () => {
    for (const d of DATA_SHEETS) {
      const ws = wb.getWorksheet(d.name)!;
      const header = headerOf(d.name as never);
      header.forEach((field, i) => {
        const cell = ws.getRow(1).getCell(i + 1);
        expect(cell.value).toBe(field);
        const note = String(typeof cell.note === 'string' ? cell.note : JSON.stringify(cell.note));
        expect(note).toContain(field);
        expect(note).toMatch(d.columns[field].required ? /\(required\)/ : /\(optional\).*|#CLEAR/s);
        expect(note).toContain(d.columns[field].description.slice(0, 20));
      });
      expect(ws.getRow(1).getCell(header.length + 1).value).toBeNull();
      expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(ws.getColumn(1).width).toBeGreaterThanOrEqual(10);
    }
    const sp = wb.getWorksheet('supplier-products')!;
    expect(String(sp.getCell('G1').note)).toMatch(/Unit: km/);
    expect(String(sp.getCell('F1').note)).toContain('METRIC TON*KM');
    expect(String(sp.getCell('E1').note)).toMatch(/Blank = not set.*#CLEAR/s);
  });

  it('has a dropdown for every enum column, from the hidden lists sheet', () => {
    expect(validationAt(wb.getWorksheet('supplier-products')!, 'F2')).toMatchObject({
      type: 'list',
      formulae: ['lists!$B$2:$B$11'],
    });
    expect(validationAt(wb.getWorksheet('supplier-products')!, `F${VALIDATION_ROWS + 1}`)?.type).toBe('list');
    expect(validationAt(wb.getWorksheet('supplier-companies')!, 'C2')).toMatchObject({
      type: 'list',
      formulae: ['lists!$A$2:$A$250'],
    });
    expect(validationAt(wb.getWorksheet('supplier-plants')!, 'D5')).toMatchObject({
      type: 'list',
      formulae: ['lists!$A$2:$A$250'],
    });
    expect(validationAt(wb.getWorksheet('bom')!, 'B2')).toMatchObject({
      type: 'list',
      formulae: ['lists!$C$2:$C$4'],
      errorStyle: 'stop',
    });
    expect(validationAt(wb.getWorksheet('materials')!, 'B2')).toMatchObject({
      type: 'list',
      formulae: ['lists!$D$2:$D$3'],
      errorStyle: 'warning',
    });
    const lists = wb.getWorksheet('lists')!;
    expect(lists.getRow(1).values).toEqual([
      undefined,
      'country',
      'unit',
      'component_type',
      'category',
      'row_action',
      'child_row_action',
    ]);
    expect(lists.getCell('A2').value).toBe('AD');
    expect(lists.getCell('A250').value).toBe('ZW');
    expect([2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((r) => lists.getCell(`B${r}`).value)).toEqual([...UNITS]);
    expect(lists.getCell('C4').value).toBe('prechain_product');
    expect(lists.getCell('D3').value).toBe('composite');
  });

  it('validates whole numbers and decimals with their ranges', () => {
    expect(validationAt(wb.getWorksheet('product-instances')!, 'D2')).toMatchObject({
      type: 'whole',
      operator: 'between',
      formulae: [1900, 2200],
    });
    expect(validationAt(wb.getWorksheet('silo-items')!, 'C2')).toMatchObject({ type: 'whole', formulae: [1900, 2200] });
    expect(validationAt(wb.getWorksheet('supplier-products')!, 'G2')).toMatchObject({
      type: 'decimal',
      operator: 'greaterThanOrEqual',
      formulae: [0],
    });
    expect(validationAt(wb.getWorksheet('supplier-products')!, 'M2')).toMatchObject({
      type: 'decimal',
      operator: 'between',
      formulae: [0, 100],
    });
    expect(validationAt(wb.getWorksheet('bom')!, 'D2')).toMatchObject({
      type: 'decimal',
      operator: 'greaterThan',
      formulae: [0],
    });
    expect(validationAt(wb.getWorksheet('hazardous-substances')!, 'C2')).toMatchObject({
      type: 'decimal',
      operator: 'between',
      formulae: [0, 1],
    });
    expect(validationAt(wb.getWorksheet('supplier-products')!, 'A2')).toBeUndefined();
  });

  it('formats code columns as Text and explains the format on the Instructions sheet', () => {
    expect(wb.getWorksheet('supplier-products')!.getColumn(1).numFmt).toBe('@');
    const text = wb
      .getWorksheet('Instructions')!
      .getSheetValues()
      .flat()
      .filter((v) => typeof v === 'string')
      .join('\n');
    expect(text).toMatch(/blank cell means "not set"/i);
    expect(text).toContain('#CLEAR');
    expect(text).toMatch(/web interface/);
    const order = DATA_SHEETS.map((d) => text.indexOf(d.purpose));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('reads back clean with our own reader; unfilled, it is "no data rows", never green', async () => {
    const path = tmp.file('combined.xlsx');
    await writeFile(path, await buildTemplate());
    const parsed = await readWorkbook(path);
    expect(parsed.readable).toBe(true);
    expect(parsed.sheets.map((s) => s.name)).toEqual(DATA_SHEETS.map((d) => d.name));
    expect(parsed.issues).toEqual([]);
    const report = await validateWorkbook(parsed);
    expect(report.issues.map((i) => [i.severity, i.code])).toEqual([['error', 'no_data_rows']]);
    expect(report.ok).toBe(false);
  });
});

describe('per-sheet templates and pre-filled reference data', () => {
  it('a per-sheet template holds Instructions, that sheet and the lists', async () => {
    const one = new ExcelJS.Workbook();
    await one.xlsx.load((await buildTemplate({ sheets: ['bom'] })) as unknown as ExcelJS.Buffer);
    expect(one.worksheets.map((w) => w.name)).toEqual(['Instructions', 'bom', 'lists']);
  });

  it('pre-fills plants, materials and a products reference sheet from plain arrays; the reader ignores products', async () => {
    const plantId = '00000000-0000-4000-8000-0000000000a1';
    const typeId = '00000000-0000-4000-8000-0000000000b1';
    const buf = await buildTemplate({
      sheets: ['supplier-products'],
      referenceData: {
        plants: [{ plant_code: 'HEID', plant_id: plantId }],
        materials: [{ material_code: 'CEM1', category: 'elementary', material_type_id: typeId }],
        products: [
          {
            external_id: '=HYPERLINK("x")',
            name: 'Beton C25/30',
            unit: 'M3',
            id: '00000000-0000-4000-8000-0000000000c1',
          },
        ],
      },
    });
    const path = tmp.file('prefilled.xlsx');
    await writeFile(path, buf);
    const back = new ExcelJS.Workbook();
    await back.xlsx.readFile(path);
    expect(back.worksheets.map((w) => w.name)).toEqual([
      'Instructions',
      'plants',
      'materials',
      'supplier-products',
      'products',
      'lists',
    ]);
    expect(back.getWorksheet('plants')!.getRow(2).values).toEqual([undefined, 'HEID', plantId]);
    expect(back.getWorksheet('products')!.getCell('A2').value).toBe('=HYPERLINK("x")');
    expect(back.getWorksheet('products')!.getCell('A2').formula).toBeUndefined();
    const parsed = await readWorkbook(path);
    expect(parsed.sheets.map((s) => s.name)).toEqual(['plants', 'materials', 'supplier-products']);
    expect(parsed.ignoredSheets.map((s) => s.sheet)).toContain('products');
    expect(parsed.sheets[0].rows).toEqual([{ row: 2, values: { plant_code: 'HEID', plant_id: plantId } }]);
    expect(parsed.issues).toEqual([]);
  });
});

describe('templates/ in the repository', () => {
  it('is regenerated byte for byte (fixed dates)', async () => {
    expect((await buildTemplate()).equals(await buildTemplate())).toBe(true);
  });

  it('is up to date with the registry (run `npm run templates` when this fails)', async () => {
    for (const t of allTemplates()) {
      const fresh = tmp.file(t.file);
      await writeFile(fresh, await buildTemplate(t.options));
      const committed = join('templates', t.file);
      await expect(readFile(committed), `${committed} is missing: run npm run templates`).resolves.toBeTruthy();
      const [a, b] = await Promise.all([zipEntries(committed), zipEntries(fresh)]);
      expect([...a.keys()].sort(), `${committed}: parts differ`).toEqual([...b.keys()].sort());
      for (const [name, data] of b)
        expect(a.get(name)?.toString('utf8'), `${committed}: ${name} is out of date: run npm run templates`).toBe(
          data.toString('utf8'),
        );
    }
  });

  it("docs/workbook-format.md has the registry's sheet tables (run `npm run templates` when this fails)", async () => {
    const doc = await readFile('docs/workbook-format.md', 'utf8');
    const generated = doc.slice(doc.indexOf(DOC_BEGIN), doc.indexOf(DOC_END) + DOC_END.length);
    expect(generated).toBe(sheetsMarkdown());
    for (const d of DATA_SHEETS)
      for (const field of Object.keys(d.columns)) expect(generated).toContain(`| \`${field}\` |`);
  });
});
