/**
 * Cell coercion: turn what exceljs reads from a cell into the value a user means, for one column type.
 *
 * Decisions (documented in docs/workbook-format.md):
 * - Strings are trimmed (spaces, tabs, non-breaking spaces); an empty cell or only spaces = blank (not set).
 * - `#CLEAR` (any case) = clear the value on the service (null); only for optional columns.
 * - Formula cells: their cached result. A formula without a saved result, or one whose result is an error
 *   (#REF!, #DIV/0! …), is an error at the cell.
 * - Rich text: its plain text. Hyperlinks: their display text.
 * - Numbers stored as text are accepted: "12.5", "12,5" (one separator = the decimal separator), "1.234,5" and
 *   "1,234.5" (both: the last one is the decimal separator, the other groups thousands), "1 234,5", "1'234.5".
 *   A lone separator between 1–3 digits and exactly three digits ("1,250", "1.250") is refused as ambiguous
 *   (1.25 or 1250?): an error at the cell asks for a real number.
 *   "%" is refused (write 30 for 30 %).
 * - A number in a text/code column becomes its text ("10023"); beyond 15 significant digits with a warning.
 * - A date (or an Excel date serial) in a year column becomes its year, with a warning. A date in a text
 *   column is an error (Excel changed what was typed).
 * - Enum values match without regard to case and surrounding spaces ("kg" → KG).
 */
import type { Column } from './columns.js';
import { CLEAR_MARKER, type CellScalar, type IssueCode, type IssueParams } from './types.js';

export interface CellNote {
  code: IssueCode;
  message: string;
  /** What the message is built from (see Issue.params); the field is added by the reader. */
  params?: IssueParams;
}

export type Coerced =
  | { kind: 'blank' }
  | { kind: 'clear' }
  | { kind: 'value'; value: CellScalar; warning?: CellNote }
  | { kind: 'error'; error: CellNote };

const BLANK: Coerced = { kind: 'blank' };
const CLEAR: Coerced = { kind: 'clear' };

/** What exceljs gives for a cell value (streaming reader). */
type Raw = unknown;

/** 1900 date system epoch as JS time (Excel serial 0 = 1899-12-30 for serials ≥ 61). */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);
const DAY_MS = 86_400_000;
/** Largest Excel date serial (9999-12-31). */
const MAX_SERIAL = 2_958_465;

export function excelSerialToDate(serial: number, date1904 = false): Date {
  return new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + Math.floor(serial) * DAY_MS);
}

export function show(v: unknown): string {
  if (typeof v === 'string') {
    const s = v.length > 40 ? `${v.slice(0, 37)}…` : v;
    return `"${s.replace(/[\u0000-\u001f\u007f]/g, '�')}"`;
  }
  if (v instanceof Date) return isoDay(v);
  return String(v);
}

function isoDay(d: Date): string {
  return Number.isNaN(d.getTime()) ? 'an invalid date' : d.toISOString().slice(0, 10);
}

interface ErrorValue {
  error: string;
}
interface FormulaValue {
  formula?: string;
  sharedFormula?: string;
  result?: unknown;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !(v instanceof Date);
}

/** Plain text of a rich-text value ({richText: [{text}]}). */
function richTextOf(v: { richText: unknown }): string {
  return Array.isArray(v.richText)
    ? v.richText.map((r: { text?: unknown }) => (typeof r?.text === 'string' ? r.text : '')).join('')
    : '';
}

/**
 * The scalar a cell shows: string | number | boolean | Date, or an error note (formula error, formula without
 * result), or undefined when empty.
 */
export function unwrapCell(raw: Raw): string | number | boolean | Date | undefined | { error: CellNote } {
  if (raw === null || raw === undefined) return undefined;
  const t = typeof raw;
  if (t === 'string' || t === 'number' || t === 'boolean') {
    if (t === 'number' && Number.isNaN(raw))
      return {
        error: { code: 'formula_error', message: 'the cell holds an error value', params: { variant: 'value' } },
      };
    return raw as string | number | boolean;
  }
  if (raw instanceof Date) return raw;
  if (!isObject(raw)) return undefined;
  if ('richText' in raw) return richTextOf(raw as { richText: unknown });
  if ('error' in raw) {
    const code = String((raw as unknown as ErrorValue).error);
    return { error: { code: 'formula_error', message: `the cell shows the error ${code}`, params: { error: code } } };
  }
  if ('formula' in raw || 'sharedFormula' in raw) {
    const f = raw as FormulaValue;
    const formulaText = f.formula ? `=${f.formula.length > 60 ? `${f.formula.slice(0, 57)}…` : f.formula}` : '';
    const formula = formulaText ? ` ${formulaText}` : '';
    const formulaParams: IssueParams = { formula: formulaText };
    const result = f.result;
    if (result === undefined || result === null)
      return {
        error: {
          code: 'formula_without_result',
          message: `the formula${formula} has no saved result; open the file in Excel and save it, or type the value`,
          params: formulaParams,
        },
      };
    const inner = unwrapCell(result);
    if (
      (typeof inner === 'object' && inner !== null && !(inner instanceof Date)) ||
      (typeof result === 'number' && Number.isNaN(result))
    )
      return {
        error: {
          code: 'formula_error',
          message: `the formula${formula} gives an error value (#REF!, #DIV/0!, #N/A …)`,
          params: { variant: 'formula', ...formulaParams },
        },
      };
    return inner;
  }
  if ('text' in raw) {
    // hyperlink {text, hyperlink}; text may itself be rich text
    const text = (raw as { text: unknown }).text;
    return isObject(text) && 'richText' in text
      ? richTextOf(text as { richText: unknown })
      : typeof text === 'string'
        ? text
        : undefined;
  }
  return undefined;
}

const GROUPING = /[\s\u00a0\u202f']/g;

/**
 * Excel writes characters XML cannot hold (control characters) as _xHHHH_ in the text of an .xlsx (cells, shared
 * strings, sheet names); `_x005F_` is a literal underscore, so `_x005F_x000D_` is the text `_x000D_`. Decoded once,
 * left to right: a decoded escape is never read again.
 */
export function decodeEscapes(s: string): string {
  return s.includes('_x')
    ? s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    : s;
}

/**
 * A cell of an .xlsx with the `_xHHHH_` escapes of its text decoded (see decodeEscapes): a string, and the text
 * of rich text, a hyperlink or a formula's text result (as the decoded string). Numbers, dates, error values and
 * formulas without a text result are returned as they are. Only a workbook's cells: a CSV's text has no escapes.
 */
export function decodeCellText(raw: unknown): unknown {
  if (typeof raw === 'string') return raw.includes('_x') ? decodeEscapes(raw) : raw;
  if (!isObject(raw) || raw instanceof Date) return raw;
  const textual =
    'richText' in raw ||
    'text' in raw ||
    (('formula' in raw || 'sharedFormula' in raw) && typeof (raw as { result?: unknown }).result === 'string');
  if (!textual) return raw;
  const v = unwrapCell(raw as Raw);
  return typeof v === 'string' ? decodeEscapes(v) : raw;
}

/**
 * A number typed as text, as a user means it (see the module comment). Returns undefined when it is not a
 * number; `ambiguous` when a lone separator is followed by exactly three digits ("1,250", "1.250").
 */
export function parseNumberText(text: string): { value: number; ambiguous?: boolean } | undefined {
  const t = text.replace(GROUPING, '');
  if (t === '' || /%$/.test(t)) return undefined;
  if (/^[+-]?\d+$/.test(t)) return { value: Number(t) };
  // "1.250": 1.25 in English, 1250 in German — the same for "1,250". Refused as ambiguous.
  if (/^[+-]?[1-9]\d{0,2}\.\d{3}$/.test(t)) return { value: Number(t), ambiguous: true };
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return { value: Number(t) };
  const dots = (t.match(/\./g) ?? []).length;
  const commas = (t.match(/,/g) ?? []).length;
  const m = /^([+-]?)([\d.,]+)$/.exec(t);
  if (!m) return undefined;
  const [, sign, body] = m;
  let dec: string | null;
  let group: string | null;
  if (dots && commas) {
    dec = t.lastIndexOf('.') > t.lastIndexOf(',') ? '.' : ',';
    group = dec === '.' ? ',' : '.';
    if ((dec === '.' ? dots : commas) !== 1) return undefined;
  } else if (commas === 1) {
    dec = ',';
    group = null;
  } else if (commas > 1 || dots > 1) {
    dec = null;
    group = commas ? ',' : '.';
  } else return undefined;
  const [intPart, fracPart] = dec ? body.split(dec) : [body, undefined];
  if (group) {
    const groups = intPart.split(group);
    if (!/^\d{1,3}$/.test(groups[0]) || groups.slice(1).some((g) => !/^\d{3}$/.test(g))) return undefined;
  } else if (!/^\d*$/.test(intPart)) return undefined;
  if (fracPart !== undefined && !/^\d+$/.test(fracPart)) return undefined;
  const digits = intPart.split(group ?? '\u0000').join('') || '0';
  const value = Number(`${sign}${digits}${fracPart !== undefined ? `.${fracPart}` : ''}`);
  if (!Number.isFinite(value)) return undefined;
  const ambiguous = dec === ',' && !group && /^[1-9]\d{0,2}$/.test(intPart) && fracPart?.length === 3;
  return ambiguous ? { value, ambiguous } : { value };
}

/**
 * A number typed as text with a known decimal mark: the other mark (and spaces, apostrophes) group thousands.
 * "12,5" → 12.5 and "1.250,5" → 1250.5 with ","; "1,250.5" → 1250.5 with ".".
 */
export function parseLocaleNumber(text: string, decimal: '.' | ','): { value: number } | undefined {
  const t = text.replace(GROUPING, '');
  if (t === '' || /%$/.test(t)) return undefined;
  if (/^[+-]?\d+(\.\d+)?e[+-]?\d+$/i.test(t)) return { value: Number(t) };
  const parts = t.split(decimal);
  if (parts.length > 2) return undefined;
  const [intRaw, frac] = parts;
  const g = decimal === ',' ? '\\.' : ',';
  const m = new RegExp(`^([+-]?)(\\d{1,3}(?:${g}\\d{3})+|\\d*)$`).exec(intRaw);
  if (!m || (frac !== undefined && !/^\d+$/.test(frac)) || (m[2] === '' && frac === undefined)) return undefined;
  const value = Number(`${m[1]}${m[2].replace(/[.,]/g, '') || '0'}${frac !== undefined ? `.${frac}` : ''}`);
  return Number.isFinite(value) ? { value } : undefined;
}

const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+Z?)?$/;
const DMY_DATE = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/;

/** Text date orders a source may declare (the column mapping's `csv.date`). */
export const DATE_ORDERS = ['DD.MM.YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

function validDay(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * The year of a date typed as text. Without a declared order: ISO or day-first (`01.03.2025`, `01/03/2025`),
 * as today. With one (`csv.date`): ISO (unambiguous) or exactly that order, and a real calendar day —
 * `31.02.2025` or `03/25/2025` under DD/MM/YYYY is no date. `null`: date-shaped but not one in that order.
 */
function yearOfDateText(s: string, order?: DateOrder): number | null | undefined {
  const iso = ISO_DATE.exec(s);
  if (iso) return !order || validDay(Number(iso[1]), Number(iso[2]), Number(iso[3])) ? Number(iso[1]) : null;
  const dmy = DMY_DATE.exec(s);
  if (!dmy) return undefined;
  if (!order) return Number(dmy[3]);
  const sep = s.includes('.') ? '.' : '/';
  const [a, b, y] = [Number(dmy[1]), Number(dmy[2]), Number(dmy[3])];
  const fits =
    (order === 'DD.MM.YYYY' && sep === '.' && validDay(y, b, a)) ||
    (order === 'DD/MM/YYYY' && sep === '/' && validDay(y, b, a)) ||
    (order === 'MM/DD/YYYY' && sep === '/' && validDay(y, a, b));
  return fits ? y : null;
}

export interface CoerceContext {
  field: string;
  expected: string;
  /** expectationParams of the column: what `expected` says, as data for the issue's params. */
  expectedParams?: IssueParams;
  date1904: boolean;
  /** The source's decimal mark (a CSV's locale, from the column mapping): resolves "1,250" / "1.250". */
  decimal?: '.' | ',';
  /** The source's date order (a CSV's locale, from the column mapping's `csv.date`): how a date in text is read. */
  dateOrder?: DateOrder;
}

function wrong(ctx: CoerceContext, got: unknown, code: IssueCode = 'wrong_type'): Coerced {
  return {
    kind: 'error',
    error: {
      code,
      message: `${ctx.field}: expected ${ctx.expected}, got ${show(got)}`,
      params: { ...ctx.expectedParams, got: show(got) },
    },
  };
}

/** A date where a year belongs: its year is used, with a warning naming the date as the cell holds it. */
function yearOfDate(ctx: CoerceContext, date: string, y: number): Coerced {
  return {
    kind: 'value',
    value: y,
    warning: {
      code: 'date_as_year',
      message: `${ctx.field}: the cell holds the date ${date} where a year belongs; the year ${y} is used`,
      params: { date, year: y },
    },
  };
}

function dateAsYear(ctx: CoerceContext, d: Date): Coerced {
  return yearOfDate(ctx, isoDay(d), d.getUTCFullYear());
}

/** Returned by quickCoerce when the cell needs the full coerceCell. */
export const NEEDS_FULL_COERCION: unique symbol = Symbol('needs full coercion');

/**
 * The common cases without allocating (large sheets are mostly plain numbers and strings): a value,
 * undefined (blank), null (#CLEAR), or NEEDS_FULL_COERCION. Same results as coerceCell for the cases it takes.
 */
export function quickCoerce(
  raw: Raw,
  col: Column,
  allowed?: ReadonlySet<string>,
): CellScalar | null | undefined | typeof NEEDS_FULL_COERCION {
  if (typeof raw === 'number') {
    if (raw !== raw) return NEEDS_FULL_COERCION; // NaN: an error value
    if (col.type === 'decimal' || col.type === 'integer') return raw;
    if (col.type === 'year' && raw >= 1900 && raw <= 2200) return raw;
    return NEEDS_FULL_COERCION;
  }
  if (typeof raw === 'string') {
    if (col.type === 'text' || col.type === 'code' || col.type === 'uuid') {
      const s = raw.trim();
      if (s === '') return undefined;
      if (s.length === CLEAR_MARKER.length && s.toUpperCase() === CLEAR_MARKER) return null;
      return s;
    }
    if (col.type === 'enum' && allowed?.has(raw)) return raw;
  }
  return NEEDS_FULL_COERCION;
}

/** Coerce one cell for a column. `raw` is the exceljs cell value. */
export function coerceCell(raw: Raw, col: Column, ctx: CoerceContext): Coerced {
  // Fast paths: the common cases in large sheets.
  if (typeof raw === 'number' && (col.type === 'decimal' || col.type === 'integer') && !Number.isNaN(raw))
    return { kind: 'value', value: raw };
  const v = unwrapCell(raw);
  if (v === undefined) return BLANK;
  if (typeof v === 'object' && !(v instanceof Date))
    return {
      kind: 'error',
      error: {
        code: v.error.code,
        message: `${ctx.field}: ${v.error.message}`,
        ...(v.error.params && { params: v.error.params }),
      },
    };

  if (typeof v === 'string') {
    const s = v.trim();
    if (s === '') return BLANK;
    if (s.length === CLEAR_MARKER.length && s.toUpperCase() === CLEAR_MARKER) return CLEAR;
    switch (col.type) {
      case 'text':
      case 'code':
      case 'uuid':
        return { kind: 'value', value: s };
      case 'enum': {
        const hit = col.allowed?.find((a) => a.toUpperCase() === s.toUpperCase().replace(/\s+/g, ' '));
        return { kind: 'value', value: hit ?? s };
      }
      case 'decimal':
      case 'integer': {
        const n = ctx.decimal ? parseLocaleNumber(s, ctx.decimal) : parseNumberText(s);
        if (!n) return wrong(ctx, s);
        if ('ambiguous' in n && n.ambiguous)
          return {
            kind: 'error',
            error: {
              code: 'number_as_text_ambiguous',
              message: `${ctx.field}: the text ${show(s)} could mean ${n.value} or ${Math.round(n.value * 1000)} (a decimal mark or a thousands separator?); type the number itself (${n.value} or ${Math.round(n.value * 1000)})`,
              params: { text: show(s), small: n.value, large: Math.round(n.value * 1000) },
            },
          };
        return { kind: 'value', value: n.value };
      }
      case 'year': {
        const n = parseNumberText(s);
        if (n) return yearFromNumber(n.value, ctx);
        const y = yearOfDateText(s, ctx.dateOrder);
        if (y === null)
          return {
            kind: 'error',
            error: {
              code: 'wrong_type',
              message: `${ctx.field}: expected ${ctx.expected} or a date as ${ctx.dateOrder} (the column mapping's csv.date), got ${show(s)}`,
              params: { ...ctx.expectedParams, got: show(s) },
            },
          };
        if (y !== undefined) return yearOfDate(ctx, show(s), y);
        return wrong(ctx, s);
      }
    }
  }

  if (typeof v === 'number') {
    switch (col.type) {
      case 'decimal':
      case 'integer':
        return { kind: 'value', value: v };
      case 'year':
        return yearFromNumber(v, ctx);
      case 'enum':
      case 'text':
      case 'code':
      case 'uuid': {
        const text = String(v);
        if (Number.isSafeInteger(v) || (Math.abs(v) < 1e15 && !/e/i.test(text))) return { kind: 'value', value: text };
        return {
          kind: 'value',
          value: text,
          warning: {
            code: 'number_as_text_imprecise',
            message: `${ctx.field}: Excel stored ${text} as a number and may have changed its digits; format the column as Text and type it again`,
            params: { text },
          },
        };
      }
    }
  }

  if (v instanceof Date) {
    if (col.type === 'year') return dateAsYear(ctx, v);
    if (col.type === 'decimal' || col.type === 'integer')
      return {
        kind: 'error',
        error: {
          code: 'wrong_type',
          message: `${ctx.field}: expected ${ctx.expected}, got the date ${isoDay(v)}`,
          params: { ...ctx.expectedParams, got: isoDay(v) },
        },
      };
    return {
      kind: 'error',
      error: {
        code: 'date_in_text_column',
        message: `${ctx.field}: Excel turned what was typed into the date ${isoDay(v)}; format the column as Text and type it again`,
        params: { date: isoDay(v) },
      },
    };
  }

  // boolean
  if (col.type === 'text' || col.type === 'code') return { kind: 'value', value: v ? 'TRUE' : 'FALSE' };
  return wrong(ctx, v ? 'TRUE' : 'FALSE');
}

function yearFromNumber(n: number, ctx: CoerceContext): Coerced {
  if (n >= 1900 && n <= 2200) return { kind: 'value', value: n };
  // An Excel date serial where a year belongs (e.g. 45292 = 2024-01-01).
  if (n > 2200 && n <= MAX_SERIAL) {
    const d = excelSerialToDate(n, ctx.date1904);
    const y = d.getUTCFullYear();
    if (y >= 1900 && y <= 2200) return dateAsYear(ctx, d);
  }
  return { kind: 'value', value: n }; // the schema says what is wrong with it
}
