/**
 * Streaming workbook reader (exceljs stream.xlsx.WorkbookReader): file-level guards first, then sheets and
 * rows one at a time (memory bounded), header mapping by name in any order, cell coercion by column type,
 * and every problem as an Issue at its cell. Cancellable (AbortSignal) with throttled progress.
 */
import { basename } from 'node:path';
import ExcelJS from 'exceljs';
import { NEEDS_FULL_COERCION, coerceCell, excelSerialToDate, quickCoerce, unwrapCell, type CoerceContext } from './coerce.js';
import { expectation, expectationParams, type Column } from './columns.js';
import { workbookFeed, type FeedFindings } from './feed.js';
import { DEFAULT_LIMITS, FileLevelError, inspectWorkbookFile, type FileInspection, type StyleKind, type ZipSheetInfo } from './guards.js';
import { IssueList } from './issues.js';
import { DATA_SHEETS, columnsOf, isDataSheetName, normaliseHeader, normaliseSheetName } from './registry.js';
import type { SheetDef } from './sheet-def.js';
import {
  INSTRUCTIONS_SHEET,
  LISTS_SHEET,
  PRODUCTS_SHEET,
  SNAPSHOT_COLUMN,
  type DataSheetName,
  type IssueCode,
  type IssueParams,
  type ParsedRow,
  type ParsedSheet,
  type ParsedWorkbook,
  type ReadLimits,
  type ReadProgress,
  type RowValues,
} from './types.js';

export interface ReadOptions {
  signal?: AbortSignal;
  onProgress?: (p: ReadProgress) => void;
  limits?: Partial<ReadLimits>;
}

/** Sheets the format writes that are not data: read silently as nothing. */
const META_SHEETS = new Set([INSTRUCTIONS_SHEET.toLowerCase(), LISTS_SHEET, PRODUCTS_SHEET]);

export function columnLetter(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}

export function decodeCell(ref: string): { col: number; row: number } | null {
  const m = /^\$?([A-Z]{1,3})\$?(\d+)$/i.exec(ref.trim());
  if (!m) return null;
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { col, row: Number(m[2]) };
}

interface MappedColumn {
  col: number;
  letter: string;
  field: string;
  column: Column;
  ctx: CoerceContext;
  allowed?: ReadonlySet<string>;
}

interface SheetState {
  def: SheetDef;
  parsed: ParsedSheet;
  /** Position in the feed (feed.ts findings are by it). */
  index: number;
  /** Cell → cached formula error text, found by the feed before exceljs reads the cell. */
  errorCells: Map<string, string> | undefined;
  /** Cell → date/percent number format (only when the workbook has such styles). */
  styledCells: Map<string, StyleKind> | undefined;
  mapped: MappedColumn[] | null;
  /** Columns with data but no header (warned once each). */
  headerless: Set<number>;
  headerCols: Set<number>;
  lastHeaderCol: number;
  skipRows: boolean;
  /** Column of the hidden `_snapshot` an export writes (kept per row, not a field). */
  snapshotCol?: number;
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
  const result: ParsedWorkbook = { file: basename(path), bytes: 0, readable: false, sheets: [], ignoredSheets: [], issues: [], stats: { rows: 0, ms: 0 } };
  const finish = (): ParsedWorkbook => {
    result.issues = issues.done();
    result.stats.ms = Math.round(performance.now() - t0);
    return result;
  };
  const sheetIssue = (severity: 'error' | 'warning', code: IssueCode, sheet: string, message: string, params?: IssueParams) =>
    issues.add({ severity, code, sheet, cell: null, row: null, field: null, message, ...(params && { params }) });

  signal?.throwIfAborted();
  onProgress?.({ phase: 'checking', sheet: null, rows: 0, totalRows: null, fraction: 0 });
  let inspection: FileInspection;
  try {
    inspection = await inspectWorkbookFile(path, limits);
  } catch (e) {
    signal?.throwIfAborted();
    if (e instanceof FileLevelError) issues.fileError(e.code, e.message, e.params);
    else issues.fileError('unreadable', `The file cannot be read (${describe(e)}).`, { detail: describe(e) });
    return finish();
  }
  signal?.throwIfAborted();
  result.bytes = inspection.bytes;

  // Which sheets to read; the rest are reported (or silently skipped: Instructions, lists, products).
  const toRead: { info: ZipSheetInfo; def: SheetDef }[] = [];
  const seen = new Map<DataSheetName, string>();
  for (const info of inspection.sheets) {
    const match = matchSheet(info.name);
    if (!match) {
      result.ignoredSheets.push({ sheet: info.name, reason: 'not a Supply Loader sheet' });
      const known = DATA_SHEETS.map((d) => d.name).join(', ');
      sheetIssue('warning', 'unknown_sheet', info.name, `Sheet "${info.name}" is not a Supply Loader sheet; it is ignored. Known sheets: ${known}.`, { known });
      continue;
    }
    if (!match.def) {
      result.ignoredSheets.push({ sheet: info.name, reason: match.reason });
      continue;
    }
    const registryName = match.def.name as DataSheetName;
    const previous = seen.get(registryName);
    if (previous !== undefined) {
      result.ignoredSheets.push({ sheet: info.name, reason: `a second ${registryName} sheet` });
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
      sheetIssue('error', 'sheet_unreadable', info.name, `Sheet "${info.name}" cannot be read: its data is missing from the file. Open the file in Excel and save it again.`);
      continue;
    }
    if (info.dimensionRows !== null && info.dimensionRows - 1 > limits.maxRowsPerSheet) {
      issues.fileError(
        'too_many_rows',
        `Sheet "${info.name}" reaches row ${info.dimensionRows.toLocaleString('en')}; the limit is ${limits.maxRowsPerSheet.toLocaleString('en')} data rows per sheet. Split the data into several workbooks.`,
        { sheet: info.name, lastRow: info.dimensionRows, limit: limits.maxRowsPerSheet },
      );
      return finish();
    }
    if (match.normalised)
      sheetIssue('warning', 'sheet_name_normalised', info.name, `Sheet "${info.name}" is read as ${registryName}; rename it to "${registryName}".`, {
        registryName,
      });
    if (info.state !== 'visible')
      sheetIssue('warning', 'hidden_sheet', info.name, `Sheet "${info.name}" is hidden; its rows are read and imported like the others.`);
    toRead.push({ info, def: match.def });
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
  const feed = workbookFeed(
    {
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
  // exceljs cannot be stopped mid-file (ending its input can leave it waiting forever), so every await on it
  // races the stop signal; once stopped, the reader is dropped and its input closed. (Not Promise.race with
  // a never-settling promise: that keeps every resolved batch alive.)
  const race = <T>(p: Promise<T>): Promise<T> => {
    if (stop.signal.aborted) return Promise.reject(stop.signal.reason);
    return new Promise<T>((resolve, reject) => {
      const onStop = () => reject(stop.signal.reason);
      stop.signal.addEventListener('abort', onStop, { once: true });
      p.then(
        (v) => {
          stop.signal.removeEventListener('abort', onStop);
          resolve(v);
        },
        (e: unknown) => {
          stop.signal.removeEventListener('abort', onStop);
          reject(e);
        },
      );
    });
  };

  const reader = new ExcelJS.stream.xlsx.WorkbookReader(feed, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const states: SheetState[] = [];
  let rowsDone = 0;
  let lastProgress = 0;
  const progress = (sheet: string | null, force = false) => {
    if (!onProgress) return;
    const now = performance.now();
    if (!force && now - lastProgress < 100) return;
    lastProgress = now;
    onProgress({ phase: 'reading', sheet, rows: rowsDone, totalRows, fraction: totalRows ? Math.min(0.99, rowsDone / totalRows) : 0 });
  };

  try {
    const sheetsIter = (reader as unknown as AsyncIterable<WorksheetLike>)[Symbol.asyncIterator]();
    sheets: for (;;) {
      const next = await race(sheetsIter.next());
      if (next.done) break;
      const ws = next.value;
      const index = Number(ws.id) - 1;
      const entry = toRead[index];
      if (!entry) continue;
      const { info, def } = entry;
      const parsed: ParsedSheet = { name: def.name as DataSheetName, sheetName: info.name, hidden: info.state !== 'visible', columns: {}, rows: [] };
      result.sheets.push(parsed);
      const state: SheetState = {
        def,
        parsed,
        index,
        errorCells: findings.errorCells.get(index),
        styledCells: inspection.styleKinds.size ? findings.styledCells.get(index) : undefined,
        mapped: null,
        headerless: new Set(),
        headerCols: new Set(),
        lastHeaderCol: 0,
        skipRows: false,
      };
      states.push(state);
      progress(info.name, true);

      // Rows arrive in batches (one per parsed XML chunk): one race per batch, not per row.
      const batches = ws.parse()[Symbol.asyncIterator]();
      for (;;) {
        const batch = await race(batches.next());
        if (batch.done) break;
        for (const ev of batch.value) {
          if (ev.eventType !== 'row') continue;
          const row = ev.value;
          const rowNumber = row.number;
          if (rowNumber - 1 > limits.maxRowsPerSheet) {
            issues.fileError(
              'too_many_rows',
              `Sheet "${info.name}" has more than ${limits.maxRowsPerSheet.toLocaleString('en')} data rows (the limit per sheet). Split the data into several workbooks.`,
              { sheet: info.name, limit: limits.maxRowsPerSheet },
            );
            stop.abort(new FileLevelError('too_many_rows', 'row limit'));
            break sheets;
          }
          if (state.mapped === null) {
            readHeader(state, rowNumber === 1 ? row.values : [], issues, inspection.date1904);
            if (rowNumber === 1) continue;
          }
          if (state.skipRows) continue;
          readRow(state, row, issues);
          rowsDone++;
          if ((rowsDone & 1023) === 0) progress(info.name);
        }
      }
      // A sheet with no rows at all still gets its header checked.
      if (state.mapped === null) readHeader(state, [], issues, inspection.date1904);
    }
  } catch (e) {
    if (!stop.signal.aborted) {
      // exceljs failed on something the guards did not catch: a damaged part.
      fileError = new FileLevelError('unreadable', `The workbook cannot be read: it looks damaged (${describe(e)}). Open it in Excel and save it again.`, {
        detail: describe(e),
      });
      stop.abort(fileError);
    }
  } finally {
    signal?.removeEventListener('abort', onUserAbort);
    if (stop.signal.aborted) feed.destroy();
  }

  if (signal?.aborted) throw abortError(signal);
  if (fileError) {
    issues.fileError((fileError as FileLevelError).code, (fileError as FileLevelError).message, (fileError as FileLevelError).params);
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

type SheetMatch = { def: SheetDef; normalised: boolean } | { def: null; reason: string } | null;

function matchSheet(name: string): SheetMatch {
  if (isDataSheetName(name)) return { def: DATA_SHEETS.find((d) => d.name === name)!, normalised: false };
  const n = normaliseSheetName(name);
  if (META_SHEETS.has(n) || META_SHEETS.has(name.toLowerCase())) return { def: null, reason: n === PRODUCTS_SHEET ? 'reference only' : 'instructions and lists' };
  const def = DATA_SHEETS.find((d) => d.name === n);
  return def ? { def, normalised: true } : null;
}

function headerText(raw: unknown): string {
  const v = unwrapCell(raw);
  if (v === undefined || (typeof v === 'object' && !(v instanceof Date))) return '';
  return String(v).trim();
}

function readHeader(state: SheetState, values: unknown[], issues: IssueList, date1904: boolean): void {
  const { def, parsed } = state;
  const sheet = parsed.sheetName;
  const cols = columnsOf(def);
  const fields = new Map(cols);
  const mapped: MappedColumn[] = [];
  const at = new Map<string, number>();
  const unknown: { col: number; text: string }[] = [];
  let fatal = false;
  for (let c = 1; c < values.length; c++) {
    const text = headerText(values[c]);
    if (!text) continue;
    state.headerCols.add(c);
    state.lastHeaderCol = c;
    if (text === SNAPSHOT_COLUMN) {
      state.snapshotCol = c;
      continue;
    }
    // Supply Loader's own columns (`_result`, `_id`, `_err_code`, `_message` of a results workbook): not data.
    if (text.startsWith('_')) continue;
    let field = fields.has(text) ? text : undefined;
    if (!field) {
      const n = normaliseHeader(text);
      if (fields.has(n)) {
        field = n;
        issues.add({
          severity: 'warning',
          code: 'header_normalised',
          sheet,
          cell: `${columnLetter(c)}1`,
          row: 1,
          field,
          message: `Header "${text}" is read as ${field}; write it exactly as ${field}.`,
          params: { header: text },
        });
      }
    }
    if (!field) {
      unknown.push({ col: c, text });
      continue;
    }
    const first = at.get(field);
    if (first !== undefined) {
      fatal = true;
      issues.add({
        severity: 'error',
        code: 'duplicate_header',
        sheet,
        cell: `${columnLetter(c)}1`,
        row: 1,
        field,
        message: `Column ${field} appears twice (${columnLetter(first)}1 and ${columnLetter(c)}1); keep one of them.`,
        params: { firstCell: `${columnLetter(first)}1` },
      });
      continue;
    }
    at.set(field, c);
    const column = fields.get(field)!;
    mapped.push({
      col: c,
      letter: columnLetter(c),
      field,
      column,
      ctx: { field, expected: expectation(column), expectedParams: expectationParams(column), date1904 },
      allowed: column.allowed ? new Set(column.allowed) : undefined,
    });
  }
  const missing = cols.filter(([f, c]) => c.required && !at.has(f)).map(([f]) => f);
  const free = `${columnLetter(state.lastHeaderCol + 1)}1`;
  for (const f of missing) {
    fatal = true;
    issues.add({
      severity: 'error',
      code: 'missing_header',
      sheet,
      cell: free,
      row: 1,
      field: f,
      message:
        values.length === 0
          ? `Row 1 must hold the field names; required column ${f} is missing.`
          : `Required column ${f} is missing from row 1 (add it, e.g. at ${free}).`,
      ...(values.length === 0 && { params: { variant: 'empty' } }),
    });
  }
  for (const u of unknown) {
    const hint = missing.find((f) => f.includes(normaliseHeader(u.text)) || normaliseHeader(u.text).includes(f));
    issues.add({
      severity: 'warning',
      code: 'unknown_column',
      sheet,
      cell: `${columnLetter(u.col)}1`,
      row: 1,
      field: null,
      message: `Column "${u.text}" is not a field of ${def.name}; it is ignored.${hint ? ` Did you mean ${hint}?` : ''}`,
      params: { header: u.text, sheetName: def.name, ...(hint && { variant: 'hint', hint }) },
    });
  }
  state.mapped = mapped;
  state.skipRows = fatal;
  for (const m of mapped) parsed.columns[m.field] = m.letter;
}

function readRow(state: SheetState, row: RowLike, issues: IssueList): void {
  const values = row.values;
  const mapped = state.mapped!;
  const sheet = state.parsed.sheetName;
  const out: RowValues = {};
  let invalid: string[] | undefined;
  let any = false;
  for (let i = 0; i < mapped.length; i++) {
    const m = mapped[i];
    let raw = values[m.col];
    if (raw === undefined || raw === null) continue;
    if (state.styledCells?.size && typeof raw === 'number') {
      const kind = state.styledCells.get(`${m.letter}${row.number}`);
      if (kind === 'date') raw = excelSerialToDate(raw, m.ctx.date1904);
      else if (kind === 'percent' && m.column.unit === '%') {
        const shown = Math.round(raw * 100 * 1e9) / 1e9;
        out[m.field] = shown;
        any = true;
        issues.add({
          severity: 'warning',
          code: 'percent_format',
          sheet,
          cell: `${m.letter}${row.number}`,
          row: row.number,
          field: m.field,
          message: `${m.field}: the cell is formatted as a percentage (${shown} %); it is read as ${shown}`,
          params: { value: shown },
        });
        continue;
      }
    }
    const quick = quickCoerce(raw, m.column, m.allowed);
    if (quick !== NEEDS_FULL_COERCION) {
      if (quick === undefined) continue;
      out[m.field] = quick;
      any = true;
      continue;
    }
    const r = coerceCell(raw, m.column, m.ctx);
    switch (r.kind) {
      case 'blank':
        break;
      case 'value':
        out[m.field] = r.value;
        any = true;
        if (r.warning) {
          const { code, message, params } = r.warning;
          issues.add({ severity: 'warning', code, sheet, cell: `${m.letter}${row.number}`, row: row.number, field: m.field, message, ...(params && { params }) });
        }
        break;
      case 'clear':
        out[m.field] = null;
        any = true;
        break;
      case 'error': {
        any = true;
        (invalid ??= []).push(m.field);
        const cell = `${m.letter}${row.number}`;
        let { code, message, params } = r.error;
        // exceljs drops a formula's error result; the feed saw the cached error text in the XML.
        const shown = code === 'formula_error' || code === 'formula_without_result' ? state.errorCells?.get(cell) : undefined;
        if (shown) {
          code = 'formula_error';
          const f = (raw as { formula?: unknown }).formula;
          message = `${m.field}: the formula${typeof f === 'string' && f ? ` =${f.slice(0, 60)}` : ''} gives the error ${shown}; fix it or type the value`;
          params = { variant: 'formulaShown', formula: typeof f === 'string' && f ? `=${f.slice(0, 60)}` : '', error: shown };
        }
        issues.add({ severity: 'error', code, sheet, cell, row: row.number, field: m.field, message, ...(params && { params }) });
        break;
      }
    }
  }
  // Data in a column without a header: warned once per column.
  if (values.length - 1 > state.lastHeaderCol || state.headerCols.size < state.lastHeaderCol) {
    for (let c = 1; c < values.length; c++) {
      if (state.headerCols.has(c) || state.headerless.has(c)) continue;
      const v = values[c];
      if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) continue;
      state.headerless.add(c);
      issues.add({
        severity: 'warning',
        code: 'data_without_header',
        sheet,
        cell: `${columnLetter(c)}${row.number}`,
        row: row.number,
        field: null,
        message: `Column ${columnLetter(c)} has data but no field name in row 1; it is ignored.`,
        params: { column: columnLetter(c) },
      });
    }
  }
  if (!any) return;
  const parsedRow: ParsedRow = { row: row.number, values: out };
  if (invalid) parsedRow.invalid = invalid;
  if (state.snapshotCol !== undefined) {
    const snap = unwrapCell(values[state.snapshotCol]);
    if (typeof snap === 'string' && snap.trim() !== '') parsedRow.snapshot = snap.trim();
  }
  state.parsed.rows.push(parsedRow);
}

// ---------------------------------------------------------------- merged cells

function applyMerges(states: SheetState[], findings: FeedFindings, issues: IssueList): void {
  for (const st of states) {
    const ranges = findings.merges.get(st.index);
    if (!ranges || !st.mapped) continue;
    const rows = st.parsed.rows;
    const lastRow = rows.length ? rows[rows.length - 1].row : 1;
    for (const ref of ranges) {
      const [a, b] = ref.split(':');
      const tl = decodeCell(a);
      const br = decodeCell(b ?? a);
      if (!tl || !br) continue;
      const fieldsHit = st.mapped.filter((m) => m.col >= tl.col && m.col <= br.col);
      if (fieldsHit.length === 0 || tl.row > Math.max(lastRow, 1)) continue;
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

function describe(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/\s+/g, ' ').slice(0, 160);
}
