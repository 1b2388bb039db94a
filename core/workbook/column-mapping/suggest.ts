/**
 * `mapping suggest`: for each source, the header row (title lines above it skipped), the target
 * sheet it feeds, and per source column the field it most likely is — exact name (1.0), lenient (case,
 * spaces, `*`, units in brackets: 0.95), a synonym from synonyms.json (EN/DE data: 0.85 whole name, 0.7 a
 * synonym within the header) or similarity (≤ 0.6). Only suggestions of at least HIGH_CONFIDENCE go into the
 * draft's `columns`; the others are listed in `suggestions` for a person to confirm (never applied silently).
 */
import { DATA_SHEETS, columnsOf, normaliseHeader } from '../registry.js';
import type { SheetDef } from '../sheet-def.js';
import { nameSimilarity } from '../similar.js';
import type { DataSheetName } from '../types.js';
import { globToRegExp, targetOf } from './match.js';
import { COLUMN_MAPPING_VERSION, type ColumnMapping, type SheetMapping } from './schema.js';
import synonymData from './synonyms.json' with { type: 'json' };
import type { PeekedSource } from '../sources/peek.js';

export const HIGH_CONFIDENCE = 0.8;

export type SuggestionMethod = 'exact' | 'lenient' | 'synonym' | 'similar';

export interface ColumnSuggestion {
  column: string;
  field: string;
  method: SuggestionMethod;
  confidence: number;
}

export interface SourceSuggestion {
  source: string;
  file: string;
  sheet: DataSheetName | null;
  headerRow: number;
  columns: ColumnSuggestion[];
  unmatched: string[];
  unmappedRequired: string[];
}

const SYNONYMS: Record<string, string[]> = Object.fromEntries(
  Object.entries(synonymData as Record<string, unknown>).filter((e): e is [string, string[]] => Array.isArray(e[1])),
);
const ABBREVIATIONS: Record<string, string> =
  (synonymData as { _abbreviations?: Record<string, string> })._abbreviations ?? {};

/** Lower case, units in brackets and `*` dropped, abbreviations (data) spelled out, words joined by single spaces. */
export function squash(header: string): string {
  return header
    .replace(/\([^)]*\)|\[[^\]]*\]/g, ' ')
    .replace(/\*/g, ' ')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .map((w) => ABBREVIATIONS[w] ?? w)
    .join(' ');
}

/**
 * How much of a header (or a cell tried as one) is compared: no field or synonym is nearly this long, and a longer
 * text (a 1 MB cell) would make every comparison as long. The suggestion keeps the whole header.
 */
export const MAX_HEADER_CHARS = 200;
/** Columns of a header row that are matched; further columns are listed as not mapped. */
export const MAX_HEADER_COLUMNS = 1000;

interface SheetWords {
  fields: string[];
  /** Per field, its synonyms squashed (empty ones dropped). */
  synonyms: Map<string, string[]>;
}
const sheetWords = new WeakMap<SheetDef, SheetWords>();
function wordsOf(def: SheetDef): SheetWords {
  let w = sheetWords.get(def);
  if (!w) {
    const fields = columnsOf(def).map(([f]) => f);
    w = { fields, synonyms: new Map(fields.map((f) => [f, (SYNONYMS[f] ?? []).map(squash).filter(Boolean)])) };
    sheetWords.set(def, w);
  }
  return w;
}

const SIMILAR_MIN = 0.6;

/**
 * The best field of a sheet for one header, with method and confidence. `similar: false`: exact, lenient and
 * synonym only (what a header-row search needs: a similarity is never more than 0.6 confident).
 */
export function matchHeader(header: string, def: SheetDef, { similar = true } = {}): ColumnSuggestion | null {
  const { fields, synonyms } = wordsOf(def);
  if (fields.includes(header)) return { column: header, field: header, method: 'exact', confidence: 1 };
  const h = header.length > MAX_HEADER_CHARS ? header.slice(0, MAX_HEADER_CHARS) : header;
  const sq = squash(h);
  const lenient = fields.find((f) => normaliseHeader(h) === f || sq.replace(/ /g, '_') === f);
  if (lenient) return { column: header, field: lenient, method: 'lenient', confidence: 0.95 };
  let best: ColumnSuggestion | null = null;
  const consider = (s: ColumnSuggestion) => {
    if (!best || s.confidence > best.confidence) best = s;
  };
  const words = new Set(sq.split(' '));
  for (const f of fields) {
    const syns = synonyms.get(f) ?? [];
    for (const ss of syns) {
      if (ss === sq) consider({ column: header, field: f, method: 'synonym', confidence: 0.85 });
      else {
        // Every word of the synonym in the header: as confident as the share of the header it explains.
        const sw = ss.split(' ');
        if (sw.every((w) => words.has(w)) && ss.length >= 3)
          consider({
            column: header,
            field: f,
            method: 'synonym',
            confidence: Math.round((0.5 + 0.3 * (sw.length / words.size)) * 100) / 100,
          });
      }
    }
    if (!similar) continue;
    let sim = nameSimilarity(sq, f, SIMILAR_MIN);
    for (const ss of syns) sim = Math.max(sim, nameSimilarity(sq, ss, SIMILAR_MIN / 0.9) * 0.9);
    if (sim >= SIMILAR_MIN)
      consider({ column: header, field: f, method: 'similar', confidence: Math.round(sim * 0.6 * 100) / 100 });
  }
  return best;
}

/** Greedy: the most confident pairs first, each field and each column at most once. */
function assign(headers: string[], def: SheetDef): { columns: ColumnSuggestion[]; unmatched: string[] } {
  const all = headers
    .slice(0, MAX_HEADER_COLUMNS)
    .map((h) => matchHeader(h, def))
    .filter((x): x is ColumnSuggestion => x !== null);
  all.sort((a, b) => b.confidence - a.confidence);
  const usedF = new Set<string>();
  const usedC = new Set<string>();
  const columns: ColumnSuggestion[] = [];
  for (const s of all) {
    if (usedF.has(s.field) || usedC.has(s.column)) continue;
    usedF.add(s.field);
    usedC.add(s.column);
    columns.push(s);
  }
  return { columns, unmatched: headers.filter((h) => !usedC.has(h)) };
}

function score(columns: ColumnSuggestion[], def: SheetDef): number {
  const req = columnsOf(def)
    .filter(([, c]) => c.required)
    .map(([f]) => f);
  const got = columns.filter((c) => c.confidence >= 0.5);
  return (
    got.reduce((n, c) => n + c.confidence, 0) +
    req.filter((f) => got.some((c) => c.field === f)).length * 0.5 -
    (req.length - req.filter((f) => got.some((c) => c.field === f)).length) * 0.3
  );
}

/** The header row: among the first rows with at least two filled cells, the one whose cells match fields best. */
function headerRowOf(rows: string[][]): number {
  let best = { row: 1, score: -1 };
  for (let i = 0; i < rows.length; i++) {
    const cells = rows[i].filter((c) => c !== '');
    if (cells.length < 2) continue;
    const texty = cells.filter((c) => !/^[\d.,\s+-]+$/.test(c)).length;
    let matched = 0;
    for (const c of cells.slice(0, MAX_HEADER_COLUMNS))
      if (DATA_SHEETS.some((d) => (matchHeader(c, d, { similar: false })?.confidence ?? 0) >= 0.7)) matched++;
    const s = matched * 10 + texty - i * 0.01;
    if (s > best.score) best = { row: i + 1, score: s };
  }
  return best.row;
}

export function suggestSource(src: PeekedSource): SourceSuggestion {
  const headerRow = headerRowOf(src.rows);
  const headers = (src.rows[headerRow - 1] ?? []).filter((h) => h !== '' && !h.startsWith('_'));
  const named = targetOf(src.name, undefined, src.isFile);
  const candidates = named ? DATA_SHEETS.filter((d) => d.name === named.sheet) : DATA_SHEETS;
  let best: { def: SheetDef; columns: ColumnSuggestion[]; unmatched: string[]; score: number } | null = null;
  for (const def of candidates) {
    const a = assign(headers, def);
    const s = score(a.columns, def);
    if (!best || s > best.score) best = { def, ...a, score: s };
  }
  if (!best || (!named && best.columns.filter((c) => c.confidence >= HIGH_CONFIDENCE).length === 0))
    return {
      source: src.name,
      file: src.file,
      sheet: null,
      headerRow,
      columns: [],
      unmatched: headers,
      unmappedRequired: [],
    };
  const confident = new Set(best.columns.filter((c) => c.confidence >= HIGH_CONFIDENCE).map((c) => c.field));
  const unmappedRequired = columnsOf(best.def)
    .filter(([f, c]) => c.required && !confident.has(f))
    .map(([f]) => f);
  return {
    source: src.name,
    file: src.file,
    sheet: best.def.name as DataSheetName,
    headerRow,
    columns: best.columns,
    unmatched: best.unmatched,
    unmappedRequired,
  };
}

/** `MAT_2025-11.csv` → `MAT_*.csv`: the next month's export matches too. */
export function sourceGlob(name: string): string {
  const g = name.replace(/\d+(?:[-_.]\d+)*/g, '*');
  return globToRegExp(g).test(name) ? g : name;
}

/** The draft mapping of every source (one entry per target sheet; the first source wins a sheet). */
export function suggestMapping(
  sources: PeekedSource[],
  name?: string,
): { mapping: ColumnMapping; perSource: SourceSuggestion[] } {
  const perSource = sources.map(suggestSource);
  const sheets: Partial<Record<DataSheetName, SheetMapping>> = {};
  const suggestions: NonNullable<ColumnMapping['suggestions']> = [];
  const unmapped: Partial<Record<DataSheetName, string[]>> = {};
  for (const [i, s] of perSource.entries()) {
    if (!s.sheet || sheets[s.sheet]) continue;
    const columns: Record<string, string> = {};
    for (const c of s.columns) if (c.confidence >= HIGH_CONFIDENCE) columns[c.column] = c.field;
    const low = s.columns.filter((c) => c.confidence < HIGH_CONFIDENCE).map((c) => c.column);
    const src = sources[i];
    const entry: SheetMapping = {
      source: src.isFile ? sourceGlob(src.name) : src.name,
      header_row: s.headerRow,
      columns,
    };
    const ignore = [...s.unmatched, ...low];
    // Low-confidence columns are not ignored either: left out so a check names them until a person decides.
    if (s.unmatched.length) entry.ignore = s.unmatched;
    if (ignore.length === 0) delete entry.ignore;
    sheets[s.sheet] = entry;
    for (const c of s.columns)
      suggestions.push({
        sheet: s.sheet,
        source: src.name,
        column: c.column,
        field: c.field,
        method: c.method,
        confidence: c.confidence,
      });
    if (s.unmappedRequired.length) unmapped[s.sheet] = s.unmappedRequired;
  }
  const csvSource = sources.find((s) => s.csv);
  const decimal = csvSource ? guessDecimal(csvSource) : undefined;
  const mapping: ColumnMapping = {
    version: COLUMN_MAPPING_VERSION,
    ...(name && { name }),
    sheets,
    ...(csvSource?.csv && {
      csv: {
        delimiter: csvSource.csv.delimiter as ';',
        ...(csvSource.csv.encoding !== 'utf-16be' && { encoding: csvSource.csv.encoding }),
        ...(decimal && { decimal }),
      },
    }),
    suggestions,
    ...(Object.keys(unmapped).length && { unmapped_required: unmapped }),
  };
  return { mapping, perSource };
}

/** "12,5" style numbers (and none like "12.5") in the sample: the decimal mark is a comma. */
function guessDecimal(src: PeekedSource): ',' | '.' | undefined {
  let comma = 0;
  let dot = 0;
  for (const r of src.rows)
    for (const c of r) {
      if (/^-?\d{1,3}(\.\d{3})*,\d+$/.test(c) || /^-?\d+,\d{1,2}$/.test(c) || /^-?\d+,\d{4,}$/.test(c)) comma++;
      else if (/^-?\d{1,3}(,\d{3})*\.\d+$/.test(c) || /^-?\d+\.\d{1,2}$/.test(c) || /^-?\d+\.\d{4,}$/.test(c)) dot++;
    }
  if (comma > dot) return ',';
  if (dot > comma) return '.';
  return undefined;
}
