/**
 * Reading (docs/performance.md, benchmark 3): a 100,000-row `supplier-products` sheet with all 14 columns, written the way
 * Excel stores a workbook (shared strings, worksheet before them). Each measurement runs in its own process
 * (bench/read-child.ts) so that its peak RSS is its own, in one run: Supply Loader's read + validation, a bare
 * exceljs streaming iteration, and exceljs's whole-file load; plus the RSS of the same process reading nothing.
 * Goal: read + validate within 1.25× the bare streaming time and under 300 MB peak RSS.
 *
 *   npx tsx bench/read.bench.ts [--rows 100000] [--repeat 3]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { getSheet } from '../core/workbook/registry.js';
import { reorderZip } from '../test/fixtures/zip-writer.js';
import { isMain, runScript, seconds, table, writeResult } from './lib/common.js';

interface ChildResult {
  mode: string;
  ms: number;
  max_rss_mb: number;
  rows: number;
  errors: number;
  validated: boolean;
}

/** A realistic supplier-products sheet: every column, some blanks, shared strings (exceljs streaming writer). */
export async function writeBigSupplierProducts(path: string, rows: number): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: false });
  const ws = wb.addWorksheet('supplier-products');
  const fields = Object.keys(getSheet('supplier-products').columns);
  ws.addRow(fields).commit();
  const plants = ['PL-HEID', 'PL-MUC', 'PL-OSTR'];
  const materials = ['MAT-CEM1', 'MAT-SAND', 'MAT-GRAVEL', 'MAT-LIMESTONE', 'MAT-GYPSUM', 'MAT-SUPERPL'];
  const units = ['KG', 'T', 'M3'];
  for (let i = 0; i < rows; i++) {
    const v: Record<string, string | number | null> = {
      external_id: `SP-${String(i).padStart(6, '0')}`,
      name: `Lieferprodukt ${materials[i % 6].slice(4)} Charge ${i}`,
      plant_code: plants[i % 3],
      material_code: materials[i % 6],
      supplier_plant_external_id: `SPL-${String(i % 500).padStart(4, '0')}`,
      unit: units[i % 3],
      truck_km: (i % 400) + 0.5,
      train_km: i % 3 === 0 ? 120 + (i % 50) : null,
      ship_km: i % 11 === 0 ? 800 : null,
      barge_km: i % 7 === 0 ? 35.5 : null,
      epd_id:
        i % 5 === 0 ? `0b6f${String(i % 10000).padStart(4, '0')}-1c2d-4e5f-8a9b-${String(i).padStart(12, '0')}` : null,
      lifetime_years: i % 13 === 0 ? 50 : null,
      secondary_percentage: i % 4 === 0 ? i % 100 : null,
      moisture_content_percentage: null,
    };
    ws.addRow(fields.map((f) => v[f])).commit();
  }
  ws.commit();
  await wb.commit();
  await reorderZip(path, 'excel');
}

export async function runReadBench(o: { rows: number; repeat: number }): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'sl-bench-read-'));
  try {
    const file = join(dir, 'supplier-products-100k.xlsx');
    const tw = performance.now();
    await writeBigSupplierProducts(file, o.rows);
    const writeMs = performance.now() - tw;
    const results: ChildResult[] = [];
    for (let r = 0; r < o.repeat; r++) {
      for (const mode of ['baseline', 'stream', 'ours', 'load']) {
        const { json, code, stdout } = await runScript<ChildResult>('bench/read-child.ts', [mode, file]);
        if (!json || code !== 0) throw new Error(`read-child ${mode} failed (${code}): ${stdout}`);
        results.push(json);
      }
    }
    const median = (mode: string, f: keyof ChildResult) => {
      const xs = results
        .filter((x) => x.mode === mode)
        .map((x) => Number(x[f]))
        .sort((a, b) => a - b);
      return xs[Math.floor(xs.length / 2)];
    };
    const modes = ['stream', 'ours', 'load', 'baseline'];
    const label: Record<string, string> = {
      stream: 'exceljs streaming (bare)',
      ours: 'Supply Loader read + validate',
      load: 'exceljs whole-file load',
      baseline: 'same process, nothing read',
    };
    const streamMs = median('stream', 'ms');
    const oursMs = median('ours', 'ms');
    const summary = {
      file_mb: Math.round(statSync(file).size / 1e5) / 10,
      rows: o.rows,
      write_ms: Math.round(writeMs),
      ours_vs_stream: oursMs / streamMs,
      goal_ratio: 1.25,
      ours_peak_rss_mb: median('ours', 'max_rss_mb'),
      goal_rss_mb: 300,
      validated: results.some((x) => x.mode === 'ours' && x.validated),
      rows_read: Object.fromEntries(modes.map((m) => [m, median(m, 'rows')])),
      ours_errors: median('ours', 'errors'),
    };
    table(
      `Reading — ${o.rows.toLocaleString('en')}-row supplier-products sheet, 14 columns (${summary.file_mb} MB), median of ${o.repeat}`,
      [
        ['reader', 'rows', 'wall s', 'peak RSS MB', 'vs streaming'],
        ...modes.map((m) => [
          label[m],
          median(m, 'rows'),
          seconds(median(m, 'ms')),
          median(m, 'max_rss_mb'),
          m === 'baseline' ? '-' : median(m, 'ms') / streamMs,
        ]),
      ],
    );
    return { options: o, summary, results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: { rows: { type: 'string', default: '100000' }, repeat: { type: 'string', default: '3' } },
  });
  writeResult('read', await runReadBench({ rows: Number(values.rows), repeat: Number(values.repeat) }));
}
