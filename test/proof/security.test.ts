/**
 * Security checks that are ours to prove end to end:
 * - a whole job through the real CLI process (profile saved, faults on, a row refused by the service, results
 *   and failed-rows workbooks, resume, jobs, export, lca, me, a revoked key), then every file it wrote (journal,
 *   plan, meta, results, exports, settings) and all output scanned for the key — only the owner-only key file
 *   may hold it, and the masked form shows where a key is named;
 * - strings from the server that look like formulas (=, +, -, @ first) are exported as text cells, never as
 *   formulas (export and results workbook).
 * The browser-mode refusals (no token, foreign Origin, rebinding Host) and the BrowserWindow options and
 * navigation guards are asserted by the shell's own tests: test/ipc/browser-mode.test.ts and
 * test/main/main-process.test.ts (not duplicated here).
 */
import ExcelJS from 'exceljs';
import { statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import { maskApiKey } from '../../core/spec/constants.js';
import { SCOPES } from '../../core/spec/scopes.js';
import { buildDataset } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { readZipEntries } from '../fixtures/zip-writer.js';
import type { JobSummary } from '../../core/jobs/types.js';
import {
  cli,
  control,
  filesUnder,
  jsonOut,
  sandbox,
  sandboxState,
  scannableText,
  spawnCli,
  tmp,
  type CliRun,
  type Sandbox,
} from './helpers.js';

let sb: Sandbox;
let owner: ApiClient;
let root: string;

beforeAll(async () => {
  sb = await sandbox({ seed: 'demo' });
  owner = createApiClient({ baseUrl: sb.baseUrl, apiKey: sb.ownerKey });
  root = tmp('sl-sec-');
});
afterAll(async () => {
  await owner?.close();
  await sb?.close();
});

async function newKey(): Promise<{ key: string; api_key_id: string }> {
  return control(sb.baseUrl, 'POST', '/keys', { scopes: [...SCOPES], plant_ids: null });
}

/** Run the bin as a child process and collect what it printed. */
async function child(
  args: string[],
  env: { key?: string; configDir: string; jobsDir: string; cwd: string },
): Promise<CliRun> {
  const c = spawnCli(args, { ...env, baseUrl: args.includes('--profile') ? undefined : sb.baseUrl });
  const { code } = await c.exit;
  return { code: code ?? -1, stdout: c.stdout(), stderr: c.stderr() };
}

describe('the API key never leaks', () => {
  it('a whole job through the CLI: no file it wrote and no output holds the key (except the owner-only key file)', async () => {
    const { key } = await newKey();
    const secret = key.split('-').slice(2).join('-');
    expect(secret.length).toBeGreaterThan(8);
    const configDir = join(root, 'config');
    const jobsDir = join(root, 'jobs');
    const work = join(root, 'work');
    const env = { configDir, jobsDir, cwd: work };
    const runs: CliRun[] = [];
    /** In this process (fast), or as the real bin (`asChild`) so that anything the process prints is caught. */
    const run = async (args: string[], k?: string, asChild = false) => {
      const r = asChild
        ? await child(args, { ...env, ...(k ? { key: k } : {}) })
        : await cli(args, {
            ...env,
            ...(k ? { key: k } : {}),
            ...(args.includes('--profile') ? {} : { baseUrl: sb.baseUrl }),
          });
      runs.push(r);
      return r;
    };
    await (await import('node:fs/promises')).mkdir(work, { recursive: true });

    // a saved profile (settings + key file)
    const added = await run(['profile', 'add', 'secure', '--base-url', sb.baseUrl], key);
    expect(added.code, added.stderr).toBe(0);

    // a workbook whose last instance the service refuses (entitlement), under faults
    const data = buildDataset({ companies: 3, products: 12, silos: 2, instances: 4, prechain: 1 }, 'SEC');
    const file = join(work, 'sec.xlsx');
    await writeDataWorkbook(file, data);
    const state = await sandboxState(sb.baseUrl);
    await control(sb.baseUrl, 'PUT', '/entitlements', { product_instances: state.product_instances.active + 3 });
    await control(sb.baseUrl, 'PUT', '/faults', {
      error_rate: 0.1,
      reset_after_commit_rate: 0.05,
      latency_ms: 0,
      jitter_ms: 0,
      seed: 11,
    });
    try {
      const imp = await run(
        ['import', file, '--profile', 'secure', '--report', 'report.xlsx', '--failed', 'failed.xlsx', '--debug'],
        undefined,
        true,
      );
      expect(imp.code, `${imp.stdout}\n${imp.stderr}`).toBe(1); // one instance refused, its BOM skipped
      expect(imp.stdout + imp.stderr).toMatch(/err_entitlement_limit_reached|entitlement/);
      const jobs = await run(['jobs', '--json'], key);
      expect(jobs.code).toBe(0);
      const [job] = jsonOut<{ jobs: JobSummary[] }>(jobs).jobs;
      expect(job.resumable).toBe(false); // completed, with a failed row and its skipped BOM
      await run(['resume', job.jobId, '--profile', 'secure', '--json']);
    } finally {
      await control(sb.baseUrl, 'PUT', '/faults', {
        error_rate: 0,
        reset_after_commit_rate: 0,
        latency_ms: 0,
        jitter_ms: 0,
      });
      await control(sb.baseUrl, 'PUT', '/entitlements', { product_instances: null });
    }
    await control(sb.baseUrl, 'PUT', '/lca', { queued_ms: 0, processing_ms: 50 });
    expect((await run(['export', 'supplier-products', '-o', 'export.xlsx'], key)).code).toBe(0);
    expect((await run(['me', '--json'], key)).code).toBe(0);
    const made: string[] = [];
    for await (const pi of owner.productInstances.walk())
      if (pi.external_id?.startsWith('SEC-')) made.push(pi.external_id);
    expect(made).toHaveLength(3);
    const lca = await run(['lca', '--instances', made.join(','), '--recompute', '-o', 'lca.xlsx'], key);
    expect([0, 1], lca.stderr).toContain(lca.code);

    // a revoked key: the refusal names the key masked, never in full
    const revoked = await newKey();
    await control(sb.baseUrl, 'DELETE', `/keys/${revoked.api_key_id}`);
    const refused = await run(['me'], revoked.key, true);
    expect(refused.code).toBe(3);
    const revokedSecret = revoked.key.split('-').slice(2).join('-');

    // scan: every file written, every output
    const files = [...filesUnder(configDir), ...filesUnder(jobsDir), ...filesUnder(work)];
    const names = files.map((f) => basename(f));
    for (const expected of [
      'journal.jsonl',
      'plan.json',
      'meta.json',
      'report.xlsx',
      'failed.xlsx',
      'export.xlsx',
      'lca.xlsx',
      'secrets.json',
    ])
      expect(names).toContain(expected);
    let maskedSeen = false;
    for (const f of files) {
      const text = await scannableText(f);
      if (basename(f) === 'secrets.json') {
        // the CLI's key file: the one place the key lives (plain, owner-only — see docs/cli.md)
        expect(statSync(f).mode & 0o077, `${f} must be readable by its owner only`).toBe(0);
        continue;
      }
      expect(text.includes(secret), `the key's secret is in ${f}`).toBe(false);
      expect(text.includes(revokedSecret), `the revoked key's secret is in ${f}`).toBe(false);
      if (text.includes(maskApiKey(key))) maskedSeen = true;
    }
    expect(maskedSeen, 'the masked key (svc-<key_id>-****) names the key in the job files').toBe(true);
    for (const r of runs) {
      for (const s of [secret, revokedSecret]) {
        expect(r.stdout.includes(s)).toBe(false);
        expect(r.stderr.includes(s)).toBe(false);
      }
    }
    expect(refused.stderr + refused.stdout).not.toContain(revoked.key);
  });
});

describe('server strings that look like formulas stay text', () => {
  const NASTY = [
    '=1+2',
    '=HYPERLINK("http://example.invalid","click")',
    '+49 621 000',
    '-2+3',
    '@SUM(A1:A2)',
    "=cmd|'/c calc'!A1",
  ];

  /** Every cell of a sheet part that carries a formula (<f>), and the values of the given texts' cells. */
  async function formulasIn(file: string): Promise<string[]> {
    const parts = await readZipEntries(file);
    return parts
      .filter((p) => p.name.startsWith('xl/worksheets/') && /<f[\s>]/.test(p.data.toString('utf8')))
      .map((p) => p.name);
  }

  it('an export writes them as text cells, never formulas', async () => {
    const names = new Map<string, string>();
    for (const [i, name] of NASTY.entries()) {
      const code = `FORMULA-SC-${i}`;
      await owner.supplierCompanies.create({ external_id: code, name });
      names.set(code, name);
    }
    const out = join(root, 'formulas-export.xlsx');
    const r = await cli(['export', 'supplier-companies', '-o', out], { key: sb.ownerKey, baseUrl: sb.baseUrl });
    expect(r.code, r.stderr).toBe(0);
    expect(await formulasIn(out)).toEqual([]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const ws = wb.getWorksheet('supplier-companies')!;
    const header = (ws.getRow(1).values as unknown[]).map(String);
    const [ci, ni] = [header.indexOf('external_id'), header.indexOf('name')];
    let seen = 0;
    ws.eachRow((row, n) => {
      if (n === 1) return;
      const code = String(row.getCell(ci).value);
      if (!names.has(code)) return;
      const cell = row.getCell(ni);
      expect(cell.type, `${code}`).toBe(ExcelJS.ValueType.String);
      expect(cell.value).toBe(names.get(code));
      seen++;
    });
    expect(seen).toBe(NASTY.length);
  });

  it('the results workbook keeps them as text (names typed as text by the user, echoed with the outcome)', async () => {
    const data = {
      'supplier-companies': NASTY.map((name, i) => ({ external_id: `FORMULA-RS-${i}`, name, country: 'DE' })),
    };
    const file = join(root, 'formulas-in.xlsx');
    await writeDataWorkbook(file, data);
    const report = join(root, 'formulas-report.xlsx');
    const r = await cli(['import', file, '--report', report], {
      key: sb.ownerKey,
      baseUrl: sb.baseUrl,
      jobsDir: join(root, 'jobs-formulas'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await formulasIn(report)).toEqual([]);
    for (const [i, name] of NASTY.entries())
      expect((await owner.supplierCompanies.findByExternalId(`FORMULA-RS-${i}`))?.name).toBe(name);
  });
});
