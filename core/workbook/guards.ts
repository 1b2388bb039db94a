/**
 * File-level guards before parsing: size, format (zip / .xls / CSV renamed / password protected / other),
 * the zip's central directory (entry count, total uncompressed size, compression ratio), XML entity
 * declarations, sheet dimensions (row limit). While parsing, feed.ts inflates each part once with its
 * declared size enforced (a zip entry that inflates beyond its header is refused). Each problem is one
 * clear error in words. This file runs the checks in order; the limits and the error are file-limits.ts, what a
 * file is when it is not an .xlsx file-format.ts, the zip and its size limits zip.ts, the XML parts
 * xml-parts.ts, the number formats of the styles part number-formats.ts.
 */
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type yauzl from 'yauzl';
import { cfbError, describeNonZip, isZipHead, readHead, refuseOtherZipFormats } from './file-format.js';
import { FileLevelError, fmtBytes, MB } from './file-limits.js';
import { decodeEscapes } from './coerce.js';
import { damagedWorkbook } from './damage.js';
import { styleKindsOf, type StyleKind } from './number-formats.js';
import type { ReadLimits } from './types.js';
import {
  checkProlog,
  attr,
  lastRowOf,
  PROLOG_BYTES,
  relationshipId,
  relsPathOf,
  resolveTarget,
  workbookPartOf,
  XML_PART,
} from './xml-parts.js';
import { checkEntrySizes, listEntries, openZip, readEntryText } from './zip.js';

export { DEFAULT_LIMITS, FileLevelError } from './file-limits.js';

export interface ZipSheetInfo {
  name: string;
  sheetId: string;
  state: 'visible' | 'hidden' | 'veryHidden';
  /** Zip path of the worksheet part, e.g. xl/worksheets/sheet1.xml. */
  path: string;
  /** Last row of the sheet's declared dimension, when declared. */
  dimensionRows: number | null;
}

export interface FileInspection {
  bytes: number;
  entries: number;
  uncompressedBytes: number;
  sheets: ZipSheetInfo[];
  date1904: boolean;
  /** Zip path of the shared strings part, when the workbook has one. */
  sharedStringsPath: string | null;
  /** Names of all zip entries (without a leading slash). */
  entryNames: string[];
  /** Cell style index → what its number format shows: a date or a percentage (others are left out). */
  styleKinds: Map<number, StyleKind>;
  /** Zip path of the styles part, when the workbook has one (read by the results workbook's copy). */
  stylesPath: string | null;
}

// ---------------------------------------------------------------- the checks

/**
 * Everything that can be checked before parsing. Throws FileLevelError with a message in words.
 */
export async function inspectWorkbookFile(path: string, limits: ReadLimits): Promise<FileInspection> {
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
  if (size > limits.maxFileBytes)
    throw new FileLevelError(
      'file_too_large',
      `The file is ${fmtBytes(size)}; the limit is ${fmtBytes(limits.maxFileBytes)}. Split the data into several workbooks.`,
      { size: fmtBytes(size), limit: fmtBytes(limits.maxFileBytes) },
    );

  const head = await readHead(path, 4096);
  const cfb = await cfbError(path, size, head);
  if (cfb) throw cfb;
  if (!isZipHead(head)) throw describeNonZip(head, extname(path).toLowerCase());

  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(path);
  } catch (e) {
    throw damagedWorkbook(basename(path), e, undefined, true);
  }
  try {
    let entries: yauzl.Entry[];
    try {
      entries = await listEntries(zip, limits);
    } catch (e) {
      if (e instanceof FileLevelError) throw e;
      throw damagedWorkbook(basename(path), e, undefined, true);
    }
    const byName = new Map(entries.map((e) => [e.fileName.replace(/^\/+/, ''), e]));
    const total = checkEntrySizes(entries, limits);

    // Small parts read whole; every XML part's prolog checked for DOCTYPE/ENTITY.
    const readWhole = async (name: string): Promise<string> => {
      const e = byName.get(name);
      if (!e) return '';
      const text = await readEntryText(zip, e, Math.min(Math.max(e.uncompressedSize, 1), 8 * MB), basename(path));
      checkProlog(name, text);
      return text;
    };
    const workbookPath = workbookPartOf(await readWhole('_rels/.rels'), await readWhole('[Content_Types].xml'), byName);
    refuseOtherZipFormats(byName, workbookPath);
    const workbookRelsPath = relsPathOf(workbookPath);
    const workbookXml = await readWhole(workbookPath);
    const relsXml = await readWhole(workbookRelsPath);
    const base = workbookPath.includes('/') ? workbookPath.slice(0, workbookPath.lastIndexOf('/')) : '';

    const rels = new Map<string, string>();
    let sharedStringsPath: string | null = null;
    let stylesPath = resolveTarget('styles.xml', base);
    for (const tag of relsXml.match(/<(\w+:)?Relationship\b[^>]*>/g) ?? []) {
      const id = attr(tag, 'Id');
      const target = attr(tag, 'Target');
      if (id && target) rels.set(id, resolveTarget(target, base));
      if (target && /\/sharedStrings$/.test(attr(tag, 'Type') ?? '')) sharedStringsPath = resolveTarget(target, base);
      if (target && /\/styles$/.test(attr(tag, 'Type') ?? '')) stylesPath = resolveTarget(target, base);
    }
    if (!sharedStringsPath && byName.has('xl/sharedStrings.xml')) sharedStringsPath = 'xl/sharedStrings.xml';
    if (sharedStringsPath && !byName.has(sharedStringsPath)) sharedStringsPath = null;
    const sheets: ZipSheetInfo[] = [];
    for (const tag of workbookXml.match(/<(\w+:)?sheet\b[^>]*>/g) ?? []) {
      const rid = relationshipId(tag);
      const state = attr(tag, 'state');
      sheets.push({
        name: decodeEscapes(attr(tag, 'name') ?? ''),
        sheetId: attr(tag, 'sheetId') ?? '',
        state: state === 'hidden' || state === 'veryHidden' ? state : 'visible',
        path: rid ? (rels.get(rid) ?? '') : '',
        dimensionRows: null,
      });
    }
    const styleKinds = styleKindsOf(byName.has(stylesPath) ? await readWhole(stylesPath) : '');
    const pr = /<(\w+:)?workbookPr\b[^>]*>/.exec(workbookXml)?.[0] ?? '';
    const date1904 = /^(1|true)$/i.test(attr(pr, 'date1904') ?? '');

    for (const e of entries) {
      const name = e.fileName.replace(/^\/+/, '');
      if (!XML_PART.test(name) || name === workbookPath || name === workbookRelsPath || name === stylesPath) continue;
      const text = await readEntryText(zip, e, PROLOG_BYTES, basename(path));
      checkProlog(name, text);
      const sheet = sheets.find((s) => s.path === name);
      if (sheet) {
        const dim = /<(\w+:)?dimension\b[^>]*>/.exec(text)?.[0];
        const ref = dim ? attr(dim, 'ref') : undefined;
        sheet.dimensionRows = ref ? lastRowOf(ref) : null;
      }
    }
    return {
      bytes: size,
      entries: entries.length,
      uncompressedBytes: total,
      sheets,
      date1904,
      sharedStringsPath,
      entryNames: [...byName.keys()],
      styleKinds,
      stylesPath: byName.has(stylesPath) ? stylesPath : null,
    };
  } finally {
    zip.close();
  }
}
