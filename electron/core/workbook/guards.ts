/**
 * File-level guards before parsing: size, format (zip / .xls / CSV renamed / password protected / other),
 * the zip's central directory (entry count, total uncompressed size, compression ratio), XML entity
 * declarations, sheet dimensions (row limit). While parsing, feed.ts inflates each part once with its
 * declared size enforced (a zip entry that inflates beyond its header is refused). Each problem is one
 * clear error in words.
 */
import { open as openFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { IssueCode, IssueParams, ReadLimits } from './types.js';

export const DEFAULT_LIMITS: ReadLimits = {
  maxFileBytes: 100 * 1024 * 1024,
  maxUncompressedBytes: 1024 * 1024 * 1024,
  maxCompressionRatio: 200,
  ratioCheckFromBytes: 16 * 1024 * 1024,
  maxEntries: 10_000,
  maxRowsPerSheet: 200_000,
  maxIssues: 10_000,
};

/** A problem with the file as a whole: reading stops. */
export class FileLevelError extends Error {
  constructor(
    readonly code: IssueCode,
    message: string,
    /** What the message is built from (see Issue.params): `variant` tells apart the messages of one code. */
    readonly params?: IssueParams,
  ) {
    super(message);
    this.name = 'FileLevelError';
  }
}

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

export type StyleKind = 'date' | 'percent';

/** Built-in number formats that show dates/times, and percentages (ECMA-376 §18.8.30). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);
const BUILTIN_PERCENT_FORMATS = new Set([9, 10]);

/** What a number format code shows: quoted text, escapes and [colour]/[locale] sections do not count. */
export function formatKind(code: string): StyleKind | null {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?!h\]|m\]|s\])[^\]]*\]/gi, '')
    .replace(/_.|\*./g, '');
  if (bare.includes('%')) return 'percent';
  if (/general/i.test(bare)) return null;
  return /[dmyhs]/i.test(bare) ? 'date' : null;
}

/** Cell styles (cellXfs order) whose number format shows a date or a percentage. */
export function styleKindsOf(stylesXml: string): Map<number, StyleKind> {
  const custom = new Map<number, string>();
  for (const tag of stylesXml.match(/<(\w+:)?numFmt\b[^>]*>/g) ?? []) {
    const id = Number(attr(tag, 'numFmtId'));
    const code = attr(tag, 'formatCode');
    if (Number.isFinite(id) && code !== undefined) custom.set(id, code);
  }
  const out = new Map<number, StyleKind>();
  const xfs = /<(\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(\w+:)?cellXfs>/.exec(stylesXml)?.[2] ?? '';
  let i = 0;
  for (const tag of xfs.match(/<(\w+:)?xf\b[^>]*>/g) ?? []) {
    const id = Number(attr(tag, 'numFmtId') ?? '0');
    const kind = custom.has(id)
      ? formatKind(custom.get(id)!)
      : BUILTIN_DATE_FORMATS.has(id)
        ? 'date'
        : BUILTIN_PERCENT_FORMATS.has(id)
          ? 'percent'
          : null;
    if (kind) out.set(i, kind);
    i++;
  }
  return out;
}

const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const MB = 1024 * 1024;

function fmtBytes(n: number): string {
  return n >= MB ? `${(n / MB).toFixed(n >= 10 * MB ? 0 : 1)} MB` : `${Math.ceil(n / 1024)} KB`;
}

// ---------------------------------------------------------------- format sniffing

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const fh = await openFile(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** A CFB (OLE2) file is either an encrypted (password-protected) OOXML workbook or a legacy .xls. */
async function describeCfb(path: string, size: number): Promise<FileLevelError> {
  const head = await readHead(path, Math.min(size, 32 * MB));
  const utf16 = (s: string) => Buffer.from(s, 'utf16le');
  if (head.includes(utf16('EncryptedPackage')) || head.includes(utf16('EncryptionInfo')))
    return new FileLevelError(
      'password_protected',
      'The workbook is password-protected (encrypted). Open it in Excel, remove the password (File → Info → Protect Workbook) and save it again.',
      { variant: 'encrypted' },
    );
  return new FileLevelError(
    'legacy_xls',
    'This is an old-format Excel file (.xls) or another Office document, not an .xlsx workbook. Open it in Excel and save it as "Excel Workbook (.xlsx)".',
  );
}

/** Magic numbers of files people pick by mistake: said by name, not as "a text file". */
const MAGIC: { bytes: number[]; variant: 'pdf' | 'image' | 'archive'; kind: string }[] = [
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], variant: 'pdf', kind: 'PDF' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], variant: 'image', kind: 'PNG' },
  { bytes: [0xff, 0xd8, 0xff], variant: 'image', kind: 'JPEG' },
  { bytes: [0x47, 0x49, 0x46, 0x38], variant: 'image', kind: 'GIF' },
  { bytes: [0x1f, 0x8b], variant: 'archive', kind: 'gzip' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], variant: 'archive', kind: '7-Zip' },
  { bytes: [0x52, 0x61, 0x72, 0x21], variant: 'archive', kind: 'RAR' },
];

function describeNonZip(head: Buffer): FileLevelError {
  const magic = MAGIC.find((m) => m.bytes.every((b, i) => head[i] === b));
  if (magic?.variant === 'pdf')
    return new FileLevelError(
      'other_format',
      'This is a PDF document, not an Excel workbook (.xlsx) or CSV file. Export the data from its source as .xlsx or .csv.',
      {
        variant: 'pdf',
      },
    );
  if (magic?.variant === 'image')
    return new FileLevelError(
      'other_format',
      `This is an image (${magic.kind}), not an Excel workbook (.xlsx) or CSV file.`,
      { variant: 'image', kind: magic.kind },
    );
  if (magic)
    return new FileLevelError(
      'other_format',
      `This is a compressed archive (${magic.kind}), not a workbook. Unpack it and choose the .xlsx or .csv file inside.`,
      {
        variant: 'archive',
        kind: magic.kind,
      },
    );
  let text = head.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const start = text.trimStart().slice(0, 400).toLowerCase();
  if (start.startsWith('<?xml') && start.includes('urn:schemas-microsoft-com:office:spreadsheet'))
    return new FileLevelError(
      'other_format',
      'This is an "XML Spreadsheet 2003" file, not an .xlsx workbook. Open it in Excel and save it as .xlsx.',
      {
        variant: 'xml2003',
      },
    );
  if (start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<table'))
    return new FileLevelError(
      'other_format',
      'This is a web page (HTML) saved with an .xlsx name, not a workbook. Open it in Excel and save it as .xlsx.',
      {
        variant: 'html',
      },
    );
  const sample = head.subarray(0, 4096);
  const binary = sample.some((b) => b === 0 || (b < 0x09 && b !== 0x09) || (b > 0x0d && b < 0x20 && b !== 0x1b));
  if (!binary && sample.length > 0)
    return new FileLevelError(
      'csv_renamed',
      'This is a text (CSV) file with an .xlsx name, not an Excel workbook. Rename it to .csv (Supply Loader reads CSV files), or open it in Excel and save it as "Excel Workbook (.xlsx)".',
    );
  return new FileLevelError(
    'not_a_zip',
    'This is not an Excel workbook (.xlsx): the file is not in the .xlsx (zip) format.',
  );
}

// ---------------------------------------------------------------- zip helpers

export function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (err, zip) => (err || !zip ? reject(err ?? new Error('cannot open')) : resolve(zip)),
    ),
  );
}

export function listEntries(zip: yauzl.ZipFile, limits: ReadLimits): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const out: yauzl.Entry[] = [];
    zip.on('error', reject);
    zip.on('entry', (e: yauzl.Entry) => {
      out.push(e);
      if (out.length > limits.maxEntries) {
        reject(
          new FileLevelError(
            'zip_bomb',
            `The file holds more than ${limits.maxEntries.toLocaleString('en')} parts; a workbook never does. It is refused as unsafe.`,
            {
              variant: 'entries',
              limit: limits.maxEntries,
            },
          ),
        );
        return;
      }
      zip.readEntry();
    });
    zip.on('end', () => resolve(out));
    zip.readEntry();
  });
}

export function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err || !s ? reject(err ?? new Error('cannot read')) : resolve(s))),
  );
}

/** Read an entry's start (at most `max` bytes) as text; `untilRoot` stops once the first element has begun. */
async function readEntryText(zip: yauzl.ZipFile, entry: yauzl.Entry, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  let s: Readable | undefined;
  try {
    s = await openEntry(zip, entry);
    for await (const c of s as AsyncIterable<Buffer>) {
      chunks.push(c);
      n += c.length;
      if (n >= max) break;
    }
  } catch (e) {
    throw partError(entry.fileName, e);
  } finally {
    s?.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

/** A part that cannot be unpacked: a lie about its size (zip bomb) or damage. */
export function partError(name: string, err: unknown): FileLevelError {
  if (err instanceof FileLevelError) return err;
  const m = zipMessage(err);
  if (/too many bytes|too few bytes/i.test(m))
    return new FileLevelError(
      'zip_bomb',
      `The part ${name} unpacks to a different size than the file declares; the file is refused as unsafe (a zip bomb or a damaged file).`,
      { variant: 'size_mismatch', part: name },
    );
  return new FileLevelError('corrupt_zip', `The file is damaged: part ${name} cannot be unpacked (${m}).`, {
    part: name,
    detail: m,
  });
}

export function zipMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\s+/g, ' ').slice(0, 200);
}

const XML_PART = /\.(xml|rels|vml)$/i;

/** Refuse a DOCTYPE / ENTITY declaration in an XML part's prolog (entity expansion attacks). */
function checkProlog(name: string, text: string): void {
  const rootAt = text.search(/<[A-Za-z_]/);
  const prolog = rootAt >= 0 ? text.slice(0, rootAt) : text;
  if (/<!DOCTYPE|<!ENTITY/i.test(prolog))
    throw new FileLevelError(
      'xml_entity',
      `The file contains an XML document type declaration (DOCTYPE/ENTITY) in ${name}. Excel never writes one; the file is refused as unsafe.`,
      { part: name },
    );
  if (rootAt < 0 && text.length >= PROLOG_BYTES)
    throw new FileLevelError(
      'unreadable',
      `The part ${name} of the file does not start like an Excel XML part; the file is refused.`,
      {
        variant: 'part',
        part: name,
      },
    );
}

const PROLOG_BYTES = 64 * 1024;

export function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return m ? decodeXml(m[2] ?? m[3] ?? '') : undefined;
}

function decodeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-f]+|#\d+);/gi, (_, e: string) => {
    const k = e.toLowerCase();
    if (k === 'lt') return '<';
    if (k === 'gt') return '>';
    if (k === 'amp') return '&';
    if (k === 'quot') return '"';
    if (k === 'apos') return "'";
    return String.fromCodePoint(k.startsWith('#x') ? parseInt(k.slice(2), 16) : parseInt(k.slice(1), 10));
  });
}

function resolveTarget(target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = ['xl'];
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  return parts.join('/');
}

/** Row count of a `ref` like A1:N100001. */
function lastRowOf(ref: string): number | null {
  const m = /([0-9]+)\s*$/.exec(ref.split(':').pop() ?? '');
  return m ? Number(m[1]) : null;
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
  if (head.subarray(0, 8).equals(CFB_SIGNATURE)) throw await describeCfb(path, size);
  const isZip =
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    (head[2] === 3 || head[2] === 5) &&
    (head[3] === 4 || head[3] === 6);
  if (!isZip) throw describeNonZip(head);

  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(path);
  } catch (e) {
    throw new FileLevelError(
      'corrupt_zip',
      `The file is damaged: it is not a complete .xlsx (zip) file (${zipMessage(e)}).`,
      { detail: zipMessage(e) },
    );
  }
  try {
    let entries: yauzl.Entry[];
    try {
      entries = await listEntries(zip, limits);
    } catch (e) {
      if (e instanceof FileLevelError) throw e;
      throw new FileLevelError(
        'corrupt_zip',
        `The file is damaged: its zip directory cannot be read (${zipMessage(e)}).`,
        { detail: zipMessage(e) },
      );
    }
    const byName = new Map(entries.map((e) => [e.fileName.replace(/^\/+/, ''), e]));
    let total = 0;
    for (const e of entries) {
      if (e.generalPurposeBitFlag & 1)
        throw new FileLevelError(
          'password_protected',
          'The file is encrypted (password-protected zip). Save it again in Excel without a password.',
          {
            variant: 'zip',
          },
        );
      total += e.uncompressedSize;
      if (
        e.uncompressedSize > limits.ratioCheckFromBytes &&
        e.uncompressedSize / Math.max(1, e.compressedSize) > limits.maxCompressionRatio
      )
        throw new FileLevelError(
          'zip_bomb',
          `The part ${e.fileName} would unpack from ${fmtBytes(e.compressedSize)} to ${fmtBytes(e.uncompressedSize)} (ratio ${Math.round(e.uncompressedSize / Math.max(1, e.compressedSize))}:1, limit ${limits.maxCompressionRatio}:1). The file is refused as a possible zip bomb.`,
          {
            variant: 'ratio',
            part: e.fileName,
            ratio: Math.round(e.uncompressedSize / Math.max(1, e.compressedSize)),
            limit: limits.maxCompressionRatio,
          },
        );
    }
    if (total > limits.maxUncompressedBytes)
      throw new FileLevelError(
        'zip_bomb',
        `The file would unpack to ${fmtBytes(total)}; the limit is ${fmtBytes(limits.maxUncompressedBytes)}. Split the data into several workbooks.`,
        { variant: 'total', size: fmtBytes(total), limit: fmtBytes(limits.maxUncompressedBytes) },
      );

    if (byName.has('mimetype') && !byName.has('xl/workbook.xml'))
      throw new FileLevelError(
        'other_format',
        'This is an OpenDocument spreadsheet (.ods), not an .xlsx workbook. Save it as "Excel 2007-365 (.xlsx)".',
        {
          variant: 'ods',
        },
      );
    if (byName.has('xl/workbook.bin'))
      throw new FileLevelError(
        'other_format',
        'This is a binary Excel workbook (.xlsb). Open it in Excel and save it as "Excel Workbook (.xlsx)".',
        {
          variant: 'xlsb',
        },
      );
    if (byName.has('EncryptedPackage'))
      throw new FileLevelError(
        'password_protected',
        'The workbook is password-protected. Remove the password in Excel and save it again.',
      );
    if (!byName.has('xl/workbook.xml'))
      throw new FileLevelError(
        'not_a_workbook',
        byName.has('word/document.xml') || byName.has('ppt/presentation.xml')
          ? 'This is a Word or PowerPoint file, not an Excel workbook.'
          : 'The file is a zip archive but not an Excel workbook (it has no xl/workbook.xml). Open it in Excel and save it as .xlsx.',
        { variant: byName.has('word/document.xml') || byName.has('ppt/presentation.xml') ? 'office' : 'zip' },
      );

    // Small parts read whole; every XML part's prolog checked for DOCTYPE/ENTITY.
    const readWhole = async (name: string): Promise<string> => {
      const e = byName.get(name);
      if (!e) return '';
      const text = await readEntryText(zip, e, Math.min(Math.max(e.uncompressedSize, 1), 8 * MB));
      checkProlog(name, text);
      return text;
    };
    const workbookXml = await readWhole('xl/workbook.xml');
    const relsXml = await readWhole('xl/_rels/workbook.xml.rels');

    const rels = new Map<string, string>();
    let sharedStringsPath: string | null = null;
    let stylesPath = 'xl/styles.xml';
    for (const tag of relsXml.match(/<(\w+:)?Relationship\b[^>]*>/g) ?? []) {
      const id = attr(tag, 'Id');
      const target = attr(tag, 'Target');
      if (id && target) rels.set(id, resolveTarget(target));
      if (target && /\/sharedStrings$/.test(attr(tag, 'Type') ?? '')) sharedStringsPath = resolveTarget(target);
      if (target && /\/styles$/.test(attr(tag, 'Type') ?? '')) stylesPath = resolveTarget(target);
    }
    if (!sharedStringsPath && byName.has('xl/sharedStrings.xml')) sharedStringsPath = 'xl/sharedStrings.xml';
    if (sharedStringsPath && !byName.has(sharedStringsPath)) sharedStringsPath = null;
    const sheets: ZipSheetInfo[] = [];
    for (const tag of workbookXml.match(/<(\w+:)?sheet\b[^>]*>/g) ?? []) {
      const rid = attr(tag, 'r:id') ?? attr(tag, 'id');
      const state = attr(tag, 'state');
      sheets.push({
        name: attr(tag, 'name') ?? '',
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
      if (
        !XML_PART.test(name) ||
        name === 'xl/workbook.xml' ||
        name === 'xl/_rels/workbook.xml.rels' ||
        name === stylesPath
      )
        continue;
      const text = await readEntryText(zip, e, PROLOG_BYTES);
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
