/**
 * `plan` and `import` with `--mirror SHEET` and `--max-deletes N`: under the cap the mirror
 * deletes what the sheet no longer has; over it the plan is blocked with the count and the cap (exit 2) and
 * nothing is deleted; the dry run lists every delete with the entity's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { ApiClient } from '../../core/api/index.js';
import type { Plan } from '../../core/jobs/types.js';
import { writeTestWorkbook } from '../jobs/helpers.js';
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
  for (let i = 1; i <= 10; i++) await client.supplierCompanies.create({ external_id: `C-${i}`, name: `Company ${i}` });
  await client.supplierCompanies.create({ name: 'Without code' });
});
afterAll(async () => {
  await sb?.close();
});

const book = (codes: number[]) =>
  writeTestWorkbook(path.join(dir, `companies-${codes.length}.xlsx`), {
    'supplier-companies': codes.map((i) => ({ external_id: `C-${i}`, name: `Company ${i}` })),
  });

describe('--mirror', () => {
  it('over the default cap (10 % of 10, at least 5): plan and import are blocked with the count and the cap, nothing is deleted', async () => {
    const file = await book([1, 2, 3, 4]); // 6 would go, the cap is 5
    const p = await run(['plan', file]);
    expect(p.code).toBe(0);
    const m = await run(['plan', file, '--mirror', 'supplier-companies']);
    expect(m.code).toBe(2);
    expect(m.stdout).toContain(
      'mirror supplier-companies: 6 of 10 with an external_id not in the sheet, cap 5 — over the cap: nothing is deleted',
    );
    expect(m.stdout).toContain('would delete 6 supplier companies, more than the cap of 5 (--max-deletes)');
    expect(m.stdout).toContain('not managed by the workbook (no external_id; never touched): 1');
    const imp = await run(['import', file, '--mirror', 'supplier-companies']);
    expect(imp.code).toBe(2);
    expect(imp.stderr).toMatch(/6 entries are blocked/);
    const skip = await run(['import', file, '--mirror', 'supplier-companies', '--skip-blocked']);
    expect(skip.code).toBe(1);
    expect(await companyCodes()).toHaveLength(10);
  });

  it('under the cap: the dry run lists each delete with its name; the import deletes them, never the one without a code', async () => {
    const file = await book([1, 2, 3, 4, 5, 6, 7, 8]);
    const p = await run(['plan', file, '--mirror', 'Supplier Companies', '--json']);
    expect(p.code).toBe(0);
    const plan = JSON.parse(p.stdout) as Plan;
    expect(plan.entries.filter((e) => e.action === 'delete').map((e) => e.label)).toEqual([
      'supplier company C-9 "Company 9"',
      'supplier company C-10 "Company 10"',
    ]);
    const text = await run(['plan', file, '--mirror', 'supplier-companies', '--max-deletes', '2']);
    expect(text.stdout).toMatch(/delete\s+supplier company C-9 "Company 9"\s+\(not in supplier-companies: mirror\)/);
    const imp = await run(['import', file, '--mirror', 'supplier-companies']);
    expect(imp.code).toBe(0);
    expect(await companyCodes()).toEqual(['C-1', 'C-2', 'C-3', 'C-4', 'C-5', 'C-6', 'C-7', 'C-8']);
    let unmanaged = 0;
    for await (const c of client.supplierCompanies.walk()) if (!c.external_id) unmanaged++;
    expect(unmanaged).toBe(1);
  });

  it('refuses a sheet that cannot be mirrored and --max-deletes without --mirror', async () => {
    const file = await book([1]);
    const bad = await run(['plan', file, '--mirror', 'bom']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--mirror: "bom" is not a sheet that can be mirrored');
    const lone = await run(['plan', file, '--max-deletes', '3']);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toContain('--max-deletes applies to --mirror');
  });
});

describe('--mirror of entities still in use', () => {
  it('the dry run blocks the delete with what uses it (exit 2); dropping the use in the same import lets it go', async () => {
    const c8 = (await client.supplierCompanies.findByExternalId('C-8'))!;
    await client.supplierPlants.create({ external_id: 'P-USER', name: 'User plant', supplier_company_id: c8.id });
    const file = await book([1, 2, 3, 4, 5, 6, 7]);
    const p = await run(['plan', file, '--mirror', 'supplier-companies']);
    expect(p.code).toBe(2);
    expect(p.stdout).toContain('supplier company C-8 is still used by supplier plant P-USER: remove that use first');
    const imp = await run(['import', file, '--mirror', 'supplier-companies']);
    expect(imp.code).toBe(2);
    expect(await companyCodes()).toContain('C-8');
    // The same import deletes the supplier plant too: the company goes after it.
    const both = await writeTestWorkbook(path.join(dir, 'companies-and-user.xlsx'), {
      'supplier-companies': [1, 2, 3, 4, 5, 6, 7].map((i) => ({ external_id: `C-${i}`, name: `Company ${i}` })),
      'supplier-plants': [{ external_id: 'P-USER', action: 'delete' }],
    });
    const ok = await run(['import', both, '--mirror', 'supplier-companies']);
    expect(ok.code).toBe(0);
    expect(await companyCodes()).not.toContain('C-8');
  });
});

describe('the action column through a column mapping', () => {
  it("an ERP deletion flag (X) becomes action delete through the mapping's values; other rows stay upserts", async () => {
    await client.supplierCompanies.create({ external_id: 'ERP-DEL', name: 'To go' });
    const csv = path.join(dir, 'LIEF_2026.csv');
    fs.writeFileSync(csv, 'Lieferant;Name;Löschkennzeichen\nERP-NEW;Neu;\nERP-DEL;Weg;X\n');
    const mapping = path.join(dir, 'erp.json');
    fs.writeFileSync(
      mapping,
      JSON.stringify({
        version: 1,
        sheets: {
          'supplier-companies': {
            source: 'LIEF_*.csv',
            columns: { Lieferant: 'external_id', Name: 'name', Löschkennzeichen: 'action' },
            values: { action: { X: 'delete' } },
          },
        },
      }),
    );
    const p = await run(['plan', csv, '--mapping', mapping, '--json']);
    expect(p.code, p.stderr).toBe(0);
    const plan = JSON.parse(p.stdout) as Plan;
    expect(plan.entries.map((e) => [e.externalId, e.action])).toEqual([
      ['ERP-NEW', 'create'],
      ['ERP-DEL', 'delete'],
    ]);
    const imp = await run(['import', csv, '--mapping', mapping]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(await client.supplierCompanies.findByExternalId('ERP-DEL')).toBeNull();
    expect(await client.supplierCompanies.findByExternalId('ERP-NEW')).not.toBeNull();
  });
});
