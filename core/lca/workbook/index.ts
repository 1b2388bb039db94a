/**
 * The LCA results workbook (exceljs), one builder per sheet, in this order: `results` (long), `indicators` (wide,
 * colour scales), `hotspots` (when the breakdown is resolved to names), `trend`, `blockers`, `jobs`,
 * `breakdown` (only when asked for) and `about` — each sheet's file says what it holds. `context.ts` reads the
 * report once for all of them; `sheet.ts` writes the cells (server strings are always string cells, never
 * formulas); `columns.ts` holds the shared columns. Times are ISO 8601 UTC text (no time zone shifts). The
 * file is written with exceljs's streaming writer (fast, bounded memory) to a temporary name and renamed, so a
 * crash never leaves half a file.
 */
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { writeAtomic } from '../../fs/atomic.js';
import { collectBuffer } from '../../fs/buffer.js';
import type { LcaReport } from '../model.js';
import { writeAboutSheet } from './about.js';
import { blockersSheet } from './blockers.js';
import { breakdownSheet } from './breakdown.js';
import { type LcaExportOptions, exportContext } from './context.js';
import { gwpSheet } from './gwp.js';
import { hotspotsSheet } from './hotspots.js';
import { jobsSheet } from './jobs.js';
import { resultsSheet } from './results.js';
import { type SheetBuilder, writeSheet } from './sheet.js';
import { trendSheet } from './trend.js';

export type { LcaExportOptions } from './context.js';

export interface LcaExportStats {
  rows: {
    results: number;
    gwp: number;
    hotspots: number;
    trend: number;
    blockers: number;
    jobs: number;
    breakdown: number;
  };
  /** Extra columns added for fields this version does not know, per sheet. */
  extraColumns: Record<string, string[]>;
  /** Things the user should know about the export (shape changes, cut cells, breakdown left out). */
  notes: string[];
}

/** Lay out every sheet as rows (plain data; nothing written yet). */
function buildSheets(report: LcaReport, opts: LcaExportOptions): { sheets: SheetBuilder[]; stats: LcaExportStats } {
  const ctx = exportContext(report, opts);
  const results = resultsSheet(ctx);
  const gwp = gwpSheet(ctx);
  const hotspots = hotspotsSheet(ctx);
  const trend = trendSheet(ctx);
  const blockers = blockersSheet(ctx);
  const jobs = jobsSheet(ctx);
  const breakdown = breakdownSheet(ctx);
  const readable = report.breakdown_context?.readable === true;
  const sheets = [
    results,
    gwp,
    ...(readable ? [hotspots] : []),
    trend,
    blockers,
    jobs,
    ...(opts.breakdown ? [breakdown] : []),
  ];
  for (const b of sheets) {
    if (b.extras.overflow)
      ctx.notes.push(
        `The ${b.name} sheet met more unknown fields than ${ctx.maxExtra} columns: the rest are in its more_fields column as JSON.`,
      );
  }
  return {
    sheets,
    stats: {
      rows: {
        results: results.rows.length,
        gwp: gwp.rows.length,
        hotspots: hotspots.rows.length,
        trend: trend.rows.length,
        blockers: blockers.rows.length,
        jobs: jobs.rows.length,
        breakdown: opts.breakdown ? breakdown.rows.length : 0,
      },
      extraColumns: Object.fromEntries(
        [results, gwp, hotspots, trend, blockers, jobs, breakdown].map((b) => [b.name, [...b.extras.keys]]),
      ),
      notes: ctx.notes,
    },
  };
}

/** Stream the workbook to `out`; resolves when everything is written. */
async function streamWorkbook(report: LcaReport, opts: LcaExportOptions, out: Writable): Promise<LcaExportStats> {
  const built = buildSheets(report, opts);
  const created = new Date(report.generated_at);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: true,
    created,
    modified: created,
    creator: 'Supply Loader',
  } as ConstructorParameters<typeof ExcelJS.stream.xlsx.WorkbookWriter>[0] & {
    created: Date;
    modified: Date;
    creator: string;
  });
  let cut = false;
  for (const b of built.sheets) cut = writeSheet(wb, b) || cut;
  if (cut) built.stats.notes.push('Some texts were longer than an Excel cell holds (32,767 characters) and were cut.');
  writeAboutSheet(wb, report, built.stats.notes);
  await wb.commit();
  return built.stats;
}

/**
 * Write the workbook to `outPath` (via a temporary file in the same folder and a rename, so a crash never
 * leaves half a workbook under the final name).
 */
export async function writeLcaWorkbook(
  report: LcaReport,
  outPath: string,
  opts: LcaExportOptions = {},
): Promise<LcaExportStats> {
  return writeAtomic(outPath, async (tmp) => {
    const file = createWriteStream(tmp);
    const closed = new Promise<void>((resolve, reject) => {
      file.once('close', resolve);
      file.once('error', reject);
    });
    const stats = await streamWorkbook(report, opts, file);
    await closed;
    return stats;
  });
}

/** The workbook as bytes (for the UI's save dialog, or to attach somewhere). */
export async function lcaWorkbookBuffer(
  report: LcaReport,
  opts: LcaExportOptions = {},
): Promise<{ buffer: Buffer; stats: LcaExportStats }> {
  const { buffer, result } = await collectBuffer((sink) => streamWorkbook(report, opts, sink));
  return { buffer, stats: result };
}
