/**
 * `import --report --failed` of a small workbook makes both workbooks while the job runs (app/import-results.ts
 * liveResultFiles): with a skipped (blocked) row the results workbook marks each row, and the
 * failed-rows workbook — made after the job, since not every row succeeded — holds that row with its code; with
 * every row succeeded it is the empty template made aside during the job. No temporary file is left behind.
 */
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, sandbox, tmpDir, type Sandbox } from './helpers.js';
import { writeTestWorkbook } from '../jobs/helpers.js';

let sb: Sandbox;
let dir: string;
beforeAll(async () => {
  sb = await sandbox('demo');
  dir = tmpDir('sl-live-results-');
});
afterAll(async () => {
  await sb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) =>
  cli(args, { baseUrl: sb.baseUrl, key: sb.ownerKey, cwd: dir, jobsDir: path.join(dir, 'jobs') });

async function rowsOf(file: string, sheet: string): Promise<Record<string, unknown>[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.getWorksheet(sheet);
  if (!ws) return [];
  const head = (ws.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
  const out: Record<string, unknown>[] = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    out.push(Object.fromEntries(head.map((h, i) => [h, row.getCell(i).value]).filter(([h]) => h)));
  });
  return out;
}

const leftovers = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('sl-live-failed-'));

describe('results and failed-rows workbooks made beside the job', () => {
  it('a blocked row imported with --skip-blocked: marked in the results, alone in the failed rows', async () => {
    const before = new Set(leftovers());
    const file = await writeTestWorkbook(path.join(dir, 'mixed.xlsx'), {
      'supplier-companies': [{ external_id: 'LIVE-SC-1', name: 'Live GmbH', country: 'DE' }],
      'supplier-products': [
        { external_id: 'LIVE-SP-1', name: 'x', plant_code: 'NOPE', material_code: 'MAT-CEM1', unit: 'KG' },
      ],
    });
    const r = await run(['import', file, '--skip-blocked', '--report', 'results.xlsx', '--failed', 'failed.xlsx']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(`results workbook: ${path.join(dir, 'results.xlsx')}`);
    expect(r.stdout).toContain(`failed rows workbook: ${path.join(dir, 'failed.xlsx')}`);
    const results = path.join(dir, 'results.xlsx');
    expect((await rowsOf(results, 'supplier-companies')).map((x) => x._result)).toEqual(['created']);
    expect((await rowsOf(results, 'supplier-products')).map((x) => x._result)).toEqual(['skipped']);
    expect((await rowsOf(results, 'Report')).length).toBeGreaterThan(0);
    const failed = await rowsOf(path.join(dir, 'failed.xlsx'), 'supplier-products');
    expect(failed.map((x) => [x.external_id, String(x._err_code)])).toEqual([
      ['LIVE-SP-1', expect.stringMatching(/^skipped:/)],
    ]);
    expect(await rowsOf(path.join(dir, 'failed.xlsx'), 'supplier-companies')).toEqual([]);
    expect(leftovers().filter((n) => !before.has(n))).toEqual([]);
  });

  it('every row succeeded: the failed-rows workbook is the empty template', async () => {
    const before = new Set(leftovers());
    const file = await writeTestWorkbook(path.join(dir, 'ok.xlsx'), {
      'supplier-companies': [{ external_id: 'LIVE-SC-2', name: 'Alles Gut AG', country: 'AT' }],
    });
    const r = await run(['import', file, '--report', 'ok-results.xlsx', '--failed', 'ok-failed.xlsx']);
    expect(r.code, r.stderr).toBe(0);
    expect((await rowsOf(path.join(dir, 'ok-results.xlsx'), 'supplier-companies')).map((x) => x._result)).toEqual([
      'created',
    ]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(dir, 'ok-failed.xlsx'));
    expect(wb.worksheets.map((w) => w.name)).toContain('supplier-companies');
    expect(await rowsOf(path.join(dir, 'ok-failed.xlsx'), 'supplier-companies')).toEqual([]);
    expect(leftovers().filter((n) => !before.has(n))).toEqual([]);
  });

  it('no temporary folder can be made: the import still succeeds, the failed-rows workbook is written after the job', async () => {
    const file = await writeTestWorkbook(path.join(dir, 'no-tmp.xlsx'), {
      'supplier-companies': [{ external_id: 'LIVE-SC-3', name: 'Ohne Tmp KG', country: 'DE' }],
    });
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = path.join(dir, 'no-such-folder');
    let r;
    try {
      r = await run(['import', file, '--report', 'no-tmp-results.xlsx', '--failed', 'no-tmp-failed.xlsx']);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(r.code, r.stderr).toBe(0);
    expect((await rowsOf(path.join(dir, 'no-tmp-results.xlsx'), 'supplier-companies')).map((x) => x._result)).toEqual([
      'created',
    ]);
    expect(r.stdout).toContain(`failed rows workbook: ${path.join(dir, 'no-tmp-failed.xlsx')}`);
    expect(await rowsOf(path.join(dir, 'no-tmp-failed.xlsx'), 'supplier-companies')).toEqual([]);
  });
});
