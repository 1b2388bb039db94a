/**
 * `npm run bench`: every benchmark (docs/performance.md) in one run, side by side, against the sandbox in a separate
 * process (`tsx sandbox/cli.ts` on a free port, as `npm run sandbox` starts it):
 *  1. import throughput (bench/import.bench.ts) — 2,000 supplier products + companies + plants at latency 40 ms
 *  2. planning (bench/plan.bench.ts) — dry run of 10,000 rows against 10,000 entities
 *  3. reading (bench/read.bench.ts) — 100,000-row sheet, each reader in its own child process
 *  4. LCA export (bench/lca.bench.ts) — 500 instances, recompute and export
 *  5. sandbox (bench/sandbox.bench.ts) — GET throughput and the full-walk cost
 * Each prints its table; the JSON of each goes to bench/results/<name>-latest.json (and a timestamped copy),
 * and a summary of every figure against its goal to bench/results/all-latest.json.
 *
 *  6. CLI start (bench/cli-start.bench.ts) — `--version` and `validate` of 50 rows, bundle vs tsx
 *     and `mapping suggest` (bench/suggest.bench.ts) — a CSV with a 1 MB cell, a 150 KB pipe-delimited CSV
 *  7. end to end (bench/e2e.bench.ts) — the whole CLI import of ≥ 700 rows at L = 40 ms, C = 8
 *     against Σ_levels ⌈n_level / C⌉ · L + L
 *  8. memory (bench/memory.bench.ts) — plan, and plan + import + results workbooks, of a
 *     200,000-row workbook: peak RSS of the CLI's process tree, second half / first half of the writes (long)
 *  9. re-sync (bench/resync.bench.ts) — plan and import of ~130,000 unchanged rows over every sheet at
 *     L = 40 ms against max(read + validate, longest walk × R) + the reads after the walks × R (long)
 * 10. the app's dry run (bench/app-dry-run.bench.ts) — the re-sync workbook in browser mode, driven in Chromium from
 *     the file picked to the first dry-run row, against the CLI's `plan` of it: time and peak RSS (long)
 *   npm run bench [-- --only cli-start,suggest,e2e,import,plan,read,memory,resync,app-dry-run,lca,sandbox] [--quick]
 * --quick: smaller sizes (a smoke run, not the reference figures), written as quick-<name>-latest.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runAppDryRunBench } from './app-dry-run.bench.js';
import { runCliStartBench } from './cli-start.bench.js';
import { runE2eBench } from './e2e.bench.js';
import { runMemoryBench } from './memory.bench.js';
import { runImportBench } from './import.bench.js';
import { machine, RESULTS, runScript, startSandboxProcess, table, writeResult } from './lib/common.js';
import { runPlanBench } from './plan.bench.js';
import { runReadBench } from './read.bench.js';
import { runResyncBench } from './resync.bench.js';
import { runSuggestBench } from './suggest.bench.js';

const { values } = parseArgs({ options: { only: { type: 'string' }, quick: { type: 'boolean', default: false } } });
const only = new Set(
  (values.only ?? 'cli-start,suggest,e2e,import,plan,read,memory,resync,app-dry-run,lca,sandbox').split(','),
);
const quick = values.quick === true;
/** A quick run writes quick-<name>-latest.json, never over the figures of a full run. */
const save = (name: string, data: Record<string, unknown>) => writeResult(quick ? `quick-${name}` : name, data);

type Json = Record<string, unknown>;
const results: Record<string, Json> = {};
const goals: (string | number)[][] = [['benchmark', 'figure', 'measured', 'goal', 'met']];
const yes = (b: boolean) => (b ? 'yes' : 'NO');
const started = performance.now();

process.stdout.write(`Supply Loader benchmarks — ${JSON.stringify(machine())}\n`);

if (only.has('cli-start')) {
  // The installed CLI (the bundle) starts at once.
  const r = await runCliStartBench({ runs: quick ? 3 : 7 });
  save('cli-start', r);
  results['cli-start'] = r;
  const s = r.summary as Record<string, number | boolean>;
  goals.push([
    'cli-start',
    'supply-loader --version, median s',
    Number(s.version_s),
    '≤ 0.15',
    yes(s.version_met === true),
  ]);
  goals.push([
    'cli-start',
    `validate of ${s.validate_rows} rows, median s`,
    Number(s.validate_s),
    '≤ 0.4',
    yes(s.validate_met === true),
  ]);
}

if (only.has('suggest')) {
  // mapping suggest on a CSV with a 1 MB cell and on a 150 KB pipe-delimited CSV, start-up included.
  const r = runSuggestBench({ runs: quick ? 3 : 5 });
  save('suggest', r);
  results.suggest = r;
  const s = r.summary as Record<string, number | boolean>;
  goals.push([
    'suggest',
    'mapping suggest, CSV with a 1 MB cell, median s',
    Number(s.bigcell_s),
    '< 2',
    yes(Number(s.bigcell_s) < 2),
  ]);
  goals.push([
    'suggest',
    'mapping suggest, 150 KB pipe-delimited CSV, median s',
    Number(s.pipe_s),
    '< 2',
    yes(Number(s.pipe_s) < 2),
  ]);
}

if (only.has('e2e')) {
  // The whole CLI run at the latency bound.
  const r = await runE2eBench({ rows: 730, repeat: quick ? 1 : 3, latencyMs: 40, concurrency: 8 });
  save('e2e', r);
  results.e2e = r;
  const s = r.summary as Record<string, number | boolean>;
  goals.push([
    'e2e',
    `whole CLI import of ${s.rows} rows (L 40 ms, C 8), wall / bound with each round at R (a bare server's)`,
    Number(s.ratio_at_bare_round),
    `≤ ${s.goal_ratio}`,
    yes(s.met === true),
  ]);
  goals.push(['e2e', 'wall s / bound s', `${s.wall_s} / ${s.bound_s}`, '(context)', '-']);
  goals.push([
    'e2e',
    "a round, ms: bare Node server / sandbox / the job's",
    `${s.bare_round_ms} / ${s.sandbox_round_ms} / ${s.job_round_ms}`,
    '(context)',
    '-',
  ]);
  goals.push(['e2e', 'wall / bound with each round at L', Number(s.ratio), '(context)', '-']);
}

if (only.has('import') || only.has('plan')) {
  const sb = await startSandboxProcess({ seed: 'demo' });
  try {
    if (only.has('import')) {
      const r = await runImportBench(sb.url, {
        products: quick ? 400 : 2000,
        companies: quick ? 20 : 100,
        concurrency: [16],
        repeat: quick ? 1 : 3,
        latencyMs: 40,
        naiveRows: quick ? 30 : 110,
        naiveFull: false,
      });
      save('import', r);
      results.import = r;
      const s = r.summary as Record<string, number>;
      goals.push(['import', 'share of the latency bound N·L/C', s.of_bound, '≥ 0.9', yes(s.of_bound >= 0.9)]);
      goals.push(['import', 'share of the bound at the measured round trip', s.of_measured_bound, '(context)', '-']);
      goals.push([
        'import',
        'speed-up over the naive sequential client',
        s.speedup_vs_naive,
        '≥ 7×',
        yes(s.speedup_vs_naive >= 7),
      ]);
    }
    if (only.has('plan')) {
      const r = await runPlanBench(sb.url, { rows: quick ? 2000 : 10_000, repeat: quick ? 1 : 3 });
      save('plan', r);
      results.plan = r;
      const s = r.summary as Record<string, number | boolean>;
      goals.push([
        'plan',
        'supplier-products resolution requests',
        Number(s.supplier_product_requests),
        `≤ ${s.goal_supplier_product_requests}`,
        yes(s.met_for_supplier_products === true),
      ]);
      goals.push([
        'plan',
        'all requests of the dry run',
        Number(s.total_requests),
        `≤ ${s.goal_total_requests}`,
        yes(s.met_in_total === true),
      ]);
      const r0 = (r.runs as Json[])[0] as { plan_ms: number };
      goals.push(['plan', 'dry-run wall time, s (latency 0)', r0.plan_ms / 1000, '-', '-']);
    }
  } finally {
    await sb.stop();
  }
}

if (only.has('read')) {
  const r = await runReadBench({ rows: quick ? 20_000 : 100_000, repeat: quick ? 1 : 3 });
  save('read', r);
  results.read = r;
  const s = r.summary as Record<string, number | boolean>;
  goals.push([
    'read',
    'read + validate vs bare streaming',
    Number(s.ours_vs_stream),
    '≤ 1.25×',
    yes(Number(s.ours_vs_stream) <= 1.25),
  ]);
  goals.push([
    'read',
    'read + validate peak RSS, MB',
    Number(s.ours_peak_rss_mb),
    '< 300',
    yes(Number(s.ours_peak_rss_mb) < 300),
  ]);
  if (s.validated !== true) goals.push(['read', 'validateWorkbook included', 'no (module missing)', 'yes', 'NO']);
}

if (only.has('memory')) {
  // Memory and linearity at the row limit: long at 200,000 rows — run it alone with --only memory.
  const r = await runMemoryBench({ rows: quick ? 5000 : 200_000 });
  save(`memory-${quick ? 5000 : 200_000}`, r);
  results.memory = r;
  const s = r.summary as Record<string, number | boolean | null>;
  goals.push([
    'memory',
    `plan of ${s.rows} rows, peak RSS of the CLI tree, MiB`,
    Number(s.plan_peak_mib),
    '≤ 400',
    yes(s.plan_met === true),
  ]);
  goals.push([
    'memory',
    `plan + import + results of ${s.rows} rows, peak RSS, MiB`,
    Number(s.import_peak_mib),
    '≤ 400',
    yes(s.import_met === true),
  ]);
  goals.push([
    'memory',
    'second half / first half of the writes',
    Number(s.second_vs_first_half),
    '≤ 1.1',
    yes(s.flat_met === true),
  ]);
}

if (only.has('resync')) {
  // The nightly re-sync: long (the service is filled with the workbook first) — run it alone with --only resync.
  const rows = quick ? 5000 : 130_000;
  const r = await runResyncBench({ rows });
  save('resync', r);
  results.resync = r;
  const s = r.summary as Record<string, number | boolean | null>;
  goals.push([
    'resync',
    `plan of ${s.rows} unchanged rows: bound / wall (${s.bound_s} / ${s.plan_s} s)`,
    Number(s.plan_ratio),
    '≥ 0.85',
    yes(s.plan_met === true),
  ]);
  goals.push([
    'resync',
    'plan: requests',
    Number(s.plan_requests),
    `≤ ${s.goal_requests}`,
    yes(s.requests_met === true),
  ]);
  goals.push(['resync', 'plan: peak RSS, MiB', Number(s.plan_peak_mib), '≤ 400', yes(s.peak_met === true)]);
  goals.push([
    'resync',
    `import: wall / plan wall (${s.import_writes} writes)`,
    Number(s.import_vs_plan),
    '≤ 1.05, 0 writes',
    yes(s.import_met === true),
  ]);
}

if (only.has('app-dry-run')) {
  // The app's dry run of the re-sync workbook in browser mode against the CLI's plan of it: long (the service is
  // filled with the workbook first) — run it alone with --only app-dry-run.
  const r = await runAppDryRunBench({ rows: quick ? 5000 : 130_000 });
  save('app-dry-run', r);
  results['app-dry-run'] = r;
  const s = r.summary as Record<string, number | boolean>;
  goals.push([
    'app-dry-run',
    `file picked → first dry-run row of ${s.rows} rows / CLI plan (${s.app_s} / ${s.cli_plan_s} s)`,
    Number(s.ratio),
    `≤ ${s.goal_ratio}`,
    yes(s.met === true),
  ]);
  goals.push([
    'app-dry-run',
    `peak RSS, app server / CLI (${s.app_peak_mib} / ${s.cli_plan_peak_mib} MiB)`,
    Number(s.peak_ratio),
    `≤ ${s.goal_peak_ratio}`,
    yes(s.peak_met === true),
  ]);
}

/** Run another helper's benchmark script (it starts its own sandbox process) and read its JSON back. */
async function external(name: string, script: string, args: string[], resultFile: string): Promise<Json | null> {
  process.stdout.write(`\n[${name}] ${script} ${args.join(' ')}\n`);
  const { code } = await runScript(script, args, { inherit: true });
  if (code !== 0) {
    goals.push([name, `${script} exit code`, code, '0', 'NO']);
    return null;
  }
  try {
    return JSON.parse(readFileSync(join(RESULTS, resultFile), 'utf8')) as Json;
  } catch {
    goals.push([name, `${resultFile}`, 'missing', '-', 'NO']);
    return null;
  }
}

if (only.has('lca')) {
  const count = quick ? 50 : 500;
  const r = await external(
    'lca',
    'bench/lca.bench.ts',
    ['--count', String(count), '--concurrency', '16'],
    `lca-${count}.json`,
  );
  if (r) {
    results.lca = r;
    const run = ((r.runs ?? []) as Record<string, number>[])[0];
    if (run) {
      goals.push([
        'lca',
        `select + recompute + poll + export of ${count} instances, s`,
        run.wall_ms / 1000,
        '(report)',
        '-',
      ]);
      goals.push(['lca', 'of which the export, s', run.export_ms / 1000, '(report)', '-']);
    }
  }
}

if (only.has('sandbox')) {
  const r = await external(
    'sandbox',
    'bench/sandbox.bench.ts',
    quick ? ['--seconds', '2', '--rounds', '1'] : [],
    'sandbox-latest.json',
  );
  if (r) {
    results.sandbox = r;
    const tp = ((r.throughput ?? []) as { scenario: string; requests_per_s: number }[])[0];
    const walk = r.walk_100k as { wall_ms?: number; requests?: number } | undefined;
    if (tp)
      goals.push([
        'sandbox',
        `${tp.scenario}, requests/s`,
        tp.requests_per_s,
        '≥ 5,000',
        yes(tp.requests_per_s >= 5000),
      ]);
    if (walk?.wall_ms !== undefined)
      goals.push(['sandbox', `full walk of 100,000 (${walk.requests} requests), s`, walk.wall_ms / 1000, 'O(N)', '-']);
  }
}

const summaryTable = table('Every figure against its goal', goals);
save('all', {
  quick,
  seconds: Math.round((performance.now() - started) / 1000),
  goals: goals.slice(1),
  table: summaryTable,
  results,
});
