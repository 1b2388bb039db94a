/**
 * The CLI as the scale benchmarks run it (memory, re-sync, the app's dry run): the installed bin
 * (bin/supply-loader.cjs, the bundle) as a child process with the peak RSS of its process tree
 * (lib/process-tree.ts), and the workbook they fill: about `rows` rows over every data sheet, mostly supplier
 * products.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDataset, type SheetData } from '../../test/fixtures/dataset.js';
import { ROOT, seconds } from './common.js';
import { watchTree } from './process-tree.js';

export const BIN = join(ROOT, 'bin/supply-loader.cjs');

/** A workbook of about `rows` rows over every data sheet, ~85 % of them supplier products (+ their hazardous rows). */
export function scaleDataset(rows: number, prefix: string): SheetData {
  const products = Math.round(rows * 0.845);
  return buildDataset(
    {
      companies: Math.max(1, Math.round(rows / 200)),
      products,
      silos: Math.max(1, Math.round(rows / 1000)),
      instances: 20,
      prechain: 10,
    },
    prefix,
  );
}

export interface CliRunFigures {
  code: number | null;
  wall_s: number;
  peak_tree_rss_mib: number;
  root_hwm_mib: number;
  peak_mib: number;
  stderr_tail: string;
}

/** Run the CLI as a child process; the peak RSS of its process tree while it runs. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRunFigures> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: tmpdir(), env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    const watch = watchTree(child.pid!);
    child.on('exit', (code) => {
      const { peak_tree_rss_mib, root_hwm_mib, peak_mib } = watch.stop();
      if (err.includes('rebuilt it')) throw new Error('the CLI bundle was rebuilt during a measured run');
      resolve({
        code,
        wall_s: seconds(performance.now() - t0),
        peak_tree_rss_mib,
        root_hwm_mib,
        peak_mib,
        stderr_tail: err.split('\n').slice(-4).join('\n'),
      });
    });
  });
}
