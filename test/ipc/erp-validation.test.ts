/**
 * The app's check step (import.validate through the contract): a misnamed column is an error at
 * its header cell, other unknown columns and rows not read because of a header error reach the renderer
 * (they are not stripped by the contract), and an unfilled workbook is never green.
 */
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput } from '../../core/ipc/contract.js';
import { rpc, startTestApp, stopTestApp } from './helpers.js';
import type { ProcedureName } from '../../core/contract/names.js';

let mode: BrowserMode;
let dir: string;

const call = <N extends ProcedureName>(name: N, input: ProcedureInput<N>) => rpc(mode, name, input);

async function validate(name: string, rows: (string | number | null)[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('supplier-products');
  for (const r of rows) ws.addRow(r);
  const p = path.join(dir, name);
  await wb.xlsx.writeFile(p);
  return call('import.validate', { fileId: mode.app.files.registerPath(p).fileId });
}

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-ipc-erp-'));
});
afterAll(() => stopTestApp(mode, dir));

describe('the check step says what is not read', () => {
  const header = ['external_id', 'name', 'plant_code', 'material_code', 'unit'];
  const row = (i: number) => [`SP-${i}`, `P ${i}`, 'PL-MUC', 'MAT-SAND', 'KG'];

  it('misnamed column → error at F1; Kommentar → ignored column; rows blocked', async () => {
    const v = await validate('misnamed.xlsx', [
      [...header, 'truck_distance_km', 'Kommentar'],
      [...row(1), 22, 'x'],
      [...row(2), 18, ''],
    ]);
    expect(v.issues.find((i) => i.code === 'misnamed_column')).toMatchObject({
      severity: 'error',
      sheet: 'supplier-products',
      cell: 'F1',
      field: 'truck_km',
    });
    expect(v.sheets[0]).toMatchObject({
      rows: 2,
      blockedRows: 2,
      ignoredColumns: [{ header: 'Kommentar', cell: 'G1', reason: 'unknown' }],
    });
  });

  it('a missing required column: the rows are counted as not read, not as "0 rows"', async () => {
    const v = await validate('missing.xlsx', [header.slice(0, 4), ...[1, 2, 3].map((i) => row(i).slice(0, 4))]);
    expect(v.errors).toBeGreaterThan(0);
    expect(v.sheets[0]).toMatchObject({ rows: 0, unreadRows: 3 });
  });

  it('a sheet of deletes (external_id and action only): the delete rows are read, a row that is not a delete has its missing columns at its cells', async () => {
    const v = await validate('deletes.xlsx', [
      ['external_id', 'action'],
      ['SP-1', 'delete'],
      ['SP-2', 'update'],
      ['SP-3', 'delete'],
    ]);
    expect(v.sheets[0]).toMatchObject({ rows: 3, blockedRows: 1 });
    expect(v.sheets[0].unreadRows).toBeUndefined();
    expect(v.issues.map((i) => [i.code, i.cell, i.field])).toEqual([
      ['missing_column', 'C3', 'name'],
      ['missing_column', 'D3', 'plant_code'],
      ['missing_column', 'E3', 'material_code'],
      ['missing_column', 'F3', 'unit'],
    ]);
    expect(v.issues[0]).toMatchObject({ params: { headerCell: 'C1', rowAction: 'delete' } });
  });

  it('headers only: an error, never "no problems found"', async () => {
    const v = await validate('empty.xlsx', [header]);
    expect(v.errors).toBe(1);
    expect(v.issues[0]).toMatchObject({ code: 'no_data_rows', severity: 'error' });
  });
});
