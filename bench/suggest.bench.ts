/**
 * `mapping suggest` on awkward inputs: the installed CLI (bin/supply-loader.cjs, the bundle) as a fresh process,
 * wall time from spawn to exit, median of `runs` after one warm-up — goal < 2 s each:
 *  - a CSV with one quoted text cell of 1 MB
 *  - a 150 KB pipe-delimited CSV (a header and about 2,800 rows)
 * The cost per input is bounded (a header compared by its first characters, the delimiter sniffed on a prefix:
 * test/workbook/suggest-bounds.test.ts); this measures what that gives end to end, start-up included.
 *
 *   npx tsx bench/suggest.bench.ts [--runs 5]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isMain, ROOT, seconds, table, writeResult } from './lib/common.js';

const BIN = join(ROOT, 'bin/supply-loader.cjs');
const GOAL_MS = 2000;
const HEADER = ['external_id', 'name', 'plant_code', 'material_code', 'unit'];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function once(dir: string, file: string, env: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'mapping', 'suggest', file, '-o', 'draft.json'], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  // 0: every required field mapped; 2: a draft with a required field left to a person. Anything else failed.
  if (r.status !== 0 && r.status !== 2) throw new Error(`mapping suggest ${file}: exit ${r.status}: ${r.stderr}`);
  if (r.stderr.includes('rebuilt')) throw new Error('the bundle was rebuilt during a timed run');
  return ms;
}

export function runSuggestBench(o: { runs: number }): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'sl-suggest-'));
  try {
    writeFileSync(join(dir, 'bigcell.csv'), `${HEADER.join(';')}\nSP-1;"${'x'.repeat(1024 * 1024)}";PL;MAT;KG\n`);
    let pipe = `${HEADER.join('|')}\n`;
    for (let i = 0; pipe.length < 150 * 1024; i++) pipe += `SP-${i}|Product ${i} of the list|PL-MUC|MAT-SAND|KG\n`;
    writeFileSync(join(dir, 'pipe.csv'), pipe);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SUPPLY_LOADER_CONFIG_DIR: join(dir, 'config'),
    };
    const cases: Record<string, { median_ms: number; runs_ms: number[] }> = {};
    for (const file of ['bigcell.csv', 'pipe.csv']) {
      once(dir, file, env);
      const runs = Array.from({ length: o.runs }, () => Math.round(once(dir, file, env) * 10) / 10);
      cases[file] = { median_ms: median(runs), runs_ms: runs };
    }
    const summary = {
      bigcell_s: seconds(cases['bigcell.csv'].median_ms),
      pipe_s: seconds(cases['pipe.csv'].median_ms),
      goal_s: GOAL_MS / 1000,
      met: Object.values(cases).every((c) => c.median_ms < GOAL_MS),
    };
    table(`mapping suggest (median of ${o.runs} after one warm-up, start-up included)`, [
      ['input', 's', 'goal', 'met'],
      ['CSV with a 1 MB cell', summary.bigcell_s, '< 2 s', cases['bigcell.csv'].median_ms < GOAL_MS ? 'yes' : 'NO'],
      ['150 KB pipe-delimited CSV', summary.pipe_s, '< 2 s', cases['pipe.csv'].median_ms < GOAL_MS ? 'yes' : 'NO'],
    ]);
    return { runs: o.runs, summary, cases };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  writeResult('suggest', runSuggestBench({ runs: Number(values.runs) }));
}
