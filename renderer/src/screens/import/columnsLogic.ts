/**
 * Pure logic of the Columns step: which field each source column is (high-confidence suggestions pre-selected,
 * low ones only offered), the mapping document that results (the column-mapping contract, read by the core), the
 * required fields still without a column and the enum values that need a translation. No product rule is
 * decided here: the core reads the mapping (and makes the preview of the first rows, import.columnsPreview).
 */
import type { ColumnsViewSchema } from '../../../../core/ipc/contract.js';

export type ColumnsView = ColumnsViewSchema;
export type ColumnsSource = ColumnsView['sources'][number];
export type ColumnMappingDoc = ColumnsView['draft'];
/** per source: column → field ('' = not imported) */
export type Choices = Record<string, string>;
/** per field: source value → template value */
export type ValueMaps = Record<string, Record<string, string>>;

export const IGNORE = '';
/**
 * A column with a suggestion of low confidence, not yet decided: the mapping neither maps nor ignores it, so the
 * check treats it as an unknown header — an error at its header cell ("did you mean …?") when it resembles a
 * field. Never a field name (those are snake_case).
 */
export const UNDECIDED = '?';

/** High-confidence suggestions pre-selected; lower ones are left for the user to decide (not ignored silently). */
export function initialChoices(src: ColumnsSource, highConfidence: number): Choices {
  const out: Choices = {};
  for (const c of src.columns)
    out[c.column] = !c.suggestion ? IGNORE : c.suggestion.confidence >= highConfidence ? c.suggestion.field : UNDECIDED;
  return out;
}

/** A choice that is a field of the sheet (neither "not imported" nor undecided). */
function isField(f: string): boolean {
  return f !== IGNORE && f !== UNDECIDED;
}

/** Choices from a mapping (a saved one): its columns, its ignored ones not imported, others undecided when suggested. */
export function choicesFromMapping(src: ColumnsSource, mapping: ColumnMappingDoc): Choices {
  const sm = src.sheet ? mapping.sheets[src.sheet as keyof ColumnMappingDoc['sheets']] : undefined;
  const out: Choices = {};
  for (const c of src.columns)
    out[c.column] =
      sm?.columns?.[c.column] ??
      (src.fields.some((f) => f.field === c.column)
        ? c.column
        : c.suggestion && !sm?.ignore?.includes(c.column)
          ? UNDECIDED
          : IGNORE);
  return out;
}

export function valueMapsFromMapping(src: ColumnsSource, mapping: ColumnMappingDoc): ValueMaps {
  const sm = src.sheet ? mapping.sheets[src.sheet as keyof ColumnMappingDoc['sheets']] : undefined;
  const out: ValueMaps = {};
  for (const [f, m] of Object.entries(sm?.values ?? {}))
    out[f] = Object.fromEntries(Object.entries(m).map(([k, v]) => [k, String(v)]));
  return out;
}

/** Required fields of the target sheet with no column chosen (in the sheet's order). */
export function missingRequired(src: ColumnsSource, choices: Choices): string[] {
  const chosen = new Set(Object.values(choices).filter(isField));
  return src.fields.filter((f) => f.required && !chosen.has(f.field)).map((f) => f.field);
}

/** Fields chosen for more than one column (the mapping would be refused). */
export function duplicateFields(choices: Choices): string[] {
  const seen = new Map<string, number>();
  for (const f of Object.values(choices)) if (isField(f)) seen.set(f, (seen.get(f) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([f]) => f);
}

/** An enum field's sample values that are not allowed as they are (case aside): each needs a translation. */
export function valuesToTranslate(
  src: ColumnsSource,
  choices: Choices,
): { field: string; allowed: string[]; values: string[] }[] {
  const out: { field: string; allowed: string[]; values: string[] }[] = [];
  for (const c of src.columns) {
    const field = choices[c.column];
    const def = src.fields.find((f) => f.field === field);
    if (!def || def.allowed.length === 0) continue;
    const ok = new Set(def.allowed.map((a) => a.toLowerCase()));
    const values = [...new Set(c.samples.filter((v) => v !== '' && !ok.has(v.toLowerCase())))];
    if (values.length) out.push({ field: def.field, allowed: def.allowed, values });
  }
  return out;
}

/** Sheets that more than one source of the Columns step would feed (a mapping has one source per sheet). */
export function sheetsFedTwice(view: ColumnsView): string[] {
  const seen = new Map<string, number>();
  for (const s of view.sources) if (s.sheet && s.needed) seen.set(s.sheet, (seen.get(s.sheet) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([sheet]) => sheet);
}

/**
 * The mapping the choices make, from the suggested draft (source glob, header row, CSV settings kept), for the
 * sources that need the Columns step.
 */
export function buildMapping(
  view: ColumnsView,
  choices: Record<string, Choices>,
  values: Record<string, ValueMaps>,
  name?: string,
): ColumnMappingDoc {
  const sheets: ColumnMappingDoc['sheets'] = {};
  for (const src of view.sources) {
    // A source that needs no Columns step (a template sheet as it is) is read by its name, without an entry.
    if (!src.sheet || !src.needed) continue;
    const key = src.sheet as keyof ColumnMappingDoc['sheets'];
    const draft = view.draft.sheets[key] ?? {};
    const ch = choices[src.source] ?? {};
    const columns: Record<string, string> = {};
    const ignore: string[] = [];
    for (const c of src.columns) {
      const f = ch[c.column] ?? IGNORE;
      if (f === IGNORE) ignore.push(c.column);
      else if (f !== UNDECIDED) columns[c.column] = f; // undecided: neither, the check says what it is
    }
    const vals: Record<string, Record<string, string>> = {};
    for (const [f, m] of Object.entries(values[src.source] ?? {})) {
      const kept = Object.fromEntries(Object.entries(m).filter(([k, v]) => k !== '' && v !== ''));
      if (Object.keys(kept).length && Object.values(ch).includes(f)) vals[f] = kept;
    }
    sheets[key] = {
      ...(draft.source !== undefined && { source: draft.source }),
      header_row: src.headerRow,
      columns,
      ...(ignore.length && { ignore }),
      ...(Object.keys(vals).length && { values: vals }),
      ...(draft.constants && { constants: draft.constants }),
    };
  }
  return { version: 1, ...(name && { name }), sheets, ...(view.draft.csv && { csv: view.draft.csv }) };
}
