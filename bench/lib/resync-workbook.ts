/**
 * The nightly re-sync's workbook and the service that already holds it, as the re-sync benchmark and the app's
 * dry-run benchmark use them: a workbook over every sheet as the memory benchmark fills them (~`rows` rows,
 * lib/cli-process.ts scaleDataset), imported once by the CLI at latency 0 (not measured), then `validate` and
 * `plan` of it run once unmeasured (their code caches, as the night before made them; the seeding import made
 * the import command's). The sandbox's latency is left at 0: the caller sets the one it measures at.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { countRows } from '../../test/fixtures/dataset.js';
import { writeDataWorkbook } from '../../test/fixtures/workbook.js';
import { BIN, runCli, scaleDataset } from './cli-process.js';
import type { SandboxProcess } from './common.js';

export interface ResyncWorkbook {
  /** the workbook (resync.xlsx in the caller's folder) */
  file: string;
  /** its data rows over every sheet */
  rows: number;
  /** the CLI's environment: the sandbox's key, jobs and config folders in the caller's folder */
  env: NodeJS.ProcessEnv;
  /** `--base-url URL` of the sandbox */
  base: string[];
  /** the seeding import's wall time, s */
  seed_s: number;
}

export async function seedResyncWorkbook(o: {
  rows: number;
  /** a folder of the caller's (the workbook, the CLI's jobs and config go in it) */
  dir: string;
  sandbox: SandboxProcess;
  /** the name in the progress line */
  label: string;
}): Promise<ResyncWorkbook> {
  const data = scaleDataset(o.rows, `RSY${o.rows}`);
  const rows = countRows(data);
  const file = join(o.dir, 'resync.xlsx');
  await writeDataWorkbook(file, data);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SUPPLY_LOADER_API_KEY: o.sandbox.key,
    SUPPLY_LOADER_JOBS_DIR: join(o.dir, 'jobs'),
    SUPPLY_LOADER_CONFIG_DIR: join(o.dir, 'config'),
  };
  const base = ['--base-url', o.sandbox.url];
  spawnSync(process.execPath, [BIN, '--version'], { env, stdio: 'ignore' });
  // The service holds the workbook: imported once at latency 0 (not measured).
  const seed = await runCli(['import', file, ...base, '--concurrency', '32'], env);
  if (seed.code !== 0) throw new Error(`seeding import exited ${seed.code}: ${seed.stderr_tail}`);
  process.stdout.write(`${o.label}: ${rows} rows imported in ${seed.wall_s} s\n`);
  // The code caches of `validate` and `plan`, as last night's run made them (the seeding import made the
  // import command's): a first run of a command compiles its bundle without one. Not measured.
  for (const args of [
    ['validate', file],
    ['plan', file, ...base],
  ]) {
    const warm = await runCli(args, env);
    if (warm.code !== 0) throw new Error(`${args[0]} before measuring exited ${warm.code}: ${warm.stderr_tail}`);
  }
  return { file, rows, env, base, seed_s: seed.wall_s };
}
