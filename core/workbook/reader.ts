/**
 * Streaming workbook reader (exceljs stream.xlsx.WorkbookReader): file-level guards first, then sheets and
 * rows one at a time (memory bounded), header mapping by name in any order, cell coercion by column type,
 * and every problem as an Issue at its cell. Cancellable (AbortSignal) with throttled progress.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import ExcelJS from 'exceljs';
import { damagedWorkbook } from './damage.js';
import { raceStop, workbookFeed, type FeedFindings } from './feed.js';
import { DEFAULT_LIMITS, FileLevelError } from './file-limits.js';
import { inspectWorkbookFile, type FileInspection, type ZipSheetInfo } from './guards.js';
import { IssueList } from './issues.js';
import { targetOf } from './column-mapping/match.js';
import type { ColumnMapping, SheetMapping } from './column-mapping/schema.js';
import { DATA_SHEETS, getSheet, normaliseSheetName } from './registry.js';
import type { SheetDef } from './sheet-def.js';
import { columnLetter, columnNumber } from './cell-ref.js';
import { SheetRowReader } from './sheet-rows.js';
import {
  INSTRUCTIONS_SHEET,
  LISTS_SHEET,
  PRODUCTS_SHEET,
  type DataSheetName,
  type IssueCode,
  type IssueParams,
  type ParsedSheet,
  type ParsedWorkbook,
  type ReadLimits,
  type ReadProgress,
} from './types.js';
import { Slicer, Throttle } from '../throttle.js';

export interface ReadOptions {
  signal?: AbortSignal;
  onProgress?: (p: ReadProgress) => void;
  limits?: Partial<ReadLimits>;
  /** Column mapping: which sheet feeds which target, header row, columns, values, constants. */
  mapping?: ColumnMapping;
  /** Inspections of the file made before the read (its sheet list, read ahead): used when the file is unchanged. */
  inspections?: WorkbookInspections;
  /** The work between two turns of the event loop, ms (see Slicer; 0: a turn at every point it may pause). */
  sliceMs?: number;
}

/**
 * The file-level inspections (guards.ts) of the workbooks a caller looks at before reading them: one who reads
 * the sheet list first (app/read-ahead.ts) and the reader share one inspection of the file, not one each (each
 * opens the zip, reads its directory and the small parts, and checks every XML part's prolog). An inspection is
 * used again only for the same path under the same limits while the file is unchanged (the same size, inode and
 * modification and change times); else the file is inspected anew. An inspection that failed is never used again.
 */
export class WorkbookInspections {
  private readonly made = new Map<string, { of: string; inspection: Promise<FileInspection> }>();

  inspect(path: string, limits: ReadLimits): Promise<FileInspection> {
    return stat(path).then(
      (st) => {
        const of = [st.dev, st.ino, st.size, st.mtimeMs, st.ctimeMs, ...LIMIT_KEYS.map((k) => limits[k])].join(' ');
        const kept = this.made.get(path);
        if (kept?.of === of) return kept.inspection;
        const inspection = inspectWorkbookFile(path, limits);
        this.made.set(path, { of, inspection });
        inspection.catch(() => {
          if (this.made.get(path)?.inspection === inspection) this.made.delete(path);
        });
        return inspection;
      },
      // Not there (or not readable): the inspection says so in its words.
      () => inspectWorkbookFile(path, limits),
    );
  }
}

const LIMIT_KEYS = Object.keys(DEFAULT_LIMITS).sort() as (keyof ReadLimits)[];

/** Sheets the format writes that are not data: read silently as nothing (and left out of the Columns step). */
export const META_SHEETS: ReadonlySet<string> = new Set([
  INSTRUCTIONS_SHEET.toLowerCase(),
  LISTS_SHEET,
  PRODUCTS_SHEET,
]);

export function decodeCell(ref: string): { col: number; row: number } | null {
  const m = /^\$?([A-Z]{1,3})\$?(\d+)$/i.exec(ref.trim());
  if (!m) return null;
  return { col: columnNumber(m[1]), row: Number(m[2]) };
}

interface SheetState {
  parsed: ParsedSheet;
  /** Position in the feed (feed.ts findings are by it). */
  index: number;
  rows: SheetRowReader;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Read a workbook. Never throws for bad input (a file-level error is returned as an issue); throws only when aborted. */
export async function readWorkbook(path: string, options: ReadOptions = {}): Promise<ParsedWorkbook> {
  const t0 = performance.now();
  const limits: ReadLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const { signal, onProgress } = options;
  const issues = new IssueList(limits.maxIssues);
  const result: ParsedWorkbook = {
    file: basename(path),
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
  const sheetIssue = (
    severity: 'error' | 'warning',
    code: IssueCode,
    sheet: string,
    message: string,
    params?: IssueParams,
  ) => issues.add({ severity, code, sheet, cell: null, row: null, field: null, message, ...(params && { params }) });

  signal?.throwIfAborted();
  onProgress?.({ phase: 'checking', sheet: null, rows: 0, totalRows: null, fraction: 0 });
  let inspection: FileInspection;
  try {
    inspection = await (options.inspections?.inspect(path, limits) ?? inspectWorkbookFile(path, limits));
  } catch (e) {
    signal?.throwIfAborted();
    if (e instanceof FileLevelError) issues.fileError(e.code, e.message, e.params);
    else {
      const d = damagedWorkbook(basename(path), e);
      issues.fileError(d.code, d.message, d.params);
    }
    return finish();
  }
  signal?.throwIfAborted();
  result.bytes = inspection.bytes;

  // Which sheets to read; the rest are reported (or silently skipped: Instructions, lists, products).
  const toRead: { info: ZipSheetInfo; def: SheetDef; mapping?: SheetMapping }[] = [];
  const seen = new Map<DataSheetName, string>();
  for (const info of inspection.sheets) {
    const match = matchSheet(info.name, options.mapping);
    if (!match) {
      result.ignoredSheets.push({ sheet: info.name, reason: IGNORED_SHEET_REASONS.unknown() });
      const known = DATA_SHEETS.map((d) => d.name).join(', ');
      sheetIssue(
        'warning',
        'unknown_sheet',
        info.name,
        `Sheet "${info.name}" is not a Supply Loader sheet; it is ignored. Known sheets: ${known}.`,
        { known },
      );
      continue;
    }
    if (!match.def) {
      result.ignoredSheets.push({ sheet: info.name, reason: match.reason });
      continue;
    }
    const registryName = match.def.name as DataSheetName;
    const previous = seen.get(registryName);
    if (previous !== undefined) {
      result.ignoredSheets.push({ sheet: info.name, reason: IGNORED_SHEET_REASONS.second(registryName) });
      sheetIssue(
        'error',
        'duplicate_sheet',
        info.name,
        `Sheet "${info.name}" is a second ${registryName} sheet (the first is "${previous}"); put all rows into one sheet.`,
        { registryName, first: previous },
      );
      continue;
    }
    seen.set(registryName, info.name);
    if (!info.path || !inspection.entryNames.includes(info.path)) {
      sheetIssue(
        'error',
        'sheet_unreadable',
        info.name,
        `Sheet "${info.name}" cannot be read: its data is missing from the file. Open the file in Excel and save it again.`,
      );
      continue;
    }
    if (match.normalised)
      sheetIssue(
        'warning',
        'sheet_name_normalised',
        info.name,
        `Sheet "${info.name}" is read as ${registryName}; rename it to "${registryName}".`,
        {
          registryName,
        },
      );
    if (info.state !== 'visible')
      sheetIssue(
        'warning',
        'hidden_sheet',
        info.name,
        `Sheet "${info.name}" is hidden; its rows are read and imported like the others.`,
      );
    toRead.push({ info, def: match.def, ...(match.mapping && { mapping: match.mapping }) });
  }
  if (seen.size === 0) {
    issues.add({
      severity: 'error',
      code: 'no_known_sheet',
      sheet: null,
      cell: null,
      row: null,
      field: null,
      message: `The workbook has no Supply Loader sheet. Expected sheets named ${DATA_SHEETS.map((d) => d.name).join(', ')} (use a template from Supply Loader).`,
      params: { known: DATA_SHEETS.map((d) => d.name).join(', ') },
    });
    result.readable = true;
    return finish();
  }
  const totalRows = toRead.reduce((n, s) => n + (s.info.dimensionRows ? s.info.dimensionRows - 1 : 0), 0) || null;

  // exceljs parses a stream of the parts it needs, each inflated once (feed.ts).
  const stop = new AbortController();
  let fileError: FileLevelError | null = null;
  const onUserAbort = () => stop.abort(abortError(signal!));
  signal?.addEventListener('abort', onUserAbort, { once: true });
  const findings: FeedFindings = { bytes: 0, merges: new Map(), errorCells: new Map(), styledCells: new Map() };
  // The read runs beside the service walks: the loop turns between slices of the feed and of the rows.
  const slicer = new Slicer({ sliceMs: options.sliceMs });
  const feed = workbookFeed(
    {
      slicer,
      path,
      sheets: toRead.map((s) => s.info),
      sharedStringsPath: inspection.sharedStringsPath,
      date1904: inspection.date1904,
      limits,
      styleKinds: inspection.styleKinds,
    },
    findings,
    (e) => {
      if (stop.signal.aborted) return;
      fileError = e;
      stop.abort(e);
    },
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
  const states: SheetState[] = [];
  let rowsDone = 0;
  const throttle = new Throttle();
  const progress = (sheet: string | null, force = false) => {
    if (!onProgress || !throttle.pass(force)) return;
    onProgress({
      phase: 'reading',
      sheet,
      rows: rowsDone,
      totalRows,
      fraction: totalRows ? Math.min(0.99, rowsDone / totalRows) : 0,
    });
  };

  // What exceljs is parsing, for the message of a damaged part: the shared strings come before the first sheet.
  let parsing: string | undefined = inspection.sharedStringsPath
    ? 'the part holding the text of its cells (shared strings)'
    : undefined;
  try {
    const sheetsIter = (reader as unknown as AsyncIterable<WorksheetLike>)[Symbol.asyncIterator]();
    let sharedStringsFlat = false;
    sheets: for (;;) {
      const next = await race(sheetsIter.next());
      if (next.done) break;
      const ws = next.value;
      // The shared strings part is parsed before the first worksheet (the feed's order).
      if (!sharedStringsFlat) {
        await flattenSharedStrings((reader as unknown as { sharedStrings?: unknown[] }).sharedStrings, slicer);
        sharedStringsFlat = true;
      }
      const index = Number(ws.id) - 1;
      const entry = toRead[index];
      if (!entry) continue;
      const { info, def } = entry;
      parsing = `sheet "${info.name}"`;
      const parsed: ParsedSheet = {
        name: def.name as DataSheetName,
        sheetName: info.name,
        hidden: info.state !== 'visible',
        columns: {},
        rows: [],
      };
      result.sheets.push(parsed);
      const state: SheetState = {
        parsed,
        index,
        rows: new SheetRowReader(def, parsed, issues, {
          headerRow: entry.mapping?.header_row ?? 1,
          excelText: true,
          ...(entry.mapping && { mapping: entry.mapping }),
          date1904: inspection.date1904,
          ...(options.mapping?.csv?.decimal && { decimal: options.mapping.csv.decimal }),
          errorCells: findings.errorCells.get(index),
          ...(inspection.styleKinds.size && { styledCells: findings.styledCells.get(index) }),
        }),
      };
      states.push(state);
      progress(info.name, true);

      let dataRows = 0;
      // Rows arrive in batches (one per parsed XML chunk): one race per batch, not per row.
      const batches = ws.parse()[Symbol.asyncIterator]();
      for (;;) {
        const batch = await race(batches.next());
        if (batch.done) break;
        for (const ev of batch.value) {
          if (ev.eventType !== 'row') continue;
          const row = ev.value;
          const rowNumber = row.number;
          // Rows that hold data count, not the declared dimension nor empty (styled) rows below the data.
          if (rowNumber > state.rows.headerRow && row.values.some(hasValue)) dataRows++;
          if (dataRows > limits.maxRowsPerSheet) {
            issues.fileError(
              'too_many_rows',
              `Sheet "${info.name}" has more than ${limits.maxRowsPerSheet.toLocaleString('en')} data rows (the limit per sheet). Split the data into several workbooks.`,
              { sheet: info.name, limit: limits.maxRowsPerSheet },
            );
            stop.abort(new FileLevelError('too_many_rows', 'row limit'));
            break sheets;
          }
          if (!state.rows.row(rowNumber, row.values)) continue;
          rowsDone++;
          if ((rowsDone & 1023) === 0) progress(info.name);
        }
        if (slicer.due()) await slicer.turn();
      }
      // A sheet with no rows at all still gets its header checked.
      state.rows.end();
    }
  } catch (e) {
    if (!stop.signal.aborted) {
      // exceljs failed on something the guards did not catch: a damaged part.
      fileError = damagedWorkbook(basename(path), e, parsing);
      stop.abort(fileError);
    }
  } finally {
    signal?.removeEventListener('abort', onUserAbort);
    if (stop.signal.aborted) feed.destroy();
  }

  if (signal?.aborted) throw abortError(signal);
  if (fileError) {
    issues.fileError(
      (fileError as FileLevelError).code,
      (fileError as FileLevelError).message,
      (fileError as FileLevelError).params,
    );
    result.sheets = [];
    return finish();
  }
  if (issues.hasFileError()) {
    result.sheets = [];
    return finish();
  }
  result.readable = true;
  applyMerges(states, findings, issues);

  result.stats.rows = rowsDone;
  onProgress?.({ phase: 'reading', sheet: null, rows: rowsDone, totalRows: rowsDone, fraction: 1 });
  return finish();
}

// ---------------------------------------------------------------- sheets

interface WorksheetLike {
  id: number | string;
  name: string;
  state?: string;
  /** The worksheet part's source: a stream when exceljs buffered the sheet in a temporary file. */
  iterator?: unknown;
  parse(): AsyncIterable<{ eventType: string; value: RowLike }[]>;
}
interface RowLike {
  number: number;
  values: unknown[];
}

/**
 * Why a sheet is not read, written once: the report shows them as they are, the app words each in its language by
 * the same names (renderer/src/i18n/core-text.ts reads them back, test/renderer/german.test.ts walks them).
 */
export const IGNORED_SHEET_REASONS = {
  unknown: () => 'not a Supply Loader sheet',
  referenceOnly: () => 'reference only',
  instructions: () => 'instructions and lists',
  second: (sheet: string) => `a second ${sheet} sheet`,
} as const;

export type IgnoredSheetReason = keyof typeof IGNORED_SHEET_REASONS;

type SheetMatch = { def: SheetDef; normalised: boolean; mapping?: SheetMapping } | { def: null; reason: string } | null;

function matchSheet(name: string, mapping: ColumnMapping | undefined): SheetMatch {
  const n = normaliseSheetName(name);
  const target = targetOf(name, mapping, false);
  if (target && (target.by === 'mapping' || !META_SHEETS.has(n)))
    return {
      def: getSheet(target.sheet),
      normalised: target.normalised,
      ...(target.mapping && { mapping: target.mapping }),
    };
  if (META_SHEETS.has(n) || META_SHEETS.has(name.toLowerCase()))
    return {
      def: null,
      reason: n === PRODUCTS_SHEET ? IGNORED_SHEET_REASONS.referenceOnly() : IGNORED_SHEET_REASONS.instructions(),
    };
  return null;
}

// ---------------------------------------------------------------- merged cells

function applyMerges(states: SheetState[], findings: FeedFindings, issues: IssueList): void {
  for (const st of states) {
    const ranges = findings.merges.get(st.index);
    const mappedCols = st.rows.mapped;
    if (!ranges || !mappedCols) continue;
    const rows = st.parsed.rows;
    const lastRow = rows.length ? rows[rows.length - 1].row : 1;
    for (const ref of ranges) {
      const [a, b] = ref.split(':');
      const tl = decodeCell(a);
      const br = decodeCell(b ?? a);
      if (!tl || !br) continue;
      const fieldsHit = mappedCols.filter((m) => m.col >= tl.col && m.col <= br.col);
      // Rows above the header row (a title) are not data: a merge there is no one's concern.
      if (fieldsHit.length === 0 || tl.row > Math.max(lastRow, 1) || br.row < st.rows.headerRow) continue;
      issues.add({
        severity: 'error',
        code: 'merged_cell',
        sheet: st.parsed.sheetName,
        cell: `${columnLetter(tl.col)}${tl.row}`,
        row: tl.row,
        field: fieldsHit[0].field,
        message: `Cells ${ref} are merged over ${fieldsHit.map((m) => m.field).join(', ')}; unmerge them and fill in every row.`,
        params: { range: ref, fields: fieldsHit.map((m) => m.field).join(', ') },
      });
      // Every row under the merge is incomplete: mark its fields unreadable so the row is blocked.
      for (const r of rows) {
        if (r.row < tl.row || r.row > br.row) continue;
        const inv = (r.invalid ??= []);
        for (const m of fieldsHit) if (!inv.includes(m.field)) inv.push(m.field);
      }
    }
  }
}

function hasValue(v: unknown): boolean {
  return v !== null && v !== undefined && v !== '';
}

/**
 * exceljs's shared strings are slices of the XML text they were parsed from: each one kept (a cell's value in
 * the parsed workbook) keeps its whole chunk of XML alive (16 KB, markup included). A copy of each holds only its
 * own characters (~30 MB less for a 200,000-row workbook). JSON's round trip copies every code unit exactly,
 * lone surrogates too.
 */
async function flattenSharedStrings(strings: unknown[] | undefined, slicer: Slicer): Promise<void> {
  if (!Array.isArray(strings)) return;
  for (let i = 0; i < strings.length; i++) {
    if ((i & 255) === 255 && slicer.due()) await slicer.turn();
    const s = strings[i];
    // V8 copies strings shorter than 13 characters anyway (no slices).
    if (typeof s === 'string' && s.length >= 13) strings[i] = JSON.parse(JSON.stringify(s)) as string;
  }
}
