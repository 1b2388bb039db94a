/**
 * Soak under faults: a workbook over every sheet (SOAK_ROWS rows, 300 by default so CI stays fast;
 * SOAK_ROWS=2000 for the full size) imported through the CLI while the sandbox fails 10 % of requests with a
 * 500, resets 5 % of the connections after committing the write, and answers after 5 ms + up to 20 ms jitter.
 * The server state must equal the workbook exactly (nothing duplicated, nothing lost) and the results workbook
 * must agree with the server row by row. Then: the sandbox restarted mid-run from its --data file — the
 * import recovers by itself (retries across the restart) and ends exact.
 */
import ExcelJS from 'exceljs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import { SUCCESS_OUTCOMES } from '../../core/jobs/types.js';
import { startSandbox } from '../../sandbox/index.js';
import { normalised, serviceState } from '../cli/dataset.js';
import { buildDataset, countRows, expectedEntities, sizeForRows, type SheetData } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import {
  cli,
  control,
  jsonOut,
  sandbox,
  sandboxState,
  sleep,
  spawnCli,
  tmp,
  waitForOutcomes,
  type Sandbox,
  type SandboxState,
} from './helpers.js';

const SOAK_ROWS = Number(process.env.SOAK_ROWS ?? 300);

/** Active entities per type after minus before. */
function grown(before: SandboxState, after: SandboxState): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(after)) out[k] = after[k].active - (before[k]?.active ?? 0);
  return out;
}

function expectExact(d: Record<string, number>, data: SheetData): void {
  const want = expectedEntities(data);
  for (const k of [
    'supplier_companies',
    'supplier_plants',
    'supplier_products',
    'silos',
    'product_instances',
    'prechain_products',
  ])
    expect(d[k], k).toBe(want[k]);
}

/** The results workbook, row by row: every row succeeded and its _id is the id the service has for it. */
async function expectReportAgrees(report: string, client: ApiClient, data: SheetData): Promise<void> {
  const ids = new Map<string, string>();
  const collect = async (kind: string, it: AsyncIterable<{ id: string; external_id?: string | null }>) => {
    for await (const e of it) if (e.external_id) ids.set(`${kind}|${e.external_id}`, e.id);
  };
  await collect('supplier-companies', client.supplierCompanies.walk());
  await collect('supplier-plants', client.supplierPlants.walk());
  await collect('supplier-products', client.supplierProducts.walk());
  await collect('silos', client.silos.walk());
  await collect('product-instances', client.productInstances.walk());
  await collect('prechain-products', client.prechainProducts.walk());
  /** the entity a row belongs to: its own external_id, or its owner's (hazardous → product, items → silo, bom → instance) */
  const owner: Record<string, [string, string]> = {
    'hazardous-substances': ['supplier-products', 'supplier_product_external_id'],
    'silo-items': ['silos', 'silo_external_id'],
    bom: ['product-instances', 'product_instance_external_id'],
  };
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(report);
  let checked = 0;
  for (const [sheet, rows] of Object.entries(data)) {
    if (!rows?.length) continue;
    const ws = wb.getWorksheet(sheet);
    expect(ws, `results workbook sheet ${sheet}`).toBeDefined();
    const header = new Map<string, number>();
    ws!.getRow(1).eachCell((c, col) => header.set(String(c.value), col));
    for (const f of ['_result', '_id']) expect(header.has(f), `${sheet} has ${f}`).toBe(true);
    const [kind, field] = owner[sheet] ?? [sheet, 'external_id'];
    rows.forEach((r, i) => {
      const row = ws!.getRow(i + 2);
      const cell = (f: string) => row.getCell(header.get(f)!).value;
      expect(
        cell(header.has('external_id') ? 'external_id' : field) ?? null,
        `${sheet} row ${i + 2} is the input row`,
      ).toBe(r[header.has('external_id') ? 'external_id' : field]);
      expect(
        SUCCESS_OUTCOMES,
        `${sheet}!row ${i + 2}: ${String(cell('_result'))} ${String(cell('_message') ?? '')}`,
      ).toContain(String(cell('_result')));
      expect(cell('_id'), `${sheet} row ${i + 2} _id`).toBe(ids.get(`${kind}|${r[field]}`));
      checked++;
    });
  }
  expect(checked).toBe(countRows(data));
}

describe('soak under faults', () => {
  let sb: Sandbox;
  let client: ApiClient;
  let dir: string;
  beforeAll(async () => {
    sb = await sandbox({ seed: 'demo' });
    client = createApiClient({ baseUrl: sb.baseUrl, apiKey: sb.ownerKey });
    dir = tmp('sl-soak-');
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`${SOAK_ROWS} rows across all sheets under error_rate 0.1, reset_after_commit 0.05, latency 5 + jitter 20 ms: the service equals the workbook, the results workbook agrees row by row`, async () => {
    const data = buildDataset(sizeForRows(SOAK_ROWS), 'SOAK');
    const rows = countRows(data);
    expect(rows).toBeGreaterThanOrEqual(SOAK_ROWS * 0.9);
    const file = join(dir, 'soak.xlsx');
    const report = join(dir, 'soak-report.xlsx');
    await writeDataWorkbook(file, data);
    const before = await sandboxState(sb.baseUrl);
    await control(sb.baseUrl, 'PUT', '/faults', {
      error_rate: 0.1,
      reset_after_commit_rate: 0.05,
      latency_ms: 5,
      jitter_ms: 20,
      seed: 20260101,
    });
    let run;
    try {
      run = await cli(['import', file, '--report', report, '--json'], {
        key: sb.ownerKey,
        baseUrl: sb.baseUrl,
        jobsDir: join(dir, 'jobs'),
      });
    } finally {
      await control(sb.baseUrl, 'PUT', '/faults', {
        error_rate: 0,
        reset_after_commit_rate: 0,
        latency_ms: 0,
        jitter_ms: 0,
      });
    }
    expect(run.code, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`).toBe(0);
    const out = jsonOut<{ result: { counts: Record<string, number>; status: string } }>(run);
    expect(out.result.status).toBe('completed');
    expect(out.result.counts.failed ?? 0).toBe(0);

    // the faults really happened: 500s answered, connections reset after commit
    const log = (
      await control<{ entries: { status: number; path: string }[] }>(sb.baseUrl, 'GET', '/requests')
    ).entries.filter((e) => e.path.startsWith('/v2/'));
    expect(log.filter((e) => e.status === 500).length).toBeGreaterThan(0);

    expectExact(grown(before, await sandboxState(sb.baseUrl)), data);
    expect(await serviceState(client, 'SOAK')).toEqual(normalised(data));
    await expectReportAgrees(report, client, data);
  });
});

describe('the sandbox restarted mid-run (--data)', () => {
  it('the running import recovers by itself across the restart and ends exact', async () => {
    const dir = tmp('sl-restart-');
    const dataFile = join(dir, 'sandbox.json');
    let sb = await startSandbox({ port: 0, seed: 'demo', dataFile });
    const port = Number(new URL(sb.baseUrl).port);
    const key = sb.ownerKey;
    try {
      const data = buildDataset(sizeForRows(200), 'RST');
      const file = join(dir, 'restart.xlsx');
      await writeDataWorkbook(file, data);
      const before = await sandboxState(sb.baseUrl);
      // slow enough that the restart lands in the middle
      await control(sb.baseUrl, 'PUT', '/faults', { latency_ms: 25, jitter_ms: 10, seed: 3 });
      const jobsDir = join(dir, 'jobs');
      const child = spawnCli(['import', file, '--concurrency', '4', '--json'], { key, baseUrl: sb.baseUrl, jobsDir });
      let exited = false;
      void child.exit.then(() => (exited = true));
      await waitForOutcomes(jobsDir, 40, { until: () => exited });
      await sb.close(); // flushes the data file
      // the service is away for a moment (connections refused). Kept short: the client's retries (6 attempts,
      // full-jitter backoff from 100 ms) ride out ~0.2 s with near certainty; ~1 s would fail some rows by design.
      await sleep(100);
      sb = await startSandbox({ port, dataFile }); // same port, same data: the keys and entities are back
      const { code } = await child.exit;
      expect(code, `${child.stdout().slice(-2000)}\n${child.stderr().slice(-2000)}`).toBe(0);
      const out = JSON.parse(child.stdout()) as { result: { counts: Record<string, number> } };
      expect(out.result.counts.failed ?? 0).toBe(0);
      await control(sb.baseUrl, 'PUT', '/faults', { latency_ms: 0, jitter_ms: 0 });
      expectExact(grown(before, await sandboxState(sb.baseUrl)), data);
      const client = createApiClient({ baseUrl: sb.baseUrl, apiKey: key });
      try {
        expect(await serviceState(client, 'RST')).toEqual(normalised(data));
      } finally {
        await client.close();
      }
    } finally {
      await sb.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
