/** The streaming reader: coercion as a user means it, and each error kind at its exact cell. */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import type { Issue, ParsedWorkbook, ReadProgress } from '../../core/workbook/types.js';
import { headerOf, rowOf, supplierProduct, tempDir, writeXlsx } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const at = (p: { issues: Issue[] }, code: string) =>
  p.issues.filter((i) => i.code === code).map((i) => `${i.sheet}!${i.cell}`);
const one = (p: { issues: Issue[] }, code: string) => {
  const hits = p.issues.filter((i) => i.code === code);
  expect(hits, `${code} in ${JSON.stringify(p.issues, null, 1)}`).toHaveLength(1);
  return hits[0];
};
const rowAt = (p: ParsedWorkbook, sheet: string, row: number) =>
  p.sheets.find((s) => s.name === sheet)?.rows.find((r) => r.row === row);

describe('coercion', () => {
  let parsed: ParsedWorkbook;
  beforeAll(async () => {
    const path = tmp.file('coercion.xlsx');
    // supplier-products with its columns shuffled and an extra column
    const header = [
      'unit',
      'name',
      'external_id',
      'Bemerkung',
      'plant_code',
      'material_code',
      'truck_km',
      'train_km',
      'ship_km',
      'barge_km',
      'lifetime_years',
      'epd_id',
      'secondary_percentage',
    ];
    const row = (v: Record<string, ExcelJS.CellValue>) => header.map((h) => v[h] ?? null);
    await writeXlsx(
      path,
      {
        'supplier-products': [
          header,
          row({
            unit: 'kg',
            name: 'Sand',
            external_id: 'SP-2  ',
            plant_code: 'P1',
            material_code: 'M1',
            truck_km: ' 120 ',
            train_km: '35,5',
            ship_km: '1.234,5',
            barge_km: '1,234.5',
            lifetime_years: '1 250',
            Bemerkung: 'note',
          }),
          row({
            unit: 'T',
            name: { richText: [{ text: 'Kies ' }, { font: { bold: true }, text: '0/16' }] },
            external_id: 10023,
            plant_code: 'P1',
            material_code: 'M1',
            truck_km: { formula: 'G2*2', result: 240 },
            epd_id: '#clear',
            secondary_percentage: 0.3,
          }),
          row({
            unit: 'M3',
            name: { text: 'Splitt', hyperlink: 'https://example.com/splitt' },
            external_id: 'SP-4',
            plant_code: 'P1',
            material_code: 'M1',
            ship_km: { sharedFormula: 'G3', result: 7 } as never,
          }),
        ],
        'product-instances': [
          headerOf('product-instances'),
          rowOf('product-instances', {
            external_id: 'PI-1',
            product_external_id: 'A-1',
            plant_code: 'P1',
            produced_from: new Date(Date.UTC(2021, 2, 1)),
            produced_to: '2024',
          }),
          rowOf('product-instances', {
            external_id: 'PI-2',
            product_external_id: 'A-1',
            plant_code: 'P1',
            produced_from: 45292,
            produced_to: '01.05.2025',
          }),
        ],
      },
      (wb) => {
        const ws = wb.getWorksheet('supplier-products')!;
        ws.getCell('M3').numFmt = '0%';
      },
    );
    parsed = await readWorkbook(path);
  });

  it('maps headers by name in any order and warns about an unknown column', () => {
    expect(parsed.readable).toBe(true);
    expect(parsed.sheets[0].columns).toMatchObject({
      unit: 'A',
      name: 'B',
      external_id: 'C',
      plant_code: 'E',
      truck_km: 'G',
    });
    expect(one(parsed, 'unknown_column')).toMatchObject({
      severity: 'warning',
      sheet: 'supplier-products',
      cell: 'D1',
    });
  });

  it('reads numbers stored as text, trailing spaces, enum case, numbers in code columns', () => {
    expect(rowAt(parsed, 'supplier-products', 2)!.values).toEqual({
      unit: 'KG',
      name: 'Sand',
      external_id: 'SP-2',
      plant_code: 'P1',
      material_code: 'M1',
      truck_km: 120,
      train_km: 35.5,
      ship_km: 1234.5,
      barge_km: 1234.5,
      lifetime_years: 1250,
    });
    expect(rowAt(parsed, 'supplier-products', 3)!.values.external_id).toBe('10023');
  });

  it('reads formula cells by their cached result, rich text and hyperlinks as their text, #CLEAR as null', () => {
    const r3 = rowAt(parsed, 'supplier-products', 3)!.values;
    expect(r3.truck_km).toBe(240);
    expect(r3.name).toBe('Kies 0/16');
    expect(r3.epd_id).toBeNull();
    expect('lifetime_years' in r3).toBe(false);
    const r4 = rowAt(parsed, 'supplier-products', 4)!.values;
    expect(r4.name).toBe('Splitt');
    expect(r4.ship_km).toBe(7);
  });

  it('reads a percent-formatted cell as the percentage shown, with a warning', () => {
    expect(rowAt(parsed, 'supplier-products', 3)!.values.secondary_percentage).toBe(30);
    expect(one(parsed, 'percent_format')).toMatchObject({
      severity: 'warning',
      sheet: 'supplier-products',
      cell: 'M3',
      field: 'secondary_percentage',
    });
  });

  it('reads a date where a year belongs as its year, with a warning at the cell', () => {
    expect(rowAt(parsed, 'product-instances', 2)!.values).toMatchObject({ produced_from: 2021, produced_to: 2024 });
    expect(rowAt(parsed, 'product-instances', 3)!.values).toMatchObject({ produced_from: 2024, produced_to: 2025 });
    expect(at(parsed, 'date_as_year').sort()).toEqual([
      'product-instances!D2',
      'product-instances!D3',
      'product-instances!E3',
    ]);
    expect(parsed.issues.find((i) => i.cell === 'D2')!.message).toMatch(/2021-03-01.*2021/);
  });

  it('has no errors', () => {
    expect(parsed.issues.filter((i) => i.severity === 'error')).toEqual([]);
  });
});

describe('errors at the exact cell', () => {
  let parsed: ParsedWorkbook;
  beforeAll(async () => {
    const path = tmp.file('errors.xlsx');
    await writeXlsx(
      path,
      {
        'supplier-companies': [
          ['external_id', 'country'],
          ['SC-1', 'DE'],
        ],
        'supplier-plants': [
          ['external_id', 'name', 'supplier_company_external_id', 'city', 'city'],
          ['SPL-1', 'Werk', 'SC-1', 'A', 'B'],
        ],
        'supplier-products': [
          headerOf('supplier-products'),
          rowOf(
            'supplier-products',
            supplierProduct(1, {
              truck_km: 'zwölf',
              train_km: { formula: '1/0', result: { error: '#DIV/0!' } } as never,
            }),
          ),
          rowOf(
            'supplier-products',
            supplierProduct(2, { truck_km: { error: '#REF!' } as never, train_km: { formula: 'A1*2' } as never }),
          ),
          rowOf(
            'supplier-products',
            supplierProduct(3, { ship_km: new Date(Date.UTC(2024, 5, 30)), barge_km: '1,250', lifetime_years: true }),
          ),
        ],
        silos: [
          headerOf('silos'),
          ['S-1', 'Silo A', 'P1'],
          ['S-2', null, 'P1'],
          ['S-3', 'Silo C', 'P1', null, 'stray'],
        ],
        Notizen: [['free text']],
      },
      (wb) => {
        wb.getWorksheet('silos')!.mergeCells('B2:B3');
      },
    );
    parsed = await readWorkbook(path);
  });

  it('missing required header: at the first free header cell, the sheet is not read', () => {
    const i = one(parsed, 'missing_header');
    expect(i).toMatchObject({ severity: 'error', sheet: 'supplier-companies', cell: 'C1', field: 'name' });
    expect(i.message).toMatch(/name/);
    expect(parsed.sheets.find((s) => s.name === 'supplier-companies')!.rows).toEqual([]);
  });

  it('duplicate header: at the second occurrence', () => {
    expect(one(parsed, 'duplicate_header')).toMatchObject({ sheet: 'supplier-plants', cell: 'E1', field: 'city' });
  });

  it('wrong type: at the cell, naming the field and what was expected', () => {
    const hits = parsed.issues.filter((i) => i.code === 'wrong_type');
    expect(hits.map((i) => `${i.sheet}!${i.cell}`).sort()).toEqual(
      ['supplier-products!I4', 'supplier-products!L4', 'supplier-products!G2'].sort(),
    );
    expect(hits.find((i) => i.cell === 'G2')!.message).toBe('truck_km: expected a number ≥ 0 in km, got "zwölf"');
    expect(hits.find((i) => i.cell === 'I4')!.message).toMatch(/ship_km.*the date 2024-06-30/);
    expect(hits.find((i) => i.cell === 'L4')!.message).toMatch(/lifetime_years.*TRUE/);
  });

  it('formula errors: the cached error text, the formula and the cell', () => {
    const f = parsed.issues.filter((i) => i.code === 'formula_error');
    expect(f.map((i) => i.cell).sort()).toEqual(['G3', 'H2']);
    expect(f.find((i) => i.cell === 'H2')!.message).toMatch(/=1\/0.*#DIV\/0!/);
    expect(f.find((i) => i.cell === 'G3')!.message).toMatch(/#REF!/);
    expect(one(parsed, 'formula_without_result')).toMatchObject({ cell: 'H3', field: 'train_km' });
  });

  it('refuses an ambiguous number stored as text ("1,250")', () => {
    expect(one(parsed, 'number_as_text_ambiguous')).toMatchObject({ severity: 'error', cell: 'J4', field: 'barge_km' });
  });

  it('merged cells over data: at the merge, and the rows under it are blocked', () => {
    const m = one(parsed, 'merged_cell');
    expect(m).toMatchObject({ severity: 'error', sheet: 'silos', cell: 'B2', field: 'name' });
    expect(m.message).toMatch(/B2:B3/);
    const silos = parsed.sheets.find((s) => s.name === 'silos')!;
    expect(silos.rows.find((r) => r.row === 3)!.invalid).toContain('name');
  });

  it('data in a column without a header, and an unknown sheet: warnings', () => {
    expect(one(parsed, 'data_without_header')).toMatchObject({ severity: 'warning', sheet: 'silos', cell: 'E4' });
    expect(one(parsed, 'unknown_sheet')).toMatchObject({ severity: 'warning', sheet: 'Notizen' });
  });

  it('marks unreadable cells so validation blocks the row without repeating the error', async () => {
    const report = await validateWorkbook(parsed);
    const sp = report.sheets.find((s) => s.name === 'supplier-products')!;
    expect(sp.blockedRows).toEqual([2, 3, 4]);
    expect(report.issues.filter((i) => i.cell === 'G2')).toHaveLength(1);
    expect(report.ok).toBe(false);
  });
});

describe('sheets', () => {
  it('reads a hidden sheet with a warning, matches a sheet name leniently, refuses a second sheet for the same data', async () => {
    const path = tmp.file('sheets.xlsx');
    await writeXlsx(
      path,
      {
        'Supplier Companies': [
          ['external_id', 'name'],
          ['SC-1', 'A'],
        ],
        'supplier-companies': [
          ['external_id', 'name'],
          ['SC-2', 'B'],
        ],
        silos: [headerOf('silos'), ['S-1', 'Silo', 'P1']],
        Instructions: [['read me']],
      },
      (wb) => {
        wb.getWorksheet('silos')!.state = 'hidden';
      },
    );
    const p = await readWorkbook(path);
    expect(one(p, 'hidden_sheet')).toMatchObject({ severity: 'warning', sheet: 'silos' });
    expect(one(p, 'sheet_name_normalised')).toMatchObject({ severity: 'warning', sheet: 'Supplier Companies' });
    expect(one(p, 'duplicate_sheet')).toMatchObject({ severity: 'error', sheet: 'supplier-companies' });
    expect(p.sheets.map((s) => [s.name, s.sheetName, s.hidden, s.rows.length])).toEqual([
      ['supplier-companies', 'Supplier Companies', false, 1],
      ['silos', 'silos', true, 1],
    ]);
    expect(p.issues.some((i) => i.sheet === 'Instructions')).toBe(false);
  });

  it('says so when no sheet is a Supply Loader sheet', async () => {
    const path = tmp.file('none.xlsx');
    await writeXlsx(path, { Tabelle1: [['a', 'b']] });
    const p = await readWorkbook(path);
    expect(one(p, 'no_known_sheet').message).toMatch(/supplier-companies/);
  });
});

describe('large sheets: progress and cancellation', () => {
  const rows = 30_000;
  let path: string;
  beforeAll(async () => {
    path = tmp.file('large.xlsx');
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
    const ws = wb.addWorksheet('supplier-products');
    ws.addRow(headerOf('supplier-products')).commit();
    for (let i = 0; i < rows; i++)
      ws.addRow(rowOf('supplier-products', supplierProduct(i, { truck_km: i % 100 }))).commit();
    ws.commit();
    await wb.commit();
  });

  it('reports progress and reads every row', async () => {
    const events: ReadProgress[] = [];
    const p = await readWorkbook(path, { onProgress: (e) => events.push(e) });
    expect(p.sheets[0].rows).toHaveLength(rows);
    expect(p.stats.rows).toBe(rows);
    expect(events[0].phase).toBe('checking');
    const reading = events.filter((e) => e.phase === 'reading');
    expect(reading.length).toBeGreaterThan(1);
    for (let i = 1; i < reading.length; i++) expect(reading[i].rows).toBeGreaterThanOrEqual(reading[i - 1].rows);
    expect(reading.at(-1)).toMatchObject({ fraction: 1, rows });
  });

  it('stops when the signal aborts, mid-sheet, and can read again afterwards', async () => {
    const ac = new AbortController();
    let seen = 0;
    const run = readWorkbook(path, {
      signal: ac.signal,
      onProgress: (e) => {
        seen = e.rows;
        if (e.rows > 0) ac.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(rows);
    await expect(readWorkbook(path, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    const again = await readWorkbook(path);
    expect(again.sheets[0].rows).toHaveLength(rows);
  });

  it('validation of the rows can be cancelled too, and reports progress', async () => {
    const parsed = await readWorkbook(path);
    const events: ReadProgress[] = [];
    const report = await validateWorkbook(parsed, { onProgress: (e) => events.push(e) });
    expect(report.ok).toBe(true);
    expect(events.at(-1)).toMatchObject({ phase: 'validating', rows, fraction: 1 });
    // It yields to the event loop every few thousand rows: an abort during the run stops it.
    const ac = new AbortController();
    const run = validateWorkbook(parsed, { signal: ac.signal });
    ac.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    await expect(validateWorkbook(parsed, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it("validation's progress ends with its last event, though the steps after it turn the event loop", async () => {
    const parsed = await readWorkbook(path);
    const events: ReadProgress[] = [];
    // A turn at every point it may pause; the last event's listener busy past the progress interval, so the
    // turns of the steps that follow it would be let through.
    await validateWorkbook(parsed, {
      sliceMs: 0,
      onProgress: (e) => {
        events.push(e);
        if (e.fraction === 1) for (const t0 = Date.now(); Date.now() - t0 < 150;);
      },
    });
    expect(events.length).toBeGreaterThan(1);
    expect(events.at(-1)).toMatchObject({ phase: 'validating', rows, fraction: 1 });
    expect(events.filter((e) => e.fraction === 1)).toHaveLength(1);
  });

  it('refuses a sheet beyond the row limit', async () => {
    const p = await readWorkbook(path, { limits: { maxRowsPerSheet: 1000 } });
    expect(p.readable).toBe(false);
    expect(one(p, 'too_many_rows').message).toMatch(/more than 1,000 data rows/);
    expect(p.sheets).toEqual([]);
  });
});
