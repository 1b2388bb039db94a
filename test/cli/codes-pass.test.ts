/**
 * `plan` and `import` check every code of the workbook against the service in the same pass as the cell checks,
 * rows with other errors included: each unknown code is an error at its own cell with the known codes it may be
 * a typo of, by name; an error an unknown code causes elsewhere says so; nothing is written. Offline `validate`
 * says that codes were not checked.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Issue } from '../../core/workbook/types.js';
import { writeCodesWorkbook } from '../fixtures/codes-workbook.js';
import { clearRequests, cli, isWrite, requests, sandbox, tmpDir, type Sandbox } from './helpers.js';

let sb: Sandbox;
let dir: string;
let file: string;
const run = (args: string[], key = true) =>
  cli(args, { baseUrl: sb.baseUrl, ...(key && { key: sb.ownerKey }), cwd: dir, jobsDir: path.join(dir, 'jobs') });

beforeAll(async () => {
  sb = await sandbox('demo');
  dir = tmpDir('sl-codes-pass-');
  file = path.join(dir, 'codes.xlsx');
  await writeCodesWorkbook(file);
});
afterAll(async () => {
  await sb?.close();
});

const at = (issues: Issue[], sheet: string, cell: string) => issues.filter((i) => i.sheet === sheet && i.cell === cell);

/** The four problems, each at its cell. */
function expectAllFour(issues: Issue[]): void {
  expect(at(issues, 'hazardous-substances', 'B1').map((i) => i.severity)).toContain('error');
  expect(at(issues, 'supplier-products', 'D2')).toEqual([
    expect.objectContaining({
      severity: 'error',
      code: 'code_unknown',
      row: 2,
      field: 'material_code',
      params: { value: 'MAT-SNAD', variant: 'material', hint: 'MAT-SAND — Sand 0/2, washed' },
      message: expect.stringContaining('(did you mean MAT-SAND — Sand 0/2, washed?)'),
    }),
  ]);
  // the typo's row has an error of its own: both are said
  expect(at(issues, 'supplier-products', 'F2').map((i) => i.field)).toEqual(['unit']);
  expect(at(issues, 'supplier-products', 'C3')).toEqual([
    expect.objectContaining({
      code: 'code_unknown',
      field: 'plant_code',
      params: { value: 'PL-MUX', variant: 'plant', hint: 'PL-MUC — Transportbetonwerk München-Nord' },
    }),
  ]);
  expect(at(issues, 'silo-items', 'B2')).toEqual([
    expect.objectContaining({
      code: 'silo_item_plant',
      message: expect.stringMatching(/its own plant only \(because supplier-products!C3 is unknown\)$/),
      params: expect.objectContaining({ cause: 'supplier-products!C3' }),
    }),
  ]);
  // known codes are not reported
  expect(issues.filter((i) => i.code === 'code_unknown')).toHaveLength(2);
}

describe('the codes pass', () => {
  it('plan --json: the header error, the material-code typo with its suggestion, the unknown plant code and the silo rule it breaks, each at its cell; exit 2; nothing written', async () => {
    await clearRequests(sb);
    const r = await run(['plan', file, '--json']);
    expect(r.code).toBe(2);
    const plan = JSON.parse(r.stdout) as {
      workbook: { errors: number; issues: Issue[]; codes_checked: boolean };
      unknownCodes: Issue[];
    };
    expectAllFour(plan.workbook.issues);
    expect(plan.workbook.codes_checked).toBe(true);
    expect(plan.workbook.errors).toBe(plan.workbook.issues.filter((i) => i.severity === 'error').length);
    expect(plan.unknownCodes.map((i) => `${i.sheet}!${i.cell}`)).toEqual([
      'supplier-products!D2',
      'supplier-products!C3',
    ]);
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
  });

  it('plan: the same errors in the text, by cell', async () => {
    const r = await run(['plan', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error +supplier-products!D2 \(material_code\): .*did you mean MAT-SAND — Sand 0\/2, washed\?\)$/m,
    );
    expect(r.stderr).toMatch(/^error +supplier-products!C3 \(plant_code\): .*PL-MUX.*did you mean PL-MUC — /m);
    expect(r.stderr).toMatch(/^error +hazardous-substances!B1 /m);
    expect(r.stderr).toMatch(/^error +silo-items!B2 .*\(because supplier-products!C3 is unknown\)$/m);
    // the plan's blocked silo says its cause too
    expect(r.stdout).toMatch(/silo-items!B2 .*\(because supplier-products!C3 is unknown\)/);
  });

  it('import: refused with the same errors in one pass, the codes included (exit 2); nothing written', async () => {
    await clearRequests(sb);
    const r = await run(['import', file, '--json']);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as { stage: string; issues: Issue[]; codes_checked: boolean };
    expect(doc.stage).toBe('validation');
    expect(doc.codes_checked).toBe(true);
    expectAllFour(doc.issues);
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
  });

  it('import without a key: refused for the workbook errors, saying that codes were not checked', async () => {
    const r = await run(['import', file], false);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^Not checked: codes \(plants, materials, references to the service\) were not checked: /m,
    );
    expect(r.stderr).toMatch(/Nothing was sent/);
  });

  it('validate (offline): the workbook errors, and one line that codes were not checked; nothing sent', async () => {
    await clearRequests(sb);
    const r = await run(['validate', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(
      /^Not checked: codes \(plants, materials, references to the service\) were not checked: that needs a connection \("plan" checks them\)\.$/m,
    );
    expect(r.stderr).not.toMatch(/code_unknown|did you mean MAT-SAND/);
    const j = JSON.parse((await run(['validate', file, '--json'])).stdout) as {
      codes_checked: boolean;
      issues: Issue[];
    };
    expect(j.codes_checked).toBe(false);
    expect(j.issues.some((i) => i.code === 'code_unknown')).toBe(false);
    expect(await requests(sb)).toEqual([]);
  });
});
