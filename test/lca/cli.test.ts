/**
 * `supply-loader lca` against the in-process sandbox, run the way main.ts runs a command (argument parsing,
 * RunContext with the key from the environment, errors mapped by describeError): exit codes 0/1/2/3, nothing
 * sent on usage errors or unknown codes, the workbook written, --json output.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../core/cli/shared/args.js';
import { lcaCommand } from '../../core/cli/commands/lca.js';
import { RunContext, type GlobalValues } from '../../core/cli/shared/context.js';
import { describeError } from '../../core/cli/shared/errors.js';
import {
  type LcaFixture,
  type Materials,
  lcaTiming,
  makeInstance,
  makeMaterials,
  requestsSince,
  setClock,
  startLcaFixture,
} from './fixture.js';

let f: LcaFixture;
let m: Materials;
let dir: string;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Requests the sandbox saw during the run. */
  requests: { method: string; path: string }[];
}

async function cli(args: string[], key = f.ownerKey): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const { last_seq } = await requestsSince(f, 0);
  const io = {
    stdout: (s: string) => void (stdout += s),
    stderr: (s: string) => void (stderr += s),
    env: { SUPPLY_LOADER_API_KEY: key, SUPPLY_LOADER_BASE_URL: f.baseUrl },
    cwd: dir,
    isTTY: false,
  };
  let ctx: RunContext | undefined;
  let code: number;
  try {
    const { values, positionals } = parseCommandArgs(args, lcaCommand.options, 'lca');
    ctx = new RunContext(io, values as GlobalValues, new AbortController().signal);
    code = await lcaCommand.run(values, positionals, ctx);
  } catch (e) {
    const d = describeError(e, 'lca');
    stderr += `supply-loader: ${d.message}\n`;
    code = d.exitCode;
  } finally {
    await ctx?.close();
  }
  const requests = (await requestsSince(f, last_seq)).entries;
  return { code, stdout, stderr, requests };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lca-cli-'));
  f = await startLcaFixture('empty');
  await setClock(f, '2030-06-15T12:00:00Z');
  await lcaTiming(f, { queued_ms: 0, processing_ms: 50 });
  m = await makeMaterials(f, 'PL-HEID', 'CLI');
  const bom = [
    { ref: m.cement, mass_kg: 300 },
    { ref: m.sand, mass_kg: 1800 },
  ];
  // complete: every reportable year has its production data
  await makeInstance(f, {
    external_id: 'CLI-DONE',
    article: 'ART-20030',
    plantCode: 'PL-HEID',
    from: 2028,
    to: 2029,
    bom,
    production: { 2028: 10, 2029: 12 },
  });
  // a future year only: blocked, but nothing to do yet
  await makeInstance(f, {
    external_id: 'CLI-FUT',
    article: 'ART-20030',
    plantCode: 'PL-HEID',
    from: 2029,
    to: 2031,
    bom,
    production: { 2029: 5, 2030: 3 },
  });
  // a past year without production data: the user must act
  await makeInstance(f, {
    external_id: 'CLI-GAP',
    article: 'ART-20045',
    plantCode: 'PL-HEID',
    from: 2028,
    to: 2029,
    bom,
    production: { 2029: 5 },
  });
  await makeInstance(f, {
    external_id: 'CLI-FAIL',
    article: 'ART-20045',
    plantCode: 'PL-HEID',
    from: 2029,
    to: 2029,
    bom,
    production: { 2029: 5 },
  });
});
afterAll(async () => {
  await f?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('supply-loader lca', () => {
  it.each([
    [[], /say which product instances/],
    [['--all', '--plant', 'PL-HEID', '-o', 'x.xlsx'], /only one of --plant, --all/],
    [['--all'], /-o results\.xlsx/],
    [['--all', '-o', 'x.csv'], /must end in \.xlsx/],
    [['--all', '-o', 'missing-dir/x.xlsx'], /folder of the output file does not exist/],
    [['--all', '-o', 'x.xlsx', '--concurrency', '0'], /--concurrency must be a whole number/],
    [['--instances', ' , ', '-o', 'x.xlsx'], /needs at least one code/],
    [['--all', '-o', 'x.xlsx', '--bogus'], /unknown option --bogus/],
  ])('usage error %j → exit 2, nothing sent', async (args, message) => {
    const r = await cli(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.requests).toEqual([]);
  });

  it('unknown codes → exit 2, no recompute sent, no file written', async () => {
    const r = await cli(['--instances', 'CLI-DONE,CLI-NOPE', '--recompute', '-o', 'unknown.xlsx']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/product instance not found: CLI-NOPE/);
    expect(r.requests.every((q) => q.method === 'GET')).toBe(true);
    expect(existsSync(join(dir, 'unknown.xlsx'))).toBe(false);
  });

  it('exit 0 when every instance has its results and no year waits for the user (future years are fine)', async () => {
    const r = await cli(['--instances', 'CLI-DONE,CLI-FUT', '--recompute', '-o', 'ok.xlsx']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/LCA of 2 product instances .*recomputed.*: 2 completed\./);
    expect(r.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/lca-update'))).toHaveLength(2);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(dir, 'ok.xlsx'));
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'results',
      'indicators',
      'hotspots',
      'trend',
      'blockers',
      'jobs',
      'about',
    ]);
    expect(wb.getWorksheet('jobs')!.rowCount).toBe(3);
  });

  it('exit 1 when a past year lacks production data, and says which', async () => {
    const r = await cli(['--products', 'ART-20045', '-o', 'gap.xlsx', '--recompute']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Production data missing[^]*CLI-GAP: 2028/);
  });

  it('exit 1 when a job fails, with its err_code and explanation; --json prints the verdicts', async () => {
    await lcaTiming(f, { fail_next: 'err_lca_mass_balance' });
    const r = await cli(['--instances', 'CLI-FAIL,CLI-DONE', '--recompute', '--concurrency', '1', '--json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as {
      exit_code: number;
      output: string | null;
      summary: { completed: number; failed: number };
      instances: {
        external_id: string;
        outcome: string;
        err_code: string | null;
        explanation: string | null;
        years_needing_data: number[];
      }[];
      key: string;
    };
    expect(out.exit_code).toBe(1);
    expect(out.output).toBeNull();
    expect(out.summary).toMatchObject({ completed: 1, failed: 1 });
    expect(out.instances[0]).toMatchObject({
      external_id: 'CLI-FAIL',
      outcome: 'failed',
      err_code: 'err_lca_mass_balance',
    });
    expect(out.instances[0].explanation).toBeTruthy();
    expect(out.instances[1]).toMatchObject({ external_id: 'CLI-DONE', outcome: 'completed', years_needing_data: [] });
    expect(out.key).toMatch(/^svc-[A-Za-z0-9]+-\*\*\*\*$/);
    expect(r.stdout + r.stderr).not.toContain(f.ownerKey);
  });

  it('exit 1 for instances never computed (idle) without --recompute, with the hint', async () => {
    await makeInstance(f, {
      external_id: 'CLI-NEW',
      article: 'ART-20030',
      plantCode: 'PL-HEID',
      from: 2029,
      to: 2029,
      bom: [],
      production: { 2029: 1 },
    });
    const r = await cli(['--instances', 'CLI-NEW', '-o', 'idle.xlsx']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/CLI-NEW: no LCA computed yet — run with --recompute/);
    expect(r.requests.every((q) => q.method === 'GET')).toBe(true);
  });

  it('exit 3 when the key is refused', async () => {
    const k = await f.ctl<{ key: string; api_key_id: string }>('POST', '/__sandbox/keys', {
      scopes: ['view:products'],
      plant_ids: null,
    });
    await f.ctl('DELETE', `/__sandbox/keys/${k.api_key_id}`);
    const r = await cli(['--all', '-o', 'refused.xlsx'], k.key);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/refused the API key/);
    expect(r.stderr).not.toContain(k.key);
  });

  it('--from-workbook reads the product-instances sheet', async () => {
    const path = join(dir, 'in.xlsx');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('product-instances');
    ws.addRow(['external_id', 'product_external_id', 'plant_code', 'produced_from', 'produced_to', 'name']);
    ws.addRow(['CLI-DONE', 'ART-20030', 'PL-HEID', 2028, 2029, 'done']);
    await wb.xlsx.writeFile(path);
    const r = await cli(['--from-workbook', 'in.xlsx', '-o', 'fromwb.xlsx', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { selection: string; instances: { external_id: string }[] };
    expect(out.instances.map((i) => i.external_id)).toEqual(['CLI-DONE']);
    expect(out.selection).toMatch(/in\.xlsx/);
    expect(existsSync(join(dir, 'fromwb.xlsx'))).toBe(true);
  });
});

describe('lca --production FILE', () => {
  const prodFile = async (name: string, rows: Record<string, unknown>[]) => {
    const { writeTestWorkbook } = await import('../jobs/helpers.js');
    return writeTestWorkbook(join(dir, name), { production: rows });
  };

  it('writes the figures through the API first; with --recompute the years the rules allow are computed (exit 0)', async () => {
    await makeInstance(f, {
      external_id: 'CLI-PROD',
      article: 'ART-20030',
      plantCode: 'PL-HEID',
      from: 2028,
      to: 2031,
      bom: [{ ref: m.cement, mass_kg: 300 }],
    });
    const before = await cli(['--instances', 'CLI-PROD', '--recompute', '--json']);
    expect(before.code).toBe(1); // 2028–2030 lack production data
    const file = await prodFile('prod.xlsx', [
      { product_instance_external_id: 'CLI-PROD', year: 2028, quantity: 10 },
      { product_instance_external_id: 'CLI-PROD', year: 2029, quantity: 12.5 },
      { product_instance_external_id: 'CLI-PROD', year: 2030, quantity: 4 },
      { product_instance_external_id: 'CLI-PROD', year: 2031, quantity: 9 },
    ]);
    const r = await cli(['--instances', 'CLI-PROD', '--production', file, '--recompute', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.production.map((p: { year: number; outcome: string }) => [p.year, p.outcome])).toEqual([
      [2028, 'written'],
      [2029, 'written'],
      [2030, 'written'],
      [2031, 'written'],
    ]);
    expect(out.instances[0]).toMatchObject({ years_computed: 3, years_blocked: 1, years_needing_data: [] });
    const puts = r.requests.filter((q) => q.method === 'PUT' && q.path.endsWith('/production-figures'));
    expect(puts).toHaveLength(1);
  });

  it('a row for an unknown instance fails with a clear message (exit 1); a bad file stops before anything is sent (exit 2)', async () => {
    const file = await prodFile('prod-unknown.xlsx', [
      { product_instance_external_id: 'NO-SUCH', year: 2029, quantity: 1 },
    ]);
    const r = await cli(['--instances', 'CLI-DONE', '--production', file, '-o', 'unknown.xlsx']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Production figures: 0 of 1 written/);
    expect(r.stdout).toMatch(/row 2 NO-SUCH 2029: failed \[err_not_found\]/);

    const bad = await prodFile('prod-bad.xlsx', [
      { product_instance_external_id: 'CLI-DONE', year: 2029, quantity: -3 },
    ]);
    const b = await cli(['--instances', 'CLI-DONE', '--production', bad, '--json']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/production!C2/);
    expect(b.requests).toHaveLength(0);
  });
});
