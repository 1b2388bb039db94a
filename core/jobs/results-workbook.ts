/**
 * The results workbook of a job (writeResultsWorkbook): a copy of the input (the input file is never written)
 * with `_result` (the outcome's code, for scripts), `_id`, `_err_code`, `_message` and `_outcome` (the outcome in
 * words, as the Report sheet heads it) appended to each data sheet, rows coloured by outcome, and a
 * `Report` sheet (counts per sheet and outcome, start/end, duration, base URL, key masked, job id). Written after
 * the job, or beside it with live row marks for a small input (liveResultsFit).
 * Strings from the service (messages, ids, codes) are written as string cells, never as formulas.
 */
import { statSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { normaliseHeader } from '../workbook/registry.js';
import { writeAtomic } from '../fs/atomic.js';
import { DATA_SHEET_NAMES, type DataSheetName } from '../workbook/types.js';
import type { JobResultSummary, OutcomeCounts, PlanHeader } from './types.js';
import { RESULT_COLUMNS } from '../names.js';
import type { LiveRowMarks, RowMarks } from './row-marks.js';
import type { JobRowOutcome } from '../names.js';
import { plainValue, sameFile, sourceSheets, type SourceRow, type SourceSheet } from './source-sheets.js';
import { Slicer, nextTurn, turnEvery } from '../throttle.js';

export { RESULT_COLUMNS };

/**
 * The columns a results workbook appends: the result columns every results file has (`_result` holds the
 * outcome's code, which scripts read), then `_outcome`, the same outcome in words (OUTCOME_WORDS).
 */
export const WORKBOOK_RESULT_COLUMNS = [...RESULT_COLUMNS, '_outcome'] as const;
type WorkbookResultColumn = (typeof WORKBOOK_RESULT_COLUMNS)[number];
export const REPORT_SHEET = 'Report';
const REPORT_TITLE = 'Supply Loader import report';

/** The fill (ARGB) of each outcome's rows in the results workbook; unchanged rows get none. */
export const OUTCOME_FILLS: Readonly<Record<JobRowOutcome, string | null>> = {
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

/** The outcomes in words, as the Report sheet's table heads them and each row's `_outcome` says them. */
export const OUTCOME_WORDS: Readonly<Record<JobRowOutcome, string>> = {
  created: 'created',
  replayed: 'created (replayed)',
  already_existed: 'already existed',
  updated: 'updated',
  replaced: 'replaced',
  deleted: 'deleted',
  already_absent: 'already absent',
  unchanged: 'unchanged',
  failed: 'failed',
  skipped: 'skipped',
  pending: 'not sent',
};

/** The `_outcome` of a row of a mapping sheet (plants, materials): read for codes, not imported itself. */
const MAPPING_WORDS = 'code mapping';

const OUTCOME_ORDER: JobRowOutcome[] = [
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

function cellText(v: ExcelJS.CellValue): string {
  const p = plainValue(v);
  return p === null || p === undefined ? '' : String(p);
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
  col: Record<WorkbookResultColumn, number>;
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
  const col: Record<WorkbookResultColumn, number> = { _result: 0, _id: 0, _err_code: 0, _message: 0, _outcome: 0 };
  let next = last + 1;
  for (const c of WORKBOOK_RESULT_COLUMNS) col[c] = byName.get(c) ?? next++;
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
 * Rows copied between two turns of the event loop when the workbook is written beside its job: the job's answers
 * are let in every few milliseconds of copying (a row of the template with its result columns and styles is
 * tens of microseconds).
 */
export const LIVE_ROWS_PER_TURN = 16;

/**
 * The input's sheets read whole into memory first, for a writer that waits between rows (live row marks): only
 * for a small input (LIVE_RESULTS_MAX_BYTES), since exceljs's streaming reader must not be kept waiting. Read
 * beside the job, so fed to the reader a slice of its XML (4 KB, workbook/feed.ts) per turn of the event loop:
 * about as many rows as LIVE_ROWS_PER_TURN.
 */
async function* wholeSheets(path: string): AsyncGenerator<SourceSheet> {
  const read: SourceSheet[] = [];
  for await (const sheet of sourceSheets(path, () => true, new Slicer({ sliceMs: 0 }))) {
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

function isLive(marks: RowMarks): marks is LiveRowMarks {
  return 'ready' in marks;
}

/**
 * The results workbook of a job: the input's rows with each row's mark (rowMarks of the job's index). With live
 * row marks (liveRowMarks) it runs beside the job: the input is
 * read whole first (at most LIVE_RESULTS_MAX_BYTES), each row is written once its entry has settled, and the
 * Report sheet once `result` (then a promise of the job's result) is there.
 */
export async function writeResultsWorkbook(
  inputPath: string,
  plan: PlanHeader,
  result: JobResultSummary | Promise<JobResultSummary>,
  outPath: string,
  marks: RowMarks,
): Promise<void> {
  if (sameFile(inputPath, outPath))
    throw new Error('The results workbook must be a new file: the input workbook is never changed.');
  const live = isLive(marks) ? marks : null;
  if (live && !liveResultsFit(inputPath))
    throw new Error(
      `a results workbook is written beside its job only for inputs up to ${LIVE_RESULTS_MAX_BYTES} bytes`,
    );
  // Streamed: the input is read row by row and the copy written row by row (exceljs's streaming writer,
  // strings inline so no table of every string is kept), so memory does not grow with the rows.
  // Written to a temporary file renamed into place: a failed or interrupted write leaves no half workbook.
  // Beside the job, the work is cut into short slices with turns of the event loop between them (the job's
  // answers are let in): every LIVE_ROWS_PER_TURN rows, between the sheets, before the Report sheet and the
  // commit. Not after the job: exceljs's streaming reader must not be kept waiting between rows or sheets, and
  // the input there is read as it is copied (live, it was read whole first).
  const turn = live ? nextTurn : null;
  const rowTurn = live ? turnEvery(LIVE_ROWS_PER_TURN) : null;
  await writeAtomic(outPath, async (tmp) => {
    if (turn) await turn();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: tmp, useStyles: true, useSharedStrings: false });
    const styleOf = styleCache();
    const kept = new Set<string>();
    if (turn) await turn();
    for await (const sheet of live ? wholeSheets(inputPath) : sourceSheets(inputPath, () => true)) {
      if (turn) await turn();
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
          ws.getColumn(layout.col._outcome).width = 18;
          if (!first || first.number !== 1) headerCells(ws.getRow(1), null, layout.col).commit();
        }
        return ws;
      };
      for await (const row of sheet.rows()) {
        if (skip) continue;
        const t = rowTurn?.();
        if (t) await t;
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
            asText(o.getCell(col._outcome), OUTCOME_WORDS[mark.outcome]);
          } else {
            copyRow(row, o, undefined, 0, defaultStyle, styleOf);
            if (mapping && row.hasValues) {
              asText(o.getCell(col._result), 'mapping');
              asText(o.getCell(col._outcome), MAPPING_WORDS);
            }
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
    const done = await result;
    if (turn) await turn();
    addReportSheet(wb, plan, done, reportName);
    reportFirst(wb);
    if (turn) await turn();
    await wb.commit();
  });
}

/** The header cells of the result columns (bold italic), on the input's header row or a new one. */
function headerCells(o: ExcelJS.Row, src: SourceRow | null, col: Record<WorkbookResultColumn, number>): ExcelJS.Row {
  for (const c of WORKBOOK_RESULT_COLUMNS) {
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
  const info: [string, string | number | Date][] = [
    ['Job id', result.jobId],
    ['Workbook', plan.file],
    ['Status', result.status],
    ['Started', dateOf(result.startedAt)],
    ['Finished', result.finishedAt ? dateOf(result.finishedAt) : ''],
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
    const cell = row.getCell(2);
    if (v instanceof Date) {
      cell.value = v;
      cell.numFmt = 'yyyy-mm-dd hh:mm:ss';
      cell.alignment = { horizontal: 'left' };
    } else cell.value = typeof v === 'number' ? v : String(v);
  }
  for (const l of result.entitlementLimits) {
    const row = ws.addRow(['Licence limit', null]);
    row.getCell(1).font = { bold: true };
    row.getCell(2).value = `${l.dimension}: ${l.usage} / ${l.limit}`;
  }
  ws.addRow([]);
  const head = ws.addRow(['Sheet (rows)', ...OUTCOME_ORDER.map((o) => OUTCOME_WORDS[o]), 'total']);
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

/**
 * A time of the job as a date cell (Excel shows it as a date and sorts it as one), in UTC as the job records it;
 * a text that is no time stays text.
 */
function dateOf(iso: string): Date | string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d;
}

/**
 * The Report sheet first among the tabs: it is written last (its counts are known at the end), so its place in the
 * workbook's list of sheets is moved before the copied sheets. exceljs's streaming writer lists the sheets, their
 * relationships and content types from its table of worksheets when it commits, in that table's order; each
 * sheet's part keeps its own name.
 */
function reportFirst(wb: ExcelJS.stream.xlsx.WorkbookWriter): void {
  const table = (wb as unknown as { _worksheets: (ExcelJS.Worksheet | undefined)[] })._worksheets;
  const sheets = table.filter((w): w is ExcelJS.Worksheet => w !== undefined);
  const report = sheets.pop();
  if (!report) return;
  // index 0 stays a hole, as the writer leaves it (it walks the table with map, which skips holes)
  table.length = 0;
  [report, ...sheets].forEach((w, i) => (table[i + 1] = w));
}
