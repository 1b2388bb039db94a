/**
 * `npm run bench:lca [-- --count 500] [--concurrency 8,16,32] [--latency 20]`: LCA recompute and export of N
 * product instances (default 200) against the sandbox in its own process, with sandbox latency 20 ms on every
 * API request. Each instance has a 3-component BOM (one with a truck route, so A1-A3 and A4) and production
 * data for three past years and the current one.
 * Timed, per instance-concurrency: select all (one walk + plants + products), recompute and poll every
 * instance until its job ends (sandbox job timing left at its defaults: queued 100 ms, processing 400 ms),
 * export the workbook. Prints a table and writes JSON to bench/results/lca-<N>.json.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createApiClient } from '../core/api/index.js';
import { runLca, selectInstances, writeLcaWorkbook } from '../core/lca/index.js';
import { control, startSandboxProcess } from './lib/common.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '8,16,32' },
    latency: { type: 'string', default: '20' },
  },
});
const COUNT = Number(values.count);
const CONCURRENCIES = values.concurrency.split(',').map(Number);
const LATENCY = Number(values.latency);
if (
  !Number.isInteger(COUNT) ||
  COUNT < 1 ||
  CONCURRENCIES.some((c) => !Number.isInteger(c) || c < 1) ||
  !(LATENCY >= 0)
) {
  console.error('usage: npm run bench:lca -- [--count 200] [--concurrency 8,16,32] [--latency 20]');
  process.exit(2);
}

async function pool<T>(items: readonly T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

interface Catalog {
  plants: { id: string; external_id: string }[];
  elementaries: { id: string; external_id: string }[];
  products: { id: string; external_id: string }[];
}

async function main(): Promise<void> {
  const sb = await startSandboxProcess({ seed: 'empty' });
  const out = mkdtempSync(join(tmpdir(), 'lca-bench-'));
  try {
    const client = createApiClient({ baseUrl: sb.url, apiKey: sb.key, maxConcurrency: 32 });
    const cat = await control<Catalog>(sb.url, 'GET', '/catalog');
    const plant = cat.plants[0];
    const el = (code: string) => cat.elementaries.find((e) => e.external_id === code)!.id;
    const product = cat.products.find((p) => p.external_id === 'ART-20030') ?? cat.products[0];
    const { now } = await control<{ now: string }>(sb.url, 'GET', '/clock');
    const year = new Date(now).getUTCFullYear();

    // ---- setup (not timed, no latency)
    const t0 = performance.now();
    const co = await client.supplierCompanies.create({ external_id: 'B-CO', name: 'Bench Zement', country: 'DE' });
    const spl = await client.supplierPlants.create({
      external_id: 'B-SPL',
      name: 'Bench Werk',
      supplier_company_id: co.entity.id,
      country: 'DE',
    });
    const sp = async (code: string, material: string, route: Record<string, number> | null) =>
      (
        await client.supplierProducts.create({
          external_id: code,
          name: code,
          plant_id: plant.id,
          material_type: { category: 'elementary', elementary_id: el(material) },
          supplier_plant_id: spl.entity.id,
          transport_route: route,
          unit: 'KG',
        })
      ).entity.id;
    const bom = [
      { type: 'supplier_product' as const, ref: await sp('B-CEM', 'MAT-CEM1', { truck_km: 120 }), mass_kg: 320 },
      { type: 'supplier_product' as const, ref: await sp('B-SAND', 'MAT-SAND', null), mass_kg: 1850 },
      { type: 'supplier_product' as const, ref: await sp('B-WATER', 'MAT-WATER', null), mass_kg: 170 },
    ];
    const codes = Array.from({ length: COUNT }, (_, k) => `B-PI-${String(k + 1).padStart(4, '0')}`);
    await pool(codes, 16, async (code) => {
      const pi = await client.productInstances.create({
        external_id: code,
        product_id: product.id,
        plant_id: plant.id,
        produced_from: year - 3,
        produced_to: null,
      });
      await client.bom.put(pi.entity.id, bom);
      for (let y = year - 3; y <= year; y++)
        await control(sb.url, 'PUT', '/production', {
          product_instance_id: pi.entity.id,
          year: y,
          quantity: 1000 + y,
        });
    });
    const setupMs = performance.now() - t0;
    await control(sb.url, 'PUT', '/faults', { latency_ms: LATENCY });
    const lcaSettings = await control<Record<string, unknown>>(sb.url, 'PUT', '/lca', {});

    const rows: Record<string, unknown>[] = [];
    for (const c of CONCURRENCIES) {
      const before = client.stats().requests;
      const tStart = performance.now();
      const sel = await selectInstances(client, { by: 'all' });
      const tSel = performance.now();
      const report = await runLca(client, sel.instances, { recompute: true, concurrency: c });
      const tRun = performance.now();
      const file = join(out, `lca-${COUNT}-${c}.xlsx`);
      const stats = await writeLcaWorkbook(report, file);
      const tEnd = performance.now();
      if (report.summary.completed !== COUNT)
        throw new Error(`only ${report.summary.completed} of ${COUNT} completed: ${JSON.stringify(report.summary)}`);
      rows.push({
        instances: COUNT,
        concurrency: c,
        select_ms: Math.round(tSel - tStart),
        recompute_poll_ms: Math.round(tRun - tSel),
        export_ms: Math.round(tEnd - tRun),
        wall_ms: Math.round(tEnd - tStart),
        requests: client.stats().requests - before,
        result_rows: stats.rows.results,
        file_kb: Math.round(statSync(file).size / 1024),
        rss_mb: Math.round(process.memoryUsage().rss / 1e6),
      });
    }
    await client.close();

    console.log(
      `\nLCA recompute + export, ${COUNT} instances, sandbox latency ${LATENCY} ms, job timing ${JSON.stringify(lcaSettings)} (setup ${Math.round(setupMs)} ms)`,
    );
    console.table(rows);
    const result = {
      bench: 'lca',
      at: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpu: cpus()[0]?.model,
        mem_gb: Math.round(totalmem() / 1e9),
        loadavg: loadavg(),
        node: process.version,
      },
      latency_ms: LATENCY,
      lca_settings: lcaSettings,
      setup_ms: Math.round(setupMs),
      runs: rows,
    };
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    const file = join(root, `bench/results/lca-${COUNT}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`written ${file}`);
  } finally {
    sb.child.kill('SIGTERM');
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
