/**
 * Which .xlsx reader: exceljs streaming behind Supply Loader's normalising feed (today's), a bare streaming
 * iteration with exceljs 4.4.0 and with a maintained fork, and SheetJS's whole-file read, on the read bench's
 * 100,000-row supplier-products sheet. Speed and peak RSS, each in its own process (bench/read-child.ts).
 *
 *   npx tsx bench/reader-choice.bench.ts --alt DIR [--rows 100000] [--repeat 3]
 * DIR: a folder with the fork installed (`npm install --prefix DIR @zurmokeeper/exceljs`), outside the project;
 * without it the fork is left out.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isMain, runScript, seconds, table } from './lib/common.js';
import { writeBigSupplierProducts } from './read.bench.js';

interface ChildResult {
  mode: string;
  ms: number;
  max_rss_mb: number;
  rows: number;
}

const LABEL: Record<string, string> = {
  baseline: 'same process, nothing read',
  read: 'exceljs 4.4.0 streaming + normalising feed (readWorkbook)',
  stream: 'exceljs 4.4.0 streaming, bare',
  'fork-stream': '@zurmokeeper/exceljs streaming, bare',
  sheetjs: '@e965/xlsx (SheetJS) whole-file read',
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '100000' },
      repeat: { type: 'string', default: '3' },
      alt: { type: 'string' },
    },
  });
  const modes = ['baseline', 'read', 'stream', ...(values.alt ? ['fork-stream'] : []), 'sheetjs'];
  if (values.alt) process.env.READER_ALT = join(values.alt, 'node_modules');
  const dir = mkdtempSync(join(tmpdir(), 'sl-bench-choice-'));
  try {
    const file = join(dir, 'supplier-products.xlsx');
    await writeBigSupplierProducts(file, Number(values.rows));
    const results: ChildResult[] = [];
    for (let r = 0; r < Number(values.repeat); r++)
      for (const mode of modes) {
        const { json, code, stdout } = await runScript<ChildResult>('bench/read-child.ts', [mode, file]);
        if (!json || code !== 0) throw new Error(`read-child ${mode} failed (${code}): ${stdout}`);
        results.push(json);
      }
    const median = (mode: string, f: keyof ChildResult) => {
      const xs = results
        .filter((x) => x.mode === mode)
        .map((x) => Number(x[f]))
        .sort((a, b) => a - b);
      return xs[Math.floor(xs.length / 2)];
    };
    const base = median('stream', 'ms');
    table(
      `Reader choice — ${Number(values.rows).toLocaleString('en')} rows (${(statSync(file).size / 1e6).toFixed(1)} MB), median of ${values.repeat}`,
      [
        ['reader', 'rows', 'wall s', 'peak RSS MB', 'vs exceljs streaming'],
        ...modes.map((m) => [
          LABEL[m],
          median(m, 'rows'),
          seconds(median(m, 'ms')),
          median(m, 'max_rss_mb'),
          m === 'baseline' ? '-' : median(m, 'ms') / base,
        ]),
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) await main();
