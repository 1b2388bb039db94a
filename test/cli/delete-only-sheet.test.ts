/**
 * `supply-loader plan` / `import` of a sheet of deletes whose header has only `external_id` and `action` (a
 * workbook sheet or a CSV file feeding it): the deletes are planned and run; a row of it that is not a delete
 * is blocked at its row, naming the missing column; a mirror of such a sheet keeps every entity it names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { ApiClient } from '../../core/api/index.js';
import type { Plan } from '../../core/jobs/types.js';
import { writeXlsx } from '../workbook/helpers.js';
import { apiClient, cli, sandbox, tmpDir, type Sandbox } from './helpers.js';

let sb: Sandbox;
let client: ApiClient;
let dir: string;
let jobsDir: string;
const run = (args: string[]) => cli(args, { baseUrl: sb.baseUrl, key: sb.ownerKey, cwd: dir, jobsDir });

async function companyCodes(): Promise<string[]> {
  const out: string[] = [];
  for await (const c of client.supplierCompanies.walk()) if (c.external_id) out.push(c.external_id);
  return out.sort();
}

beforeAll(async () => {
  sb = await sandbox('empty');
  client = apiClient(sb);
  dir = tmpDir();
  jobsDir = path.join(dir, 'jobs');
  for (const c of ['D-1', 'D-2', 'D-3', 'D-4', 'D-5', 'D-6'])
    await client.supplierCompanies.create({ external_id: c, name: `Company ${c}` });
});
afterAll(async () => {
  await sb?.close();
});

describe('a sheet of deletes with only external_id and action', () => {
  it('xlsx: plan lists the deletes (exit 0), import deletes them', async () => {
    const file = path.join(dir, 'deletes.xlsx');
    await writeXlsx(file, {
      'supplier-companies': [
        ['external_id', 'action'],
        ['D-1', 'delete'],
        ['D-2', 'delete'],
      ],
    });
    const p = await run(['plan', file, '--json']);
    expect(p.stderr).toBe('');
    expect(p.code).toBe(0);
    const plan = JSON.parse(p.stdout) as Plan;
    expect(plan.entries.map((e) => [e.action, e.label])).toEqual([
      ['delete', 'supplier company D-1 "Company D-1"'],
      ['delete', 'supplier company D-2 "Company D-2"'],
    ]);
    const imp = await run(['import', file]);
    expect(imp.code).toBe(0);
    expect(await companyCodes()).toEqual(['D-3', 'D-4', 'D-5', 'D-6']);
  });

  it('CSV: the same from supplier-companies.csv', async () => {
    const file = path.join(dir, 'supplier-companies.csv');
    fs.writeFileSync(file, 'external_id;action\nD-3;delete\n');
    const p = await run(['plan', file]);
    expect(p.code).toBe(0);
    expect(p.stdout).toMatch(/delete\s+supplier company D-3 "Company D-3"/);
  });

  it('a row that is not a delete: blocked at its row with the missing column and what to do (exit 2); the mirror keeps its entity', async () => {
    const file = path.join(dir, 'mixed.xlsx');
    await writeXlsx(file, {
      'supplier-companies': [
        ['external_id', 'action'],
        ['D-4', 'delete'],
        ['D-5', null],
      ],
    });
    const p = await run(['plan', file]);
    expect(p.code).toBe(2);
    expect(p.stdout).toMatch(/delete\s+supplier company D-4/);
    expect(p.stdout).toContain(
      'supplier-companies!C3 (name): Column name is missing from row 1, and this row needs it: add column name (e.g. at C1), or mark the row delete.',
    );
    const v = await run(['validate', file]);
    expect(v.code).not.toBe(0);
    expect(v.stdout + v.stderr).toContain('supplier-companies!C3');
    const m = await run(['plan', file, '--mirror', 'supplier-companies', '--json']);
    const plan = JSON.parse(m.stdout) as Plan;
    const deletes = plan.entries.filter((e) => e.action === 'delete').map((e) => `${e.key} ${e.label}`);
    // D-3 (deleted by no row, planned only above) and D-6 are not in the sheet; D-5 is, in its blocked row.
    expect(deletes.sort()).toEqual([
      'mirror:supplier-companies:D-3 supplier company D-3 "Company D-3"',
      'mirror:supplier-companies:D-6 supplier company D-6 "Company D-6"',
      'supplier-companies!2 supplier company D-4 "Company D-4"',
    ]);
  });
});
