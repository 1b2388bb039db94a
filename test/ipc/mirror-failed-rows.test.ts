/**
 * A mirror delete that fails on the service (the sandbox answers its DELETE with a 500 every time) through
 * dispatch() against the in-process sandbox reset to empty data: the job's counts agree — one failed entry is one
 * row to save and one to re-run — and the failed-rows workbook holds a row for it (its code, action delete, the
 * error), though the mirrored sheet has no row of it. The same for a sheet fed by a CSV source through a column
 * mapping: the source's failed-rows CSV gets the row, in the source's own columns.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput, ProcedureOutput } from '../../core/ipc/contract.js';
import type { ProcedureName } from '../../core/contract/names.js';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import { resolveConnection } from '../../core/app/profiles.js';
import { writeTestWorkbook, type SheetData } from '../jobs/helpers.js';
import { rpc, startTestApp, stopTestApp, settledJob } from './helpers.js';

let mode: BrowserMode;
let dir: string;
let n = 0;
let client: ApiClient;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);

const settled = (jobId: string) => settledJob(mode, jobId);

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
  unit: 'KG',
});

async function faults(only: { method: string; path_suffix: string } | null): Promise<void> {
  const res = await fetch(`${mode.app.sandbox.baseUrl() ?? ''}/__sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      error_rate: only ? 1 : 0,
      reset_after_commit_rate: 0,
      latency_ms: 0,
      jitter_ms: 0,
      seed: 1,
      only,
    }),
  });
  if (res.status >= 300) throw new Error(`faults: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-mirror-failed-'));
  await mode.app.sandbox.reset('empty');
  const conn = await resolveConnection(mode.app);
  client = createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
});
afterAll(async () => {
  await client?.close();
  await stopTestApp(mode, dir);
});

describe('a mirror delete that fails', () => {
  it('counts as one failed row everywhere and has a row of its own in the failed-rows workbook', async () => {
    const base = await run({ 'supplier-products': [product('MF-FAIL'), product('MF-FREE'), product('MF-KEEP')] });
    expect(base.status).toBe('completed');
    const failing = await client.supplierProducts.findByExternalId('MF-FAIL');

    // Every DELETE of MF-FAIL is answered with a 500 (the retries give up); the other delete goes through.
    await faults({ method: 'DELETE', path_suffix: `/supplier-products/${String(failing!.id)}` });
    const job = await run(
      { 'supplier-products': [product('MF-KEEP')] },
      { mirror: ['supplier-products'], maxDeletes: 100 },
    );
    await faults(null);
    expect(job.status).toBe('completed');
    expect(job.counts).toMatchObject({ deleted: 1, failed: 1 });
    // "1 failed" is one row to save and one to re-run
    expect(job.notSucceeded).toBe(1);
    expect(job.failedRows).toBe(1);
    expect(job.notSucceededRows).toBe(1);

    const rows = await call('jobs.rows', { jobId: job.jobId, offset: 0, limit: 50, filter: { outcome: 'failed' } });
    expect(rows.rows.map((r) => r.externalId)).toEqual(['MF-FAIL']);
    const refusal = rows.rows[0];

    const ticket = await call('jobs.failedWorkbook', { jobId: job.jobId });
    expect(ticket.rows).toBe(1);
    const file = mode.app.sessions.downloads.get(ticket.downloadId);
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
    expect(data[0]).toMatchObject({ external_id: 'MF-FAIL', action: 'delete', err: refusal.errCode });
    expect(data[0].err).not.toBe('');
    expect(refusal.message).not.toBe('');
    expect(data[0].message).toContain(refusal.message);
  });
});

describe('a mirror delete that fails, of a sheet fed by a CSV source', () => {
  const mapping = {
    version: 1 as const,
    sheets: {
      'supplier-products': {
        source: 'MAT_*.csv',
        columns: {
          Bezeichnung: 'name',
          Materialnummer: 'external_id',
          Werk: 'plant_code',
          Materialart: 'material_code',
          ME: 'unit',
          Aktion: 'action',
        },
      },
    },
  };
  const csv = (name: string, codes: string[]) => {
    const p = path.join(dir, name);
    fs.writeFileSync(
      p,
      [
        'Bezeichnung;Materialnummer;Werk;Materialart;ME;Aktion',
        ...codes.map((c) => `Produkt ${c};${c};PL-HEID;MAT-CEM1;KG;`),
      ].join('\r\n'),
    );
    return p;
  };
  async function runCsv(file: string, opts: Partial<ProcedureInput<'import.plan'>> = {}) {
    const f = mode.app.files.registerPath(file);
    const v = await call('import.validate', { fileId: f.fileId, mapping });
    expect(v.errors).toBe(0);
    const plan = await call('import.plan', { importId: v.importId, createOnly: false, mirror: [], ...opts });
    expect(plan.blocked).toBe(0);
    const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: false });
    return settled(jobId);
  }

  it("is one row of the source's failed-rows CSV: the code in its identity column, delete in its action column", async () => {
    const base = await runCsv(csv('MAT_1.csv', ['MC-FAIL', 'MC-FREE', 'MC-KEEP']));
    expect(base.status).toBe('completed');
    const failing = await client.supplierProducts.findByExternalId('MC-FAIL');
    await faults({ method: 'DELETE', path_suffix: `/supplier-products/${String(failing!.id)}` });
    let job: ProcedureOutput<'jobs.get'>;
    try {
      job = await runCsv(csv('MAT_2.csv', ['MC-KEEP']), { mirror: ['supplier-products'], maxDeletes: 100 });
    } finally {
      await faults(null);
    }
    expect(job.status).toBe('completed');
    expect(job.counts.failed).toBe(1);
    expect(job.failedRows).toBe(1);

    const ticket = await call('jobs.failedWorkbook', { jobId: job.jobId });
    expect(ticket.rows).toBe(job.failedRows);
    const file = mode.app.sessions.downloads.get(ticket.downloadId)!;
    const rows = parse(fs.readFileSync(file.path, 'utf8'), { delimiter: ';', relax_column_count: true }) as string[][];
    expect(rows[0]).toEqual([
      'Bezeichnung',
      'Materialnummer',
      'Werk',
      'Materialart',
      'ME',
      'Aktion',
      '_result',
      '_id',
      '_err_code',
      '_message',
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[1].slice(0, 7)).toEqual(['', 'MC-FAIL', '', '', '', 'delete', 'failed']);
    expect(rows[1][8]).not.toBe('');
    expect(rows[1][9]).not.toBe('');
  });
});
