/**
 * Memory and cost per row at scale (the memory and linearity goals): the CLI as a real process (bin/supply-loader.cjs,
 * the bundle) against the sandbox in its own process, on a workbook of --rows rows over every sheet, mostly
 * supplier products.
 *  - `plan FILE` and then `import FILE --report R --failed F` (plan + run + both results workbooks), each with
 *    the peak RSS of the CLI's process tree: /proc/<pid>/status of the process and its descendants is polled
 *    every 50 ms (the sum of VmRSS over the tree), and the root's VmHWM (the kernel's own high-water mark) read
 *    last. Goal ≤ 400 MiB for each.
 *  - Flat cost per row: from the job's journal, the time the second half of the written entries took against
 *    the first half (outcome timestamps). Goal ≤ 1.1.
 * Linux only (reads /proc). Takes long at 200,000 rows (the sandbox holds every entity): run it once.
 *
 *   npx tsx bench/memory.bench.ts [--rows 200000] [--plan-only]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { countRows } from '../test/fixtures/dataset.js';
import { writeDataWorkbook } from '../test/fixtures/workbook.js';
import { BIN, runCli, scaleDataset } from './lib/cli-process.js';
import { isMain, seconds, startSandboxProcess, table, writeResult } from './lib/common.js';

/** Second half of the written entries' time against the first half, from the journal's outcome timestamps. */
function halves(journalPath: string): { first_s: number; second_s: number; ratio: number; written: number } {
  const lines = readFileSync(journalPath, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'));
  let start = 0;
  const ats: number[] = [];
  for (const l of lines) {
    const x = JSON.parse(l) as { t: string; event?: string; at: string };
    if (x.t === 'session' && x.event === 'start' && start === 0) start = Date.parse(x.at);
    if (x.t === 'outcome') ats.push(Date.parse(x.at));
  }
  ats.sort((a, b) => a - b);
  const mid = ats[Math.floor(ats.length / 2)];
  const first = mid - start;
  const second = ats[ats.length - 1] - mid;
  return {
    first_s: seconds(first),
    second_s: seconds(second),
    ratio: Math.round((second / first) * 100) / 100,
    written: ats.length,
  };
}

export async function runMemoryBench(o: { rows: number; planOnly?: boolean }): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'sl-memory-'));
  const sb = await startSandboxProcess({ seed: 'demo' });
  try {
    const data = scaleDataset(o.rows, `MEM${o.rows}`);
    const rows = countRows(data);
    const file = join(dir, 'scale.xlsx');
    const tw = performance.now();
    await writeDataWorkbook(file, data);
    process.stdout.write(`memory bench: ${rows} rows written in ${seconds(performance.now() - tw)} s\n`);
    const jobsDir = join(dir, 'jobs');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SUPPLY_LOADER_API_KEY: sb.key,
      SUPPLY_LOADER_JOBS_DIR: jobsDir,
      SUPPLY_LOADER_CONFIG_DIR: join(dir, 'config'),
    };
    const base = ['--base-url', sb.url];
    // A stale bundle is rebuilt (esbuild in a child process) by the first start: never inside a measured run.
    spawnSync(process.execPath, [BIN, '--version'], { env, stdio: 'ignore' });
    const plan = await runCli(['plan', file, ...base], env);
    process.stdout.write(`plan: exit ${plan.code}, ${plan.wall_s} s, peak ${plan.peak_mib} MiB\n`);
    if (o.planOnly)
      return {
        summary: {
          rows,
          plan_peak_mib: plan.peak_mib,
          goal_peak_mib: 400,
          plan_met: plan.code !== null && plan.code <= 1 && plan.peak_mib <= 400,
        },
        plan,
      };
    const imp = await runCli(
      ['import', file, '--report', join(dir, 'report.xlsx'), '--failed', join(dir, 'failed.xlsx'), ...base],
      env,
    );
    process.stdout.write(`import: exit ${imp.code}, ${imp.wall_s} s, peak ${imp.peak_mib} MiB\n`);
    const jobId = readdirSync(jobsDir).find((n) => /^\d{8}-\d{6}-[0-9a-f]{6}$/.test(n));
    const cost = jobId ? halves(join(jobsDir, jobId, 'journal.jsonl')) : null;
    const summary = {
      rows,
      plan_peak_mib: plan.peak_mib,
      import_peak_mib: imp.peak_mib,
      goal_peak_mib: 400,
      plan_met: plan.code !== null && plan.code <= 1 && plan.peak_mib <= 400,
      import_met: imp.code !== null && imp.code <= 1 && imp.peak_mib <= 400,
      second_vs_first_half: cost?.ratio ?? null,
      flat_met: cost !== null && cost.ratio <= 1.1,
      rows_per_s: Math.round(rows / imp.wall_s),
    };
    table(`Memory at ${rows.toLocaleString('en')} rows (CLI process tree, peak RSS)`, [
      ['run', 'exit', 'wall, s', 'peak RSS, MiB', 'goal', 'met'],
      ['plan', String(plan.code), plan.wall_s, plan.peak_mib, '≤ 400', summary.plan_met ? 'yes' : 'NO'],
      [
        'plan + import + results workbooks',
        String(imp.code),
        imp.wall_s,
        imp.peak_mib,
        '≤ 400',
        summary.import_met ? 'yes' : 'NO',
      ],
      [
        'second half / first half of the writes',
        '',
        cost ? `${cost.second_s} / ${cost.first_s}` : '-',
        cost?.ratio ?? '-',
        '≤ 1.1',
        summary.flat_met ? 'yes' : 'NO',
      ],
    ]);
    return { summary, plan, import: imp, halves: cost };
  } finally {
    await sb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: { rows: { type: 'string', default: '200000' }, 'plan-only': { type: 'boolean', default: false } },
  });
  const planOnly = values['plan-only'] === true;
  const r = await runMemoryBench({ rows: Number(values.rows), planOnly });
  writeResult(`memory-${values.rows}${planOnly ? '-plan' : ''}`, r);
}
