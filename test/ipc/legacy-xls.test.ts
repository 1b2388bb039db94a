/**
 * An .xls in the app: uploaded under its own extension, validated, planned and run like an .xlsx; the job keeps
 * the .xlsx copy it was read through, so its results workbook (an .xlsx) marks every row of the .xls's sheets.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput, ProcedureOutput } from '../../core/ipc/contract.js';
import type { ProcedureName } from '../../core/contract/names.js';
import { rpc, startTestApp, stopTestApp } from './helpers.js';

const LO = path.join(import.meta.dirname, '../fixtures/libreoffice');
let mode: BrowserMode;
let dir: string;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);

async function waitForJob(jobId: string): Promise<ProcedureOutput<'jobs.get'>> {
  for (let t0 = Date.now(); ;) {
    const j = await call('jobs.get', { jobId });
    if (!j.running) return j;
    if (Date.now() - t0 > 30_000) throw new Error('job still running');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-ipc-xls-'));
});
afterAll(() => stopTestApp(mode, dir));

describe('an .xls in the app', () => {
  it('is validated, planned and run; its results workbook marks every row', async () => {
    const bytes = fs.readFileSync(path.join(LO, 'onboarding-filled.xls'));
    const f = await call('files.upload', { name: 'onboarding-filled.xls', dataBase64: bytes.toString('base64') });
    expect(path.extname(mode.app.files.path(f.fileId))).toBe('.xls');
    const v = await call('import.validate', { fileId: f.fileId });
    expect(v).toMatchObject({ readable: true, errors: 0 });
    expect(v.sheets.find((s) => s.name === 'supplier-products')?.rows).toBe(9);
    const ov = await call('import.plan', { importId: v.importId, createOnly: false });
    expect(ov.summary.byAction).toMatchObject({ create: expect.any(Number) as unknown });
    const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
    const j = await waitForJob(jobId);
    expect(j.inputAvailable).toBe(true);

    const t = await call('jobs.resultsWorkbook', { jobId });
    const res = await fetch(`${mode.origin}/download/${t.downloadId}`, {
      headers: { 'x-supply-loader-token': mode.token },
    });
    expect(res.status).toBe(200);
    // named after the source without its extension, as an .xlsx's results are
    expect(res.headers.get('content-disposition')).toContain('filename="onboarding-filled-results.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('supplier-products')!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    const at = header.indexOf('_result') + 1;
    expect(at).toBeGreaterThan(0);
    const results = [];
    for (let r = 2; r <= 10; r++) results.push(ws.getRow(r).getCell(at).value);
    expect(results).toEqual(Array(9).fill('created'));
  });
});
