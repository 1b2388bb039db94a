/**
 * Options of `plan` and `import` that would make the plan guess are refused with exit 2 and one line (no stack,
 * nothing sent): a mirror of a sheet no source feeds, a mirror with create-only, a cap of deletes that is not a
 * whole number of 0 or more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { ApiClient } from '../../core/api/index.js';
import { writeTestWorkbook } from '../jobs/helpers.js';
import { apiClient, clearRequests, cli, isWrite, requests, sandbox, tmpDir, type Sandbox } from './helpers.js';

let sb: Sandbox;
let client: ApiClient;
let dir: string;
let file: string;
const run = (args: string[]) =>
  cli(args, { baseUrl: sb.baseUrl, key: sb.ownerKey, cwd: dir, jobsDir: path.join(dir, 'jobs') });

beforeAll(async () => {
  sb = await sandbox('empty');
  client = apiClient(sb);
  dir = tmpDir();
  const sc = (await client.supplierCompanies.create({ external_id: 'R-SC', name: 'Refusals' })).entity;
  await client.supplierPlants.create({ external_id: 'R-SPL', name: 'Kept', supplier_company_id: sc.id });
  file = await writeTestWorkbook(path.join(dir, 'companies.xlsx'), {
    'supplier-companies': [{ external_id: 'R-SC', name: 'Refusals' }],
  });
  await clearRequests(sb);
});
afterAll(async () => {
  await sb?.close();
});

const oneLine = (r: { stderr: string }) => {
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  return r.stderr.split('\n')[0];
};

describe('refused options', () => {
  it('--mirror of a sheet no source feeds: refused, not a plan deleting every entity of its type', async () => {
    for (const cmd of ['plan', 'import']) {
      const r = await run([cmd, file, '--mirror', 'supplier-plants']);
      expect(r.code).toBe(2);
      expect(oneLine(r)).toBe(
        'supply-loader: cannot mirror supplier-plants: no sheet or CSV source of this import feeds it (the mirror would delete every one of the supplier plants with an external_id on the service)',
      );
    }
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
    expect(await client.supplierPlants.findByExternalId('R-SPL')).not.toBeNull();
  });

  it('--create-only with --mirror: refused, saying why', async () => {
    const r = await run(['plan', file, '--mirror', 'supplier-companies', '--create-only']);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toBe(
      'supply-loader: create-only and mirror cannot be combined: a mirror deletes entities, create-only writes only new rows',
    );
  });

  it('--max-deletes -1 and non-integers: a clear message about the value', async () => {
    for (const v of ['-1', '2.5', 'many']) {
      const r = await run(['plan', file, '--mirror', 'supplier-companies', '--max-deletes', v]);
      expect(r.code).toBe(2);
      expect(oneLine(r)).toBe(`supply-loader: --max-deletes must be a whole number from 0 to 1000000000 (got "${v}")`);
    }
  });
});
