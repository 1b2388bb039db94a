/**
 * The nightly re-sync: the same workbook over every sheet (as the memory benchmark fills them, ~130,000 rows)
 * planned and imported again against a service that already holds it, at L = 40 ms. The CLI as a child process
 * (bin/supply-loader.cjs), the sandbox in its own process. Figures, each against a bound measured in the same run:
 *  - `plan`: wall time against max(read + validate alone, the longest walk in pages × R) + the rounds of reads
 *    that must follow the walks (BOMs, production figures, at the read cap of 16) × R, where R is a round on a
 *    bare Node server at L with C = 8 loops (bench/lib/round-trip.ts); goal bound / wall ≥ 0.85. Requests
 *    ≤ Σ⌈collection/200⌉ + those reads + 5. Peak RSS of the CLI's process tree ≤ 400 MiB.
 *  - `import --concurrency 8` of the same: 0 writes, wall ≤ 1.05 × the plan's.
 * Read + validate alone is `validate FILE` (the same process start). Each command runs once unmeasured first (its
 * code cache, as the night before made it). Linux only (peak RSS from /proc).
 *
 *   npx tsx bench/resync.bench.ts [--rows 130000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCli } from './lib/cli-process.js';
import {
  control,
  isMain,
  requestMark,
  requestsSince,
  seconds,
  startSandboxProcess,
  table,
  writeResult,
} from './lib/common.js';
import { seedResyncWorkbook } from './lib/resync-workbook.js';
import { bareRoundMs } from './lib/round-trip.js';

const LATENCY_MS = 40;
const CONCURRENCY = 8;
/** The client's cap of reads side by side (api/defaults.ts): the planning reads after the walks go at it. */
const READ_CAP = 16;
const PAGE = 200;

export async function runResyncBench(o: { rows: number }): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'sl-resync-'));
  const sb = await startSandboxProcess({ seed: 'demo' });
  try {
    const { file, rows, env, base } = await seedResyncWorkbook({
      rows: o.rows,
      dir,
      sandbox: sb,
      label: 'resync bench',
    });
    const state = await control<Record<string, { active: number }>>(sb.url, 'GET', '/state');
    await requestsSince(sb.url, await requestMark(sb.url));

    await control(sb.url, 'PUT', '/faults', { latency_ms: LATENCY_MS, jitter_ms: 0 });
    const roundMs = await bareRoundMs({ latencyMs: LATENCY_MS, concurrency: CONCURRENCY, rounds: 40 });
    const read = await runCli(['validate', file], env);

    let mark = await requestMark(sb.url);
    const plan = await runCli(['plan', file, ...base], env);
    const planRequests = await requestsSince(sb.url, mark);
    mark = await requestMark(sb.url);
    const imp = await runCli(['import', file, ...base, '--concurrency', String(CONCURRENCY)], env);
    const importRequests = await requestsSince(sb.url, mark);
    await control(sb.url, 'PUT', '/faults', { latency_ms: 0 });

    const byPath: Record<string, number> = {};
    for (const r of planRequests) {
      const p = r.path.replace(/\/[0-9a-f-]{36}/g, '/{id}');
      byPath[p] = (byPath[p] ?? 0) + 1;
    }
    const collections = [
      'supplier_companies',
      'supplier_plants',
      'supplier_products',
      'silos',
      'product_instances',
      'prechain_products',
    ];
    const pages = Object.fromEntries(collections.map((c) => [c, Math.ceil((state[c]?.active ?? 0) / PAGE)]));
    const walkPages = Object.values(pages).reduce((a, b) => a + b, 0);
    const longest = Math.max(...Object.values(pages));
    // Reads of one entity each (BOMs, production figures, a component's code): they need the walks' ids.
    const after = planRequests.filter((r) => /\/[0-9a-f-]{36}/.test(r.path)).length;
    const afterRounds = Math.ceil(after / READ_CAP);
    const boundS = (Math.max(read.wall_s * 1000, longest * roundMs) + afterRounds * roundMs) / 1000;
    const writes = importRequests.filter((r) => r.method !== 'GET').length;
    const summary = {
      rows,
      round_ms: Math.round(roundMs * 10) / 10,
      read_validate_s: read.wall_s,
      longest_walk_pages: longest,
      longest_walk_s: seconds(longest * roundMs),
      reads_after_walks: after,
      bound_s: Math.round(boundS * 100) / 100,
      plan_s: plan.wall_s,
      plan_exit: plan.code,
      plan_ratio: Math.round((boundS / plan.wall_s) * 100) / 100,
      plan_met: plan.code === 0 && boundS / plan.wall_s >= 0.85,
      plan_requests: planRequests.length,
      goal_requests: walkPages + after + 5,
      requests_met: planRequests.length <= walkPages + after + 5,
      plan_peak_mib: plan.peak_mib,
      peak_met: plan.peak_mib <= 400,
      import_s: imp.wall_s,
      import_exit: imp.code,
      import_writes: writes,
      import_vs_plan: Math.round((imp.wall_s / plan.wall_s) * 100) / 100,
      import_met: imp.code === 0 && writes === 0 && imp.wall_s <= 1.05 * plan.wall_s,
      import_peak_mib: imp.peak_mib,
    };
    table(`Re-sync of ${rows.toLocaleString('en')} unchanged rows at L = ${LATENCY_MS} ms`, [
      ['figure', 'measured', 'bound', 'goal', 'met'],
      [
        'plan: bound / wall',
        `${summary.plan_s} s`,
        `${summary.bound_s} s`,
        '≥ 0.85',
        `${summary.plan_ratio} ${summary.plan_met ? 'yes' : 'NO'}`,
      ],
      ['plan: requests', summary.plan_requests, summary.goal_requests, '≤', summary.requests_met ? 'yes' : 'NO'],
      ['plan: peak RSS, MiB', summary.plan_peak_mib, 400, '≤', summary.peak_met ? 'yes' : 'NO'],
      [
        'import: wall / plan wall, writes',
        `${summary.import_s} s, ${writes} writes`,
        `${seconds(1050 * plan.wall_s)} s`,
        '≤ 1.05, 0 writes',
        `${summary.import_vs_plan} ${summary.import_met ? 'yes' : 'NO'}`,
      ],
      ['read + validate alone', `${summary.read_validate_s} s`, '', '', ''],
      ['longest walk', `${longest} pages`, `${summary.longest_walk_s} s at R = ${summary.round_ms} ms`, '', ''],
    ]);
    return { options: o, summary, pages, requests_by_path: byPath, plan, import: imp, read };
  } finally {
    await sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '130000' } } });
  writeResult('resync', await runResyncBench({ rows: Number(values.rows) }));
}
