/**
 * How a sheet of the workbook format looks in a file: header row with notes, styles, widths, frozen header,
 * dropdowns and number validation, the hidden `lists` sheet and the Instructions sheet. Used by the template
 * writer and by writeWorkbook (exports), through exceljs's streaming WorkbookWriter.
 */
import ExcelJS from 'exceljs';
import { columnLetter } from './cell-ref.js';
import { UNITS, BOM_COMPONENT_TYPES, MATERIAL_CATEGORIES } from '../spec/constants.js';
import { ISO_COUNTRY_CODES } from './countries.js';
import { type Column } from './columns.js';
import { DATA_SHEETS, columnsOf } from './registry.js';
import type { SheetDef } from './sheet-def.js';
import { TEMPLATE_WORDS, expectationIn, purposeIn, registryText, type TemplateLang } from './template-words.js';
import { CHILD_ROW_ACTIONS, INSTRUCTIONS_SHEET, LISTS_SHEET, ROW_ACTIONS, type ListName } from './types.js';
import { turnEvery } from '../throttle.js';

/** Rows 2..N+1 carry dropdowns and number validation (a bound keeps files small and fast to open). */
export const VALIDATION_ROWS = 10_000;

/**
 * Rows of a sheet of the format written between two turns of the event loop (turnEvery): a few milliseconds of
 * work at most, and a turn costs next to nothing against the rows of a large export.
 */
export const FORMAT_ROWS_PER_TURN = 32;

/**
 * Rows of the Instructions sheet between two turns: long texts, and written first, while a fresh process's code is
 * still cold (a few of its rows take as long as a slice of data rows).
 */
export const INSTRUCTION_ROWS_PER_TURN = 8;

const LISTS: { name: ListName; values: readonly string[] }[] = [
  { name: 'country', values: ISO_COUNTRY_CODES },
  { name: 'unit', values: UNITS },
  { name: 'component_type', values: BOM_COMPONENT_TYPES },
  { name: 'category', values: MATERIAL_CATEGORIES },
  { name: 'row_action', values: ROW_ACTIONS },
  { name: 'child_row_action', values: CHILD_ROW_ACTIONS },
];

const REQUIRED_FILL = 'FFFCE4C4';
const OPTIONAL_FILL = 'FFE7ECF3';
const REFERENCE_FILL = 'FFEDEDED';

export type WritableValue = string | number | boolean | null | undefined;
export type WritableRow = Record<string, WritableValue>;

export interface ExtraColumn {
  /** Key of the value in each row. */
  key: string;
  header: string;
  width?: number;
  hidden?: boolean;
  /** The header cell's note: what the column is, for whoever unhides it. */
  note?: string;
}

export interface SheetContent {
  def: SheetDef;
  /** In memory, or streamed (e.g. read back from a file, so that a large sheet is never held whole). */
  rows: Iterable<WritableRow> | AsyncIterable<WritableRow>;
  extraColumns?: readonly ExtraColumn[];
}

/** The header note: description, required or not, type, unit, allowed values, what blank means. */
export function headerNote(field: string, c: Column, referenceOnly = false, lang: TemplateLang = 'en'): string {
  const w = TEMPLATE_WORDS[lang];
  const description = registryText(c.description, lang);
  if (referenceOnly) return [`${field}`, description, w.referenceOnly].join('\n');
  const lines = [`${field} (${c.required ? w.required : w.optional})`, description];
  lines.push(w.expected(expectationIn(c, lang)));
  if (c.unit) lines.push(w.unit(c.unit));
  lines.push(c.required ? w.mustNotBeBlank : w.blankKeeps);
  return lines.join('\n');
}

function listRange(name: ListName): string {
  const i = LISTS.findIndex((l) => l.name === name);
  const col = columnLetter(i + 1);
  return `${LISTS_SHEET}!$${col}$2:$${col}$${LISTS[i].values.length + 1}`;
}

function validationFor(c: Column, lang: TemplateLang): ExcelJS.DataValidation | null {
  const w = TEMPLATE_WORDS[lang];
  const expected = w.checkExpected(expectationIn(c, lang));
  const strict = c.required;
  const base = {
    allowBlank: true,
    showErrorMessage: true,
    // Optional columns only warn, so a user can still type #CLEAR.
    errorStyle: strict ? 'stop' : 'warning',
    errorTitle: w.notAllowedTitle,
  } as const;
  switch (c.type) {
    case 'enum':
      if (!c.list) return null;
      return {
        ...base,
        type: 'list',
        formulae: [listRange(c.list)],
        error: (c.allowed?.length ?? 0) > 12 ? w.pickFromList : expected,
      };
    case 'year':
    case 'integer':
      return {
        ...base,
        type: 'whole',
        operator: 'between',
        formulae: [c.min ?? -2147483648, c.max ?? 2147483647],
        error: expected,
      };
    case 'decimal': {
      const error = expected;
      if (c.min !== undefined && c.max !== undefined)
        return { ...base, type: 'decimal', operator: 'between', formulae: [c.min, c.max], error };
      if (c.min !== undefined)
        return {
          ...base,
          type: 'decimal',
          operator: c.minExclusive ? 'greaterThan' : 'greaterThanOrEqual',
          formulae: [c.min],
          error,
        };
      return { ...base, type: 'decimal', operator: 'between', formulae: [-1e15, 1e15], error };
    }
    default:
      return null;
  }
}

const TEXT_TYPES = new Set(['text', 'code', 'uuid', 'enum']);

/** Add one sheet of the format (header, notes, widths, frozen header, validation) with its rows. */
export async function addFormatSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  content: SheetContent,
  lang: TemplateLang = 'en',
): Promise<void> {
  const { def } = content;
  const cols = columnsOf(def);
  const extras = content.extraColumns ?? [];
  const ws = wb.addWorksheet(def.name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0, activeCell: 'A2' }] });
  ws.columns = [
    ...cols.map(([field, c]) => ({
      key: field,
      width: Math.max(c.width, field.length + 3),
      // Text columns are formatted as Text so a typed code like 00123 stays 00123.
      style: TEXT_TYPES.has(c.type) ? { numFmt: '@' } : c.type === 'year' ? { numFmt: '0' } : {},
    })),
    ...extras.map((e) => ({
      key: e.key,
      width: e.width ?? Math.max(12, e.header.length + 3),
      hidden: e.hidden ?? false,
    })),
  ];

  const header = ws.getRow(1);
  cols.forEach(([field, c], i) => {
    const cell = header.getCell(i + 1);
    cell.value = field;
    cell.note = headerNote(field, c, def.referenceOnly, lang);
    cell.font = { bold: true };
    cell.fill = {
      type: 'pattern',
      pattern: 'solid',
      fgColor: { argb: def.referenceOnly ? REFERENCE_FILL : c.required ? REQUIRED_FILL : OPTIONAL_FILL },
    };
  });
  extras.forEach((e, i) => {
    const cell = header.getCell(cols.length + i + 1);
    cell.value = e.header;
    if (e.note) cell.note = e.note;
    cell.font = { bold: true, italic: true };
  });
  header.commit();

  const styled = sharedStyles(ws);
  const turn = turnEvery(FORMAT_ROWS_PER_TURN);
  let r = 2;
  for await (const row of content.rows) {
    const t = turn();
    if (t) await t;
    const out = ws.getRow(r++);
    cols.forEach(([field, c], i) => setCell(out.getCell(i + 1), row[field], TEXT_TYPES.has(c.type)));
    extras.forEach((e, i) => setCell(out.getCell(cols.length + i + 1), row[e.key], false));
    styled(out);
    out.commit();
  }

  if (!def.referenceOnly) {
    // exceljs's typings omit `dataValidations` on worksheets; the streaming writer has it.
    const validations = (ws as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } })
      .dataValidations;
    cols.forEach(([, c], i) => {
      const v = validationFor(c, lang);
      if (v) {
        const letter = columnLetter(i + 1);
        validations.add(`${letter}2:${letter}${VALIDATION_ROWS + 1}`, v);
      }
    });
  }
  ws.commit();
}

/**
 * Gives a data row, before its commit, one style object per column (the column's style: what a new cell of it
 * gets) and one for the row itself. exceljs turns a style object into XML once and then knows it by identity,
 * where the object each new cell and row gets of its own is turned into XML every time (most of the time of
 * writing a large sheet). The same styles, so the same file.
 */
export function sharedStyles(ws: ExcelJS.Worksheet): (row: ExcelJS.Row) => void {
  const rowStyle: Partial<ExcelJS.Style> = {};
  const colStyle: Partial<ExcelJS.Style>[] = [];
  return (row) => {
    (row as unknown as { style: Partial<ExcelJS.Style> }).style = rowStyle;
    row.eachCell({ includeEmpty: true }, (cell, c) => {
      cell.style = colStyle[c - 1] ??= { ...ws.getColumn(c).style };
    });
  };
}

/**
 * Write one value. Strings are always string cells: a server text starting with =, +, - or @ never becomes a
 * formula (exceljs only writes a formula for a {formula} value; we never build one).
 */
function setCell(cell: ExcelJS.Cell, v: WritableValue, asText: boolean): void {
  if (v === undefined || v === null || v === '') return;
  if (typeof v === 'string') cell.value = v;
  else if (typeof v === 'number') cell.value = Number.isFinite(v) ? (asText ? String(v) : v) : null;
  else cell.value = asText ? String(v).toUpperCase() : v;
}

/** The hidden `lists` sheet: one column per dropdown list (a few hundred rows, with turns of the event loop). */
export async function addListsSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter): Promise<void> {
  const ws = wb.addWorksheet(LISTS_SHEET, { state: 'hidden' });
  ws.columns = LISTS.map((l) => ({ key: l.name, width: 18, style: { numFmt: '@' } }));
  const header = ws.getRow(1);
  LISTS.forEach((l, i) => (header.getCell(i + 1).value = l.name));
  header.commit();
  const n = Math.max(...LISTS.map((l) => l.values.length));
  const turn = turnEvery(FORMAT_ROWS_PER_TURN);
  for (let r = 0; r < n; r++) {
    const t = turn();
    if (t) await t;
    const row = ws.getRow(r + 2);
    LISTS.forEach((l, i) => {
      if (r < l.values.length) row.getCell(i + 1).value = l.values[r];
    });
    row.commit();
  }
  ws.commit();
}

/** Lines of the Instructions sheet: the onboarding order from the spec, each sheet, what blank means. */
export function instructionLines(
  included: readonly SheetDef[],
  lang: TemplateLang = 'en',
): (string | [string, string, string, string])[] {
  const w = TEMPLATE_WORDS[lang];
  const inFile = new Set(included.map((d) => d.name));
  const lines: (string | [string, string, string, string])[] = [...w.intro, [...w.tableHeader]];
  for (const d of DATA_SHEETS) {
    const required = columnsOf(d)
      .filter(([, c]) => c.required)
      .map(([f]) => f)
      .join(', ');
    lines.push([
      String(d.step),
      inFile.has(d.name) ? d.name : `${d.name} (${w.notInFile})`,
      purposeIn(d, lang),
      required,
    ]);
  }
  return lines;
}

/** The Instructions sheet (with turns of the event loop between its rows, as a sheet of the format). */
export async function addInstructionsSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  included: readonly SheetDef[],
  lang: TemplateLang = 'en',
): Promise<void> {
  const ws = wb.addWorksheet(INSTRUCTIONS_SHEET);
  ws.columns = [{ width: 8 }, { width: 26 }, { width: 90 }, { width: 60 }];
  const headerWord = TEMPLATE_WORDS[lang].tableHeader[0];
  const turn = turnEvery(INSTRUCTION_ROWS_PER_TURN);
  let r = 1;
  for (const line of instructionLines(included, lang)) {
    const t = turn();
    if (t) await t;
    const row = ws.getRow(r);
    if (typeof line === 'string') {
      row.getCell(1).value = line || null;
      if (r === 1) row.getCell(1).font = { bold: true, size: 14 };
    } else {
      line.forEach((v, i) => {
        const cell = row.getCell(i + 1);
        cell.value = v;
        cell.alignment = { wrapText: true, vertical: 'top' };
        if (line[0] === headerWord) cell.font = { bold: true };
      });
    }
    row.commit();
    r++;
  }
  ws.commit();
}
