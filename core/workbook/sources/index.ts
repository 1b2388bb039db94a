/**
 * Any number of sources read as one workbook: .xlsx workbooks, .xls/.ods files (through an .xlsx copy:
 * sources/legacy.ts) and .csv/.txt files, mixed. Each
 * sheet keeps the name it has in its source (a CSV's file name), so every issue points at the source file and
 * cell. Several sources feeding the same target sheet are read as one sheet (workbook/sheet-parts.ts).
 */
import { open, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { isBinaryHead } from '../file-format.js';
import { FileLevelError } from '../file-limits.js';
import { IssueList } from '../issues.js';
import { readWorkbook, type ReadOptions } from '../reader.js';
import { readCsv } from './csv.js';
import { isLegacySource, LEGACY_EXTENSIONS, legacyXlsxCopy } from './legacy.js';
import { PART_ROW_OFFSET, partsOf } from '../sheet-parts.js';
import type { ParsedSheet, ParsedWorkbook } from '../types.js';

export { readCsv, detectEncoding } from './csv.js';
export { isLegacySource } from './legacy.js';

/** Extensions read as delimited text. */
export const TEXT_SOURCE_EXTENSIONS = ['.csv', '.txt', '.tsv'] as const;
/** Extensions read as workbooks: .xlsx/.xlsm, and .xls/.ods through an .xlsx copy. */
export const WORKBOOK_EXTENSIONS = ['.xlsx', '.xlsm', ...LEGACY_EXTENSIONS] as const;
/** Everything the import reads (workbooks, and CSV exports of an ERP too). */
export const SOURCE_EXTENSIONS = [...WORKBOOK_EXTENSIONS, ...TEXT_SOURCE_EXTENSIONS] as const;

/** A source's file name without its extension when it is one the import reads (`X.xls` → `X`, `X.tar` stays). */
export function sourceBaseName(path: string): string {
  const name = basename(path);
  const ext = extname(name);
  return ext && ext !== name && (SOURCE_EXTENSIONS as readonly string[]).includes(ext.toLowerCase())
    ? name.slice(0, -ext.length)
    : name;
}

export function isTextSource(path: string): boolean {
  return (TEXT_SOURCE_EXTENSIONS as readonly string[]).includes(extname(path).toLowerCase());
}

/**
 * A .csv whose bytes are a binary format (a zip such as an .xlsx renamed, an OLE2 file, a PDF, an image, an
 * archive): diagnosed as a workbook. Anything else is text, a NUL byte in it too (a CSV with a stray NUL is a
 * CSV: the cell holding it is told, never the file called a broken workbook).
 */
export async function looksBinary(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(512);
    const { bytesRead } = await fh.read(buf, 0, 512, 0);
    return isBinaryHead(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

export async function readSource(path: string, options: ReadOptions = {}): Promise<ParsedWorkbook> {
  if (isTextSource(path) && !(await looksBinary(path))) return readCsv(path, options);
  if (isLegacySource(path)) return readLegacy(path, options);
  return readWorkbook(path, options);
}

/** An .xls / .ods read through its .xlsx copy: the result names the source (its file, its size). */
async function readLegacy(path: string, options: ReadOptions): Promise<ParsedWorkbook> {
  const t0 = performance.now();
  options.signal?.throwIfAborted();
  options.onProgress?.({ phase: 'checking', sheet: null, rows: 0, totalRows: null, fraction: 0 });
  let copy;
  try {
    copy = await legacyXlsxCopy(path);
  } catch (e) {
    if (!(e instanceof FileLevelError)) throw e;
    const issues = new IssueList(10);
    issues.fileError(e.code, e.message, e.params);
    return {
      file: basename(path),
      bytes: await stat(path).then(
        (s) => s.size,
        () => 0,
      ),
      readable: false,
      sheets: [],
      ignoredSheets: [],
      issues: issues.done(),
      stats: { rows: 0, ms: Math.round(performance.now() - t0) },
    };
  }
  try {
    const parsed = await readWorkbook(copy.path, options);
    parsed.file = basename(path);
    parsed.bytes = (await stat(path)).size;
    parsed.stats.ms = Math.round(performance.now() - t0);
    return parsed;
  } finally {
    await copy.dispose();
  }
}

/** Read every source; one ParsedWorkbook whose sheets come from all of them. Throws only when aborted. */
export async function readSources(paths: readonly string[], options: ReadOptions = {}): Promise<ParsedWorkbook> {
  if (paths.length === 1) return readSource(paths[0], options);
  const parts: ParsedWorkbook[] = [];
  for (const p of paths) parts.push(await readSource(p, options));
  const out: ParsedWorkbook = {
    file: paths.map((p) => basename(p)).join(', '),
    bytes: parts.reduce((n, p) => n + p.bytes, 0),
    readable: parts.every((p) => p.readable),
    sheets: [],
    ignoredSheets: parts.flatMap((p) => p.ignoredSheets),
    issues: [],
    stats: { rows: parts.reduce((n, p) => n + p.stats.rows, 0), ms: parts.reduce((n, p) => n + p.stats.ms, 0) },
  };
  const seen = new Map<string, ParsedSheet>();
  // Workbooks first: a workbook's sheet is then the first source of its target sheet (its rows keep their
  // numbers, which its results workbook marks); CSV sources' results are written per file at any offset.
  const order = [...parts.keys()].sort((a, b) => Number(isTextSource(paths[a])) - Number(isTextSource(paths[b])));
  for (const i of order) {
    const part = parts[i];
    // A file-level error names its file (the issue has no sheet of its own).
    for (const issue of part.issues)
      out.issues.push(
        issue.sheet === null && issue.code !== 'no_known_sheet'
          ? { ...issue, message: `${basename(paths[i])}: ${issue.message}` }
          : issue,
      );
    for (const s of part.sheets) {
      const first = seen.get(s.name);
      if (first === undefined) {
        seen.set(s.name, s);
        out.sheets.push(s);
        continue;
      }
      // A second source of the same sheet (MAT_2025-10.csv and MAT_2025-11.csv): its rows join the sheet,
      // numbered after the others' (each keeps its source address: workbook/sheet-parts.ts).
      const all = partsOf(first);
      const offset = all.length * PART_ROW_OFFSET;
      first.parts = [
        ...all,
        {
          sheetName: s.sheetName,
          ...(s.source !== undefined && { source: s.source }),
          ...(s.csv && { csv: s.csv }),
          columns: s.columns,
          offset,
        },
      ];
      for (const r of s.rows) first.rows.push({ ...r, row: r.row + offset });
      if (s.unreadRows !== undefined) first.unreadRows = (first.unreadRows ?? 0) + s.unreadRows;
      // A column ignored in each file is one ignored column.
      const ignored = (s.ignoredColumns ?? []).filter((c) => !first.ignoredColumns?.some((x) => x.header === c.header));
      if (ignored.length) first.ignoredColumns = [...(first.ignoredColumns ?? []), ...ignored];
    }
  }
  // "no Supply Loader sheet" of one workbook is no error when another source has sheets.
  if (out.sheets.length) out.issues = out.issues.filter((i) => i.code !== 'no_known_sheet');
  return out;
}
