/**
 * CLI start-up: the installed CLI (bin/supply-loader.cjs running the bundle of
 * scripts/build-cli.mjs) as a fresh process, wall time from spawn to exit. Medians of 7 runs after one warm-up:
 *  - `supply-loader --version` — goal ≤ 0.15 s
 *  - `supply-loader validate` of a 50-row workbook (every data sheet) — goal ≤ 0.4 s
 * Also the same two through tsx (the sources, SUPPLY_LOADER_CLI_SOURCE=1) for comparison. The bundle is built
 * first when it is stale, so the timed runs never include a rebuild.
 *
 *   npx tsx bench/cli-start.bench.ts [--runs 7]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDataset, countRows, sizeForRows } from '../test/fixtures/dataset.js';
import { writeDataWorkbook } from '../test/fixtures/workbook.js';
import { isMain, ROOT, seconds, table, writeResult } from './lib/common.js';

const BIN = join(ROOT, 'bin/supply-loader.cjs');

function once(args: string[], env: NodeJS.ProcessEnv): { ms: number; code: number | null; stderr: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: tmpdir(), env, encoding: 'utf8' });
  return { ms: performance.now() - t0, code: r.status, stderr: r.stderr };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One warm-up, then `runs` timed runs; the median in ms. Throws when a run fails or rebuilds the bundle. */
function measure(args: string[], runs: number, env: NodeJS.ProcessEnv): { median_ms: number; runs_ms: number[] } {
  const warm = once(args, env);
  if (warm.code !== 0) throw new Error(`supply-loader ${args.join(' ')}: exit ${warm.code}: ${warm.stderr}`);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = once(args, env);
    if (r.code !== 0) throw new Error(`supply-loader ${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
    if (r.stderr.includes('rebuilt')) throw new Error('the bundle was rebuilt during a timed run');
    times.push(Math.round(r.ms * 10) / 10);
  }
  return { median_ms: median(times), runs_ms: times };
}

export async function runCliStartBench(o: { runs: number }): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'sl-cli-start-'));
  try {
    // Every sheet, and at least 50 rows: the size for ~50 rows, then one supplier product more until there are.
    const size = sizeForRows(50);
    let data = buildDataset(size, 'CS');
    while (countRows(data) < 50) data = buildDataset({ ...size, products: ++size.products }, 'CS');
    const file = join(dir, 'fifty.xlsx');
    await writeDataWorkbook(file, data);
    const rows = countRows(data);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SUPPLY_LOADER_CONFIG_DIR: join(dir, 'config'),
    };
    const srcEnv = { ...env, SUPPLY_LOADER_CLI_SOURCE: '1' };
    // Make sure the bundle is current before timing (a rebuild here is not part of a start).
    once(['--version'], env);
    const version = measure(['--version'], o.runs, env);
    const validate = measure(['validate', file], o.runs, env);
    const versionTsx = measure(['--version'], Math.min(3, o.runs), srcEnv);
    const validateTsx = measure(['validate', file], Math.min(3, o.runs), srcEnv);
    const summary = {
      version_s: seconds(version.median_ms),
      version_goal_s: 0.15,
      version_met: version.median_ms <= 150,
      validate_s: seconds(validate.median_ms),
      validate_rows: rows,
      validate_goal_s: 0.4,
      validate_met: validate.median_ms <= 400,
      version_tsx_s: seconds(versionTsx.median_ms),
      validate_tsx_s: seconds(validateTsx.median_ms),
    };
    table(`CLI start (median of ${o.runs} after one warm-up)`, [
      ['command', 'bundle, s', 'tsx sources, s', 'goal', 'met'],
      ['--version', summary.version_s, summary.version_tsx_s, '≤ 0.15 s', summary.version_met ? 'yes' : 'NO'],
      [
        `validate (${rows} rows)`,
        summary.validate_s,
        summary.validate_tsx_s,
        '≤ 0.4 s',
        summary.validate_met ? 'yes' : 'NO',
      ],
    ]);
    return { runs: o.runs, summary, version, validate, version_tsx: versionTsx, validate_tsx: validateTsx };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
  const r = await runCliStartBench({ runs: Number(values.runs) });
  writeResult('cli-start', r);
}
