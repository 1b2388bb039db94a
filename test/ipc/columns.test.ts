/**
 * The Columns step through the contract, browser-mode services with the embedded sandbox:
 * a German ERP CSV uploaded → import.columns suggests the sheet, header row and fields (samples decoded from
 * Windows-1252); import.validate with the mapping reads it (decimal comma, value translation) with cells at the
 * source file; mappings.save/list store it with the active profile (the CLI's store); the next month's file is
 * matched by the saved mapping (import.columns → saved).
 */
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput, ProcedureOutput } from '../../core/ipc/contract.js';
import { dispatch } from '../../core/ipc/dispatch.js';
import { rpc, startTestApp, stopTestApp } from './helpers.js';
import type { ProcedureName } from '../../core/contract/names.js';
import { SANDBOX_PROFILE_ID } from '../../core/settings/index.js';
import { erpCsv } from './erp-csv.js';

let mode: BrowserMode;
let dir: string;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);
const upload = (name: string, bytes: Buffer) => call('files.upload', { name, dataBase64: bytes.toString('base64') });

const nov = erpCsv('Materialstamm Werk München – Stand 30.11.2025', [
  ['COL-M1', 'Sand 0/2, gewaschen', 'PL-MUC', 'MAT-SAND', 'to', '12,5', '30', 'geprüft'],
  ['COL-M2', 'Kies 8/16 „grob“', 'PL-MUC', 'MAT-GRAVEL', 'kg', '1.250,5', '', ''],
]);

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-ipc-cols-'));
});
afterAll(() => stopTestApp(mode, dir));

describe('Columns step through the contract', () => {
  let mapping: ProcedureOutput<'import.columns'>['draft'];

  it('import.columns on an uploaded German CSV: target sheet, header row below the title, samples decoded, suggestions with confidence', async () => {
    const f = await upload('MAT_2025-11.csv', nov);
    const v = await call('import.columns', { fileId: f.fileId });
    expect(v.needed).toBe(true);
    expect(v.saved).toBeNull();
    const s = v.sources[0];
    expect(s).toMatchObject({
      source: 'MAT_2025-11.csv',
      isCsv: true,
      sheet: 'supplier-products',
      headerRow: 2,
      unmappedRequired: [],
    });
    const byCol = Object.fromEntries(s.columns.map((c) => [c.column, c]));
    expect(byCol.Materialkurztext.samples).toEqual(['Sand 0/2, gewaschen', 'Kies 8/16 „grob“']);
    expect(byCol.Werk.suggestion).toMatchObject({ field: 'plant_code', method: 'synonym' });
    expect(byCol.Werk.suggestion!.confidence).toBeGreaterThanOrEqual(v.highConfidence);
    expect(byCol.Kommentar.suggestion).toBeNull();
    expect(s.fields.find((x) => x.field === 'unit')).toMatchObject({
      required: true,
      allowed: expect.arrayContaining(['KG', 'T']) as unknown,
    });
    expect(v.draft.sheets['supplier-products']).toMatchObject({
      source: 'MAT_*.csv',
      header_row: 2,
      ignore: ['Kommentar'],
    });
    expect(v.draft.csv).toMatchObject({ delimiter: ';', encoding: 'windows-1252', decimal: ',' });
    mapping = v.draft;
  });

  it('import.validate without a mapping cannot read the ERP units; with the mapping (values translated) it reads every row, cells at the source file', async () => {
    const f = await upload('MAT_2025-11.csv', nov);
    const plain = await call('import.validate', { fileId: f.fileId });
    expect(plain.errors).toBeGreaterThan(0);

    const sheet = mapping.sheets['supplier-products']!;
    sheet.values = { unit: { to: 'T', kg: 'KG' } };
    const bad = await call('import.validate', {
      fileId: f.fileId,
      mapping: { ...mapping, sheets: { 'supplier-products': { ...sheet, values: { unit: { kg: 'KG' } } } } },
    });
    // "to" not translated: the error points at the CSV's own cell (E3: column ME, first data line below title and header)
    expect(bad.issues.filter((i) => i.severity === 'error')).toMatchObject([
      { sheet: 'MAT_2025-11.csv', cell: 'E3', field: 'unit' },
    ]);

    const ok = await call('import.validate', { fileId: f.fileId, mapping });
    expect(ok.errors).toBe(0);
    expect(ok.sheets).toMatchObject([
      {
        name: 'supplier-products',
        sheetName: 'MAT_2025-11.csv',
        rows: 2,
        ignoredColumns: [{ header: 'Kommentar', reason: 'mapping' }],
      },
    ]);
    const ov = await call('import.plan', { importId: ok.importId, createOnly: false });
    expect(ov.summary.byAction).toMatchObject({ create: 2 });
    expect(ov.blocked).toBe(0);
    const rows = await call('import.planRows', { importId: ok.importId, offset: 0, limit: 10, filter: {} });
    const m2 = rows.rows.find((r) => r.externalId === 'COL-M2')!;
    expect(m2.fields).toEqual(
      expect.arrayContaining([
        { field: 'truck_km', value: 1250.5 },
        { field: 'unit', value: 'KG' },
      ]),
    );
  });

  it('import.columnsPreview: the first rows as the reader reads them (decimal comma, translated unit) and their problems at the CSV cell', async () => {
    const f = await upload('MAT_2025-11.csv', nov);
    const p = await call('import.columnsPreview', { fileId: f.fileId, mapping });
    expect(p.sources).toHaveLength(1);
    const s = p.sources[0];
    expect(s.fields).toEqual([
      'external_id',
      'name',
      'plant_code',
      'material_code',
      'unit',
      'truck_km',
      'secondary_percentage',
    ]);
    expect(s.rows.map((r) => [r.row, r.values.unit, r.values.truck_km])).toEqual([
      [3, 'T', 12.5],
      [4, 'KG', 1250.5],
    ]);
    expect(s.issues).toEqual([]);
    const sheet = mapping.sheets['supplier-products']!;
    const untranslated = await call('import.columnsPreview', {
      fileId: f.fileId,
      mapping: { ...mapping, sheets: { 'supplier-products': { ...sheet, values: {} } } },
    });
    expect(untranslated.sources[0].issues).toMatchObject([{ severity: 'error', cell: 'E3', field: 'unit' }]);
    // Worded as the check words it (a code and params for the UI's words), never the validator's own text.
    const issue = untranslated.sources[0].issues[0];
    expect(issue.code).toMatch(/^[a-z_]+$/);
    expect(issue.params).toBeDefined();
    expect(issue.message).not.toMatch(/Invalid (input|option)|received undefined|"\|"/);
  });

  it('the onboarding template needs no Columns step: its headers are field names, instructions and lists are no sources', async () => {
    const f = mode.app.files.registerPath(path.resolve('templates/supply-loader-onboarding.xlsx'));
    const v = await call('import.columns', { fileId: f.fileId });
    expect(v.needed).toBe(false);
    expect(v.sources.map((s) => s.source)).not.toContain('Instructions');
    expect(v.sources.every((s) => s.sheet === s.source && s.headerRow === 1)).toBe(true);
  });

  it('a job of a CSV source: the results are a CSV in the source layout (content: csv-results.test.ts), not a workbook', async () => {
    const f = await upload(
      'MAT_2025-11.csv',
      erpCsv('Titel', [['COL-R1', 'Sand', 'PL-MUC', 'MAT-SAND', 'kg', '1', '', '']]),
    );
    const v = await call('import.validate', { fileId: f.fileId, mapping });
    await call('import.plan', { importId: v.importId, createOnly: false });
    const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
    for (let t0 = Date.now(); (await call('jobs.get', { jobId })).running;) {
      if (Date.now() - t0 > 30_000) throw new Error('job still running');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await call('jobs.get', { jobId })).status).toBe('completed');
    expect(await call('jobs.resultsWorkbook', { jobId })).toMatchObject({
      fileName: 'MAT_2025-11.results.csv',
      mimeType: 'text/csv',
    });
  });

  it('mappings.save stores it with the active profile (the CLI store); mappings.list lists it; an invalid mapping is refused', async () => {
    const r = await call('mappings.save', { name: 'SAP MM monthly', mapping });
    expect(r).toEqual({ name: 'SAP MM monthly', profileName: 'Sandbox' });
    expect(Object.keys(mode.app.settings.columnMappingsOf(SANDBOX_PROFILE_ID))).toEqual(['SAP MM monthly']);
    expect((await call('mappings.list', {})).mappings).toEqual([
      { name: 'SAP MM monthly', sheets: ['supplier-products'], ok: true },
    ]);
    const wrong = await dispatch(
      'mappings.save',
      { name: 'x', mapping: { version: 1, sheets: { 'supplier-products': { columns: { A: 'no_such_field' } } } } },
      mode.app,
    );
    expect(wrong.ok).toBe(false);
  });

  it("the next month's file: import.columns finds the saved mapping (headers match); a file with a new column does not", async () => {
    const dec = erpCsv('Materialstamm Werk München – Stand 31.12.2025', [
      ['COL-M3', 'Splitt 2/5', 'PL-MUC', 'MAT-GRAVEL', 'kg', '7,5', '', ''],
    ]);
    const f = await upload('MAT_2025-12.csv', dec);
    const v = await call('import.columns', { fileId: f.fileId });
    expect(v.saved?.name).toBe('SAP MM monthly');
    const ok = await call('import.validate', { fileId: f.fileId, mapping: v.saved!.mapping });
    expect(ok.errors).toBe(0);
    expect(ok.sheets[0]).toMatchObject({ sheetName: 'MAT_2025-12.csv', rows: 1 });

    const extra = Buffer.concat([
      dec.subarray(0, 0),
      erpCsv('Materialstamm', [['COL-M4', 'x', 'PL-MUC', 'MAT-SAND', 'kg', '1', '', '']]),
    ]);
    const withNew = Buffer.from(
      extra
        .toString('latin1')
        .replace('Kommentar', 'Kommentar;Einkäufer')
        .replace(/\r\nCOL-M4;([^\r]*)\r\n/, '\r\nCOL-M4;$1;Meier\r\n'),
      'latin1',
    );
    const g = await upload('MAT_2026-01.csv', withNew);
    expect((await call('import.columns', { fileId: g.fileId })).saved).toBeNull();
  });

  it('a saved mapping that fits one file but not another dropped with it (a supplier list) is not applied: the Columns step opens', async () => {
    const f = await upload(
      'MAT_2026-02.csv',
      erpCsv('Materialstamm', [['COL-M5', 'Sand', 'PL-MUC', 'MAT-SAND', 'kg', '1', '', '']]),
    );
    expect((await call('import.columns', { fileId: f.fileId })).saved?.name).toBe('SAP MM monthly');
    const lief = await upload(
      'Lieferanten_2026-02.csv',
      Buffer.from('Lieferantenstamm\r\nLieferantennummer;Firmenname;Land\r\nCOL-L1;Kieswerk Süd;DE\r\n', 'latin1'),
    );
    const both = await call('import.columns', { fileId: f.fileId, moreFileIds: [lief.fileId] });
    expect(both.saved).toBeNull();
    expect(both.needed).toBe(true);
    expect(both.sources.map((s) => [s.source, s.sheet])).toEqual([
      ['MAT_2026-02.csv', 'supplier-products'],
      ['Lieferanten_2026-02.csv', 'supplier-companies'],
    ]);
  });
  it("connected, the service's codes name a column by its values: a column of the service's plant codes is plant_code", async () => {
    // "Kennung" says nothing; its values are the sandbox's plants (PL-MUC, PL-HEID, PL-OSTR).
    const f = await upload(
      'Einkauf.csv',
      Buffer.from(
        'Materialnummer;Materialkurztext;Kennung;Materialart;ME\r\n' +
          'E-1;Sand;PL-MUC;MAT-SAND;KG\r\nE-2;Kies;PL-HEID;MAT-SAND;KG\r\nE-3;Splitt;PL-OSTR;MAT-SAND;KG\r\n',
        'latin1',
      ),
    );
    const v = await call('import.columns', { fileId: f.fileId });
    const kennung = v.sources[0].columns.find((c) => c.column === 'Kennung')!;
    expect(kennung.suggestion).toMatchObject({ field: 'plant_code', method: 'values' });
    expect(kennung.suggestion!.confidence).toBeGreaterThanOrEqual(v.highConfidence);
    expect(v.draft.sheets['supplier-products']!.columns).toMatchObject({ Kennung: 'plant_code' });
  });
  it('a template workbook with one misspelled header: only that sheet needs the Columns step', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.resolve('templates/supply-loader-onboarding.xlsx'));
    const ws = wb.getWorksheet('supplier-products')!;
    const cell = ws.getRow(1).values as unknown[];
    const col = cell.indexOf('plant_code');
    ws.getRow(1).getCell(col).value = 'plant_cod';
    const file = path.join(dir, 'template-typo.xlsx');
    await wb.xlsx.writeFile(file);
    const v = await call('import.columns', { fileId: mode.app.files.registerPath(file).fileId });
    expect(v.needed).toBe(true);
    expect(v.sources.filter((s) => s.needed).map((s) => s.source)).toEqual(['supplier-products']);
    expect(v.sources.filter((s) => !s.needed).length).toBeGreaterThan(5);
  });

  it('the sheet a file feeds can be chosen: the view is made for that sheet', async () => {
    const f = await upload('Liste.csv', Buffer.from('Nummer;Name;Land\r\nL1;Kieswerk Süd;DE\r\n', 'latin1'));
    const auto = await call('import.columns', { fileId: f.fileId });
    expect(auto.targetSheets).toContain('supplier-plants');
    const v = await call('import.columns', { fileId: f.fileId, sheets: { 'Liste.csv': 'supplier-plants' } });
    expect(v.sources[0]).toMatchObject({ source: 'Liste.csv', sheet: 'supplier-plants', needed: true });
    expect(v.sources[0].fields.map((x) => x.field)).toContain('supplier_company_external_id');
    expect(v.draft.sheets['supplier-plants']).toMatchObject({ source: 'Liste.csv' });
  });
});
