/**
 * Results of a CSV job in the app ("the results and failed-rows outputs are written in the
 * source's own layout and headers"): after a run of a German ERP CSV (Windows-1252, `;`, a title row, own
 * headers) jobs.resultsWorkbook and jobs.failedWorkbook offer `<source>.results.csv` / `<source>.failed.csv`
 * (text/csv) with the source's rows and columns plus _result, _id, _err_code, _message in its encoding and
 * delimiter — also after a restart of the app, and after the uploaded original is gone (the job keeps a copy).
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserMode, type BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput, ProcedureOutput } from '../../core/ipc/contract.js';
import { dispatch } from '../../core/ipc/dispatch.js';
import type { ProcedureName } from '../../core/contract/names.js';
import { startSandbox } from '../../sandbox/index.js';
import { quiet, rpc, startTestApp, stopTestApp } from './helpers.js';
import { ERP_HEADER, erpCsv } from './erp-csv.js';

let mode: BrowserMode;
let dir: string;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);
/** An ERP CSV (title row, German headers, Windows-1252) handed to the app under `name`. */
const uploadErp = (name: string, title: string, rows: string[][]) =>
  call('files.upload', { name, dataBase64: erpCsv(title, rows).toString('base64') });

async function download(t: {
  downloadId: string;
}): Promise<{ type: string | null; disposition: string | null; text: string; bytes: Buffer }> {
  const res = await fetch(`${mode.origin}/download/${t.downloadId}`, {
    headers: { 'x-supply-loader-token': mode.token },
  });
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    text: iconv.decode(bytes, 'windows-1252'),
    bytes,
  };
}

async function waitForJob(jobId: string): Promise<ProcedureOutput<'jobs.get'>> {
  for (let t0 = Date.now(); ;) {
    const j = await call('jobs.get', { jobId });
    if (!j.running) return j;
    if (Date.now() - t0 > 30_000) throw new Error('job still running');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-ipc-csvres-'));
});
afterAll(() => stopTestApp(mode, dir));

describe('results of a CSV job in the app', () => {
  let jobId: string;
  let uploadedPath: string;

  it('runs a German ERP CSV through the mapping; one row with an unknown material is blocked and skipped (skipBlocked)', async () => {
    const csv = erpCsv('Materialstamm Werk München – Stand 30.11.2025', [
      ['COL-Q1', 'Sand 0/2, gewaschen', 'PL-MUC', 'MAT-SAND', 'to', '12,5', '30', 'geprüft'],
      ['COL-Q2', 'Kies „grob“', 'PL-MUC', 'MAT-NOPE', 'kg', '1.250,5', '', 'falsch'],
    ]);
    const f = await call('files.upload', { name: 'MAT_2025-11.csv', dataBase64: csv.toString('base64') });
    uploadedPath = mode.app.files.path(f.fileId);
    const cols = await call('import.columns', { fileId: f.fileId });
    const mapping = cols.draft;
    mapping.sheets['supplier-products']!.values = { unit: { to: 'T', kg: 'KG' } };
    const v = await call('import.validate', { fileId: f.fileId, mapping });
    const ov = await call('import.plan', { importId: v.importId, createOnly: false });
    expect(ov.summary.byAction).toMatchObject({ create: 1 });
    expect(ov.blocked).toBe(1);
    ({ jobId } = await call('import.run', { importId: v.importId, skipBlocked: true }));
    const j = await waitForJob(jobId);
    expect(j).toMatchObject({ inputAvailable: true, resultsFormat: 'csv' });
  });

  it('jobs.resultsWorkbook: MAT_2025-11.results.csv, text/csv, the source layout (title, own headers) + _result, _id, _err_code, _message in Windows-1252 with ";"', async () => {
    const t = await call('jobs.resultsWorkbook', { jobId });
    expect(t).toMatchObject({ fileName: 'MAT_2025-11.results.csv', mimeType: 'text/csv' });
    const d = await download(t);
    expect(d.type).toContain('text/csv');
    expect(d.disposition).toContain('filename="MAT_2025-11.results.csv"');
    // Windows-1252: "ü" is one byte (0xFC), not UTF-8's two
    expect(d.bytes.includes(Buffer.from([0xfc]))).toBe(true);
    expect(d.bytes.includes(Buffer.from('ü', 'utf8'))).toBe(false);
    const lines = d.text.split('\r\n');
    expect(lines[0]).toBe('Materialstamm Werk München – Stand 30.11.2025');
    expect(lines[1]).toBe(`${ERP_HEADER};_result;_id;_err_code;_message`);
    const q1 = lines[2].split(';');
    expect(q1.slice(0, 8)).toEqual([
      'COL-Q1',
      'Sand 0/2, gewaschen',
      'PL-MUC',
      'MAT-SAND',
      'to',
      '12,5',
      '30',
      'geprüft',
    ]);
    expect(q1[8]).toBe('created');
    expect(q1[9]).toMatch(/\S/);
    // the blocked row, skipped by the user's choice: why, in words, quoted as CSV needs it
    expect(lines[3]).toMatch(
      /^COL-Q2;Kies „grob“;PL-MUC;MAT-NOPE;kg;1\.250,5;;falsch;skipped;;;"blocked: material_code: material code ""MAT-NOPE"" is not/,
    );
  });

  it('jobs.failedWorkbook: MAT_2025-11.failed.csv with the title, the header and only the row that did not succeed', async () => {
    const t = await call('jobs.failedWorkbook', { jobId });
    expect(t).toMatchObject({ fileName: 'MAT_2025-11.failed.csv', mimeType: 'text/csv', rows: 1 });
    const lines = (await download(t)).text.split('\r\n').filter((l) => l !== '');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(`${ERP_HEADER};_result;_id;_err_code;_message`);
    expect(lines[2]).toMatch(/^COL-Q2;.*;falsch;skipped;;;"blocked: /);
  });

  it('after a restart of the app, with the uploaded original gone, the job still makes both files from its own copy', async () => {
    fs.rmSync(uploadedPath, { force: true });
    const configDir = path.join(dir, 'config');
    await mode.close();
    mode = await startBrowserMode({
      port: 0,
      staticDir: null,
      configDir,
      startSandbox,
      log: quiet,
      appVersion: 'test',
    });
    expect((await call('jobs.get', { jobId })).inputAvailable).toBe(true);
    const r = await download(await call('jobs.resultsWorkbook', { jobId }));
    expect(r.text.split('\r\n')[2]).toMatch(/^COL-Q1;.*;created;/);
    const f = await call('jobs.failedWorkbook', { jobId });
    expect(f.rows).toBe(1);
  });
});

describe('several source files in one import (moreFileIds)', () => {
  it('an ERP CSV and a template-named CSV (materials.csv with the template’s headers, same CSV settings): one Columns view with both, validate/plan/run read both files', async () => {
    const a = await uploadErp('MAT_2026-02.csv', 'Materialstamm Februar', [
      ['COL-F1', 'Sand fein', 'PL-MUC', 'MAT-SAND', 'kg', '3,5', '', ''],
      ['COL-F2', 'Kies fein', 'PL-MUC', 'MAT-GRAVEL', 'to', '4,5', '', ''],
    ]);
    const b = await call('files.upload', {
      name: 'materials.csv',
      dataBase64: iconv
        .encode('material_code;category\r\nMAT-SAND;\r\nMAT-GRAVEL;\r\n', 'windows-1252')
        .toString('base64'),
    });
    const cols = await call('import.columns', { fileId: a.fileId, moreFileIds: [b.fileId] });
    expect(cols.sources.map((s) => [s.source, s.isCsv, s.sheet, s.headerRow])).toEqual([
      ['MAT_2026-02.csv', true, 'supplier-products', 2],
      ['materials.csv', true, 'materials', 1],
    ]);
    const mapping = cols.draft;
    mapping.sheets['supplier-products']!.values = { unit: { to: 'T', kg: 'KG' } };
    const p = await call('import.columnsPreview', { fileId: a.fileId, moreFileIds: [b.fileId], mapping });
    expect(p.sources.map((s) => [s.source, s.rows.length])).toEqual([
      ['MAT_2026-02.csv', 2],
      ['materials.csv', 2],
    ]);
    const v = await call('import.validate', { fileId: a.fileId, moreFileIds: [b.fileId], mapping });
    expect(v.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(v.file.name).toBe('MAT_2026-02.csv + materials.csv');
    expect(v.sheets.map((s) => [s.name, s.sheetName, s.rows])).toEqual(
      expect.arrayContaining([
        ['supplier-products', 'MAT_2026-02.csv', 2],
        ['materials', 'materials.csv', 2],
      ]),
    );
    const ov = await call('import.plan', { importId: v.importId, createOnly: false });
    expect(ov.summary.byAction).toMatchObject({ create: 2 });
    expect(ov.blocked).toBe(0);
    const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
    expect((await waitForJob(jobId)).status).toBe('completed');
    const j = await call('jobs.get', { jobId });
    expect(j).toMatchObject({
      counts: { created: 2 },
      resultsFormat: 'csv',
      csvSources: ['MAT_2026-02.csv', 'materials.csv'],
    });
    // one results file per source: which one is said by its name
    const none = await dispatch('jobs.resultsWorkbook', { jobId }, mode.app);
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.error.message).toContain('MAT_2026-02.csv, materials.csv');
    const t = await call('jobs.resultsWorkbook', { jobId, source: 'MAT_2026-02.csv' });
    expect(t.fileName).toBe('MAT_2026-02.results.csv');
    const lines = (await download(t)).text.split('\r\n');
    expect(lines[0]).toBe('Materialstamm Februar');
    expect(lines[2]).toMatch(/^COL-F1;Sand fein;PL-MUC;MAT-SAND;kg;3,5;;;created;[^;]+;;$/);
    expect(lines[3]).toMatch(/^COL-F2;Kies fein;PL-MUC;MAT-GRAVEL;to;4,5;;;created;[^;]+;;$/);
    // materials.csv fed the code mapping: its rows say so (they were used), never "not imported"
    const m = (await download(await call('jobs.resultsWorkbook', { jobId, source: 'materials.csv' }))).text.split(
      '\r\n',
    );
    expect(m[0]).toBe('material_code;category;_result;_id;_err_code;_message');
    expect(m[1]).toMatch(/^MAT-SAND;;mapping;;;used to resolve the material codes/);
    expect(m[2]).toMatch(/^MAT-GRAVEL;;mapping;/);
    expect((await call('jobs.failedWorkbook', { jobId, source: 'materials.csv' })).rows).toBe(0);
    const unknown = await dispatch('jobs.failedWorkbook', { jobId, source: 'other.csv' }, mode.app);
    expect(unknown.ok).toBe(false);
  });

  it('two months of one export (MAT_2026-03.csv, MAT_2026-04.csv) feed one sheet: the plan rows name their file and row, each file gets its own results', async () => {
    const a = await uploadErp('MAT_2026-03.csv', 'März', [
      ['COL-M1', 'Sand März', 'PL-MUC', 'MAT-SAND', 'kg', '1,5', '', ''],
    ]);
    const b = await uploadErp('MAT_2026-04.csv', 'April', [
      ['COL-A1', 'Sand April', 'PL-MUC', 'MAT-SAND', 'kg', '2,5', '', ''],
      ['COL-A2', 'Kies April', 'PL-MUC', 'MAT-GRAVEL', 'kg', '3', '', ''],
    ]);
    const cols = await call('import.columns', { fileId: a.fileId, moreFileIds: [b.fileId] });
    expect(cols.sources.map((s) => [s.source, s.sheet])).toEqual([
      ['MAT_2026-03.csv', 'supplier-products'],
      ['MAT_2026-04.csv', 'supplier-products'],
    ]);
    const mapping = cols.draft;
    expect(mapping.sheets['supplier-products']?.source).toBe('MAT_*.csv');
    const v = await call('import.validate', { fileId: a.fileId, moreFileIds: [b.fileId], mapping });
    expect(v.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(v.sheets.map((s) => [s.name, s.sheetName, s.rows])).toEqual([
      ['supplier-products', 'MAT_2026-03.csv + MAT_2026-04.csv', 3],
    ]);
    const ov = await call('import.plan', { importId: v.importId, createOnly: false });
    expect(ov.summary.byAction).toMatchObject({ create: 3 });
    const rows = await call('import.planRows', { importId: v.importId, offset: 0, limit: 50 });
    expect(rows.rows.map((r) => [r.externalId, r.source, r.sourceRow])).toEqual(
      expect.arrayContaining([
        ['COL-M1', 'MAT_2026-03.csv', 3],
        ['COL-A1', 'MAT_2026-04.csv', 3],
        ['COL-A2', 'MAT_2026-04.csv', 4],
      ]),
    );
    const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
    expect((await waitForJob(jobId)).status).toBe('completed');
    // the job's rows too are named at their file and row there (not the internal number of a second source)
    const jr = await call('jobs.rows', { jobId, offset: 0, limit: 50, filter: {} });
    expect(jr.rows.map((r) => [r.externalId, r.source, r.row, r.outcome])).toEqual(
      expect.arrayContaining([
        ['COL-M1', 'MAT_2026-03.csv', 3, 'created'],
        ['COL-A1', 'MAT_2026-04.csv', 3, 'created'],
        ['COL-A2', 'MAT_2026-04.csv', 4, 'created'],
      ]),
    );
    const m = (await download(await call('jobs.resultsWorkbook', { jobId, source: 'MAT_2026-03.csv' }))).text.split(
      '\r\n',
    );
    expect(m[2]).toMatch(/^COL-M1;.*;created;[0-9a-f-]{36};;$/);
    expect(m[3]).toBe('');
    const ap = (await download(await call('jobs.resultsWorkbook', { jobId, source: 'MAT_2026-04.csv' }))).text.split(
      '\r\n',
    );
    expect(ap[2]).toMatch(/^COL-A1;.*;created;[0-9a-f-]{36};;$/);
    expect(ap[3]).toMatch(/^COL-A2;.*;created;[0-9a-f-]{36};;$/);
  });

  it('a workbook and a CSV mixed: the job offers the workbook’s results workbook and the CSV’s results CSV, each by its source', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('supplier-companies').addRows([
      ['external_id', 'name', 'country'],
      ['COL-MIX-C1', 'Mischwerk GmbH', 'DE'],
    ]);
    const book = await call('files.upload', {
      name: 'Lieferanten.xlsx',
      dataBase64: Buffer.from(await wb.xlsx.writeBuffer()).toString('base64'),
    });
    const csv = await uploadErp('MAT_2026-05.csv', 'Mai', [
      ['COL-MIX-1', 'Sand Mai', 'PL-MUC', 'MAT-SAND', 'kg', '1,5', '', ''],
    ]);
    const cols = await call('import.columns', { fileId: csv.fileId, moreFileIds: [book.fileId] });
    const v = await call('import.validate', { fileId: csv.fileId, moreFileIds: [book.fileId], mapping: cols.draft });
    expect(v.issues.filter((i) => i.severity === 'error')).toEqual([]);
    await call('import.plan', { importId: v.importId, createOnly: false });
    const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
    expect((await waitForJob(jobId)).status).toBe('completed');
    const j = await call('jobs.get', { jobId });
    expect(j).toMatchObject({
      csvSources: ['MAT_2026-05.csv'],
      workbookSource: 'Lieferanten.xlsx',
      inputAvailable: true,
    });
    const r = await call('jobs.resultsWorkbook', { jobId, source: 'Lieferanten.xlsx' });
    expect(r.fileName).toBe('Lieferanten-results.xlsx');
    const out = new ExcelJS.Workbook();
    await out.xlsx.load((await download(r)).bytes as unknown as ArrayBuffer);
    const ws = out.getWorksheet('supplier-companies')!;
    const header = (ws.getRow(1).values as unknown[]).map(String);
    expect(String(ws.getRow(2).getCell(header.indexOf('_result')).value)).toBe('created');
    const c = await call('jobs.resultsWorkbook', { jobId, source: 'MAT_2026-05.csv' });
    expect(c.fileName).toBe('MAT_2026-05.results.csv');
    expect((await download(c)).text.split('\r\n')[2]).toMatch(/^COL-MIX-1;.*;created;/);
  });

  it('two files of the same name are refused in words', async () => {
    const csv = erpCsv('x', [['COL-Z', 'z', 'PL-MUC', 'MAT-SAND', 'kg', '1', '', '']]).toString('base64');
    const a = await call('files.upload', { name: 'MAT.csv', dataBase64: csv });
    const b = await call('files.upload', { name: 'MAT.csv', dataBase64: csv });
    await expect(call('import.validate', { fileId: a.fileId, moreFileIds: [b.fileId] })).rejects.toThrow('same name');
  });
});
