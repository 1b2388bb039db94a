/**
 * The first rows of each source as text, for `mapping suggest`: every sheet of a workbook (after the file
 * guards), or a CSV file (encoding and delimiter detected as when reading). Nothing is coerced.
 */
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import ExcelJS from 'exceljs';
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { unwrapCell } from '../coerce.js';
import { DEFAULT_LIMITS, FileLevelError } from '../file-limits.js';
import { inspectWorkbookFile } from '../guards.js';
import type { CsvFormat } from '../types.js';
import { detectDelimiter, detectFileEncoding } from './csv.js';
import { isTextSource, looksBinary } from './index.js';
import { isLegacySource, legacyXlsxCopy } from './legacy.js';

export interface PeekedSource {
  /** Sheet name (workbook) or file name (CSV): what a mapping's `source` names. */
  name: string;
  file: string;
  isFile: boolean;
  /** rows[0] is row 1; each row's cells as trimmed text ('' = blank), column A first. */
  rows: string[][];
  csv?: CsvFormat;
}

const SAMPLE_BYTES = 256 * 1024;

function text(v: unknown): string {
  const u = unwrapCell(v);
  if (u === undefined || (typeof u === 'object' && !(u instanceof Date))) return '';
  return u instanceof Date ? u.toISOString().slice(0, 10) : String(u).trim();
}

export async function peekSource(path: string, maxRows = 30): Promise<PeekedSource[]> {
  const file = basename(path);
  // A .csv whose bytes are a PDF, a zip or an old .xls is diagnosed as the reader does (below), never peeked as text.
  if (isTextSource(path) && !(await looksBinary(path))) {
    const size = (await stat(path)).size;
    const fh = await open(path, 'r');
    let head: Buffer;
    try {
      const buf = Buffer.alloc(Math.min(size, SAMPLE_BYTES));
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
    const { encoding, bom } = await detectFileEncoding(path, head, size);
    const sample = iconv.decode(head, encoding);
    const delimiter = detectDelimiter(sample);
    let records: string[][] = [];
    try {
      records = parseSync(sample, {
        delimiter,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: false,
        bom: true,
        to_line: maxRows + 1,
      }) as string[][];
    } catch {
      records = [];
    }
    return [
      {
        name: file,
        file,
        isFile: true,
        rows: records.slice(0, maxRows).map((r) => r.map((c) => c.trim())),
        csv: { encoding, bom, delimiter },
      },
    ];
  }
  if (isLegacySource(path)) {
    // An .xls / .ods is peeked in its .xlsx copy (sheet names and cells as in the source).
    const copy = await legacyXlsxCopy(path).catch((e: unknown) => {
      throw e instanceof FileLevelError ? new Error(`${file}: ${e.message}`) : e;
    });
    try {
      return (await peekWorkbook(copy.path, maxRows)).map((s) => ({ ...s, file }));
    } finally {
      await copy.dispose();
    }
  }
  return peekWorkbook(path, maxRows);
}

async function peekWorkbook(path: string, maxRows: number): Promise<PeekedSource[]> {
  const file = basename(path);
  const inspection = await inspectWorkbookFile(path, DEFAULT_LIMITS).catch((e: unknown) => {
    throw e instanceof FileLevelError ? new Error(`${file}: ${e.message}`) : e;
  });
  const names = inspection.sheets.map((s) => s.name);
  // exceljs's streaming reader can end early without an error (exceljs/exceljs#2790; a two-sheet test of this
  // function flaked once under CI load, likely so): a sheet not reached is read again once, then named — never a
  // shorter list.
  const expected = inspection.sheets.filter((s) => s.path && inspection.entryNames.includes(s.path)).map((s) => s.name);
  const lostIn = (read: PeekedSource[]) => expected.find((n) => !read.some((o) => o.name === n));
  let out = await peekSheets(path, names, maxRows);
  if (lostIn(out) !== undefined) out = await peekSheets(path, names, maxRows);
  const lost = lostIn(out);
  if (lost !== undefined)
    throw new Error(`${file}: the sheet "${lost}" could not be read (the reader ended before it); try again`);
  return out;
}

async function peekSheets(path: string, names: readonly string[], maxRows: number): Promise<PeekedSource[]> {
  const file = basename(path);
  const out: PeekedSource[] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  for await (const ws of reader as unknown as AsyncIterable<{
    id: number | string;
    name?: string;
    [Symbol.asyncIterator](): AsyncIterator<{ number: number; values: unknown[] }>;
  }>) {
    const name = ws.name ?? names[Number(ws.id) - 1] ?? `Sheet${String(ws.id)}`;
    const rows: string[][] = [];
    for await (const row of ws) {
      if (row.number > maxRows) break;
      while (rows.length < row.number - 1) rows.push([]);
      const cells: string[] = [];
      for (let c = 1; c < row.values.length; c++) cells.push(text(row.values[c]));
      rows.push(cells);
    }
    out.push({ name, file, isFile: false, rows });
  }
  return out;
}
