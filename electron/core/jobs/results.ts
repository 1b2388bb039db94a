/**
 * Results of a job as workbooks.
 * - writeResultsWorkbook: a copy of the input (the input file is never written) with `_result`, `_id`,
 *   `_err_code` and `_message` appended to each data sheet, rows coloured by outcome, and a `Report` sheet
 *   (counts per sheet and outcome, start/end, duration, base URL, key masked, job id).
 * - writeFailedRowsWorkbook: only the rows that did not succeed, in the template format (with the mapping
 *   sheets, so the codes resolve the same way), ready to fix and import again.
 * Strings from the service (messages, ids, codes) are written as string cells, never as formulas.
 */
import { resolve } from 'node:path';
import { writeFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { DATA_SHEETS, getSheet, normaliseHeader } from '../workbook/registry.js';
import { writeFormatWorkbook } from '../workbook/template.js';
import type { ExtraColumn, SheetContent, WritableRow, WritableValue } from '../workbook/xlsx-layout.js';
import { DATA_SHEET_NAMES, type DataSheetName } from '../workbook/types.js';
import {
  SUCCESS_OUTCOMES,
  type EntryOutcome,
  type JobResult,
  type OutcomeCounts,
  type Plan,
  type PlanEntry,
  type RowOutcome,
} from './types.js';

export const RESULT_COLUMNS = ['_result', '_id', '_err_code', '_message'] as const;
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

interface RowResult {
  entry: PlanEntry;
  outcome: EntryOutcome | { key: string; outcome: 'pending' };
}

/** worksheet row → the entry (and outcome) it belongs to, per registry sheet. */
function rowIndex(plan: Plan, result: JobResult): Map<DataSheetName, Map<number, RowResult>> {
  const outcomes = new Map(result.entries.map((o) => [o.key, o]));
  const idx = new Map<DataSheetName, Map<number, RowResult>>();
  for (const entry of plan.entries) {
    const outcome = outcomes.get(entry.key) ?? { key: entry.key, outcome: 'pending' as const };
    for (const r of entry.rows) {
      let m = idx.get(r.sheet);
      if (!m) idx.set(r.sheet, (m = new Map()));
      m.set(r.row, { entry, outcome });
    }
  }
  return idx;
}

/** The message a row gets: the error with the catalog's explanation, the skip reason, or what changed. */
export function outcomeMessage(entry: PlanEntry, o: EntryOutcome | { key: string; outcome: 'pending' }): string {
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
    if (full.reason === 'create_only' && entry.changes) return `${full.msg ?? 'skipped'}: ${changesText(entry)}`;
    return full.msg ?? 'skipped';
  }
  if (full.outcome === 'updated' && entry.changes) return changesText(entry);
  if (full.outcome === 'replaced' && entry.bomDiff) {
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

/** Find a header cell by field name (row 1), or null. */
function headerColumns(ws: ExcelJS.Worksheet): { byName: Map<string, number>; last: number } {
  const byName = new Map<string, number>();
  let last = 0;
  ws.getRow(1).eachCell({ includeEmpty: false }, (cell, col) => {
    const text = cellText(cell.value).trim();
    if (text === '') return;
    last = Math.max(last, col);
    byName.set(normaliseHeader(text) || text, col);
    byName.set(text, col);
  });
  return { byName, last };
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

function registryNameOf(plan: Plan, sheetName: string): DataSheetName | null {
  for (const name of DATA_SHEET_NAMES) if (plan.sheetNames[name] === sheetName) return name;
  return null;
}

function sameFile(a: string, b: string): boolean {
  return resolve(a) === resolve(b);
}

/**
 * Give a cell its own style with the outcome's fill (or no fill). exceljs hands every cell read with the same
 * style id ONE shared style object, so `cell.fill = …` would repaint every cell sharing it — other rows, other
 * sheets (lists, Instructions) — with whatever outcome came last. A fresh object per cell keeps it to this cell.
 */
function setOwnFill(cell: ExcelJS.Cell, argb: string | null): void {
  const style: Partial<ExcelJS.Style> = { ...cell.style };
  if (argb) style.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb } };
  else delete style.fill;
  cell.style = style;
}

function asText(cell: ExcelJS.Cell, v: string | undefined | null): void {
  cell.value = v === undefined || v === null || v === '' ? null : String(v);
}

export async function writeResultsWorkbook(
  inputPath: string,
  plan: Plan,
  result: JobResult,
  outPath: string,
): Promise<void> {
  if (sameFile(inputPath, outPath))
    throw new Error('The results workbook must be a new file: the input workbook is never changed.');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(inputPath);
  const idx = rowIndex(plan, result);

  for (const ws of wb.worksheets) {
    const name = registryNameOf(plan, ws.name);
    if (!name) continue;
    const { byName, last } = headerColumns(ws);
    const col: Record<(typeof RESULT_COLUMNS)[number], number> = { _result: 0, _id: 0, _err_code: 0, _message: 0 };
    let next = last + 1;
    for (const c of RESULT_COLUMNS) {
      const existing = byName.get(c);
      col[c] = existing ?? next++;
      const h = ws.getRow(1).getCell(col[c]);
      h.value = c;
      h.style = { ...h.style, font: { bold: true, italic: true } };
    }
    ws.getColumn(col._message).width = 60;
    ws.getColumn(col._id).width = 38;
    ws.getColumn(col._result).width = 16;
    const width = Math.max(next - 1, ...Object.values(col));
    const rows = idx.get(name) ?? new Map<number, RowResult>();
    const mapping = name === 'plants' || name === 'materials';
    const lastRow = ws.rowCount;
    for (let r = 2; r <= lastRow; r++) {
      const row = ws.getRow(r);
      const rr = rows.get(r);
      if (!rr) {
        if (!row.hasValues) continue;
        if (mapping) asText(row.getCell(col._result), 'mapping');
        continue;
      }
      const o = rr.outcome;
      const full = o as EntryOutcome;
      asText(row.getCell(col._result), o.outcome);
      asText(row.getCell(col._id), full.id ?? rr.entry.id ?? '');
      asText(row.getCell(col._err_code), full.err_code ?? '');
      asText(row.getCell(col._message), outcomeMessage(rr.entry, o));
      const fill = OUTCOME_FILLS[o.outcome];
      for (let c = 1; c <= width; c++) setOwnFill(row.getCell(c), fill);
    }
  }

  // A Report sheet of an earlier results workbook is replaced; a sheet of the user's with that name is kept.
  let name = REPORT_SHEET;
  for (let i = 2; wb.getWorksheet(name); i++) {
    const old = wb.getWorksheet(name)!;
    if (old.getCell('A1').value === REPORT_TITLE) {
      wb.removeWorksheet(old.id);
      break;
    }
    name = `${REPORT_SHEET} (${i})`;
  }
  addReportSheet(wb, plan, result, name);
  await wb.xlsx.writeFile(outPath);
}

function addReportSheet(wb: ExcelJS.Workbook, plan: Plan, result: JobResult, name: string): void {
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
}

/** True when the entry's outcome counts as success. */
function succeeded(o: EntryOutcome | { key: string; outcome: 'pending' }): boolean {
  return o.outcome !== 'pending' && SUCCESS_OUTCOMES.includes(o.outcome);
}

export async function writeFailedRowsWorkbook(
  inputPath: string,
  plan: Plan,
  result: JobResult,
  outPath: string,
): Promise<{ rows: number }> {
  if (sameFile(inputPath, outPath))
    throw new Error('The failed-rows workbook must be a new file: the input workbook is never changed.');
  const idx = rowIndex(plan, result);
  // Nothing failed: the workbook is the empty template (below), so the input is not loaded at all (a whole-file
  // load of a 200,000-row workbook costs seconds and hundreds of MB).
  if (![...idx.values()].some((rows) => [...rows.values()].some((rr) => !succeeded(rr.outcome)))) {
    await writeFile(outPath, await writeFormatWorkbook([{ def: getSheet('supplier-companies'), rows: [] }], { instructionsFor: [] }));
    return { rows: 0 };
  }
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(inputPath);
  const contents: SheetContent[] = [];
  const extras: ExtraColumn[] = [
    { key: '_err_code', header: '_err_code', width: 28 },
    { key: '_message', header: '_message', width: 60 },
  ];
  let count = 0;
  for (const name of DATA_SHEETS.map((d) => d.name as DataSheetName)) {
    const sheetName = plan.sheetNames[name];
    const ws = sheetName ? wb.getWorksheet(sheetName) : undefined;
    const letters = plan.sheetColumns[name] ?? {};
    const def = getSheet(name);
    const mapping = name === 'plants' || name === 'materials';
    const out: WritableRow[] = [];
    if (ws) {
      const rows = idx.get(name) ?? new Map<number, RowResult>();
      const picked = [...rows.entries()].filter(([, rr]) => !succeeded(rr.outcome)).sort((a, b) => a[0] - b[0]);
      const wanted = mapping ? rowsWithValues(ws) : picked.map(([r]) => r);
      for (const r of wanted) {
        const row = ws.getRow(r);
        const values: WritableRow = {};
        for (const field of Object.keys(def.columns)) {
          const letter = letters[field];
          if (!letter) continue;
          const v = plainValue(row.getCell(letter).value);
          if (v !== null && v !== undefined && v !== '') values[field] = v;
        }
        const rr = rows.get(r);
        if (rr) {
          const full = rr.outcome as EntryOutcome;
          values._err_code =
            full.err_code ?? (rr.outcome.outcome === 'skipped' ? `skipped:${full.reason ?? ''}` : rr.outcome.outcome);
          values._message = outcomeMessage(rr.entry, rr.outcome);
          count++;
        }
        out.push(values);
      }
    }
    if (out.length > 0) contents.push({ def, rows: out, extraColumns: mapping ? [] : extras });
  }
  // Mapping sheets alone are no failed rows: leave them out when nothing failed.
  const finalContents = count === 0 ? [] : contents;
  const buf = await writeFormatWorkbook(
    finalContents.length ? finalContents : [{ def: getSheet('supplier-companies'), rows: [] }],
    {
      instructionsFor: finalContents.map((c) => c.def),
    },
  );
  await writeFile(outPath, buf);
  return { rows: count };
}

function rowsWithValues(ws: ExcelJS.Worksheet): number[] {
  const out: number[] = [];
  ws.eachRow({ includeEmpty: false }, (row, n) => {
    if (n > 1 && row.hasValues) out.push(n);
  });
  return out;
}
