/**
 * Results of a job as workbooks.
 * - writeResultsWorkbook: a copy of the input (the input file is never written) with `_result`, `_id`,
 *   `_err_code` and `_message` appended to each data sheet, rows coloured by outcome, and a `Report` sheet
 *   (counts per sheet and outcome, start/end, duration, base URL, key masked, job id).
 * - writeFailedRowsWorkbook: only the rows that did not succeed, in the template format (with the mapping
 *   sheets, so the codes resolve the same way), ready to fix and import again. A delete without a row of its
 *   own (a mirrored sheet's) that did not succeed gets one: its code, action `delete`, the error.
 * Strings from the service (messages, ids, codes) are written as string cells, never as formulas.
 */
import { closeSync, createReadStream, openSync, statSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import ExcelJS from 'exceljs';
import { DATA_SHEETS, getSheet, normaliseHeader } from '../workbook/registry.js';
import { DEFAULT_LIMITS, FileLevelError, inspectWorkbookFile, type ZipSheetInfo } from '../workbook/guards.js';
import { raceStop, workbookFeed, type ColDef, type FeedFindings } from '../workbook/feed.js';
import { writeFormatFile } from '../workbook/writer.js';
import { writeAtomic } from '../fs/atomic.js';
import type { ExtraColumn, SheetContent, WritableRow, WritableValue } from '../workbook/xlsx-layout.js';
import { DATA_SHEET_NAMES, type DataSheetName } from '../workbook/types.js';
import type { EntryIndex } from './entry-index.js';
import {
  SUCCESS_OUTCOMES,
  type EntryOutcome,
  type JobResult,
  type JobResultSummary,
  type OutcomeCounts,
  type Plan,
  type PlanEntry,
  type PlanHeader,
  type RowOutcome,
} from './types.js';
import { RESULT_COLUMNS } from '../names.js';
import { columnNumber } from '../workbook/cell-ref.js';
import { PART_ROW_OFFSET } from '../workbook/sheet-parts.js';

export { RESULT_COLUMNS };
export const REPORT_SHEET = 'Report';
const REPORT_TITLE = 'Supply Loader import report';

type Outcome = RowOutcome | 'pending';

/** The fill (ARGB) of each outcome's rows in the results workbook; unchanged rows get none. */
export const OUTCOME_FILLS: Readonly<Record<Outcome, string | null>> = {
  created: 'FFE2EFDA',
  replayed: 'FFE2EFDA',
  already_existed: 'FFE2EFDA',
  updated: 'FFDDEBF7',
  replaced: 'FFDDEBF7',
  deleted: 'FFDDEBF7',
  already_absent: 'FFDDEBF7',
  unchanged: null,
  failed: 'FFF8CBAD',
  skipped: 'FFFFE699',
  pending: 'FFD9D9D9',
};

const OUTCOME_ORDER: Outcome[] = [
  'created',
  'replayed',
  'already_existed',
  'updated',
  'replaced',
  'deleted',
  'already_absent',
  'unchanged',
  'failed',
  'skipped',
  'pending',
];

/**
 * What the results workbooks need of a worksheet row: its outcome, id, error code and message, computed once
 * per entry and shared by the entry's rows (a BOM's rows, a product's hazardous substances). A few strings per
 * row, not the entry with its body, changes and notes.
 */
export interface RowMark {
  outcome: Outcome;
  id: string;
  errCode: string;
  message: string;
  /** `_err_code` of the failed-rows workbook (the error code, `skipped:<reason>` or the outcome). */
  failedCode: string;
  succeeded: boolean;
}

/** The marks of the rows of a job, per registry sheet (in memory: rowMarks; from the job's index: indexRowMarks). */
export interface RowMarks {
  sheet(name: DataSheetName): { get(row: number): RowMark | undefined };
  /** Some row did not succeed (failed, skipped, pending). */
  readonly anyNotSucceeded: boolean;
  /** The rows the failed-rows workbook adds for entries without a worksheet row (rowlessFailedRow). */
  readonly rowless?: readonly RowlessRow[];
}

/** A row of the failed-rows workbook that stands for an entry without a worksheet row. */
export interface RowlessRow {
  sheet: DataSheetName;
  values: WritableRow;
  /** The entry's outcome, as a row's (the results files of CSV sources write it in their result columns). */
  mark: RowMark;
}

/**
 * An entry that has no worksheet row but is one in the failed-rows workbook (and counts as one row there): a
 * delete of a mirrored sheet (the sheet no longer has the entity, so no row stands for it).
 */
export function rowlessCounts(action: string, rowCount: number): boolean {
  return rowCount === 0 && action === 'delete';
}

/**
 * The failed-rows workbook's row of such an entry that did not succeed: its code, action `delete` (a re-run of
 * the workbook deletes it again) and the error — what still uses it, in the service's words.
 */
export function rowlessFailedRow(
  entry: PlanEntry,
  o: EntryOutcome | { key: string; outcome: 'pending' },
): RowlessRow | null {
  if (!rowlessCounts(entry.action, entry.rows.length) || succeeded(o) || !entry.externalId) return null;
  const mark = markOf(entry, o, entry.id);
  return {
    sheet: entry.sheet,
    values: {
      external_id: entry.externalId,
      action: 'delete',
      _err_code: mark.failedCode,
      _message: mark.message || `${entry.label}: ${o.outcome}`,
    },
    mark,
  };
}

/** worksheet row → its mark, per registry sheet: the compact per-row state of the results workbooks. */
export function rowMarks(plan: Plan, result: JobResult): RowMarks {
  const outcomes = new Map(result.entries.map((o) => [o.key, o]));
  const idx = new Map<DataSheetName, Map<number, RowMark>>();
  const rowless: RowlessRow[] = [];
  let bad = false;
  for (const entry of plan.entries) {
    const o = outcomes.get(entry.key) ?? { key: entry.key, outcome: 'pending' as const };
    const mark = markOf(entry, o, entry.id);
    if (!mark.succeeded) bad = true;
    const extra = rowlessFailedRow(entry, o);
    if (extra) rowless.push(extra);
    for (const r of entry.rows) {
      let m = idx.get(r.sheet);
      if (!m) idx.set(r.sheet, (m = new Map()));
      m.set(r.row, mark);
    }
  }
  const none = new Map<number, RowMark>();
  return { sheet: (name) => idx.get(name) ?? none, anyNotSucceeded: bad, rowless };
}

function markOf(
  entry: PlanEntry | null,
  o: EntryOutcome | { key: string; outcome: 'pending' },
  plannedId: string | null | undefined,
  message?: string,
): RowMark {
  const full = o as EntryOutcome;
  return {
    outcome: o.outcome,
    id: full.id ?? plannedId ?? '',
    errCode: full.err_code ?? '',
    message: message ?? outcomeMessage(entry, o),
    failedCode: full.err_code ?? (o.outcome === 'skipped' ? `skipped:${full.reason ?? ''}` : o.outcome),
    succeeded: succeeded(o),
  };
}

/** Outcomes whose message is made from the entry's changes or BOM difference (read from the plan's entries). */
function messageNeedsEntry(o: EntryOutcome | { key: string; outcome: 'pending' }): boolean {
  const full = o as EntryOutcome;
  return (
    o.outcome === 'updated' || o.outcome === 'replaced' || (o.outcome === 'skipped' && full.reason === 'create_only')
  );
}

/** Per sheet, worksheet row → entry (-1: none), from the job's index: typed arrays, nothing per row but a number. */
function rowEntries(index: EntryIndex): (name: DataSheetName) => (row: number) => number {
  // Per sheet, per source (a sheet fed by several sources numbers the n-th one's rows from n × PART_ROW_OFFSET):
  // row within the source → entry + 1.
  const part = (row: number) => Math.floor(row / PART_ROW_OFFSET);
  const maxRow = new Map<DataSheetName, number[]>();
  for (let i = 0; i < index.size; i++)
    index.forEachRow(i, (sheet, row) => {
      let m = maxRow.get(sheet);
      if (!m) maxRow.set(sheet, (m = []));
      const p = part(row);
      m[p] = Math.max(m[p] ?? 0, row % PART_ROW_OFFSET);
    });
  const rowsOf = new Map<DataSheetName, Int32Array[]>();
  for (const [sheet, max] of maxRow)
    rowsOf.set(
      sheet,
      Array.from(max, (m) => new Int32Array((m ?? 0) + 1)),
    );
  for (let i = 0; i < index.size; i++)
    index.forEachRow(i, (sheet, row) => (rowsOf.get(sheet)![part(row)][row % PART_ROW_OFFSET] = i + 1));
  return (name) => {
    const parts = rowsOf.get(name);
    return (row) => {
      const rows = parts?.[part(row)];
      const r = row % PART_ROW_OFFSET;
      return rows && r < rows.length ? rows[r] - 1 : -1;
    };
  };
}

/** A sheet's row marks over the index: each row's mark made, when asked for, from its entry's outcome and id. */
function sheetMarks(
  index: EntryIndex,
  entryOf: (name: DataSheetName) => (row: number) => number,
  message: (i: number) => string | undefined,
): RowMarks['sheet'] {
  return (name) => {
    const entry = entryOf(name);
    return {
      get: (row) => {
        const i = entry(row);
        if (i < 0) return undefined;
        const o = index.outcomeOf(i);
        return markOf(null, o, index.id(i), message(i) ?? (messageNeedsEntry(o) ? '' : undefined));
      },
    };
  };
}

function anyNotSucceeded(index: EntryIndex): boolean {
  for (let i = 0; i < index.size; i++) if (!index.succeeded(i)) return true;
  return false;
}

/**
 * The row marks of a job from its compact index: per sheet a typed array worksheet row → entry, a
 * mark made when a row is written. One pass over plan-entries.jsonl keeps the messages that need the entry
 * (what an update changed, a BOM's difference); nothing else is held per row.
 */
export async function indexRowMarks(index: EntryIndex): Promise<RowMarks> {
  const entryOf = rowEntries(index);
  const messages = new Map<number, string>();
  const rowless: RowlessRow[] = [];
  await index.forEachEntry((e, i) => {
    const o = index.outcomeOf(i);
    const extra = rowlessFailedRow(e, o);
    if (extra) rowless.push(extra);
    if (!messageNeedsEntry(o)) return;
    const m = outcomeMessage(e, o);
    if (m) messages.set(i, m);
  });
  return {
    anyNotSucceeded: anyNotSucceeded(index),
    sheet: sheetMarks(index, entryOf, (i) => messages.get(i)),
    rowless,
  };
}

/**
 * Row marks that follow a job while it runs, so that its results workbook is written beside it (the CLI's
 * import: the rows are copied while the service is being waited for, not after the job). A row's mark is final
 * once its entry has settled: `ready` waits for that (null when there is nothing to wait for), `settled(i)` is
 * told by the job (RunOptions.onSettled), `finish()` once the job stopped (entries that did not run are
 * `pending`), `fail(e)` when it could not run (every wait rejects: the workbook is not written).
 */
export interface LiveRowMarks extends RowMarks {
  ready(name: DataSheetName, row: number): Promise<void> | null;
  settled(i: number): void;
  finish(): void;
  fail(e: unknown): void;
}

export function liveRowMarks(index: EntryIndex): LiveRowMarks {
  const entryOf = rowEntries(index);
  const waiters = new Map<number, { resolve: () => void; reject: (e: unknown) => void }[]>();
  /** The messages made from the entry (an update's changes, a BOM's difference), read once it settled. */
  const reading = new Map<number, Promise<void>>();
  const texts = new Map<number, string>();
  let finished = false;
  let failure: { e: unknown } | null = null;
  const readMessage = (i: number): Promise<void> => {
    let r = reading.get(i);
    if (!r)
      reading.set(
        i,
        (r = index.entry(i).then((e) => {
          texts.set(i, outcomeMessage(e, index.outcomeOf(i)));
        })),
      );
    return r;
  };
  const marks: LiveRowMarks = {
    get anyNotSucceeded() {
      return anyNotSucceeded(index);
    },
    sheet: sheetMarks(index, entryOf, (i) => texts.get(i)),
    ready(name, row) {
      if (failure) return Promise.reject(failure.e);
      const i = entryOf(name)(row);
      if (i < 0) return null;
      if (!index.hasOutcome(i) && !finished)
        return new Promise<void>((resolve, reject) => {
          let w = waiters.get(i);
          if (!w) waiters.set(i, (w = []));
          w.push({ resolve, reject });
        }).then(() => marks.ready(name, row) ?? undefined);
      return messageNeedsEntry(index.outcomeOf(i)) && !texts.has(i) ? readMessage(i) : null;
    },
    settled(i) {
      const w = waiters.get(i);
      waiters.delete(i);
      for (const x of w ?? []) x.resolve();
    },
    finish() {
      finished = true;
      for (const w of waiters.values()) for (const x of w) x.resolve();
      waiters.clear();
    },
    fail(e) {
      failure = { e };
      for (const w of waiters.values()) for (const x of w) x.reject(e);
      waiters.clear();
    },
  };
  return marks;
}

function marksOf(plan: PlanHeader, result: JobResultSummary, marks: RowMarks | undefined): RowMarks {
  if (marks) return marks;
  if ('entries' in plan && 'entries' in result) return rowMarks(plan as Plan, result as JobResult);
  throw new Error('The results workbook needs the outcome of each row: give the row marks of the job.');
}

/** The message a row gets: the error with the catalog's explanation, the skip reason, or what changed. */
export function outcomeMessage(entry: PlanEntry | null, o: EntryOutcome | { key: string; outcome: 'pending' }): string {
  if (o.outcome === 'pending') return 'not run yet: resume the job';
  const full = o as EntryOutcome;
  if (full.outcome === 'failed') {
    const parts = [full.msg ?? ''];
    if (full.entitlement_limit)
      parts.push(
        `${full.entitlement_limit.dimension}: ${full.entitlement_limit.usage} / ${full.entitlement_limit.limit}`,
      );
    if (full.explanation) parts.push(full.explanation);
    if (full.action_hint) parts.push(full.action_hint);
    return parts.filter(Boolean).join(' — ');
  }
  if (full.outcome === 'skipped') {
    if (full.reason === 'create_only' && entry?.changes) return `${full.msg ?? 'skipped'}: ${changesText(entry)}`;
    return full.msg ?? 'skipped';
  }
  if (full.outcome === 'updated' && entry?.changes) return changesText(entry);
  if (full.outcome === 'replaced' && entry?.bomDiff) {
    const d = entry.bomDiff;
    return `BOM replaced: ${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} mass changed, ${d.unchanged} unchanged`;
  }
  if (full.outcome === 'already_existed') return 'already on the service with the same values';
  if (full.outcome === 'replayed') return 'created earlier (Idempotency-Key replay)';
  return '';
}

function changesText(entry: PlanEntry): string {
  return (entry.changes ?? []).map((c) => `${c.field}: ${show(c.before)} → ${show(c.after)}`).join('; ');
}

function show(v: unknown): string {
  if (v === null || v === undefined) return '(blank)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

// ---------------------------------------------------------------- streaming the input

/** A row as exceljs's streaming reader gives it. */
type SourceRow = ExcelJS.Row;

interface SourceSheet {
  name: string;
  state: ZipSheetInfo['state'];
  /** The sheet's column definitions (known once its first row has arrived: `<cols>` precedes the rows). */
  columns(): readonly ColDef[];
  /** The style of a style index of the input (columns', rows' and cells' style ids). */
  style(id: number): Partial<ExcelJS.Style> | undefined;
  rows(): AsyncGenerator<SourceRow>;
  /** Merged ranges ('A1:B2'), complete once the rows are done. */
  merges(): string[];
  /** The sheet's `<dataValidations>` element as XML, once the rows are done (null: none, or too long to catch). */
  validations(): string | null;
}

/**
 * The input's worksheets in workbook order, each a stream of rows with values and styles (exceljs's
 * streaming reader fed by workbook/feed.ts: each part inflated once, shared strings and styles before the
 * worksheets). Only what one row holds is in memory at a time. `want` picks sheets by name.
 */
export async function* sourceSheets(path: string, want: (name: string) => boolean): AsyncGenerator<SourceSheet> {
  const inspection = await inspectWorkbookFile(path, DEFAULT_LIMITS);
  const sheets = inspection.sheets.filter((s) => s.path && inspection.entryNames.includes(s.path) && want(s.name));
  const findings: FeedFindings = {
    bytes: 0,
    merges: new Map(),
    errorCells: new Map(),
    styledCells: new Map(),
    cols: new Map(),
    validations: new Map(),
  };
  const stop = new AbortController();
  const feed = workbookFeed(
    {
      path,
      sheets,
      sharedStringsPath: inspection.sharedStringsPath,
      date1904: inspection.date1904,
      limits: DEFAULT_LIMITS,
      styleKinds: new Map(),
      stylesPath: inspection.stylesPath,
    },
    findings,
    (e) => stop.abort(e),
  );
  // exceljs cannot be stopped mid-file: every await on it also listens to the feed's failure (feed.ts raceStop).
  const race = <T>(p: Promise<T>): Promise<T> => raceStop(stop.signal, p);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(feed, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  const iter = (reader as unknown as AsyncIterable<StreamSheet>)[Symbol.asyncIterator]();
  const reached = new Set<number>();
  try {
    for (;;) {
      const next = await race(iter.next());
      if (next.done) break;
      const ws = next.value;
      const index = Number(ws.id) - 1;
      const info = sheets[index];
      if (!info) continue;
      reached.add(index);
      yield {
        name: info.name,
        state: info.state,
        // exceljs's streaming reader drops `<cols>` (Column.fromModel is called without its worksheet), so the
        // feed's scanner picks them up.
        columns: () => findings.cols?.get(index) ?? [],
        style: (id) =>
          (
            reader as unknown as { styles: { getStyleModel(id: number): Partial<ExcelJS.Style> | undefined } }
          ).styles.getStyleModel(id),
        merges: () => findings.merges.get(index) ?? [],
        validations: () => findings.validations?.get(index) ?? null,
        rows: async function* () {
          const batches = ws.parse()[Symbol.asyncIterator]();
          for (;;) {
            const batch = await race(batches.next());
            if (batch.done) break;
            for (const ev of batch.value) if (ev.eventType === 'row') yield ev.value;
          }
        },
      };
    }
    // exceljs's streaming reader can end early without an error (e.g. when its consumer waits for other I/O
    // between rows, exceljs/exceljs#2790): a sheet lost that way is an error, never a shorter copy.
    const lost = sheets.find((_, i) => !reached.has(i));
    if (lost)
      throw new Error(`the input workbook could not be read whole: its sheet "${lost.name}" was never reached.`);
  } catch (e) {
    if (e instanceof FileLevelError) throw new Error(`the input workbook cannot be read again: ${e.message}`);
    throw e;
  } finally {
    if (stop.signal.aborted) feed.destroy();
  }
}

interface StreamSheet {
  id: number | string;
  parse(): AsyncIterable<{ eventType: string; value: SourceRow }[]>;
}

function cellText(v: ExcelJS.CellValue): string {
  const p = plainValue(v);
  return p === null || p === undefined ? '' : String(p);
}

/** A cell's value as a plain value: formulas by their result, rich text and hyperlinks by their text. */
export function plainValue(v: ExcelJS.CellValue): WritableValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v && Array.isArray(v.richText)) return v.richText.map((t) => t.text).join('');
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('error' in v) return String(v.error);
    if ('result' in v) return plainValue(v.result as ExcelJS.CellValue);
    if ('sharedFormula' in v) return null;
    if ('formula' in v) return null;
  }
  return String(v);
}

/**
 * An input cell's value for the copy. The user's own formulas stay formulas; a cell of a shared formula
 * (which the streaming reader gives without its text) keeps its last computed result.
 */
function copyValue(v: ExcelJS.CellValue): ExcelJS.CellValue {
  if (v && typeof v === 'object' && !(v instanceof Date) && 'formula' in v) {
    const f = v as ExcelJS.CellFormulaValue;
    if (f.formula) return { formula: f.formula, result: f.result } as ExcelJS.CellFormulaValue;
    return (f.result ?? null) as ExcelJS.CellValue;
  }
  return v;
}

function registryNameOf(plan: PlanHeader, sheetName: string): DataSheetName | null {
  for (const name of DATA_SHEET_NAMES) if (plan.sheetNames[name] === sheetName) return name;
  return null;
}

function sameFile(a: string, b: string): boolean {
  return resolve(a) === resolve(b);
}

/**
 * A style object of the cell's own: the input style copied, with the outcome's fill (or none). exceljs hands
 * every cell read with the same style id ONE shared style object, so changing it in place would repaint every
 * cell sharing it — other rows, other sheets (lists, Instructions). A fresh object per cell keeps it to this cell.
 */
function ownStyle(style: Partial<ExcelJS.Style> | undefined, argb: string | null | undefined): Partial<ExcelJS.Style> {
  const own: Partial<ExcelJS.Style> = { ...style };
  if (argb === undefined) return own;
  if (argb) own.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb } };
  else delete own.fill;
  return own;
}

/** The style a copied cell gets: its input style, with the outcome's fill (a string), none (null) or as it was. */
type StyleOf = (
  style: Partial<ExcelJS.Style> | undefined,
  argb: string | null | undefined,
  value: unknown,
) => Partial<ExcelJS.Style>;

/**
 * ownStyle made once per input style and fill, and the same object handed to every cell that has both: exceljs
 * turns a style object into its XML once and remembers it by identity, where a fresh object per cell is turned
 * into XML for every cell (the most of a results workbook's time). Nothing changes these objects after; a cell
 * that needs another style gets another object. exceljs remembers the XML by the object alone, but a date without
 * a number format gets a date format of exceljs's own: such a cell gets a fresh object, as before.
 */
function styleCache(): StyleOf {
  const none = {};
  const made = new WeakMap<object, Map<string | null | undefined, Partial<ExcelJS.Style>>>();
  return (style, argb, value) => {
    if (value instanceof Date && !style?.numFmt) return ownStyle(style, argb);
    // a cell without a style of its own has a fresh empty object of exceljs's: all of them are one key
    const key = style && Object.keys(style).length ? style : none;
    let byFill = made.get(key);
    if (!byFill) made.set(key, (byFill = new Map()));
    let own = byFill.get(argb);
    if (!own) byFill.set(argb, (own = ownStyle(style, argb)));
    return own;
  };
}

/** Server text as a string cell (never a formula: exceljs writes a string value as a string). */
function asText(cell: ExcelJS.Cell, v: string | undefined | null): void {
  cell.value = v === undefined || v === null || v === '' ? null : String(v);
}

/** Where the result columns go on a data sheet: after the last header, or on an existing column of that name. */
function resultColumns(header: SourceRow | null): {
  col: Record<(typeof RESULT_COLUMNS)[number], number>;
  width: number;
} {
  const byName = new Map<string, number>();
  let last = 0;
  header?.eachCell({ includeEmpty: false }, (cell, c) => {
    const text = cellText(cell.value).trim();
    if (text === '') return;
    last = Math.max(last, c);
    byName.set(normaliseHeader(text) || text, c);
    byName.set(text, c);
  });
  const col: Record<(typeof RESULT_COLUMNS)[number], number> = { _result: 0, _id: 0, _err_code: 0, _message: 0 };
  let next = last + 1;
  for (const c of RESULT_COLUMNS) col[c] = byName.get(c) ?? next++;
  return { col, width: Math.max(next - 1, ...Object.values(col)) };
}

const OLD_REPORT_NAME = /^Report( \(\d+\))?$/;

/** Copy one input row into the output row: values, heights, and each cell's style as its own object. */
function copyRow(
  src: SourceRow,
  out: ExcelJS.Row,
  fill: string | null | undefined,
  fillWidth: number,
  defaultStyle: Partial<ExcelJS.Style> | undefined,
  styleOf: StyleOf,
): void {
  if (src.height) out.height = src.height;
  // A row's own style (`s` on the row); style 0 is the default, which exceljs gives no style of its own.
  // (Also a row without one gets the shared empty style: exceljs turns each row's style object into XML too.)
  const rowStyle = (src as unknown as { style?: Partial<ExcelJS.Style> }).style;
  (out as unknown as { style: Partial<ExcelJS.Style> }).style = styleOf(
    rowStyle === defaultStyle ? undefined : rowStyle,
    undefined,
    null,
  );
  src.eachCell({ includeEmpty: true }, (cell, c) => {
    if (c <= fillWidth) return;
    const o = out.getCell(c);
    o.value = copyValue(cell.value);
    o.style = styleOf(cell.style, undefined, o.value);
  });
  for (let c = 1; c <= fillWidth; c++) {
    const cell = src.getCell(c);
    const o = out.getCell(c);
    o.value = copyValue(cell.value);
    o.style = styleOf(cell.style, fill, o.value);
  }
}

/**
 * The input's sheets read whole into memory first, for a writer that waits between rows (live row marks): only
 * for a small input (LIVE_RESULTS_MAX_BYTES), since exceljs's streaming reader must not be kept waiting.
 */
async function* wholeSheets(path: string): AsyncGenerator<SourceSheet> {
  const read: SourceSheet[] = [];
  for await (const sheet of sourceSheets(path, () => true)) {
    const rows: SourceRow[] = [];
    for await (const row of sheet.rows()) rows.push(row);
    read.push({
      ...sheet,
      rows: async function* () {
        yield* rows;
      },
    });
  }
  yield* read;
}

/**
 * The largest input (bytes of the .xlsx) whose results workbook is written while its job runs (live row marks):
 * its rows are held in memory meanwhile, a few MiB at this size (~12,000 rows of the template).
 */
const LIVE_RESULTS_MAX_BYTES = 1 << 20;

/** Whether the results workbook of this input may be written beside its job (at most LIVE_RESULTS_MAX_BYTES). */
export function liveResultsFit(inputPath: string): boolean {
  try {
    return statSync(inputPath).size <= LIVE_RESULTS_MAX_BYTES;
  } catch {
    return false;
  }
}

function isLive(marks: RowMarks | undefined): marks is LiveRowMarks {
  return marks !== undefined && 'ready' in marks;
}

/**
 * `plan` and `result` with their entries (rowMarks is made from them), or without and `rowMarksOf` given
 * (indexRowMarks of the job's index). With live row marks (liveRowMarks) it runs beside the job: the input is
 * read whole first (at most LIVE_RESULTS_MAX_BYTES), each row is written once its entry has settled, and the
 * Report sheet once `result` (then a promise of the job's result) is there.
 */
export async function writeResultsWorkbook(
  inputPath: string,
  plan: PlanHeader,
  result: JobResultSummary | Promise<JobResultSummary>,
  outPath: string,
  rowMarksOf?: RowMarks,
): Promise<void> {
  if (sameFile(inputPath, outPath))
    throw new Error('The results workbook must be a new file: the input workbook is never changed.');
  const live = isLive(rowMarksOf) ? rowMarksOf : null;
  if (live && !liveResultsFit(inputPath))
    throw new Error(
      `a results workbook is written beside its job only for inputs up to ${LIVE_RESULTS_MAX_BYTES} bytes`,
    );
  const marks = live ?? marksOf(plan, await result, rowMarksOf);
  // Streamed: the input is read row by row and the copy written row by row (exceljs's streaming writer,
  // strings inline so no table of every string is kept), so memory does not grow with the rows.
  // Written to a temporary file renamed into place: a failed or interrupted write leaves no half workbook.
  await writeAtomic(outPath, async (tmp) => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: tmp, useStyles: true, useSharedStrings: false });
    const styleOf = styleCache();
    const kept = new Set<string>();
    for await (const sheet of live ? wholeSheets(inputPath) : sourceSheets(inputPath, () => true)) {
      const name = registryNameOf(plan, sheet.name);
      const rows = name ? marks.sheet(name) : null;
      const mapping = name === 'plants' || name === 'materials';
      let out: ExcelJS.Worksheet | null = null;
      const at: { layout: ReturnType<typeof resultColumns> | null } = { layout: null };
      let skip = false;
      const defaultStyle = sheet.style(0);
      const open = (first: SourceRow | null): ExcelJS.Worksheet => {
        const ws = wb.addWorksheet(sheet.name, { state: sheet.state });
        for (const c of sheet.columns()) {
          if (c.max - c.min > 16384) continue;
          // style 0 is the default: exceljs gives such columns no style of their own
          const style = c.style ? sheet.style(c.style) : undefined;
          for (let n = c.min; n <= Math.min(c.max, 16384); n++) {
            const oc = ws.getColumn(n);
            if (c.width !== null) oc.width = c.width;
            if (c.hidden) oc.hidden = true;
            if (style) oc.style = { ...style };
          }
        }
        if (rows) {
          const layout = (at.layout = resultColumns(first && first.number === 1 ? first : null));
          ws.getColumn(layout.col._message).width = 60;
          ws.getColumn(layout.col._id).width = 38;
          ws.getColumn(layout.col._result).width = 16;
          if (!first || first.number !== 1) headerCells(ws.getRow(1), null, layout.col).commit();
        }
        return ws;
      };
      for await (const row of sheet.rows()) {
        if (skip) continue;
        if (!out) {
          // A Report sheet of an earlier results workbook is replaced; a sheet of the user's with that name is kept.
          if (
            !rows &&
            OLD_REPORT_NAME.test(sheet.name) &&
            row.number === 1 &&
            cellText(row.getCell(1).value) === REPORT_TITLE
          ) {
            skip = true;
            continue;
          }
          out = open(row);
        }
        const o = out.getRow(row.number);
        const layout = at.layout;
        if (!rows || !layout) {
          copyRow(row, o, undefined, 0, defaultStyle, styleOf);
        } else if (row.number === 1) {
          copyRow(row, o, undefined, 0, defaultStyle, styleOf);
          headerCells(o, row, layout.col);
        } else {
          // (live only: the rows were read whole, so waiting here cannot keep exceljs's reader waiting)
          const wait = live?.ready(name!, row.number);
          if (wait) await wait;
          const mark = rows.get(row.number);
          const { col, width } = layout;
          if (mark) {
            copyRow(row, o, OUTCOME_FILLS[mark.outcome], width, defaultStyle, styleOf);
            asText(o.getCell(col._result), mark.outcome);
            asText(o.getCell(col._id), mark.id);
            asText(o.getCell(col._err_code), mark.errCode);
            asText(o.getCell(col._message), mark.message);
          } else {
            copyRow(row, o, undefined, 0, defaultStyle, styleOf);
            if (mapping && row.hasValues) asText(o.getCell(col._result), 'mapping');
          }
        }
        o.commit();
      }
      if (skip) continue;
      if (!out) out = open(null);
      for (const range of sheet.merges()) {
        try {
          out.mergeCells(range);
        } catch {
          // a merge exceljs refuses (overlapping) is left out of the copy; the values are there
        }
      }
      // Data validations (the template's drop-downs) as the input had them, XML for XML: exceljs's model would
      // hold one entry per cell of each range.
      const dv = sheet.validations();
      if (dv)
        (out as unknown as { _writeDataValidations(): void })._writeDataValidations = function (this: {
          stream: { write(s: string): void };
        }) {
          this.stream.write(dv);
        };
      out.commit();
      kept.add(sheet.name);
    }
    let reportName = REPORT_SHEET;
    for (let i = 2; kept.has(reportName); i++) reportName = `${REPORT_SHEET} (${i})`;
    addReportSheet(wb, plan, await result, reportName);
    await wb.commit();
  });
}

/** The header cells of the result columns (bold italic), on the input's header row or a new one. */
function headerCells(
  o: ExcelJS.Row,
  src: SourceRow | null,
  col: Record<(typeof RESULT_COLUMNS)[number], number>,
): ExcelJS.Row {
  for (const c of RESULT_COLUMNS) {
    const h = o.getCell(col[c]);
    h.value = c;
    h.style = { ...(src ? src.getCell(col[c]).style : undefined), font: { bold: true, italic: true } };
  }
  return o;
}

function addReportSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  plan: PlanHeader,
  result: JobResultSummary,
  name: string,
): void {
  const ws = wb.addWorksheet(name);
  ws.getColumn(1).width = 24;
  for (let c = 2; c <= OUTCOME_ORDER.length + 2; c++) ws.getColumn(c).width = 15;
  const info: [string, string | number][] = [
    ['Job id', result.jobId],
    ['Workbook', plan.file],
    ['Status', result.status],
    ['Started', result.startedAt],
    ['Finished', result.finishedAt ?? ''],
    ['Duration (s)', Math.round(result.durationMs / 100) / 10],
    ['Base URL', result.baseUrl],
    ['API key', result.maskedKey],
    ['Create only', plan.options.createOnly ? 'yes' : 'no'],
  ];
  if (result.message) info.splice(3, 0, ['Note', result.message]);
  ws.addRow([REPORT_TITLE]).font = { bold: true, size: 14 };
  for (const [k, v] of info) {
    const row = ws.addRow([k, null]);
    row.getCell(1).font = { bold: true };
    row.getCell(2).value = typeof v === 'number' ? v : String(v);
  }
  for (const l of result.entitlementLimits) {
    const row = ws.addRow(['Licence limit', null]);
    row.getCell(1).font = { bold: true };
    row.getCell(2).value = `${l.dimension}: ${l.usage} / ${l.limit}`;
  }
  ws.addRow([]);
  const head = ws.addRow(['Sheet (rows)', ...OUTCOME_ORDER, 'total']);
  head.font = { bold: true };
  const totals: OutcomeCounts = {};
  for (const name of DATA_SHEET_NAMES) {
    const counts = result.bySheet[name];
    if (!counts) continue;
    const values = OUTCOME_ORDER.map((o) => counts[o] ?? 0);
    for (const o of OUTCOME_ORDER) totals[o] = (totals[o] ?? 0) + (counts[o] ?? 0);
    ws.addRow([plan.sheetNames[name] ?? name, ...values, values.reduce((a, b) => a + b, 0)]);
  }
  const tv = OUTCOME_ORDER.map((o) => totals[o] ?? 0);
  ws.addRow(['total', ...tv, tv.reduce((a, b) => a + b, 0)]).font = { bold: true };
  ws.addRow([]);
  ws.addRow([
    "Rows are counted per worksheet row: hazardous substances share their supplier product's outcome, silo items their silo's, BOM rows their BOM's.",
  ]);
  ws.commit();
}

/** True when the entry's outcome counts as success. */
function succeeded(o: EntryOutcome | { key: string; outcome: 'pending' }): boolean {
  return o.outcome !== 'pending' && SUCCESS_OUTCOMES.includes(o.outcome);
}

/** The failed-rows workbook of a job in which every row succeeded: the template's first sheet, empty. */
export async function writeEmptyFailedRowsWorkbook(outPath: string): Promise<void> {
  await writeFormatFile(outPath, [{ def: getSheet('supplier-companies'), rows: [] }], { instructionsFor: [] });
}

export async function writeFailedRowsWorkbook(
  inputPath: string,
  plan: PlanHeader,
  result: JobResultSummary,
  outPath: string,
  rowMarksOf?: RowMarks,
): Promise<{ rows: number }> {
  if (sameFile(inputPath, outPath))
    throw new Error('The failed-rows workbook must be a new file: the input workbook is never changed.');
  const marks = marksOf(plan, result, rowMarksOf);
  // Nothing failed: the workbook is the empty template (below), so the input is not read at all.
  if (!marks.anyNotSucceeded) {
    await writeEmptyFailedRowsWorkbook(outPath);
    return { rows: 0 };
  }
  // The input is streamed; the failed rows' values (and the mapping sheets') go to a file per sheet on disk, which
  // the writer reads back in the format's sheet order: no row is held in memory (a job of 200,000 rows stays within bounded memory).
  const bySheetName = new Map<string, DataSheetName>();
  for (const name of DATA_SHEET_NAMES) {
    const sheetName = plan.sheetNames[name];
    if (sheetName) bySheetName.set(sheetName, name);
  }
  const spill = await mkdtemp(join(tmpdir(), 'sl-failed-rows-'));
  try {
    const picked = new Map<DataSheetName, string>();
    let count = 0;
    for await (const sheet of sourceSheets(inputPath, (n) => bySheetName.has(n))) {
      const name = bySheetName.get(sheet.name)!;
      const def = getSheet(name);
      const letters = plan.sheetColumns[name] ?? {};
      const fields = Object.keys(def.columns)
        .filter((f) => letters[f])
        .map((f) => [f, columnNumber(letters[f]!)] as const);
      const mapping = name === 'plants' || name === 'materials';
      const rows = marks.sheet(name);
      const file = join(spill, `${name}.jsonl`);
      // Written synchronously, a block at a time: waiting for other I/O between the rows of exceljs's streaming
      // reader loses the sheets after this one (seen with a write stream's 'drain').
      const out = new SpillFile(file);
      let wrote = false;
      try {
        for await (const row of sheet.rows()) {
          if (row.number <= 1) continue;
          const mark = rows.get(row.number);
          if (mapping ? !row.hasValues : !mark || mark.succeeded) continue;
          const values: WritableRow = {};
          for (const [field, c] of fields) {
            const v = plainValue(row.getCell(c).value);
            if (v !== null && v !== undefined && v !== '') values[field] = v;
          }
          if (mark) {
            values._err_code = mark.failedCode;
            values._message = mark.message;
            count++;
          }
          out.write(`${JSON.stringify(values)}\n`);
        }
      } finally {
        wrote = out.close();
      }
      if (wrote) picked.set(name, file);
    }
    const extras: ExtraColumn[] = [
      { key: '_err_code', header: '_err_code', width: 28 },
      { key: '_message', header: '_message', width: 60 },
    ];
    // Entries without a worksheet row (a mirrored sheet's deletes) get one after the sheet's own rows.
    const rowless = new Map<DataSheetName, WritableRow[]>();
    for (const r of marks.rowless ?? []) {
      let rows = rowless.get(r.sheet);
      if (!rows) rowless.set(r.sheet, (rows = []));
      rows.push(r.values);
      count++;
    }
    const contents: SheetContent[] = [];
    for (const name of DATA_SHEETS.map((d) => d.name as DataSheetName)) {
      const file = picked.get(name);
      const extra = rowless.get(name);
      const mapping = name === 'plants' || name === 'materials';
      if (file || extra)
        contents.push({ def: getSheet(name), rows: sheetRows(file, extra ?? []), extraColumns: mapping ? [] : extras });
    }
    // Mapping sheets alone are no failed rows: leave them out when nothing failed.
    const finalContents = count === 0 ? [] : contents;
    await writeFormatFile(
      outPath,
      finalContents.length ? finalContents : [{ def: getSheet('supplier-companies'), rows: [] }],
      {
        instructionsFor: finalContents.map((c) => c.def),
        sharedStrings: false,
      },
    );
    return { rows: count };
  } finally {
    await rm(spill, { recursive: true, force: true });
  }
}

/** Lines appended to a file in blocks of SPILL_BLOCK characters, synchronously; the file is made on the first line. */
class SpillFile {
  private fd: number | null = null;
  private held = '';
  constructor(private readonly path: string) {}
  write(line: string): void {
    this.held += line;
    if (this.held.length >= SPILL_BLOCK) this.flush();
  }
  private flush(): void {
    this.fd ??= openSync(this.path, 'w');
    writeSync(this.fd, this.held);
    this.held = '';
  }
  /** Whether anything was written. */
  close(): boolean {
    if (this.held) this.flush();
    if (this.fd === null) return false;
    closeSync(this.fd);
    return true;
  }
}
const SPILL_BLOCK = 64 * 1024;

/** A failed-rows sheet's rows: those put aside in its file (when any), then the rows of entries without one. */
async function* sheetRows(file: string | undefined, extra: readonly WritableRow[]): AsyncGenerator<WritableRow> {
  if (file) yield* spilledRows(file);
  yield* extra;
}

/** The rows a failed-rows workbook put aside in a file (one JSON object per line), read back one by one. */
async function* spilledRows(file: string): AsyncGenerator<WritableRow> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield JSON.parse(line) as WritableRow;
}
