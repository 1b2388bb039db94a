/**
 * The first rows of each source as text, for `mapping suggest`: every sheet of a workbook (after the file
 * guards), or a CSV file (encoding and delimiter detected as when reading). Nothing is coerced.
 */
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import ExcelJS from 'exceljs';
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { decodeCellText, unwrapCell } from '../coerce.js';
import { DEFAULT_LIMITS, FileLevelError } from '../file-limits.js';
import { feedOf, raceStop, workbookFeed } from '../feed.js';
import { inspectWorkbookFile, type FileInspection, type ZipSheetInfo } from '../guards.js';
import type { CsvFormat } from '../types.js';
import { detectDelimiter, detectFileEncoding, emptyFileMessage } from './csv.js';
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

/** Bytes of a text source read at most (its first rows). */
export const SAMPLE_BYTES = 256 * 1024;
/** Characters of that sample the delimiter is detected on (as the reader does: sources/csv.ts). */
export const SNIFF_CHARS = 64 * 1024;

export interface PeekOptions {
  /** Rows read per source (default 30). */
  maxRows?: number;
  /** Stops the peek between rows and sheets (an AbortError). */
  signal?: AbortSignal;
}

/** A workbook cell as shown (its `_xHHHH_` escapes decoded). */
function text(v: unknown): string {
  const u = unwrapCell(decodeCellText(v));
  if (u === undefined || (typeof u === 'object' && !(u instanceof Date))) return '';
  return u instanceof Date ? u.toISOString().slice(0, 10) : String(u).trim();
}

/** A message about `file` that names it (prefixed unless it does already). */
function named(file: string, message: string): string {
  return message.includes(file) ? message : `${file}: ${message}`;
}

/**
 * A file-level refusal of the guards, named after its file and without the zip or XML library's own words (the
 * `detail` in brackets).
 */
function fileLevel(file: string, e: unknown): unknown {
  if (!(e instanceof FileLevelError)) return e;
  const detail = e.params?.detail;
  const message = typeof detail === 'string' ? e.message.replace(` (${detail})`, '') : e.message;
  return new Error(named(file, message));
}

/** The first records of a text sample; a record cut at its end (a quote not closed) ends them, never the peek. */
function firstRecords(sample: string, delimiter: string, maxRows: number): string[][] {
  const records: string[][] = [];
  try {
    parseSync(sample, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
      to_line: maxRows,
      on_record: (r: string[]) => void records.push(r),
    });
  } catch {
    // The records before the error are the peek.
  }
  return records.slice(0, maxRows);
}

/**
 * The first rows of a source: a CSV file, or each sheet of a workbook (.xlsx, .xls, .ods). Throws an Error whose
 * message names the file when it cannot be read; an AbortError when `signal` is aborted.
 */
export async function peekSource(path: string, options: PeekOptions = {}): Promise<PeekedSource[]> {
  const { maxRows = 30, signal } = options;
  signal?.throwIfAborted();
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
    signal?.throwIfAborted();
    const { encoding, bom } = await detectFileEncoding(path, head, size);
    signal?.throwIfAborted();
    const sample = iconv.decode(head, encoding);
    const delimiter = detectDelimiter(sample.slice(0, SNIFF_CHARS));
    return [
      {
        name: file,
        file,
        isFile: true,
        rows: firstRecords(sample, delimiter, maxRows).map((r) => r.map((c) => c.trim())),
        csv: { encoding, bom, delimiter },
      },
    ];
  }
  if (isLegacySource(path)) {
    // An .xls / .ods is peeked in its .xlsx copy (sheet names and cells as in the source).
    const copy = await legacyXlsxCopy(path).catch((e: unknown) => {
      throw fileLevel(file, e);
    });
    try {
      return (await peekWorkbook(copy.path, file, maxRows, signal)).map((s) => ({ ...s, file }));
    } finally {
      await copy.dispose();
    }
  }
  return peekWorkbook(path, file, maxRows, signal);
}

/**
 * Why a text source gives no draft, in the words `validate` uses for it, or null: an empty file, or one whose
 * first bytes are mostly control characters (binary data under a .csv name).
 */
export async function textSourceProblem(path: string): Promise<string | null> {
  if (!isTextSource(path) || (await looksBinary(path))) return null;
  const file = basename(path);
  const size = (await stat(path)).size;
  if (size === 0) return emptyFileMessage(file);
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, 4096));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead);
    // UTF-16 (with its byte-order mark) has a NUL in every other byte: it is text.
    if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return null;
    let control = 0;
    for (const b of head) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) control++;
    return control > 16 && control / head.length > 0.05
      ? `${file} is not a text (CSV) file: its first bytes are binary data. Export the data as CSV or .xlsx.`
      : null;
  } finally {
    await fh.close();
  }
}

async function peekWorkbook(
  path: string,
  file: string,
  maxRows: number,
  signal: AbortSignal | undefined,
): Promise<PeekedSource[]> {
  const inspection = await inspectWorkbookFile(path, DEFAULT_LIMITS).catch((e: unknown) => {
    throw fileLevel(file, e);
  });
  signal?.throwIfAborted();
  // The sheets with a part in the file, in the workbook's order.
  const sheets = inspection.sheets.filter((s) => s.path && inspection.entryNames.includes(s.path));
  // exceljs's streaming reader can end early without an error (exceljs/exceljs#2790; a two-sheet test of this
  // function flaked once under CI load, likely so): a sheet not reached is read again once, then named — never a
  // shorter list.
  const lostIn = (read: PeekedSource[]) => sheets.find((s) => !read.some((o) => o.name === s.name))?.name;
  const peek = async () => {
    try {
      return await peekSheets(path, inspection, sheets, maxRows, signal);
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      if (e instanceof FileLevelError) throw fileLevel(file, e);
      // The XML parser's or the zip reader's own words ("2:5418: unmatched closing tag") say nothing to a user.
      throw new Error(
        `${file}: the workbook cannot be read: it looks damaged (a sheet's contents are not valid). Open it in Excel and save it again.`,
        { cause: e },
      );
    }
  };
  let out = await peek();
  if (lostIn(out) !== undefined) out = await peek();
  const lost = lostIn(out);
  if (lost !== undefined)
    throw new Error(`${file}: the sheet "${lost}" could not be read (the reader ended before it); try again`);
  return out;
}

/**
 * The first rows of `sheets`, parsed by exceljs's streaming reader from the feed the reader uses (feed.ts: each
 * part inflated once, normalised), each worksheet only up to its `maxRows`-th row: the rest of a large sheet is
 * neither inflated nor parsed.
 */
async function peekSheets(
  path: string,
  inspection: FileInspection,
  sheets: readonly ZipSheetInfo[],
  maxRows: number,
  signal: AbortSignal | undefined,
): Promise<PeekedSource[]> {
  const file = basename(path);
  const out: PeekedSource[] = [];
  const stop = new AbortController();
  const onUserAbort = () => stop.abort(signal!.reason);
  signal?.addEventListener('abort', onUserAbort, { once: true });
  const feed = workbookFeed(
    { ...feedOf(path, inspection, sheets), maxRows },
    { bytes: 0, merges: new Map(), errorCells: new Map(), styledCells: new Map() },
    (e) => stop.abort(e),
  );
  // exceljs cannot be stopped mid-file: every await on it races the stop signal (raceStop, feed.ts).
  const race = <T>(p: Promise<T>): Promise<T> => raceStop(stop.signal, p);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(feed, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  try {
    const worksheets = (
      reader as unknown as AsyncIterable<{
        id: number | string;
        [Symbol.asyncIterator](): AsyncIterator<{ number: number; values: unknown[] }>;
      }>
    )[Symbol.asyncIterator]();
    for (;;) {
      const next = await race(worksheets.next());
      if (next.done) break;
      const ws = next.value;
      const name = sheets[Number(ws.id) - 1]?.name ?? `Sheet${String(ws.id)}`;
      const rows: string[][] = [];
      const it = ws[Symbol.asyncIterator]();
      for (;;) {
        const r = await race(it.next());
        if (r.done) break;
        const row = r.value;
        if (row.number > maxRows) continue; // the cut is after the maxRows-th row element, so few are left
        while (rows.length < row.number - 1) rows.push([]);
        const cells: string[] = [];
        for (let c = 1; c < row.values.length; c++) cells.push(text(row.values[c]));
        rows.push(cells);
      }
      out.push({ name, file, isFile: false, rows });
    }
    return out;
  } finally {
    signal?.removeEventListener('abort', onUserAbort);
    stop.abort(new Error('the peek is over'));
    feed.destroy();
  }
}
