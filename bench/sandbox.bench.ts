/**
 * `npm run bench:sandbox`: the API v2 sandbox on loopback, in its own process (as the app and the other
 * benchmarks run it).
 *  1. Throughput of GET /v2/supplier-products?limit=200 with 10,000 supplier products, for ~5 s with a few
 *     keep-alive connections (undici Pool): the first page over and over, and every page of the collection
 *     in turn (cursors taken from one walk). Goal: ≥ 5,000 requests/s on 2 cores.
 *  2. A full walk of 100,000 supplier products with limit 200: wall time, requests, and the time per page in
 *     the first and the last tenth of the walk (equal when a page costs O(limit), not O(position)).
 * Prints a table and writes JSON to bench/results/.
 * Each throughput scenario runs --rounds times (default 3) and reports the median round (the machine is shared
 * and noisy; the rounds are kept in the JSON).
 * Options: --seconds N per round (default 5), --connections N (default 4), --inflight N (default 16), --rounds N.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { control, startSandboxProcess } from './lib/common.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '4' },
    inflight: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const INFLIGHT = Number(values.inflight);
const ROUNDS = Number(values.rounds);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Throughput {
  scenario: string;
  requests: number;
  seconds: number;
  requests_per_s: number;
  mb_per_s: number;
  bytes_per_response: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
}

async function throughput(pool: Pool, key: string, scenario: string, paths: string[]): Promise<Throughput> {
  const latencies: number[] = [];
  let bytes = 0;
  let errors = 0;
  let i = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const t0 = performance.now();
  const worker = async () => {
    while (performance.now() < deadline) {
      const path = paths[i++ % paths.length];
      const s = performance.now();
      const r = await pool.request({ method: 'GET', path, headers: { 'x-api-key': key } });
      // Read every byte without joining them: the client's own parsing is not what is measured here.
      for await (const chunk of r.body) bytes += (chunk as Buffer).length;
      latencies.push(performance.now() - s);
      if (r.statusCode !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: INFLIGHT }, worker));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    scenario,
    requests: latencies.length,
    seconds: Number(seconds.toFixed(2)),
    requests_per_s: Math.round(latencies.length / seconds),
    mb_per_s: Number((bytes / seconds / 1e6).toFixed(1)),
    bytes_per_response: Math.round(bytes / Math.max(1, latencies.length)),
    p50_ms: Number(percentile(latencies, 50).toFixed(2)),
    p99_ms: Number(percentile(latencies, 99).toFixed(2)),
    errors,
  };
}

interface Walk {
  entities: number;
  requests: number;
  wall_ms: number;
  items: number;
  ms_per_page_first_tenth: number;
  ms_per_page_last_tenth: number;
}

async function walkAll(pool: Pool, key: string, limit: number): Promise<{ cursors: (string | null)[]; walk: Walk }> {
  const cursors: (string | null)[] = [null];
  const pageMs: number[] = [];
  let items = 0;
  let cursor: string | null = null;
  const t0 = performance.now();
  do {
    const path = `/v2/supplier-products?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const s = performance.now();
    const r = await pool.request({ method: 'GET', path, headers: { 'x-api-key': key } });
    const body = (await r.body.json()) as { data: unknown[]; next_cursor: string | null };
    pageMs.push(performance.now() - s);
    if (r.statusCode !== 200) throw new Error(`walk failed: ${r.statusCode}`);
    items += body.data.length;
    cursor = body.next_cursor;
    if (cursor) cursors.push(cursor);
  } while (cursor !== null);
  const wall = performance.now() - t0;
  const tenth = Math.max(1, Math.floor(pageMs.length / 10));
  const avg = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
  return {
    cursors,
    walk: {
      entities: 0,
      requests: pageMs.length,
      wall_ms: Math.round(wall),
      items,
      ms_per_page_first_tenth: Number(avg(pageMs.slice(0, tenth)).toFixed(2)),
      ms_per_page_last_tenth: Number(avg(pageMs.slice(-tenth)).toFixed(2)),
    },
  };
}

async function main(): Promise<void> {
  const loadAtStart = loadavg().map((l) => Number(l.toFixed(2)));
  const sb = await startSandboxProcess({ seed: 'empty' });
  const pool = new Pool(sb.url, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 30_000 });
  try {
    // 1. Throughput with 10,000 supplier products.
    await control(sb.url, 'POST', '/bulk/supplier-products', { count: 10_000, external_id_prefix: 'BENCH-' });
    const { cursors } = await walkAll(pool, sb.key, 200);
    const pagePath = (c: string | null) =>
      `/v2/supplier-products?limit=200${c ? `&cursor=${encodeURIComponent(c)}` : ''}`;
    // Warm up (JIT, caches) before measuring.
    await throughput(pool, sb.key, 'warm-up', [pagePath(null)]).catch(() => undefined);
    const median = async (scenario: string, paths: string[]) => {
      const rounds: Throughput[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        rounds.push(await throughput(pool, sb.key, scenario, paths));
        await control(sb.url, 'DELETE', '/requests');
      }
      const sorted = [...rounds].sort((a, b) => a.requests_per_s - b.requests_per_s);
      return { ...sorted[Math.floor(sorted.length / 2)], rounds_requests_per_s: rounds.map((r) => r.requests_per_s) };
    };
    const first = await median('first page, limit=200, 10,000 entities', [pagePath(null)]);
    const all = await median('all 50 pages in turn, limit=200, 10,000 entities', cursors.map(pagePath));

    // 2. Full walk of 100,000.
    await control(sb.url, 'POST', '/reset', { seed: 'empty' });
    const tb = performance.now();
    await control(sb.url, 'POST', '/bulk/supplier-products', { count: 100_000, external_id_prefix: 'WALK-' });
    const bulkMs = Math.round(performance.now() - tb);
    const { walk } = await walkAll(pool, sb.key, 200);
    walk.entities = 100_000;

    const result = {
      at: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model ?? 'unknown',
        total_mem_gb: Number((totalmem() / 2 ** 30).toFixed(1)),
        node: process.version,
      },
      load_average_at_start: loadAtStart,
      settings: { seconds: SECONDS, connections: CONNECTIONS, inflight: INFLIGHT, rounds: ROUNDS },
      goal_requests_per_s: 5000,
      throughput: [first, all],
      walk_100k: { ...walk, bulk_seed_ms: bulkMs },
    };

    console.log('\nSandbox benchmark (sandbox in its own process, undici Pool on loopback)');
    console.log(
      `machine: ${result.machine.cpus} cpus, ${result.machine.cpu_model}, node ${result.machine.node}, load average at start ${result.load_average_at_start.join(' ')}`,
    );
    console.table(
      result.throughput.map((t) => ({
        scenario: t.scenario,
        'req/s (median)': t.requests_per_s,
        rounds: t.rounds_requests_per_s.join(' / '),
        'MB/s': t.mb_per_s,
        'bytes/resp': t.bytes_per_response,
        'p50 ms': t.p50_ms,
        'p99 ms': t.p99_ms,
        requests: t.requests,
        errors: t.errors,
      })),
    );
    console.table([
      {
        'full walk': '100,000 supplier products, limit=200',
        requests: walk.requests,
        items: walk.items,
        'wall ms': walk.wall_ms,
        'ms/page first 10%': walk.ms_per_page_first_tenth,
        'ms/page last 10%': walk.ms_per_page_last_tenth,
      },
    ]);
    mkdirSync(join(root, 'bench', 'results'), { recursive: true });
    const file = join(root, 'bench', 'results', `sandbox-${result.at.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(result, null, 2));
    writeFileSync(join(root, 'bench', 'results', 'sandbox-latest.json'), JSON.stringify(result, null, 2));
    console.log(`written: ${file}`);
  } finally {
    await pool.close();
    sb.child.kill('SIGTERM');
  }
}

main().catch((e: Error) => {
  console.error(`bench failed: ${e.message}`);
  process.exit(1);
});
