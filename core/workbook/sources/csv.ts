/**
 * CSV / text sources, streamed: iconv-lite decodes (UTF-8 with or without BOM, UTF-16 LE/BE with
 * BOM, Windows-1252), csv-parse splits (delimiter `;` `,` tab `|` discovered by csv-parse's delimiter_auto
 * unless the mapping says it; quoted fields with line breaks). Each record goes through the same SheetRowReader
 * as a workbook's rows, so headers, coercion, mappings and issues work alike; issues point at the source file
 * (`MAT_2025-11.csv!C7`). Same guards as workbooks: file size, rows per sheet, issues kept; memory is bounded
 * (one chunk at a time plus the parsed rows).
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { DEFAULT_LIMITS } from '../file-limits.js';
import { IssueList } from '../issues.js';
import { targetOf } from '../column-mapping/match.js';
import type { ColumnMapping, CsvSettings } from '../column-mapping/schema.js';
import { DATA_SHEETS, getSheet } from '../registry.js';
import { SheetRowReader } from '../sheet-rows.js';
import type { CsvEncoding, CsvFormat, ParsedSheet, ParsedWorkbook, ReadLimits, ReadProgress } from '../types.js';
import { Throttle } from '../../throttle.js';

export interface CsvReadOptions {
  signal?: AbortSignal;
  onProgress?: (p: ReadProgress) => void;
  limits?: Partial<ReadLimits>;
  mapping?: ColumnMapping;
}

const DELIMITERS = [';', ',', '\t', '|'] as const;

/**
 * The delimiter of a text sample: each candidate is tried with csv-parse itself (quotes and line breaks in
 * fields handled; csv-parse's own delimiter_auto splits quoted fields wrongly), and the one giving the most
 * rows of the same number (> 1) of fields wins — title lines above the header do not count against it.
 */
export function detectDelimiter(sample: string): string {
  let best: { d: string; score: number } = { d: ';', score: -1 };
  for (const d of DELIMITERS) {
    // The records before an error count (a quoted cell longer than the sample is cut, its quote not closed).
    let records: string[][] = [];
    try {
      parseSync(sample, {
        delimiter: d,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
        to_line: 50,
        on_record: (r: string[]) => void records.push(r),
      });
    } catch {
      if (records.length === 0) continue;
    }
    // Drop a record cut at the end of the sample.
    if (records.length > 2) records = records.slice(0, -1);
    const counts = new Map<number, number>();
    for (const r of records) if (r.length > 1) counts.set(r.length, (counts.get(r.length) ?? 0) + 1);
    let score = 0;
    for (const [fields, n] of counts) score = Math.max(score, n * 1000 + fields);
    if (score > best.score) best = { d, score };
  }
  return best.d;
}

/** Detect the text encoding: a BOM, else valid UTF-8, else Windows-1252 (what Excel writes on German Windows). */
export function detectEncoding(head: Buffer, complete: boolean): { encoding: CsvEncoding; bom: boolean } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: true };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: true };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: true };
  // A multi-byte character may be cut at the end of the sample: drop up to 3 trailing bytes of one.
  let sample = head;
  if (!complete) {
    let cut = sample.length;
    for (let i = 1; i <= 3 && i <= sample.length; i++) {
      const b = sample[sample.length - i];
      if ((b & 0xc0) === 0xc0) {
        cut = sample.length - i;
        break;
      }
      if ((b & 0x80) === 0) break;
    }
    sample = sample.subarray(0, cut);
  }
  return { encoding: isUtf8(sample) ? 'utf-8' : 'windows-1252', bom: false };
}

/** How many bytes at the end of `buf` are an incomplete UTF-8 sequence (0–3), to carry into the next chunk. */
function incompleteTail(buf: Buffer): number {
  for (let i = 1; i <= 3 && i <= buf.length; i++) {
    const b = buf[buf.length - i];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    if ((b & 0xc0) !== 0xc0) return 0; // ASCII
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    return need > i ? i : 0;
  }
  return 0;
}

/** Whether the whole file is valid UTF-8: read in chunks, a character split between two carried over. */
export async function isUtf8File(path: string): Promise<boolean> {
  let carry = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const tail = incompleteTail(buf);
    if (!isUtf8(buf.subarray(0, buf.length - tail))) return false;
    carry = Buffer.from(buf.subarray(buf.length - tail));
  }
  return carry.length === 0;
}

/**
 * The encoding of a whole file from its first bytes (`head`): a BOM says it; else the file is UTF-8 only when
 * all of it is (a Windows-1252 character past the first megabyte makes it Windows-1252, never "UTF-8" with
 * replacement characters). `valid`: whether the bytes are valid in the encoding found (false only for a file
 * whose BOM says UTF-8 while its bytes are not).
 */
export async function detectFileEncoding(
  path: string,
  head: Buffer,
  size: number,
): Promise<{ encoding: CsvEncoding; bom: boolean; valid: boolean }> {
  const complete = head.length >= size;
  const d = detectEncoding(head, complete);
  if (d.encoding !== 'utf-8') return { ...d, valid: true };
  if (complete && !d.bom) return { ...d, valid: true };
  const valid = complete ? isUtf8(head) : await isUtf8File(path);
  if (d.bom || valid) return { ...d, valid };
  return { encoding: 'windows-1252', bom: false, valid: true };
}

const SAMPLE_BYTES = 1024 * 1024;

/** What is said of an empty text source (by the reader and by `mapping suggest`). */
export function emptyFileMessage(file: string): string {
  return `The file ${file} is empty (0 bytes).`;
}

export async function readCsv(path: string, options: CsvReadOptions = {}): Promise<ParsedWorkbook> {
  const t0 = performance.now();
  const limits: ReadLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const { signal, onProgress, mapping } = options;
  const file = basename(path);
  const issues = new IssueList(limits.maxIssues);
  const result: ParsedWorkbook = {
    file,
    bytes: 0,
    readable: false,
    sheets: [],
    ignoredSheets: [],
    issues: [],
    stats: { rows: 0, ms: 0 },
  };
  const finish = (): ParsedWorkbook => {
    result.issues = issues.done();
    result.stats.ms = Math.round(performance.now() - t0);
    return result;
  };
  signal?.throwIfAborted();
  const st = await stat(path);
  result.bytes = st.size;
  if (st.size === 0) {
    issues.fileError('file_empty', emptyFileMessage(file));
    return finish();
  }
  if (st.size > limits.maxFileBytes) {
    issues.fileError(
      'file_too_large',
      `The file is ${Math.ceil(st.size / 1048576)} MB; the limit is ${Math.round(limits.maxFileBytes / 1048576)} MB. Split the data into several files.`,
      {
        size: `${Math.ceil(st.size / 1048576)} MB`,
        limit: `${Math.round(limits.maxFileBytes / 1048576)} MB`,
      },
    );
    return finish();
  }

  const target = targetOf(file, mapping, true);
  if (!target) {
    issues.add({
      severity: 'error',
      code: 'source_without_sheet',
      sheet: file,
      cell: null,
      row: null,
      field: null,
      message: `The file "${file}" does not say which sheet it feeds: name it after a sheet (${DATA_SHEETS.map(
        (d) => `${d.name}.csv`,
      )
        .slice(0, 3)
        .join(', ')} …) or give a column mapping whose "source" matches it.`,
      params: { source: file },
    });
    result.ignoredSheets.push({ sheet: file, reason: 'no target sheet' });
    result.readable = true;
    return finish();
  }

  const fh = await open(path, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(Math.min(st.size, SAMPLE_BYTES));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  const settings: CsvSettings = mapping?.csv ?? {};
  const detected = await detectFileEncoding(path, head, st.size);
  // The mapping's settings apply to every CSV source, except where a file says otherwise itself: a byte-order
  // mark names its encoding (Excel's "CSV UTF-8" among Windows-1252 exports), and a delimiter that does not
  // occur in the file's first lines is detected instead (a file written with "," beside ";" exports).
  const encoding: CsvEncoding = detected.bom ? detected.encoding : (settings.encoding ?? detected.encoding);
  const sampleText = iconv.decode(head.subarray(0, 64 * 1024), encoding);
  const delimiter = settings.delimiter && sampleText.includes(settings.delimiter) ? settings.delimiter : '';
  const format: CsvFormat = { encoding, bom: detected.bom, delimiter };

  const parsed: ParsedSheet = {
    name: target.sheet,
    sheetName: file,
    hidden: false,
    columns: {},
    rows: [],
    source: file,
  };
  result.sheets.push(parsed);
  const rows = new SheetRowReader(getSheet(target.sheet), parsed, issues, {
    headerRow: target.mapping?.header_row ?? 1,
    ...(target.mapping && { mapping: target.mapping }),
    ...(settings.decimal && { decimal: settings.decimal }),
    ...(settings.date && { dateOrder: settings.date }),
  });
  if (target.normalised && target.by === 'name')
    issues.add({
      severity: 'warning',
      code: 'sheet_name_normalised',
      sheet: file,
      cell: null,
      row: null,
      field: null,
      message: `File "${file}" is read as ${target.sheet}; rename it to "${target.sheet}.csv".`,
      params: { registryName: target.sheet },
    });

  format.delimiter ||= detectDelimiter(sampleText);
  const parser = parse({
    delimiter: format.delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
    bom: true,
  });
  let recordNo = 0;
  let badText: string | null = null;
  let tooMany = false;
  const throttle = new Throttle();
  const sink = new Writable({
    objectMode: true,
    write(record: string[], _enc, cb) {
      recordNo++;
      if (recordNo - rows.headerRow > limits.maxRowsPerSheet) {
        tooMany = true;
        cb(new Error('row limit'));
        return;
      }
      const values: unknown[] = [undefined, ...record];
      // Only bytes that are not UTF-8 are told (a BOM said UTF-8): a valid file's own U+FFFD is a character.
      if (badText === null && !detected.valid && encoding === 'utf-8' && record.some((v) => v.includes('\ufffd')))
        badText = `${rows.mapped?.[0]?.letter ?? 'A'}${recordNo}`;
      if (rows.row(recordNo, values)) result.stats.rows++;
      if (onProgress && throttle.pass()) {
        onProgress({
          phase: 'reading',
          sheet: file,
          rows: result.stats.rows,
          totalRows: null,
          fraction: Math.min(0.99, recordNo / 1e5),
        });
      }
      cb();
    },
  });
  try {
    await pipeline(createReadStream(path), iconv.decodeStream(encoding), parser, sink, ...(signal ? [{ signal }] : []));
  } catch (e) {
    signal?.throwIfAborted();
    if (tooMany) {
      issues.fileError(
        'too_many_rows',
        `${file} has more than ${limits.maxRowsPerSheet.toLocaleString('en')} data rows (the limit per sheet). Split the data into several files.`,
        { sheet: file, limit: limits.maxRowsPerSheet },
      );
    } else {
      const m = e instanceof Error ? e.message.replace(/\s+/g, ' ').slice(0, 160) : String(e);
      issues.fileError('unreadable', `${file} cannot be read as CSV (${m}).`, { detail: m });
    }
    result.sheets = [];
    return finish();
  }
  rows.end();
  if (badText)
    issues.add({
      severity: 'warning',
      code: 'control_characters',
      sheet: file,
      cell: badText,
      row: Number(/\d+/.exec(badText)?.[0] ?? 0),
      field: null,
      message: `${file} is not valid UTF-8 from here on (characters shown as �); if it is a Windows (ANSI) file, set "csv": { "encoding": "windows-1252" } in the column mapping.`,
    });
  parsed.csv = format;
  result.readable = true;
  onProgress?.({ phase: 'reading', sheet: null, rows: result.stats.rows, totalRows: result.stats.rows, fraction: 1 });
  return finish();
}
