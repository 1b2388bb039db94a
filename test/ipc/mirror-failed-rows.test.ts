/**
 * A mirror delete the service refuses (the supplier product is still in a silo) through dispatch() against the
 * in-process sandbox reset to empty data: the job's counts agree — one failed entry is one row to save and one to
 * re-run — and the failed-rows workbook holds a row for it (its code, action delete, the error naming what uses
 * it), though the mirrored sheet has no row of it.
 */
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../electron/core/ipc/browser-mode.js';
import type { ProcedureInput, ProcedureOutput } from '../../electron/core/ipc/contract.js';
import type { ProcedureName } from '../../electron/core/ipc/names.js';
import { writeTestWorkbook, type SheetData } from '../jobs/helpers.js';
import { rpc, startTestApp, stopTestApp } from './helpers.js';

let mode: BrowserMode;
let dir: string;
let n = 0;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);

async function settled(jobId: string): Promise<ProcedureOutput<'jobs.get'>> {
  const t0 = Date.now();
  for (;;) {
    const v = await call('jobs.get', { jobId });
    if (!v.running) return v;
    if (Date.now() - t0 > 30_000) throw new Error(`job ${jobId} still running`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function run(data: SheetData, opts: Partial<ProcedureInput<'import.plan'>> = {}) {
  const p = path.join(dir, `book-${++n}.xlsx`);
  await writeTestWorkbook(p, data);
  const f = mode.app.files.registerPath(p);
  const v = await call('import.validate', { fileId: f.fileId });
  const plan = await call('import.plan', { importId: v.importId, createOnly: false, mirror: [], ...opts });
  expect(plan.blocked).toBe(0);
  const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
  return settled(jobId);
}

const product = (code: string) => ({
  external_id: code,
  name: `Produkt ${code}`,
  plant_code: 'PL-HEID',
  material_code: 'MAT-CEM1',
  supplier_plant_external_id: 'MF-PL',
  unit: 'KG',
});

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-mirror-failed-'));
  await mode.app.sandbox.reset('empty');
});
afterAll(() => stopTestApp(mode, dir));

describe('a mirror delete that fails', () => {
  it('counts as one failed row everywhere and has a row of its own in the failed-rows workbook', async () => {
    const base = await run({
      'supplier-companies': [{ external_id: 'MF-C', name: 'Firma' }],
      'supplier-plants': [{ external_id: 'MF-PL', name: 'Werk', supplier_company_external_id: 'MF-C' }],
      'supplier-products': [product('MF-USED'), product('MF-FREE'), product('MF-KEEP')],
      silos: [{ external_id: 'MF-SILO', name: 'Silo 1', plant_code: 'PL-HEID' }],
      'silo-items': [{ silo_external_id: 'MF-SILO', supplier_product_external_id: 'MF-USED', year: 2025, amount: 100 }],
    });
    expect(base.status).toBe('completed');
    expect(base.counts.failed ?? 0).toBe(0);

    const job = await run({ 'supplier-products': [product('MF-KEEP')] }, { mirror: ['supplier-products'], maxDeletes: 100 });
    expect(job.status).toBe('completed');
    expect(job.counts).toMatchObject({ deleted: 1, failed: 1 });
    // "1 failed" is one row to save and one to re-run
    expect(job.notSucceeded).toBe(1);
    expect(job.failedRows).toBe(1);
    expect(job.notSucceededRows).toBe(1);

    const rows = await call('jobs.rows', { jobId: job.jobId, offset: 0, limit: 50, filter: { outcome: 'failed' } });
    expect(rows.rows.map((r) => r.externalId)).toEqual(['MF-USED']);
    const refusal = rows.rows[0];

    const ticket = await call('jobs.failedWorkbook', { jobId: job.jobId });
    expect(ticket.rows).toBe(1);
    const file = mode.app.work.downloads.get(ticket.downloadId);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file!.path);
    const ws = wb.getWorksheet('supplier-products')!;
    const header = (ws.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
    const at = (name: string) => header.indexOf(name);
    const data: Record<string, string>[] = [];
    ws.eachRow((r, i) => {
      if (i === 1) return;
      const cells = r.values as unknown[];
      if (!cells[at('external_id')]) return;
      data.push({
        external_id: String(cells[at('external_id')]),
        action: String(cells[at('action')] ?? ''),
        err: String(cells[at('_err_code')] ?? ''),
        message: String(cells[at('_message')] ?? ''),
      });
    });
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ external_id: 'MF-USED', action: 'delete', err: refusal.errCode });
    expect(data[0].err).not.toBe('');
    expect(data[0].message).toContain(refusal.message.split(' — ')[0]);
    expect(data[0].message).toMatch(/silo|MF-SILO/i);
  });
});
