/**
 * The import path holds no per-row structure in memory beyond the compact state.
 * 20,000 rows over every sheet (mostly supplier products, as bench/memory.bench.ts) imported by the real CLI
 * process (bin/supply-loader.cjs) with `--report` and `--failed` under a small V8 heap (NODE_OPTIONS
 * --max-old-space-size, HEAP_MIB below). Loading the input workbook whole for the results workbook (as before
 * the streaming writer) needs far more heap than this and dies with "JavaScript heap out of memory"; streamed,
 * the import completes. Not timed: the figures are in bench/memory.bench.ts.
 *
 * The licence allows 10 more product instances than the sandbox holds, so some instances fail and the rows
 * that depend on them are skipped: the failed-rows workbook has rows too.
 *
 * `plan --json` of the same rows first, under a heap smaller still (PLAN_HEAP_MIB): the planner writes its
 * entries to a file as it decides them and the command prints them from there entry by entry, so neither the
 * plan's ~20,000 entries (≈ 1.2–2 KB each with body, refs and notes) nor the whole JSON text are ever in memory
 * at once. Holding them (the plan as an array, then `JSON.stringify` of it) needs several times this heap.
 *
 * Then the desktop app's view of the imported job (JobsRunner.view, what `jobs.get` answers) under a heap of
 * VIEW_HEAP_MIB: counted through the job's compact index from its folder. Reading the whole plan and result
 * (as it did before) dies there.
 *
 * Last, the same job as if it had been stopped before its first write (its journal empty): every one of its
 * rows is a failed row. The app makes its failed-rows and results workbooks under FAILED_HEAP_MIB: the failed
 * rows are put aside on disk, sheet by sheet, and written back streamed with their strings inline. And the
 * results and failed-rows CSV of a CSV source of that job under CSV_HEAP_MIB, from the job's compact index:
 * loading the job's plan and result whole, as before, dies there.
 */
import ExcelJS from 'exceljs';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset, countRows } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { control, sandbox, sandboxState, spawnCli, tmp, type Sandbox } from './helpers.js';

/** V8 old-space limit of the CLI process, MiB: enough for the plan and the job, not for a whole-workbook load. */
// It passed at 128 too (08:07 UTC, 2026-11-24); 192 leaves a margin, the whole-workbook load died at 192.
const HEAP_MIB = 192;
/** V8 old-space limit of `plan --json`, MiB: the parsed workbook and the service index, not the plan. */
const PLAN_HEAP_MIB = 64;
const ROWS = 20_000;
/** V8 old-space limit of the app's view of that job (the Jobs screen, the Run step), MiB: its index, not its plan. */
const VIEW_HEAP_MIB = 40;
/**
 * V8 old-space limit of the app's failed-rows and results workbooks of a job whose every row failed, MiB. Of its
 * ~35 MiB at the most, ~25 are the modules loaded through tsx. At this size the old failed-rows workbook, which
 * held the failed rows, needed only ~4 MiB more (it passed at 48, died at 40): this test shows the workbooks are
 * made, whole and in order, in a small heap; the growth with the rows is in docs/performance.md.
 */
const FAILED_HEAP_MIB = 56;
/** V8 old-space limit of the app's results and failed-rows CSV of a CSV source of that job, MiB (new: passes at 36; old: dies at 56). */
const CSV_HEAP_MIB = 48;

let sb: Sandbox;
let root: string;
let data: ReturnType<typeof buildDataset>;
let file: string;
beforeAll(async () => {
  sb = await sandbox({ seed: 'demo' });
  root = tmp('sl-bounded-');
  data = buildDataset(
    { companies: ROWS / 200, products: Math.round(ROWS * 0.845), silos: ROWS / 1000, instances: 20, prechain: 10 },
    'BND',
  );
  file = join(root, 'big.xlsx');
  await writeDataWorkbook(file, data);
}, 120_000);
afterAll(async () => {
  await sb?.close();
});

/** Each sheet's rows (from row 2) as header → value, read from a written workbook. */
async function sheetRows(path: string): Promise<Map<string, Record<string, unknown>[]>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const out = new Map<string, Record<string, unknown>[]>();
  for (const ws of wb.worksheets) {
    const head: string[] = [];
    ws.getRow(1).eachCell((c, n) => (head[n] = String(c.value)));
    const rows: Record<string, unknown>[] = [];
    ws.eachRow((row, r) => {
      if (r === 1) return;
      const o: Record<string, unknown> = {};
      row.eachCell((c, n) => {
        if (head[n]) o[head[n]] = c.value;
      });
      rows.push(o);
    });
    out.set(ws.name, rows);
  }
  return out;
}

/** The CLI as a child process under a V8 heap of `heapMib`: it must not run out of heap; its exit code and output. */
async function runUnderHeap(args: string[], heapMib: number, jobs: string) {
  const c = spawnCli(args, {
    key: sb.ownerKey,
    baseUrl: sb.baseUrl,
    jobsDir: join(root, jobs),
    env: { NODE_OPTIONS: `--max-old-space-size=${heapMib}` },
  });
  const { code, signal } = await c.exit;
  const why = `exit ${code} ${signal ?? ''}\n${c.stderr().slice(-1500)}`;
  expect(c.stderr(), why).not.toMatch(/heap out of memory/i);
  return { code, why, stdout: c.stdout(), stderr: c.stderr() };
}

/** The job the import test made (its folder under jobs/). */
function importedJobId(): string {
  const jobId = readdirSync(join(root, 'jobs')).find((n) => /^\d{8}-\d{6}-[0-9a-f]{6}$/.test(n));
  expect(jobId, 'the import test made a job').toBeDefined();
  return jobId!;
}

/** A test/proof child script under a V8 heap of `heapMib`: it must not run out of heap; its JSON output. */
async function childUnderHeap<T>(script: string, args: string[], heapMib: number): Promise<T> {
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMib}`, '--import', 'tsx', script, ...args], {
    cwd: join(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  expect(err, err.slice(-1500)).not.toMatch(/heap out of memory/i);
  expect(code, err.slice(-1500)).toBe(0);
  return JSON.parse(out) as T;
}

describe('bounded memory', () => {
  it(`plans ${ROWS.toLocaleString('en')} rows with --json under --max-old-space-size=${PLAN_HEAP_MIB}`, async () => {
    const c = await runUnderHeap(['plan', file, '--json'], PLAN_HEAP_MIB, 'jobs-plan');
    expect(c.code, c.why).toBe(0);
    const plan = JSON.parse(c.stdout) as {
      entries: { sheet: string; action: string; externalId: string | null }[];
      summary: { entries: number; rows: number; byAction: Record<string, number> };
    };
    // every entry printed, in plan order, matching the summary counted as they were decided
    expect(plan.entries).toHaveLength(plan.summary.entries);
    expect(plan.summary.rows).toBe(countRows(data));
    expect(plan.summary.byAction.create).toBe(plan.entries.filter((e) => e.action === 'create').length);
    const products = plan.entries.filter((e) => e.sheet === 'supplier-products');
    expect(products).toHaveLength(data['supplier-products']!.length);
    expect(products.map((e) => e.externalId)).toEqual(data['supplier-products']!.map((r) => r.external_id));
    expect(products.every((e) => e.action === 'create')).toBe(true);
  }, 300_000);

  it(`imports ${ROWS.toLocaleString('en')} rows with --report and --failed under --max-old-space-size=${HEAP_MIB}`, async () => {
    const rows = countRows(data);
    const active = (await sandboxState(sb.baseUrl)).product_instances!.active;
    await control(sb.baseUrl, 'PUT', '/entitlements', { product_instances: active + 10 });

    const report = join(root, 'report.xlsx');
    const failed = join(root, 'failed.xlsx');
    const c = await runUnderHeap(['import', file, '--report', report, '--failed', failed], HEAP_MIB, 'jobs');
    // 1: some rows failed (the licence), the rest landed
    expect(c.code, c.why).toBe(1);
    expect(c.stderr, c.why).not.toMatch(/warning: the (results|failed-rows) workbook could not be written/);

    const results = await sheetRows(report);
    const byName = (name: string) => results.get(name) ?? [];
    // every data row of the input is in the results workbook, with its outcome
    let resultRows = 0;
    for (const [name, sheetData] of Object.entries(data)) {
      const got = byName(name);
      expect(got.length, name).toBe(sheetData.length);
      resultRows += got.length;
    }
    expect(resultRows).toBe(rows);
    const products = byName('supplier-products');
    expect(products.length).toBeGreaterThan(16_000);
    for (const i of [0, 1, Math.floor(products.length / 2), products.length - 1]) {
      expect(products[i]._result, `supplier-products row ${i + 2}`).toBe('created');
      expect(String(products[i]._id)).toMatch(/\S/);
      expect(products[i].external_id).toBe(data['supplier-products']![i].external_id);
    }
    const instances = byName('product-instances').map((r) => r._result);
    expect(instances.filter((o) => o === 'created')).toHaveLength(10);
    expect(instances).toContain('failed');
    expect(results.has('Report')).toBe(true);

    // the failed-rows workbook: the instances that did not land, with their error code
    const failedRows = await sheetRows(failed);
    const notLanded = failedRows.get('product-instances') ?? [];
    expect(notLanded).toHaveLength(instances.length - 10);
    expect(notLanded.map((r) => r._err_code)).toContain('err_entitlement_limit_reached');
  }, 300_000);

  it(`the app's view of that job and pages of its rows (jobs.get, jobs.rows) and its failed rows under --max-old-space-size=${VIEW_HEAP_MIB}: counted from the job folder`, async () => {
    const jobsDir = join(root, 'jobs');
    const jobId = importedJobId();
    const v = await childUnderHeap<{
      status: string;
      rows: number;
      counts: Record<string, number>;
      failedRows: number;
      notSucceeded: number;
      failedIdentities: number;
      bySheet: Record<string, Record<string, number>>;
      pages: {
        all: { total: number; first: { externalId: string | null; outcome: string } };
        problems: { total: number; outcomes: string[] };
        last: { total: number; offset: number; externalIds: string[] };
      };
    }>('test/proof/job-view-child.ts', [jobsDir, jobId], VIEW_HEAP_MIB);
    expect(v.status).toBe('completed');
    expect(v.rows).toBe(countRows(data));
    expect(v.counts.pending).toBeUndefined();
    expect(v.counts.created).toBeGreaterThan(16_000);
    expect(v.counts.failed).toBeGreaterThan(0);
    // the failed-rows workbook's rows are those of the entries that did not succeed
    expect(v.failedRows).toBeGreaterThanOrEqual(v.notSucceeded);
    expect(v.bySheet['supplier-products']?.created).toBe(data['supplier-products']!.length);
    // pages of its rows (jobs.rows), read back from the folder by position
    const products = data['supplier-products']!;
    expect(v.pages.all.total).toBe(Object.values(v.counts).reduce((a, b) => a + b, 0));
    expect(v.pages.problems.total).toBe(v.notSucceeded);
    // a re-run of its failed rows keeps those entries' identities (kind and code), read the same way
    expect(v.failedIdentities).toBeGreaterThan(0);
    expect(v.failedIdentities).toBeLessThanOrEqual(v.notSucceeded);
    expect(new Set(v.pages.problems.outcomes)).toEqual(new Set(['failed', 'skipped']));
    expect(v.pages.last.total).toBe(products.length);
    expect(v.pages.last.externalIds).toEqual(products.slice(16_890, 16_940).map((r) => r.external_id));
  }, 120_000);
  it(`the app's failed-rows and results workbooks of that job stopped before its first write (every row failed) under --max-old-space-size=${FAILED_HEAP_MIB}`, async () => {
    const jobId = importedJobId();
    // the same job folder with nothing journaled: a job stopped before its first write
    const jobsDir = join(root, 'jobs-stopped');
    cpSync(join(root, 'jobs', jobId), join(jobsDir, jobId), { recursive: true });
    writeFileSync(join(jobsDir, jobId, 'journal.jsonl'), '');
    const metaFile = join(jobsDir, jobId, 'meta.json');
    writeFileSync(metaFile, JSON.stringify({ ...JSON.parse(readFileSync(metaFile, 'utf8')), status: 'paused' }));

    const v = await childUnderHeap<{ failed: { path: string; rows: number }; results: { path: string } }>(
      'test/proof/failed-rows-child.ts',
      [jobsDir, jobId],
      FAILED_HEAP_MIB,
    );
    // the results workbook: every data row; those of the job's entries not run yet (the plan found none
    // unchanged or blocked: every write is pending)
    const results = await sheetRows(v.results.path);
    const failed = await sheetRows(v.failed.path);
    const entrySheets = Object.keys(data).filter((n) => n !== 'plants' && n !== 'materials');
    let pending = 0;
    for (const name of entrySheets) {
      const want = data[name as keyof typeof data]!;
      const all = results.get(name) ?? [];
      expect(all.length, name).toBe(want.length);
      const notRun = all.filter((r) => r._result === 'pending');
      expect(
        all.every((r) => r._result === 'pending' || r._result === 'unchanged'),
        name,
      ).toBe(true);
      pending += notRun.length;
      // the failed-rows workbook: exactly those rows, in the input's order, with why they are there
      const got = failed.get(name) ?? [];
      expect(got.length, name).toBe(notRun.length);
      const key = name === 'bom-items' ? null : 'external_id';
      if (key) expect(got.map((r) => r[key])).toEqual(notRun.map((r) => r[key]));
    }
    expect(v.failed.rows).toBe(pending);
    const products = failed.get('supplier-products') ?? [];
    expect(products).toHaveLength(data['supplier-products']!.length);
    for (const i of [0, 1, Math.floor(products.length / 2), products.length - 1]) {
      expect(products[i].external_id).toBe(data['supplier-products']![i].external_id);
      expect(products[i]._err_code).toBe('pending');
      expect(products[i]._message).toBe('not run yet: resume the job');
    }
  }, 180_000);
  it(`the app's results and failed-rows CSV files of a CSV source of that job, stopped before its first write, under --max-old-space-size=${CSV_HEAP_MIB}`, async () => {
    const jobId = importedJobId();
    // the same job as if its supplier products had come from an ERP's CSV file (kept in the job's folder)
    const jobsDir = join(root, 'jobs-csv');
    const dir = join(jobsDir, jobId);
    cpSync(join(root, 'jobs-stopped', jobId), dir, { recursive: true });
    const products = data['supplier-products']!;
    mkdirSync(join(dir, 'sources'));
    writeFileSync(
      join(dir, 'sources', 'SP.csv'),
      ['ARTNR;BEZ', ...products.map((r) => `${String(r.external_id)};${String(r.name)}`)].join('\r\n'),
    );
    writeFileSync(
      join(dir, 'csv-sources.json'),
      JSON.stringify({
        version: 1,
        sources: [
          {
            file: 'SP.csv',
            sheet: 'supplier-products',
            headerRow: 1,
            format: { encoding: 'utf8', bom: false, delimiter: ';' },
          },
        ],
      }),
    );
    const v = await childUnderHeap<{ failed: { path: string; rows: number }; results: { path: string } }>(
      'test/proof/failed-rows-child.ts',
      [jobsDir, jobId, 'SP.csv'],
      CSV_HEAP_MIB,
    );
    expect(v.failed.rows).toBe(products.length);
    for (const file of [v.failed.path, v.results.path]) {
      const lines = readFileSync(file, 'utf8').trimEnd().split('\r\n');
      expect(lines[0]).toBe('ARTNR;BEZ;_result;_id;_err_code;_message');
      expect(lines).toHaveLength(products.length + 1);
      for (const i of [0, Math.floor(products.length / 2), products.length - 1])
        expect(lines[i + 1]).toBe(
          `${String(products[i].external_id)};${String(products[i].name)};not run;;;not run yet: resume the job`,
        );
    }
  }, 180_000);
});
