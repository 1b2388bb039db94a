/**
 * `mapping suggest`: for each source, the header row (title lines above it skipped), the target
 * sheet it feeds, and per source column the field it most likely is — exact name (1.0), lenient (case,
 * spaces, `*`, units in brackets: 0.95), a synonym from synonyms.json (EN/DE/SAP data: 0.88 a synonym of the
 * field in that sheet, 0.85 of the field in any sheet, 0.5–0.8 a synonym within the header) or similarity
 * (≤ 0.6) — and by its values: a column whose sampled values are codes known to the service or defined by
 * another source of the same drop (plant codes, material codes, product article numbers, supplier products …)
 * is the field of that sheet holding such codes (0.85–0.95), and no other code field of it. Only suggestions of at least HIGH_CONFIDENCE go into the
 * draft's `columns`; the others are listed in `suggestions` for a person to confirm (never applied silently).
 */
import { DEFINED_IN } from '../references.js';
import { DATA_SHEETS, columnsOf, normaliseHeader } from '../registry.js';
import type { SheetDef } from '../sheet-def.js';
import { nameSimilarity } from '../similar.js';
import type { DataSheetName, EntityType } from '../types.js';
import { globToRegExp, targetOf } from './match.js';
import { COLUMN_MAPPING_VERSION, type ColumnMapping, type SheetMapping } from './schema.js';
import synonymData from './synonyms.json' with { type: 'json' };
import type { PeekedSource } from '../sources/peek.js';

export const HIGH_CONFIDENCE = 0.8;

export type SuggestionMethod = 'exact' | 'lenient' | 'synonym' | 'similar' | 'values';

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

/**
 * synonyms.json: `field` → names for that field in any sheet; `sheet.field` → names for it in that sheet only
 * (a production version is a product instance's own code in product-instances, its reference in bom).
 */
const SYNONYMS: Record<string, string[]> = Object.fromEntries(
  Object.entries(synonymData as Record<string, unknown>).filter((e): e is [string, string[]] => Array.isArray(e[1])),
);
const ABBREVIATIONS: Record<string, string> =
  (synonymData as { _abbreviations?: Record<string, string> })._abbreviations ?? {};
/** `_sheets`: sheet → names a source feeding it is often called (`Kreditoren.csv`, a workbook sheet `Vendors`). */
const SHEET_NAMES: Record<string, string[]> = (synonymData as { _sheets?: Record<string, string[]> })._sheets ?? {};
/** Added to a sheet's score when the source is named like it: a hint, never more than two columns' worth. */
const NAME_HINT = 0.75;

/** Codes known per entity type: the service's and those the other sources of the same drop define. */
export type KnownCodes = Partial<Record<EntityType, ReadonlySet<string>>>;
/** Values of a column compared with the known codes at most (the first filled cells under the header). */
export const MAX_VALUE_SAMPLES = 25;
/** Share of a column's sampled values that must be known codes of one kind for the column to hold that kind. */
const VALUE_SHARE = 0.8;
/** Kinds whose codes the loader never creates: a column of none of the service's codes holds none of them. */
const SERVICE_ONLY: readonly EntityType[] = ['product', 'plant', 'material'];
/** What a BOM row's component_external_id may be. */
const COMPONENT_KINDS: readonly EntityType[] = ['supplier_product', 'silo', 'prechain_product'];

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
  /** Per field, its synonyms squashed (empty ones dropped) and their words, with the confidence of a whole-name match. */
  synonyms: Map<string, { sq: string; words: string[]; whole: number }[]>;
}
const sheetWords = new WeakMap<SheetDef, SheetWords>();
function wordsOf(def: SheetDef): SheetWords {
  let w = sheetWords.get(def);
  if (!w) {
    const fields = columnsOf(def).map(([f]) => f);
    const synonyms = new Map<string, { sq: string; words: string[]; whole: number }[]>();
    const synonym = (x: string, whole: number) => {
      const sq = squash(x);
      return { sq, words: sq.split(' '), whole };
    };
    for (const f of fields) {
      const own = (SYNONYMS[`${def.name}.${f}`] ?? []).map((x) => synonym(x, 0.88));
      const any = (SYNONYMS[f] ?? []).map((x) => synonym(x, 0.85));
      synonyms.set(
        f,
        [...own, ...any].filter((x) => x.sq !== ''),
      );
    }
    w = { fields, synonyms };
    sheetWords.set(def, w);
  }
  return w;
}

const SIMILAR_MIN = 0.6;

/**
 * Every field of a sheet one header may be, each with its best method and confidence, most confident first.
 * `similar: false`: exact, lenient and synonym only (what a header-row search needs: a similarity is never more
 * than 0.6 confident).
 */
function headerCandidates(header: string | HeaderText, def: SheetDef, { similar = true } = {}): ColumnSuggestion[] {
  if (!similar) return headerCandidatesOnce(headerText(header), def, false);
  if (typeof header !== 'string') header = header.header;
  // A drop is suggested twice (the second time with the codes the other files define): the headers are compared
  // once. Copies are handed out (the values adjust them); the cache is bounded.
  let cache = candidateCache.get(def);
  if (!cache) candidateCache.set(def, (cache = new Map()));
  let hit = cache.get(header);
  if (!hit) {
    if (cache.size >= CANDIDATE_CACHE) cache.clear();
    hit = headerCandidatesOnce(headerText(header), def, true);
    cache.set(header, hit);
  }
  return hit.map((c) => ({ ...c }));
}
const CANDIDATE_CACHE = 2000;
const candidateCache = new WeakMap<SheetDef, Map<string, ColumnSuggestion[]>>();

/** A header (or a cell tried as one) in the forms it is compared in: made once, compared with every sheet's fields. */
interface HeaderText {
  header: string;
  /** its first MAX_HEADER_CHARS characters squashed (squash) */
  sq: string;
  /** normaliseHeader of them, and `sq` with underscores: a lenient match is either */
  lenient: string;
  snake: string;
  words: Set<string>;
}

function headerText(header: string | HeaderText): HeaderText {
  if (typeof header !== 'string') return header;
  const h = header.length > MAX_HEADER_CHARS ? header.slice(0, MAX_HEADER_CHARS) : header;
  const sq = squash(h);
  return { header, sq, lenient: normaliseHeader(h), snake: sq.replace(/ /g, '_'), words: new Set(sq.split(' ')) };
}

function headerCandidatesOnce(text: HeaderText, def: SheetDef, similar: boolean): ColumnSuggestion[] {
  const { fields, synonyms } = wordsOf(def);
  const { header, sq, words } = text;
  if (fields.includes(header)) return [{ column: header, field: header, method: 'exact', confidence: 1 }];
  const lenient = fields.find((f) => text.lenient === f || text.snake === f);
  if (lenient) return [{ column: header, field: lenient, method: 'lenient', confidence: 0.95 }];
  const best = new Map<string, ColumnSuggestion>();
  const consider = (s: ColumnSuggestion) => {
    const b = best.get(s.field);
    if (!b || s.confidence > b.confidence) best.set(s.field, s);
  };
  for (const f of fields) {
    const syns = synonyms.get(f) ?? [];
    for (const { sq: ss, words: sw, whole } of syns) {
      if (ss === sq) consider({ column: header, field: f, method: 'synonym', confidence: whole });
      else {
        // Every word of the synonym in the header: as confident as the share of the header it explains.
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
    for (const { sq: ss } of syns) sim = Math.max(sim, nameSimilarity(sq, ss, SIMILAR_MIN / 0.9) * 0.9);
    if (sim >= SIMILAR_MIN)
      consider({ column: header, field: f, method: 'similar', confidence: Math.round(sim * 0.6 * 100) / 100 });
  }
  return [...best.values()].sort((a, b) => b.confidence - a.confidence);
}

/** The best field of a sheet for one header, with method and confidence (see headerCandidates). */
export function matchHeader(
  header: string | HeaderText,
  def: SheetDef,
  { similar = true } = {},
): ColumnSuggestion | null {
  return headerCandidates(header, def, { similar })[0] ?? null;
}

/** The fields of a sheet that hold codes of a kind: its own code (the sheet defines the kind) or a reference. */
function codeFieldsOf(def: SheetDef, kind: EntityType): string[] {
  const own = DEFINED_IN[kind];
  return columnsOf(def)
    .filter(
      ([f, c]) =>
        (own?.sheet === def.name && own.field === f) ||
        c.refersTo === kind ||
        (c.refersTo === 'by_component_type' && COMPONENT_KINDS.includes(kind)),
    )
    .map(([f]) => f);
}

/** The kinds of code a field holds (its sheet's own kind, or the kinds it refers to). */
function kindsOfField(def: SheetDef, field: string): EntityType[] {
  const c = columnsOf(def).find(([f]) => f === field)?.[1];
  const out: EntityType[] = [];
  for (const [kind, where] of Object.entries(DEFINED_IN) as [EntityType, { sheet: string; field: string }][])
    if (where.sheet === def.name && where.field === field) out.push(kind);
  if (c?.refersTo === 'by_component_type') out.push(...COMPONENT_KINDS);
  else if (c?.refersTo) out.push(c.refersTo);
  return out;
}

/** Per kind, the share of a column's sampled values (at least 2 filled) that are known codes of that kind. */
function knownShares(values: readonly string[], known: KnownCodes): Map<EntityType, number> {
  const filled = values.filter((v) => v !== '').slice(0, MAX_VALUE_SAMPLES);
  const out = new Map<EntityType, number>();
  if (filled.length < 2) return out;
  for (const [kind, set] of Object.entries(known) as [EntityType, ReadonlySet<string>][]) {
    if (!set || set.size === 0) continue;
    let hits = 0;
    for (const v of filled) if (set.has(v)) hits++;
    out.set(kind, hits / filled.length);
  }
  return out;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The fields one column may be, by its header and its values, most confident first. Values that are known codes of a kind make the field holding that kind likely (0.85; 0.9 and more with the header
 * agreeing), and every other code field unlikely (0.7 at most, also where the sheet has no field for that kind)
 * unless the header is the field's own name; a
 * column of none of the service's codes of a kind the loader never creates (products, plants, materials) is
 * no reference to it (0.7 at most).
 */
function columnCandidates(header: string, values: readonly string[], def: SheetDef, known: KnownCodes) {
  const cands = headerCandidates(header, def);
  const shares = knownShares(values, known);
  if (shares.size === 0) return cands;
  const byField = new Map(cands.map((c) => [c.field, c]));
  const valueFields = new Map<string, number>();
  let knownKind = false;
  for (const [kind, share] of shares)
    if (share >= VALUE_SHARE) {
      knownKind = true;
      for (const f of codeFieldsOf(def, kind)) valueFields.set(f, Math.max(valueFields.get(f) ?? 0, share));
    }
  const named = (c: ColumnSuggestion | undefined) =>
    c !== undefined && (c.method === 'exact' || c.method === 'lenient');
  for (const [field, share] of valueFields) {
    const c = byField.get(field);
    const byValues = share >= 0.95 ? 0.9 : 0.85;
    if (c && c.confidence >= 0.5) {
      // The header agreeing: more confident; named `values` only when the values made it confident.
      if (c.confidence < HIGH_CONFIDENCE) c.method = 'values';
      c.confidence = Math.max(c.confidence, round2(byValues + 0.05));
    } else byField.set(field, { column: header, field, method: 'values', confidence: byValues });
  }
  for (const c of byField.values()) {
    if (valueFields.has(c.field) || named(c)) continue;
    const kinds = kindsOfField(def, c.field);
    if (kinds.length === 0) continue;
    // Known codes of another kind (the sheet may have no field for them at all: then it is the wrong sheet).
    const otherKind = knownKind;
    const noneKnown = kinds.every((k) => SERVICE_ONLY.includes(k) && shares.has(k) && shares.get(k)! < 0.2);
    if (otherKind || noneKnown) c.confidence = Math.min(c.confidence, 0.7);
  }
  return [...byField.values()].sort((a, b) => b.confidence - a.confidence);
}

interface HeaderColumn {
  header: string;
  /** the column's values under the header row (its first filled ones) */
  values: string[];
}

/** Greedy: the most confident pairs first, each field and each column at most once. */
function assign(
  columns: readonly HeaderColumn[],
  def: SheetDef,
  known: KnownCodes,
): { columns: ColumnSuggestion[]; unmatched: string[] } {
  const all = columns.slice(0, MAX_HEADER_COLUMNS).flatMap((c) => columnCandidates(c.header, c.values, def, known));
  all.sort((a, b) => b.confidence - a.confidence);
  const usedF = new Set<string>();
  const usedC = new Set<string>();
  const out: ColumnSuggestion[] = [];
  for (const s of all) {
    if (usedF.has(s.field) || usedC.has(s.column)) continue;
    usedF.add(s.field);
    usedC.add(s.column);
    out.push(s);
  }
  return { columns: out, unmatched: columns.map((c) => c.header).filter((h) => !usedC.has(h)) };
}

/**
 * How well a sheet explains a source: the confidence of its columns, plus for each required field found, minus
 * for each one missing — most for the sheet's own code (a list without its codes is hardly that sheet's list).
 */
function score(columns: ColumnSuggestion[], def: SheetDef): number {
  const own = new Set(
    Object.values(DEFINED_IN)
      .filter((w) => w?.sheet === def.name)
      .map((w) => w!.field),
  );
  const req = columnsOf(def)
    .filter(([, c]) => c.required)
    .map(([f]) => f);
  const got = columns.filter((c) => c.confidence >= 0.5);
  const has = (f: string) => got.some((c) => c.field === f);
  return (
    got.reduce((n, c) => n + c.confidence, 0) +
    req.filter(has).length * 0.5 -
    req.filter((f) => !has(f)).reduce((n, f) => n + (own.has(f) ? 1 : 0.3), 0)
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
    for (const c of cells.slice(0, MAX_HEADER_COLUMNS)) {
      const text = headerText(c);
      if (DATA_SHEETS.some((d) => (matchHeader(text, d, { similar: false })?.confidence ?? 0) >= 0.7)) matched++;
    }
    const s = matched * 10 + texty - i * 0.01;
    if (s > best.score) best = { row: i + 1, score: s };
  }
  return best.row;
}

/** The sheets a source's name hints at (`Kreditoren_2025.csv` → supplier-companies), by `_sheets`. */
function sheetsNamedIn(name: string): Set<string> {
  const words = new Set(
    squash(name.replace(/\.(csv|txt|tsv|xlsx|xlsm)$/i, ''))
      .split(' ')
      .filter((w) => w !== '' && !/^\d+$/.test(w)),
  );
  const out = new Set<string>();
  for (const [sheet, names] of Object.entries(SHEET_NAMES))
    if (
      names.some((n) =>
        squash(n)
          .split(' ')
          .every((w) => words.has(w)),
      )
    )
      out.add(sheet);
  return out;
}

/** The header row's named columns with the first filled values under each. */
function headerColumns(src: PeekedSource, headerRow: number): HeaderColumn[] {
  const cells = src.rows[headerRow - 1] ?? [];
  const data = src.rows.slice(headerRow);
  const out: HeaderColumn[] = [];
  for (const [i, h] of cells.entries()) {
    if (h === '' || h.startsWith('_')) continue;
    const values: string[] = [];
    for (const r of data) {
      if (values.length >= MAX_VALUE_SAMPLES) break;
      const v = r[i] ?? '';
      if (v !== '') values.push(v.length > MAX_HEADER_CHARS ? v.slice(0, MAX_HEADER_CHARS) : v);
    }
    out.push({ header: h, values });
  }
  return out;
}

/** `sheet`: the sheet a person chose for the source (the suggestion is then for that sheet). */
export function suggestSource(src: PeekedSource, known: KnownCodes = {}, sheet?: DataSheetName): SourceSuggestion {
  const headerRow = headerRowOf(src.rows);
  const columns = headerColumns(src, headerRow);
  const headers = columns.map((c) => c.header);
  const named = sheet ? { sheet } : targetOf(src.name, undefined, src.isFile);
  const candidates = named ? DATA_SHEETS.filter((d) => d.name === named.sheet) : DATA_SHEETS;
  const hinted = named ? new Set<string>() : sheetsNamedIn(src.name);
  let best: { def: SheetDef; columns: ColumnSuggestion[]; unmatched: string[]; score: number } | null = null;
  for (const def of candidates) {
    const a = assign(columns, def, known);
    const s = score(a.columns, def) + (hinted.has(def.name) ? NAME_HINT : 0);
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

/**
 * The codes a source defines, by the confident suggestion of its sheet's own code field (a plants list's plant
 * codes, a supplier list's numbers): what the other sources of the same drop may refer to.
 */
function definedCodes(src: PeekedSource, s: SourceSuggestion): KnownCodes {
  if (!s.sheet) return {};
  const out: KnownCodes = {};
  for (const [kind, where] of Object.entries(DEFINED_IN) as [EntityType, { sheet: string; field: string }][]) {
    if (where.sheet !== s.sheet) continue;
    const c = s.columns.find((x) => x.field === where.field && x.confidence >= HIGH_CONFIDENCE);
    const col = c && headerColumns(src, s.headerRow).find((h) => h.header === c.column);
    if (col) out[kind] = new Set(col.values);
  }
  return out;
}

function mergeKnown(a: KnownCodes, b: KnownCodes): KnownCodes {
  const out: KnownCodes = { ...a };
  for (const [kind, set] of Object.entries(b) as [EntityType, ReadonlySet<string>][])
    out[kind] = out[kind] ? new Set([...out[kind], ...set]) : set;
  return out;
}

/**
 * Every source's suggestion: first by headers and the service's codes, then once more with the codes the other
 * sources of the drop define (a supplier-products export whose plant column holds the plants list's codes).
 */
function suggestSources(
  sources: readonly PeekedSource[],
  known: KnownCodes,
  chosen: Partial<Record<string, DataSheetName>>,
): SourceSuggestion[] {
  const first = sources.map((s) => suggestSource(s, known, chosen[s.name]));
  const defined = sources.map((s, i) => definedCodes(s, first[i]));
  if (defined.every((d) => Object.keys(d).length === 0)) return first;
  return sources.map((s, i) =>
    suggestSource(
      s,
      defined.reduce((k, d, j) => (j === i ? k : mergeKnown(k, d)), known),
      chosen[s.name],
    ),
  );
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
  known: KnownCodes = {},
  /** per source name, the sheet a person chose for it */
  chosen: Partial<Record<string, DataSheetName>> = {},
): { mapping: ColumnMapping; perSource: SourceSuggestion[] } {
  const perSource = suggestSources(sources, known, chosen);
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
