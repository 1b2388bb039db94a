/**
 * What the app's Columns step shows: per source, its target sheet, header row, columns with
 * sample values and the suggested field (confidence; only ≥ HIGH_CONFIDENCE pre-selected), the target's fields
 * (required, enum values), whether the step is needed at all, and a saved mapping whose headers match the
 * sources (applied without asking). Product rules live here, not in ipc or the renderer.
 */
import { META_SHEETS } from '../reader.js';
import { columnsOf, getSheet, normaliseSheetName } from '../registry.js';
import { IssueList } from '../issues.js';
import { validateRow } from '../validate-row.js';
import { ValidationContext } from '../validation-context.js';
import { SheetRowReader } from '../sheet-rows.js';
import { DATA_SHEET_NAMES, type CellScalar, type DataSheetName, type IssueParams, type ParsedSheet } from '../types.js';
import type { PeekedSource } from '../sources/peek.js';
import { targetOf } from './match.js';
import { parseColumnMapping, type ColumnMapping } from './schema.js';
import { HIGH_CONFIDENCE, suggestMapping, type ColumnSuggestion, type KnownCodes } from './suggest.js';

export const SAMPLE_ROWS = 5;

export interface ColumnsSource {
  source: string;
  isCsv: boolean;
  sheet: DataSheetName | null;
  headerRow: number;
  columns: { column: string; samples: string[]; suggestion: ColumnSuggestion | null }[];
  fields: { field: string; required: boolean; allowed: string[] }[];
  unmappedRequired: string[];
  /**
   * The source needs the Columns step: a CSV, a header row below a title, a sheet a person chose, or a header
   * that is not a field name of its sheet. A template sheet read as it is does not (it is not shown there).
   */
  needed: boolean;
}

export interface ColumnsView {
  sources: ColumnsSource[];
  /** the suggested mapping: high-confidence columns only, unmatched columns ignored */
  draft: ColumnMapping;
  /** true when a source needs the Columns step */
  needed: boolean;
  /** the sheets a source may feed (what the Columns step offers to choose from) */
  targetSheets: DataSheetName[];
  /** a saved mapping whose headers all match the sources */
  saved: { name: string; mapping: ColumnMapping } | null;
}

function headersAt(src: PeekedSource, row: number): string[] {
  return (src.rows[row - 1] ?? []).filter((h) => h !== '' && !h.startsWith('_'));
}

/**
 * A saved mapping fits the sources when every source file finds its sheet, every sheet entry finds its source
 * (by `source` or by name), every column it maps and every column it ignores is a header of that source's
 * header row, and the source has no header the mapping does not account for (a new column must be decided by a
 * person).
 */
export function mappingFits(mapping: ColumnMapping, sources: readonly PeekedSource[]): boolean {
  const entries = Object.entries(mapping.sheets);
  if (entries.length === 0) return false;
  // Every source file must find its sheet: a file the mapping does not know (a supplier list dropped beside the
  // monthly material list) opens the Columns step rather than being left unread.
  if (sources.some((s) => s.isFile && !targetOf(s.name, mapping, true))) return false;
  for (const [sheet, sm] of entries) {
    if (!sm) return false;
    const src = sources.find((s) => targetOf(s.name, mapping, s.isFile)?.sheet === sheet);
    if (!src) return false;
    const headers = new Set(headersAt(src, sm.header_row ?? 1));
    const known = [...Object.keys(sm.columns ?? {}), ...(sm.ignore ?? [])];
    if (!known.every((h) => headers.has(h))) return false;
    const fields = new Set(columnsOf(getSheet(sheet as DataSheetName)).map(([f]) => f));
    for (const h of headers) if (!known.includes(h) && !fields.has(h)) return false;
  }
  return true;
}

/** The first saved mapping (by name) that fits the sources; mappings with errors are skipped. */
export function findFittingMapping(
  saved: Record<string, unknown>,
  sources: readonly PeekedSource[],
): { name: string; mapping: ColumnMapping } | null {
  for (const name of Object.keys(saved).sort((a, b) => a.localeCompare(b))) {
    const r = parseColumnMapping(saved[name]);
    if (r.ok && mappingFits(r.mapping, sources)) return { name, mapping: r.mapping };
  }
  return null;
}

/** A workbook's instructions, lists and products sheets are no sources (the reader skips them too). */
export function isMetaSheet(src: PeekedSource): boolean {
  return !src.isFile && (META_SHEETS.has(normaliseSheetName(src.name)) || META_SHEETS.has(src.name.toLowerCase()));
}

/**
 * `known`: the service's codes (when connected), for suggestions by a column's values; `chosen`: per source
 * name, the sheet a person chose for it in the Columns step.
 */
export function columnsView(
  all: readonly PeekedSource[],
  saved: Record<string, unknown> = {},
  known: KnownCodes = {},
  chosen: Partial<Record<string, DataSheetName>> = {},
): ColumnsView {
  const sources = all.filter((s) => !isMetaSheet(s));
  const { mapping, perSource } = suggestMapping([...sources], undefined, known, chosen);
  delete mapping.suggestions;
  delete mapping.unmapped_required;
  const out: ColumnsSource[] = perSource.map((s, i) => {
    const src = sources[i];
    const headerCells = src.rows[s.headerRow - 1] ?? [];
    const data = src.rows.slice(s.headerRow, s.headerRow + 50).filter((r) => r.some((c) => c !== ''));
    const columns = headerCells
      .map((h, col) => ({ h, col }))
      .filter(({ h }) => h !== '' && !h.startsWith('_'))
      .map(({ h, col }) => ({
        column: h,
        samples: data.slice(0, SAMPLE_ROWS).map((r) => r[col] ?? ''),
        suggestion: s.columns.find((c) => c.column === h) ?? null,
      }));
    const fields = s.sheet
      ? columnsOf(getSheet(s.sheet)).map(([field, c]) => ({
          field,
          required: c.required,
          allowed: [...(c.allowed ?? [])],
        }))
      : [];
    const isCsv = src.csv !== undefined;
    return {
      source: s.source,
      isCsv,
      sheet: s.sheet,
      headerRow: s.headerRow,
      columns,
      fields,
      unmappedRequired: s.unmappedRequired,
      needed:
        isCsv ||
        chosen[s.source] !== undefined ||
        (s.sheet !== null && (s.headerRow !== 1 || columns.some((c) => c.suggestion?.method !== 'exact'))),
    };
  });
  const needed = out.some((s) => s.needed);
  return {
    sources: out,
    draft: mapping,
    needed,
    targetSheets: [...DATA_SHEET_NAMES],
    saved: findFittingMapping(saved, sources),
  };
}

export { HIGH_CONFIDENCE };

/** The document stored for a named mapping (`mapping save` and the app's "Save as mapping…"): the draft's review lists dropped. */
export function mappingToStore(mapping: ColumnMapping, name: string): ColumnMapping {
  const stored: ColumnMapping = { ...mapping, name };
  delete stored.suggestions;
  delete stored.unmapped_required;
  return stored;
}

export interface MappedPreview {
  source: string;
  sheet: DataSheetName;
  /** the fields read, in the sheet's order */
  fields: string[];
  rows: { row: number; values: Record<string, CellScalar | null> }[];
  /**
   * problems of these rows, at their cell of the source, as the check words them: `code` and `params` for the
   * UI's own words (the English `message` beside them)
   */
  issues: {
    severity: 'error' | 'warning';
    cell: string | null;
    field: string | null;
    message: string;
    code: string;
    params?: IssueParams;
  }[];
}

/**
 * The first rows of each source as the reader will read them with a mapping: the same SheetRowReader as
 * readSources (header mapping, value translation, constants, decimal mark, coercion), fed the peeked rows.
 */
export function previewMapping(
  sources: readonly PeekedSource[],
  mapping: ColumnMapping,
  maxRows = SAMPLE_ROWS,
): MappedPreview[] {
  const out: MappedPreview[] = [];
  for (const src of sources) {
    const target = targetOf(src.name, mapping, src.isFile);
    if (!target) continue;
    const issues = new IssueList(100);
    const parsed: ParsedSheet = { name: target.sheet, sheetName: src.name, hidden: false, columns: {}, rows: [] };
    const reader = new SheetRowReader(getSheet(target.sheet), parsed, issues, {
      headerRow: target.mapping?.header_row ?? 1,
      ...(target.mapping && { mapping: target.mapping }),
      ...(src.csv && mapping.csv?.decimal && { decimal: mapping.csv.decimal }),
      ...(src.csv && mapping.csv?.date && { dateOrder: mapping.csv.date }),
    });
    let read = 0;
    for (const [i, cells] of src.rows.entries()) {
      if (read >= maxRows) break;
      if (reader.row(i + 1, [undefined, ...cells.map((c) => (c === '' ? undefined : c))])) read++;
    }
    reader.end();
    const def = getSheet(target.sheet);
    // Each row checked as the check does (row schema and the spec's rules of one row): coded issues, the same words.
    const ctx = new ValidationContext(
      {
        file: src.file,
        bytes: 0,
        readable: true,
        sheets: [parsed],
        ignoredSheets: [],
        issues: [],
        stats: { rows: 0, ms: 0 },
      },
      100,
    );
    for (const r of parsed.rows) validateRow(ctx, def, parsed, r);
    const fields = columnsOf(def)
      .map(([f]) => f)
      .filter((f) => f in parsed.columns || parsed.rows.some((r) => f in r.values));
    out.push({
      source: src.name,
      sheet: target.sheet,
      fields,
      rows: parsed.rows.map((r) => ({
        row: r.row,
        values: Object.fromEntries(fields.map((f) => [f, (r.values[f] ?? null) as CellScalar | null])),
      })),
      issues: [...issues.done(), ...ctx.issues.done()].map((i) => ({
        severity: i.severity,
        cell: i.cell,
        field: i.field,
        message: i.message,
        code: i.code,
        ...(i.params && { params: i.params }),
      })),
    });
  }
  return out;
}
