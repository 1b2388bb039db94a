/**
 * One reading measurement in its own process (so peak RSS is its own): prints one JSON line
 * {mode, ms, max_rss_mb, rows, errors}.
 *   node --import tsx bench/read-child.ts ours|stream|load|baseline FILE
 * - ours: Supply Loader's readWorkbook + validateWorkbook (what `validate`/`plan`/`import` do first)
 * - stream: a bare exceljs streaming iteration (WorkbookReader, shared strings cached, every row visited)
 * - load: exceljs whole-file load (Workbook.xlsx.readFile)
 * - baseline: the same modules loaded, nothing read (the floor of the RSS figures)
 * - read: Supply Loader's readWorkbook alone (exceljs streaming behind the normalising feed)
 * - fork-stream: a bare streaming iteration with another exceljs build, loaded from the folder READER_ALT names
 *   (bench/reader-choice.bench.ts: a maintained fork installed outside the project)
 * - sheetjs: SheetJS (@e965/xlsx) whole-file read, every row visited
 */
import ExcelJS from 'exceljs';
import { readWorkbook } from '../core/workbook/reader.js';
import { validateWorkbook } from '../core/workbook/validate.js';

const [mode, file] = process.argv.slice(2);

async function main(): Promise<void> {
  let rows = 0;
  let errors = 0;
  let validated = false;
  const t0 = performance.now();
  if (mode === 'ours') {
    const parsed = await readWorkbook(file);
    rows = parsed.sheets.reduce((n, s) => n + s.rows.length, 0);
    const report = await validateWorkbook(parsed);
    validated = true;
    errors = report.errors;
  } else if (mode === 'stream') {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
      sharedStrings: 'cache',
      worksheets: 'emit',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'ignore',
    });
    for await (const ws of reader)
      for await (const row of ws as unknown as AsyncIterable<{ number: number }>) if (row.number > 1) rows++;
  } else if (mode === 'read') {
    const parsed = await readWorkbook(file);
    rows = parsed.sheets.reduce((n, s) => n + s.rows.length, 0);
  } else if (mode === 'fork-stream') {
    const { createRequire } = await import('node:module');
    const alt = createRequire(`${process.env.READER_ALT}/`)(process.env.READER_ALT_PACKAGE ?? '@zurmokeeper/exceljs');
    const reader = new alt.stream.xlsx.WorkbookReader(file, {
      sharedStrings: 'cache',
      worksheets: 'emit',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'ignore',
    });
    for await (const ws of reader)
      for await (const row of ws as unknown as AsyncIterable<{ number: number }>) if (row.number > 1) rows++;
  } else if (mode === 'sheetjs') {
    const XLSX = await import('@e965/xlsx');
    const { readFileSync } = await import('node:fs');
    const wb = XLSX.read(readFileSync(file), { type: 'buffer', dense: true, cellStyles: false, cellNF: false });
    for (const name of wb.SheetNames) {
      const data = (wb.Sheets[name] as unknown as { '!data'?: unknown[][] })['!data'] ?? [];
      for (let r = 1; r < data.length; r++) if (data[r]?.length) rows++;
    }
  } else if (mode === 'load') {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    for (const ws of wb.worksheets) rows += Math.max(0, ws.actualRowCount - 1);
  } else if (mode !== 'baseline') {
    throw new Error(`unknown mode ${mode}`);
  }
  const ms = performance.now() - t0;
  const maxRss = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    `${JSON.stringify({ mode, ms: Math.round(ms), max_rss_mb: Math.round(maxRss), rows, errors, validated })}\n`,
  );
}

await main();
