/**
 * Legacy and look-alike spreadsheet files, read as workbooks: an Excel 97–2003 `.xls` (BIFF8, and the older
 * BIFF versions the library reads), an OpenDocument `.ods`, and the "xls" files ERPs and SAP GUI write that are
 * really an HTML table or delimited text. Each is read whole with SheetJS (@e965/xlsx: pure JavaScript) — these
 * formats are small (BIFF8 stops at 65,536 rows) and the file size is capped (LEGACY_MAX_BYTES) — and written
 * as a temporary .xlsx copy that the streaming reader reads like any workbook: the same sheet matching, column
 * mapping, coercion and guards, and the same cell addresses (the copy keeps each sheet's name and every cell's
 * position). The results writers read the same copy (jobs/source-sheets.ts), so the results and failed-rows
 * files of such a source are .xlsx workbooks.
 *
 * What is kept of a cell: its value (a formula's last computed result, not the formula), its number format
 * (dates stay dates), merged ranges and hidden sheets. A text or HTML "xls" becomes one sheet named after the
 * file (`supplier-companies.xls` → `supplier-companies`), as a CSV source is; its cells are text, coerced as a
 * CSV's are.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import type * as Sheets from '@e965/xlsx';
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { damagedWorkbook } from '../damage.js';
import { describeNonZip, isBinaryHead, isZipHead } from '../file-format.js';
import { FileLevelError, fmtBytes, MB } from '../file-limits.js';
import { detectDelimiter, detectEncoding } from './csv.js';

/** Extensions read through a temporary .xlsx copy. */
export const LEGACY_EXTENSIONS = ['.xls', '.ods'] as const;

/** The largest legacy file read (read whole: a BIFF8 file at its row limit is a few tens of MB). */
export const LEGACY_MAX_BYTES = 32 * MB;

export function isLegacySource(path: string): boolean {
  return (LEGACY_EXTENSIONS as readonly string[]).includes(extname(path).toLowerCase());
}

export interface XlsxCopy {
  /** the .xlsx to read in place of the source */
  path: string;
  /** removes the copy (a no-op when the source is itself an .xlsx) */
  dispose(): Promise<void>;
}

/** The library, loaded when a legacy file is first read (a reader of .xlsx and CSV files never loads it). */
let library: typeof Sheets | undefined;
async function sheetsLibrary(): Promise<typeof Sheets> {
  return (library ??= await import('@e965/xlsx'));
}

const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const utf16 = (s: string) => Buffer.from(s, 'utf16le');

/** The .xlsx copy of a legacy source; a file it cannot be made of is a FileLevelError in words. */
export async function legacyXlsxCopy(path: string, maxBytes = LEGACY_MAX_BYTES): Promise<XlsxCopy> {
  const XLSX = await sheetsLibrary();
  const wb = await readLegacyWorkbook(XLSX, path, maxBytes);
  if (typeof wb === 'string') return { path: wb, dispose: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'sl-legacy-'));
  const out = join(dir, `${basename(path, extname(path)) || 'source'}.xlsx`);
  try {
    await writeFile(out, XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer);
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw damagedWorkbook(basename(path), e);
  }
  return { path: out, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** Write the .xlsx copy of a legacy source to `dest` (a job keeps it as its input). */
export async function writeXlsxCopy(path: string, dest: string): Promise<void> {
  const copy = await legacyXlsxCopy(path);
  try {
    await writeFile(dest, await readFile(copy.path));
  } finally {
    await copy.dispose();
  }
}

/** The source as a SheetJS workbook, or the path itself when it is an .xlsx with a legacy name. */
async function readLegacyWorkbook(
  XLSX: typeof Sheets,
  path: string,
  maxBytes: number,
): Promise<Sheets.WorkBook | string> {
  const ext = extname(path).toLowerCase();
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) throw new FileLevelError('file_not_found', 'The path is not a file.', { variant: 'not_a_file' });
    size = st.size;
  } catch (e) {
    if (e instanceof FileLevelError) throw e;
    throw new FileLevelError('file_not_found', 'The file does not exist or cannot be opened.');
  }
  if (size === 0) throw new FileLevelError('file_empty', 'The file is empty (0 bytes); it is not a workbook.');
  if (size > maxBytes)
    throw new FileLevelError(
      'file_too_large',
      `The file is ${fmtBytes(size)}; an ${ext} file is read up to ${fmtBytes(maxBytes)}. Open it in Excel and save it as "Excel Workbook (.xlsx)", or export the data as .csv.`,
      { size: fmtBytes(size), limit: fmtBytes(maxBytes), ext, variant: 'legacy' },
    );
  const buf = await readFile(path);
  const head = buf.subarray(0, 4096);
  if (head.subarray(0, 8).equals(CFB_SIGNATURE)) {
    if (buf.includes(utf16('EncryptedPackage')) || buf.includes(utf16('EncryptionInfo'))) throw encrypted();
    // Another Office document in the old binary format, by its main stream's name.
    if (
      !buf.includes(utf16('Workbook')) &&
      (buf.includes(utf16('WordDocument')) || buf.includes(utf16('PowerPoint Document')))
    )
      throw new FileLevelError('not_a_workbook', 'This is a Word or PowerPoint file, not an Excel workbook.', {
        variant: 'office',
      });
    return tidy(parse(XLSX, buf, { type: 'buffer' }, ext, basename(path)));
  }
  if (isZipHead(head)) {
    // An .xlsx saved with an .xls name is read as what it is.
    if (buf.includes('xl/workbook.xml')) return path;
    return tidy(parse(XLSX, buf, { type: 'buffer' }, ext, basename(path)));
  }
  if (isBinaryHead(head)) throw describeNonZip(head, ext);
  // Text: an HTML table, an XML Spreadsheet 2003, SYLK / DIF, or delimited text.
  const { encoding } = detectEncoding(buf, true);
  let text = iconv.decode(buf, encoding);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const start = text.trimStart().slice(0, 400).toLowerCase();
  const sheetName = sheetNameOf(path);
  if (start.startsWith('<')) {
    const markup = start.startsWith('<?xml') && start.includes('urn:schemas-microsoft-com:office:spreadsheet');
    // An HTML table's cells are text as shown (raw): coerced as a CSV's are, never guessed into dates.
    const wb = tidy(parse(XLSX, text, { type: 'string', raw: !markup }, ext, basename(path)));
    if (!markup && wb.SheetNames.length === 1) renameOnlySheet(wb, sheetName);
    return wb;
  }
  if (/^id;p/i.test(start) || /^table\r?\n0,1\r?\n/i.test(start))
    return tidy(parse(XLSX, text, { type: 'string' }, ext, basename(path)));
  return delimitedText(XLSX, text, sheetName, basename(path));
}

/** SheetJS's read with its warnings kept off the console (it logs, e.g., ODS number formats it approximates). */
function parse(
  XLSX: typeof Sheets,
  data: Buffer | string,
  opts: Sheets.ParsingOptions,
  ext: string,
  file: string,
): Sheets.WorkBook {
  const error = console.error;
  console.error = () => {};
  try {
    return XLSX.read(data, { ...opts, cellFormula: false, cellHTML: false, cellStyles: false, cellNF: true });
  } catch (e) {
    const m = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').slice(0, 160);
    if (/password|encrypt/i.test(m)) throw encrypted();
    // The library's words ("Unsupported file 117", "CFB: bad header") are not shown.
    const detail = `${file} is damaged, or it is not what its name says`;
    throw new FileLevelError(
      'legacy_xls',
      `This ${ext} file cannot be read (${detail}). Open it in Excel or LibreOffice and save it as "Excel Workbook (.xlsx)", or export the data as .csv.`,
      { variant: 'unreadable', ext, detail },
    );
  } finally {
    console.error = error;
  }
}

function encrypted(): FileLevelError {
  return new FileLevelError(
    'password_protected',
    'The workbook is password-protected (encrypted). Open it in Excel, remove the password (File → Info → Protect Workbook) and save it again.',
    { variant: 'encrypted' },
  );
}

/** Formulas dropped (their last computed values stay): the copy holds values only. */
function tidy(wb: Sheets.WorkBook): Sheets.WorkBook {
  if (wb.SheetNames.length === 0)
    throw new FileLevelError(
      'unreadable',
      'The workbook cannot be read: it looks damaged (it has no sheet). Open it in Excel and save it again.',
      { detail: 'it has no sheet' },
    );
  for (const name of wb.SheetNames) {
    const ws = wb.Sheets[name];
    if (!ws) continue;
    for (const [k, c] of Object.entries(ws)) {
      if (k.startsWith('!')) continue;
      const cell = c as Sheets.CellObject;
      delete cell.f;
      delete (cell as { F?: string }).F;
    }
  }
  return wb;
}

/** A single-table file's sheet: the file's name without extension, within what a sheet name may be. */
function sheetNameOf(path: string): string {
  const name = basename(path, extname(path))
    .replace(/[[\]:*?/\\]/g, '_')
    .replace(/^'+|'+$/g, '')
    .slice(0, 31);
  return name || 'Sheet1';
}

function renameOnlySheet(wb: Sheets.WorkBook, name: string): void {
  const old = wb.SheetNames[0];
  if (old === name) return;
  wb.Sheets[name] = wb.Sheets[old];
  delete wb.Sheets[old];
  wb.SheetNames[0] = name;
  const props = wb.Workbook?.Sheets?.[0];
  if (props) props.name = name;
}

/** Tab-, semicolon- or comma-separated text (the delimiter found as for a CSV source) as one sheet of text cells. */
function delimitedText(XLSX: typeof Sheets, text: string, sheetName: string, file: string): Sheets.WorkBook {
  const delimiter = detectDelimiter(text.slice(0, 64 * 1024));
  let records: string[][];
  try {
    records = parseSync(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch (e) {
    throw damagedWorkbook(file, e);
  }
  const ws = XLSX.utils.aoa_to_sheet(records.map((r) => r.map((v) => (v === '' ? null : v))));
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, sheetName);
  return wb;
}
