/**
 * Planning (docs/performance.md, benchmark 2): the dry run of a 10,000-row workbook (100 supplier companies, 100 supplier
 * plants, 9,800 supplier products) against a service that already holds those 10,000 entities: wall time and
 * requests, per collection. Goal: resolution costs ≤ ⌈N/200⌉ + 5 requests (bulk walks, never one per row).
 * The service is filled by importing the same workbook first (its wall time is reported too, latency 0).
 * The dry run is timed at sandbox latency 0 and at 40 ms.
 *
 *   npx tsx bench/plan.bench.ts [--rows 10000] [--repeat 3]   (median of the repeats)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiClient } from '../core/api/index.js';
import { planInMemory, runPlan } from '../test/jobs/job-folder.js';
import { readWorkbook } from '../core/workbook/reader.js';
import { validateWorkbook } from '../core/workbook/validate.js';
import { buildDataset } from '../test/fixtures/dataset.js';
import { writeDataWorkbook } from '../test/fixtures/workbook.js';
import {
  control,
  isMain,
  requestMark,
  requestsSince,
  resetSandbox,
  seconds,
  startSandboxProcess,
  table,
  writeResult,
} from './lib/common.js';

export async function runPlanBench(url: string, o: { rows: number; repeat: number }): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'sl-bench-plan-'));
  try {
    const companies = Math.round(o.rows / 100);
    const products = o.rows - 2 * companies;
    const data = buildDataset({ companies, products, silos: 0, instances: 0, prechain: 0 }, 'BP');
    for (const k of [
      'silos',
      'silo-items',
      'product-instances',
      'prechain-products',
      'bom',
      'hazardous-substances',
    ] as const)
      delete data[k];
    const file = join(dir, 'plan.xlsx');
    await writeDataWorkbook(file, data);
    const key = await resetSandbox(url);
    const client = createApiClient({ baseUrl: url, apiKey: key, maxConcurrency: 32 });
    try {
      const parsed = await readWorkbook(file);
      const validation = await validateWorkbook(parsed);
      const rows = parsed.sheets.reduce((n, s) => n + s.rows.length, 0);

      // fill the service: import the workbook (not the subject; reported for reference)
      const t0 = performance.now();
      const seedPlan = await planInMemory(parsed, { client, validation });
      const seeded = await runPlan(seedPlan, { client, jobsDir: join(dir, 'jobs'), concurrency: 32 });
      const seedMs = performance.now() - t0;
      if (seeded.status !== 'completed' || (seeded.counts.created ?? 0) !== seedPlan.entries.length)
        throw new Error(`seeding failed: ${JSON.stringify(seeded.counts)}`);
      const state = await control<Record<string, { active: number }>>(url, 'GET', '/state');

      const runs: Record<string, unknown>[] = [];
      for (const latency of [0, 40]) {
        await control(url, 'PUT', '/faults', {
          latency_ms: latency,
          jitter_ms: 0,
          error_rate: 0,
          reset_after_commit_rate: 0,
        });
        // median of `repeat` dry runs (the machine is shared and noisy)
        const times: number[] = [];
        let plan!: Awaited<ReturnType<typeof planInMemory>>;
        let logged: Awaited<ReturnType<typeof requestsSince>> = [];
        for (let k = 0; k < o.repeat; k++) {
          const mark = await requestMark(url);
          const t1 = performance.now();
          plan = await planInMemory(parsed, { client, validation });
          times.push(performance.now() - t1);
          logged = await requestsSince(url, mark);
        }
        const ms = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
        const byPath: Record<string, number> = {};
        for (const r of logged)
          byPath[r.path.replace(/\/[0-9a-f-]{36}/g, '/{id}')] =
            (byPath[r.path.replace(/\/[0-9a-f-]{36}/g, '/{id}')] ?? 0) + 1;
        runs.push({
          latency_ms: latency,
          rows,
          entries: plan.entries.length,
          actions: plan.summary.byAction,
          plan_ms: Math.round(ms),
          plan_ms_all: times.map((t) => Math.round(t)),
          requests: logged.length,
          requests_by_path: byPath,
          supplier_product_requests: byPath['/v2/supplier-products'] ?? 0,
        });
      }
      await control(url, 'PUT', '/faults', { latency_ms: 0 });
      const goal = Math.ceil(products / 200) + 5;
      const r0 = runs[0] as { requests: number; supplier_product_requests: number };
      const summary = {
        service_entities: {
          supplier_companies: state.supplier_companies?.active,
          supplier_plants: state.supplier_plants?.active,
          supplier_products: state.supplier_products?.active,
        },
        goal_supplier_product_requests: goal,
        supplier_product_requests: r0.supplier_product_requests,
        goal_total_requests: Math.ceil(o.rows / 200) + 5,
        total_requests: r0.requests,
        met_for_supplier_products: r0.supplier_product_requests <= goal,
        met_in_total: r0.requests <= Math.ceil(o.rows / 200) + 5,
        seed_import_ms: Math.round(seedMs),
      };
      table(
        `Planning — dry run of ${rows.toLocaleString('en')} rows against ${(summary.service_entities.supplier_products ?? 0) + (summary.service_entities.supplier_companies ?? 0) + (summary.service_entities.supplier_plants ?? 0)} entities`,
        [
          ['latency', 'rows', 'plan s', 'requests', 'of which supplier-products', 'goal ⌈N/200⌉+5', 'rows/s'],
          ...runs.map((r) => {
            const x = r as {
              latency_ms: number;
              rows: number;
              plan_ms: number;
              requests: number;
              supplier_product_requests: number;
            };
            return [
              `${x.latency_ms} ms`,
              x.rows,
              seconds(x.plan_ms),
              x.requests,
              x.supplier_product_requests,
              Math.ceil(o.rows / 200) + 5,
              x.rows / (x.plan_ms / 1000),
            ];
          }),
        ],
      );
      return { options: o, runs, summary };
    } finally {
      await client.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: { rows: { type: 'string', default: '10000' }, repeat: { type: 'string', default: '3' } },
  });
  const sb = await startSandboxProcess();
  try {
    writeResult('plan', await runPlanBench(sb.url, { rows: Number(values.rows), repeat: Number(values.repeat) }));
  } finally {
    await sb.stop();
  }
}
