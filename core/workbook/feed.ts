/**
 * The byte stream exceljs's WorkbookReader parses: a small zip written on the fly from the workbook's parts,
 * in the order the reader needs (relationships, workbook, shared strings, then the worksheets to read).
 *
 * Why: exceljs's streaming reader parses the zip front to back; in the order Excel writes parts (worksheets
 * before shared strings) it buffers worksheets in temporary files and, for small files, loses parts. Here
 * each part is inflated exactly once (yauzl, with the declared size enforced: a part that inflates beyond
 * its header is refused as a zip bomb) and handed over uncompressed ("stored"), while the worksheet XML is
 * scanned for what exceljs's streaming reader does not report: merged cells and the text of formula errors.
 * Only the sheets Supply Loader reads are included; the workbook and relationship parts are rewritten from
 * what the guards parsed (sheet names, states, date system), so unusual part names read too.
 */
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type yauzl from 'yauzl';
import { Slicer } from '../throttle.js';
import { damagedWorkbook } from './damage.js';
import { DEFAULT_LIMITS, FileLevelError } from './file-limits.js';
import type { FileInspection } from './guards.js';
import type { StyleKind } from './number-formats.js';
import { attr } from './xml-parts.js';
import { XmlNormaliser, type PartKind } from './xml-normalise.js';
import { listEntries, openEntry, openZip, partError } from './zip.js';
import type { ReadLimits } from './types.js';

export interface FeedSheet {
  name: string;
  state: 'visible' | 'hidden' | 'veryHidden';
  /** Zip path of the worksheet part in the original file. */
  path: string;
}

/** Found while streaming; complete for a sheet before exceljs sees its rows' XML. */
export interface FeedFindings {
  /** Uncompressed bytes handed to the parser so far. */
  bytes: number;
  /** sheet index → merged ranges ('A5:A7'). */
  merges: Map<number, string[]>;
  /** sheet index → cell ('C7') → cached error text ('#REF!'). */
  errorCells: Map<number, Map<string, string>>;
  /** sheet index → cell → what its number format shows (date or percentage), for styled cells only. */
  styledCells: Map<number, Map<string, StyleKind>>;
  /** sheet index → its column definitions (`<col>`), when asked for (a map given here is filled). */
  cols?: Map<number, ColDef[]>;
  /** sheet index → its `<dataValidations>` element as XML text, when asked for with `cols` (copied as it is). */
  validations?: Map<number, string>;
}

/** A `<col>` of a worksheet: columns min…max, their width, style index and visibility. */
export interface ColDef {
  min: number;
  max: number;
  width: number | null;
  style: number | null;
  hidden: boolean;
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const WORKSHEET_TYPE = `${REL_NS}/worksheet`;

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Local file header of a stored (uncompressed) entry; without a size, its data descriptor follows the data. */
function storedHeader(name: string, size: number | null, crc: number): Buffer {
  const n = Buffer.from(name, 'utf8');
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4); // version needed
  h.writeUInt16LE(size === null ? 0x0808 : 0x0800, 6); // UTF-8 names (and a data descriptor)
  h.writeUInt16LE(0, 8); // stored
  h.writeUInt32LE(0, 10); // time, date
  h.writeUInt32LE(size === null ? 0 : crc >>> 0, 14);
  h.writeUInt32LE(size ?? 0, 18);
  h.writeUInt32LE(size ?? 0, 22);
  h.writeUInt16LE(n.length, 26);
  h.writeUInt16LE(0, 28);
  return Buffer.concat([h, n]);
}

/** The data descriptor after an entry written without its size. */
function dataDescriptor(size: number, crc: number): Buffer {
  const d = Buffer.alloc(16);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(crc >>> 0, 4);
  d.writeUInt32LE(size, 8);
  d.writeUInt32LE(size, 12);
  return d;
}

function storedPart(name: string, text: string): Buffer {
  const data = Buffer.from(text, 'utf8');
  return Buffer.concat([storedHeader(name, data.length, crc32(data)), data]);
}

const END_OF_CENTRAL_DIRECTORY = (() => {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  return b;
})();

type Found = 'ok' | 'needStart' | 'needEnd';

interface Pattern {
  needle: Buffer;
  /** Handle a match at `i` in `buf`; says when the tag around it is cut off by the chunk's start or end. */
  handle(buf: Buffer, i: number): Found;
}

const LT = 0x3c;
const GT = 0x3e;
const V_OPEN = Buffer.from('<v>');
const V_CLOSE = Buffer.from('</v>');
const C_CLOSE = Buffer.from('</c>');
const DV_CLOSE = Buffer.from('</dataValidations>');

const TAG_END = Buffer.from('>');

/**
 * Bytes of a part handed to exceljs at once. exceljs parses each piece it gets into one batch of XML events and
 * rows, all alive until the batch is consumed; a young-generation GC that falls inside a batch copies and then
 * promotes all of it. In 4 KB slices instead of zlib's 16 KB pieces less survives. On a 100,000-row sheet
 * (the read bench), two sets of alternating runs (10 and 8 pairs) gave read + validate medians of 2.79 against
 * 3.29 s and 2.67 against 2.79 s; scavenges took 184–425 ms against 232–672 ms (6 runs each).
 */
const FEED_SLICE = 4 * 1024;

/**
 * Bytes the feed reads ahead of exceljs. exceljs parses what is buffered in one go, without a turn of the event
 * loop; reading beside the service walks, the feed lets the loop turn between slices when its time is spent
 * (Slicer), and this much is what exceljs may parse before it has to wait for the feed.
 */
const FEED_AHEAD = 4 * FEED_SLICE;

const ROW_CLOSE = Buffer.from('</row>');
const SI_CLOSE = Buffer.from('</si>');
/** What closes a worksheet cut after a row (its rows are inside `<sheetData>`), and a shared strings part cut. */
const SHEET_CUT_END = Buffer.from('</sheetData></worksheet>');
const STRINGS_CUT_END = Buffer.from('</sst>');

/**
 * Where a part's (normalised: no prefixes, no CDATA) XML ends after its first `max` elements closed by `close`:
 * the end of the max-th one. For a worksheet's rows (`</row>`): the k-th row element has a row number of at least
 * k, so every row numbered up to `max` is before it; for shared strings (`</si>`), every index below `max`.
 * Elements closed otherwise (`<row …/>`) are not counted: more are handed over, never fewer.
 */
export class ElementCap {
  private seen = 0;
  private tail = Buffer.alloc(0);
  /** The cut is made: nothing after it is wanted. */
  done = false;

  constructor(
    private readonly close: Buffer,
    private readonly max: number,
  ) {}

  /** How many bytes of `chunk` to keep: all of them, or up to the end of the element that completes the count. */
  keep(chunk: Buffer): number {
    if (this.done) return 0;
    const close = this.close;
    // a closing tag cut in two by the chunk boundary: the previous chunk's last bytes searched with this one
    const buf = this.tail.length ? Buffer.concat([this.tail, chunk]) : chunk;
    for (let i = buf.indexOf(close); i >= 0; i = buf.indexOf(close, i + close.length)) {
      if (++this.seen >= this.max) {
        this.done = true;
        return i + close.length - this.tail.length;
      }
    }
    this.tail = Buffer.from(buf.subarray(Math.max(0, buf.length - (close.length - 1))));
    return chunk.length;
  }
}

/** A cell of a shared string and its index (in normalised worksheet XML). */
const SHARED_CELL = /<c\s[^>]*\bt\s*=\s*["']s["'][^>]*>\s*(?:<f[^>]*(?:\/>|>[^<]*<\/f>)\s*)?<v>\s*(\d+)\s*<\/v>/g;

/** An element from `open` to the end of `close` (its whole text to `onText`); cut off by the chunk's end: needEnd. */
function elementPattern(open: string, close: Buffer, onText: (text: string) => void): Pattern {
  return {
    needle: Buffer.from(open),
    handle(buf, i) {
      const end = buf.indexOf(close, i);
      if (end < 0) return 'needEnd';
      onText(buf.subarray(i, end + close.length).toString('utf8'));
      return 'ok';
    },
  };
}

/** The `<c …>` tag around position i: its start and end, or which side is cut off. */
function cellTag(buf: Buffer, i: number): { open: number; end: number } | Found {
  const open = buf.lastIndexOf(LT, i);
  if (open < 0) return 'needStart';
  if (buf[open + 1] !== 0x63 /* c */ || buf[open + 2] !== 0x20) return 'ok'; // not a cell (e.g. <row s="…">)
  const end = buf.indexOf(GT, open);
  if (end < 0) return 'needEnd';
  if (end < i) return 'ok'; // the match is in text after the tag, not in it
  return { open, end };
}

/**
 * Scans one worksheet's XML, chunk by chunk, for merged ranges, formula error texts and date/percent cells,
 * without copying the chunks: a tag cut by a chunk boundary is read from the two chunks joined (rare).
 */
export class SheetScanner {
  private prev: Buffer | null = null;
  private pending: { p: Pattern; i: number }[] = [];
  private readonly patterns: Pattern[];
  private readonly longest: number;

  constructor(
    merges: string[],
    errors: Map<string, string>,
    styled: Map<string, StyleKind>,
    stylePatterns: readonly { pattern: Buffer; kind: StyleKind }[],
    cols?: ColDef[],
    onValidations?: (xml: string) => void,
  ) {
    const num = (v: string | undefined): number | null =>
      v === undefined || !Number.isFinite(Number(v)) ? null : Number(v);
    this.patterns = [
      ...(cols
        ? [
            elementPattern('<col ', TAG_END, (tag) => {
              const min = num(attr(tag, 'min'));
              const max = num(attr(tag, 'max'));
              if (min !== null && max !== null)
                cols.push({
                  min,
                  max,
                  width: num(attr(tag, 'width')),
                  style: num(attr(tag, 'style')),
                  hidden: /^(1|true)$/.test(attr(tag, 'hidden') ?? ''),
                });
            }),
          ]
        : []),
      ...(onValidations ? [elementPattern('<dataValidations', DV_CLOSE, onValidations)] : []),
      elementPattern('<mergeCell', TAG_END, (tag) => {
        const ref = attr(tag, 'ref');
        if (ref) merges.push(ref);
      }),
      {
        needle: Buffer.from(' t="e"'),
        handle(buf, i) {
          const tag = cellTag(buf, i);
          if (typeof tag === 'string') return tag;
          if (buf[tag.end - 1] === 0x2f /* self-closing: no value */) return 'ok';
          const close = buf.indexOf(C_CLOSE, tag.end);
          if (close < 0) return 'needEnd';
          const v = buf.indexOf(V_OPEN, tag.end);
          const ve = v < 0 ? -1 : buf.indexOf(V_CLOSE, v);
          const ref = attr(buf.subarray(tag.open, tag.end + 1).toString('utf8'), 'r');
          if (ref && v >= 0 && ve >= 0 && ve < close)
            errors.set(
              ref,
              buf
                .subarray(v + V_OPEN.length, ve)
                .toString('utf8')
                .slice(0, 20),
            );
          return 'ok';
        },
      },
      ...stylePatterns.map(({ pattern, kind }): Pattern => ({
        needle: pattern,
        handle(buf, i) {
          const tag = cellTag(buf, i);
          if (typeof tag === 'string') return tag;
          const ref = attr(buf.subarray(tag.open, tag.end + 1).toString('utf8'), 'r');
          if (ref) styled.set(ref, kind);
          return 'ok';
        },
      })),
    ];
    this.longest = Math.max(...this.patterns.map((p) => p.needle.length));
  }

  push(chunk: Buffer): void {
    const prev = this.prev;
    let joined: Buffer | null = null;
    const join = (): Buffer => (joined ??= Buffer.concat([prev!, chunk]));
    const pending: { p: Pattern; i: number }[] = [];
    if (prev) {
      // tags left open at the end of the previous chunk
      for (const { p, i } of this.pending) p.handle(join(), i);
      // needles cut in two by the boundary
      const k = this.longest - 1;
      const left = prev.subarray(Math.max(0, prev.length - k));
      const edge = Buffer.concat([left, chunk.subarray(0, k)]);
      for (const p of this.patterns) {
        for (let j = edge.indexOf(p.needle); j >= 0; j = edge.indexOf(p.needle, j + 1)) {
          if (j < left.length && j + p.needle.length > left.length) p.handle(join(), prev.length - left.length + j);
        }
      }
    }
    for (const p of this.patterns) {
      for (let i = chunk.indexOf(p.needle); i >= 0; i = chunk.indexOf(p.needle, i + 1)) {
        const r = p.handle(chunk, i);
        if (r === 'needStart' && prev) p.handle(join(), prev.length + i);
        else if (r === 'needEnd') pending.push({ p, i });
      }
    }
    this.prev = chunk;
    this.pending = pending;
  }
}

export interface FeedInput {
  path: string;
  sheets: readonly FeedSheet[];
  sharedStringsPath: string | null;
  date1904: boolean;
  limits: ReadLimits;
  styleKinds: ReadonlyMap<number, StyleKind>;
  /** The styles part to hand over too (for a copy with styles, `styles: 'cache'`); left out when absent. */
  stylesPath?: string | null;
  /** The event loop turns between slices of the feed and of what parses it (a new one when left out). */
  slicer?: Slicer;
  /**
   * Each worksheet handed over only up to its `maxRows`-th row element (ElementCap; the first rows, for a peek):
   * the rest of its part is not inflated, nor its elements after the rows (merged ranges); the shared strings
   * only up to the last one those rows use (the worksheets' first rows are read once more for it, before).
   */
  maxRows?: number;
}

/**
 * The feed's input for `sheets` of an inspected workbook read as it is written (the results writers' copy, the
 * Columns step's peek): within the default limits, no cell's number format looked at.
 */
export function feedOf(path: string, inspection: FileInspection, sheets: readonly FeedSheet[]): FeedInput {
  return {
    path,
    sheets,
    sharedStringsPath: inspection.sharedStringsPath,
    date1904: inspection.date1904,
    limits: DEFAULT_LIMITS,
    styleKinds: new Map(),
  };
}

/**
 * The stream to give exceljs. Errors (a lying size, damage, the total size limit) surface as a
 * FileLevelError through `onError` and end the stream; the caller stops the parse.
 */
export function workbookFeed(input: FeedInput, findings: FeedFindings, onError: (e: FileLevelError) => void): Readable {
  const gen = generate(input, findings);
  const stream = Readable.from(gen, { objectMode: false, highWaterMark: FEED_AHEAD });
  stream.on('error', (e: unknown) =>
    onError(e instanceof FileLevelError ? e : damagedWorkbook(basename(input.path), e, undefined, true)),
  );
  return stream;
}

/**
 * `p`, or the stop signal's reason as soon as it fires. exceljs cannot be stopped mid-file (ending its input can
 * leave it waiting forever), so every await on a reader of the feed races the stop signal; once stopped, the
 * reader is dropped and its input closed. (Not Promise.race with a never-settling promise: that keeps every
 * resolved batch alive.)
 */
export function raceStop<T>(stop: AbortSignal, p: Promise<T>): Promise<T> {
  if (stop.aborted) return Promise.reject(stop.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(stop.reason as Error);
    stop.addEventListener('abort', onStop, { once: true });
    p.then(
      (v) => {
        stop.removeEventListener('abort', onStop);
        resolve(v);
      },
      (e: unknown) => {
        stop.removeEventListener('abort', onStop);
        reject(e as Error);
      },
    );
  });
}

async function* generate(input: FeedInput, findings: FeedFindings): AsyncGenerator<Buffer> {
  const { path, sheets, limits } = input;
  const slicer = input.slicer ?? new Slicer();
  const file = basename(path);
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(path);
  } catch (e) {
    throw damagedWorkbook(file, e, undefined, true);
  }
  try {
    const entries = new Map((await listEntries(zip, limits)).map((e) => [e.fileName.replace(/^\/+/, ''), e]));

    const rels = sheets
      .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${WORKSHEET_TYPE}" Target="worksheets/sheet${i + 1}.xml"/>`)
      .join('');
    yield storedPart(
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}">${rels}</Relationships>`,
    );
    const sheetTags = sheets
      .map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" state="${s.state}" r:id="rId${i + 1}"/>`)
      .join('');
    yield storedPart(
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><workbookPr${input.date1904 ? ' date1904="1"' : ''}/><sheets>${sheetTags}</sheets></workbook>`,
    );

    const ss = input.sharedStringsPath ? entries.get(input.sharedStringsPath) : undefined;
    // For the first rows only: as many shared strings as they use.
    const strings = ss && input.maxRows !== undefined ? await stringsUsed(entries, input.maxRows) : null;
    // Always a shared strings part: without one exceljs would buffer every worksheet in a temporary file.
    if (ss && strings !== 0)
      yield* part(
        'xl/sharedStrings.xml',
        ss,
        null,
        'sharedStrings',
        'the part holding the text of its cells (shared strings)',
        strings === null ? null : new ElementCap(SI_CLOSE, strings),
      );
    else
      yield storedPart(
        'xl/sharedStrings.xml',
        `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN_NS}" count="0" uniqueCount="0"/>`,
      );

    const st = input.stylesPath ? entries.get(input.stylesPath) : undefined;
    if (st) yield* part('xl/styles.xml', st, null, null);

    const stylePatterns = [...input.styleKinds].map(([index, kind]) => ({
      pattern: Buffer.from(` s="${index}"`),
      kind,
    }));
    for (let i = 0; i < sheets.length; i++) {
      const entry = entries.get(sheets[i].path);
      if (!entry) continue;
      const merges: string[] = [];
      const errors = new Map<string, string>();
      const styled = new Map<string, StyleKind>();
      findings.merges.set(i, merges);
      findings.errorCells.set(i, errors);
      findings.styledCells.set(i, styled);
      const cols: ColDef[] | undefined = findings.cols ? [] : undefined;
      if (cols) findings.cols!.set(i, cols);
      const onValidations = findings.validations ? (xml: string) => findings.validations!.set(i, xml) : undefined;
      yield* part(
        `xl/worksheets/sheet${i + 1}.xml`,
        entry,
        new SheetScanner(merges, errors, styled, stylePatterns, cols, onValidations),
        'worksheet',
        `sheet "${sheets[i].name}"`,
        input.maxRows === undefined ? null : new ElementCap(ROW_CLOSE, input.maxRows),
      );
    }
    yield END_OF_CENTRAL_DIRECTORY;
  } finally {
    zip.close();
  }

  /** An entry's inflated chunks, counted against the size limit (a part that inflates beyond it: a zip bomb). */
  async function* inflated(entry: yauzl.Entry): AsyncGenerator<Buffer> {
    const s = await openEntry(zip, entry);
    try {
      for await (const chunk of s as AsyncIterable<Buffer>) {
        findings.bytes += chunk.length;
        if (findings.bytes > limits.maxUncompressedBytes)
          throw new FileLevelError(
            'zip_bomb',
            'The file unpacks to more than the size limit; it is refused as a possible zip bomb.',
          );
        yield chunk;
      }
    } finally {
      s.destroy();
    }
  }

  /**
   * How many shared strings the first `maxRows` rows of the sheets use: one more than the highest index their
   * cells name (their XML normalised and cut as it is handed over, read here once before).
   */
  async function stringsUsed(entries: Map<string, yauzl.Entry>, maxRows: number): Promise<number> {
    let used = 0;
    for (const sheet of sheets) {
      const entry = entries.get(sheet.path);
      if (!entry) continue;
      const normaliser = new XmlNormaliser('worksheet');
      const cap = new ElementCap(ROW_CLOSE, maxRows);
      const pieces: Buffer[] = [];
      try {
        for await (const chunk of inflated(entry)) {
          const data = normaliser.push(chunk);
          pieces.push(data.subarray(0, cap.keep(data)));
          if (cap.done) break;
        }
        if (!cap.done) pieces.push(normaliser.end());
      } catch (e) {
        throw partError(file, entry.fileName, e, `sheet "${sheet.name}"`);
      }
      for (const m of Buffer.concat(pieces).toString('utf8').matchAll(SHARED_CELL))
        used = Math.max(used, Number(m[1]) + 1);
    }
    return used;
  }

  /**
   * One part handed over. A worksheet or shared strings part is normalised first (xml-normalise.ts): its size
   * changes, so it is written with a data descriptor; the scanner sees the normalised XML.
   */
  async function* part(
    name: string,
    entry: yauzl.Entry,
    scanner: SheetScanner | null,
    kind: PartKind | null,
    /** The part in words, for a message: `sheet "bom"`. */
    where = `its part ${entry.fileName}`,
    /** where a worksheet or shared strings part is cut (ElementCap), when only its start is wanted */
    cap: ElementCap | null = null,
  ): AsyncGenerator<Buffer> {
    const normaliser = kind ? new XmlNormaliser(kind) : null;
    if (!normaliser) cap = null;
    yield storedHeader(name, normaliser ? null : entry.uncompressedSize, entry.crc32);
    let size = 0;
    let crc = 0;
    function* out(data: Buffer): Generator<Buffer> {
      if (data.length === 0) return;
      if (normaliser) {
        size += data.length;
        crc = crc32(data, crc);
      }
      scanner?.push(data);
      // Handed over in slices (views, no copy): see FEED_SLICE.
      for (let o = 0; o < data.length; o += FEED_SLICE) yield data.subarray(o, o + FEED_SLICE);
    }
    try {
      for await (const chunk of inflated(entry)) {
        const data = normaliser ? normaliser.push(chunk) : chunk;
        for (const piece of out(cap ? data.subarray(0, cap.keep(data)) : data)) {
          yield piece;
          // What exceljs parsed of the pieces so far counts too: it runs when a piece is taken.
          await slicer.pause();
        }
        if (cap?.done) {
          yield* out(kind === 'worksheet' ? SHEET_CUT_END : STRINGS_CUT_END);
          yield dataDescriptor(size, crc);
          return;
        }
      }
      if (normaliser) {
        yield* out(normaliser.end());
        // A part cut off before its root element's end would be read as far as it goes, silently.
        if (!normaliser.complete) throw damagedWorkbook(file, new Error('unexpected end of data'), where);
        yield dataDescriptor(size, crc);
      }
    } catch (e) {
      throw partError(file, entry.fileName, e, where);
    }
  }
}
