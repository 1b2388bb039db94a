/**
 * The codes pass: every code cell of every sheet — rows with errors in other cells included — checked against
 * what the plan's reads found (the service's lists, the profile's mappings: the `ServiceIndex`) and the
 * workbook's own sheets and mapping sheets. Each unknown code is an error at its own cell (`code_unknown`) with
 * the known codes it may be a typo of, each with its name ("MAT-SAND — Sand 0/2"). An error of a cross-sheet
 * rule that an unknown code causes (a silo item "at another plant" because the product's plant code is a typo)
 * says so: "because supplier-products!C3 is unknown".
 */
import { BOM_COMPONENT_TYPES } from '../spec/constants.js';
import { getSheet } from '../workbook/registry.js';
import { partsOf, sourceCellOf } from '../workbook/sheet-parts.js';
import { closestCodes } from '../workbook/similar.js';
import { rowActionOf, sortIssues } from '../workbook/validate.js';
import {
  DATA_SHEET_NAMES,
  type DataSheetName,
  type EntityType,
  type Issue,
  type IssueParams,
  type ParsedRow,
  type ParsedSheet,
  type ParsedWorkbook,
  type ValidationReport,
} from '../workbook/types.js';
import { ENTITIES, IDENTIFIED_KINDS } from './entities.js';
import type { ApiClient } from '../api/index.js';
import { collectCodes, workbookMappings } from './plan/codes.js';
import { resolveCodes, type CodeMappings, type ResolvedKind, type ServiceIndex } from './resolve.js';
import { indexWorkbook } from './workbook-rows.js';
import type { IdentifiedKind } from './types.js';

/** Most unknown codes reported (as the workbook check caps its issues). */
const MAX_ISSUES = 10_000;

const IDENTIFIED = new Set<string>(IDENTIFIED_KINDS);
const COMPONENT_TYPES = new Set<string>(BOM_COMPONENT_TYPES);

/** Rows that write (not marked delete or ignore): their references are used. */
function writes(r: ParsedRow): boolean {
  const a = rowActionOf(r);
  return a !== 'delete' && a !== 'ignore';
}

/** What a code of a kind is when nobody knows it, in words. */
function unknownWords(kind: EntityType, code: string): string {
  if (kind === 'plant')
    return `plant code "${code}" is not in the plants sheet, the profile's mappings or among the plants this API key can see`;
  if (kind === 'material')
    return `material code "${code}" is not in the materials sheet, the profile's mappings or among the service's elementaries and composites`;
  if (kind === 'product') return `no product with article number "${code}" on the service`;
  return `no ${ENTITIES[kind as IdentifiedKind].noun} with external_id "${code}" in this workbook or on the service`;
}

/** `CODE — name` (or the code alone) of up to 3 known codes closest to an unknown one. */
export function namedHints(code: string, known: ReadonlyMap<string, string>): string[] {
  return closestCodes(code, known.keys()).map((k) => (known.get(k) ? `${k} — ${known.get(k)}` : k));
}

/** Where unknown codes are: `Sheet!C7` of each, by sheet name as in the file and row. */
export interface UnknownCells {
  /** `${sheet in the file}!${cell}` */
  has(at: string): boolean;
}

/**
 * An error at the cell of each code the workbook refers to that neither the workbook nor the service knows.
 * Codes of a type the service could not be read for are not said to be unknown (the plan says why they could not
 * be checked); a cell that already has an error of its own is not checked again.
 */
export function unknownCodeIssues(parsed: ParsedWorkbook, svc: ServiceIndex, report?: ValidationReport): Issue[] {
  const sheets = new Map<DataSheetName, ParsedSheet>();
  for (const s of parsed.sheets) if (!sheets.has(s.name)) sheets.set(s.name, s);
  const errorCells = new Set<string>();
  for (const i of report?.issues ?? [])
    if (i.severity === 'error' && i.sheet !== null && i.cell !== null) errorCells.add(`${i.sheet}!${i.cell}`);

  // The codes each identified kind's sheet defines (rows that write), with their names.
  const defined = new Map<IdentifiedKind, Map<string, string>>();
  const definedOf = (kind: IdentifiedKind): Map<string, string> => {
    let m = defined.get(kind);
    if (m) return m;
    m = new Map();
    for (const r of sheets.get(ENTITIES[kind].sheet)?.rows ?? []) {
      const code = r.values.external_id;
      if (typeof code === 'string' && code.trim() !== '' && writes(r) && !m.has(code.trim()))
        m.set(code.trim(), typeof r.values.name === 'string' ? r.values.name : '');
    }
    defined.set(kind, m);
    return m;
  };
  const knownOf = new Map<EntityType, Map<string, string>>();
  /** Every code of a kind the workbook and the service's reads know, with its name. */
  const known = (kind: EntityType): Map<string, string> => {
    let m = knownOf.get(kind);
    if (m) return m;
    m = new Map(svc.seen?.[kind as ResolvedKind] ?? []);
    for (const code of (svc[kind as ResolvedKind] as Map<string, unknown>).keys()) if (!m.has(code)) m.set(code, '');
    if (IDENTIFIED.has(kind)) for (const [code, name] of definedOf(kind as IdentifiedKind)) m.set(code, name);
    const mapping = kind === 'plant' ? 'plants' : kind === 'material' ? 'materials' : null;
    const field = kind === 'plant' ? 'plant_code' : 'material_code';
    if (mapping)
      for (const r of sheets.get(mapping)?.rows ?? []) {
        const code = r.values[field];
        if (typeof code === 'string' && !m.has(code)) m.set(code, '');
      }
    knownOf.set(kind, m);
    return m;
  };
  const isKnown = (kind: EntityType, code: string): boolean =>
    (svc[kind as ResolvedKind] as Map<string, unknown>).has(code) ||
    (IDENTIFIED.has(kind) && definedOf(kind as IdentifiedKind).has(code));

  const out: Issue[] = [];
  for (const name of DATA_SHEET_NAMES) {
    const sheet = sheets.get(name);
    if (!sheet) continue;
    const refs = Object.entries(getSheet(name).columns).filter(([, c]) => c.refersTo);
    if (refs.length === 0) continue;
    for (const r of sheet.rows) {
      if (!writes(r)) continue;
      for (const [field, col] of refs) {
        const v = r.values[field];
        const code = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
        if (code === '') continue;
        const kind: EntityType | undefined =
          col.refersTo === 'by_component_type'
            ? COMPONENT_TYPES.has(String(r.values.component_type))
              ? (String(r.values.component_type) as EntityType)
              : undefined
            : col.refersTo;
        if (!kind || svc.unreadable[kind as ResolvedKind] || isKnown(kind, code)) continue;
        const at = sourceCellOf(sheet, field, r.row);
        if (at.cell && errorCells.has(`${at.sheet}!${at.cell}`)) continue;
        const hints = namedHints(code, known(kind));
        const params: IssueParams = { value: code, variant: kind };
        if (hints.length) params.hint = hints.join('; ');
        out.push({
          severity: 'error',
          code: 'code_unknown',
          sheet: at.sheet,
          cell: at.cell,
          row: at.row,
          field,
          message: `${field}: ${unknownWords(kind, code)}${hints.length ? ` (did you mean ${hints.join('; ')}?)` : ''}`,
          params,
        });
        if (out.length >= MAX_ISSUES) return out;
      }
    }
  }
  return out;
}

/**
 * The cells a cross-sheet rule's error depends on, by the issue's code: the rows its own row refers to (a silo
 * item's supplier product and silo) and their cells the rule compares.
 */
const CAUSES: Partial<Record<string, [field: string, sheet: DataSheetName, cells: string[]][]>> = {
  silo_item_plant: [
    ['supplier_product_external_id', 'supplier-products', ['plant_code']],
    ['silo_external_id', 'silos', ['plant_code']],
  ],
  silo_item_material: [['supplier_product_external_id', 'supplier-products', ['material_code']]],
};

/**
 * The workbook check's report with the unknown codes among its issues (in sheet, row and column order, counted
 * as errors), and each error of a cross-sheet rule an unknown code causes worded with its cause.
 */
export function withCodeIssues(
  parsed: ParsedWorkbook,
  report: ValidationReport,
  codeIssues: readonly Issue[],
): ValidationReport {
  if (codeIssues.length === 0) return report;
  const unknown = new Set(codeIssues.map((i) => `${i.sheet}!${i.cell}`));
  const explain = causeExplainer(parsed, unknown);
  const explained = report.issues.map((i) => explain(i));
  const issues = sortIssues(parsed, [...explained, ...codeIssues]);
  const errors = issues.filter((i) => i.severity === 'error').length;
  // A row with an unknown code is a row with errors.
  const extra = new Map<DataSheetName, Set<number>>();
  for (const s of parsed.sheets)
    for (const i of codeIssues) {
      if (i.row === null || !partsOf(s).some((p) => p.sheetName === i.sheet)) continue;
      const part = partsOf(s).find((p) => p.sheetName === i.sheet)!;
      let set = extra.get(s.name);
      if (!set) extra.set(s.name, (set = new Set()));
      set.add(i.row + part.offset);
    }
  const sheets = report.sheets.map((s) => {
    const more = extra.get(s.name);
    return more ? { ...s, blockedRows: [...new Set([...s.blockedRows, ...more])].sort((a, b) => a - b) } : s;
  });
  return { ...report, ok: false, errors, warnings: issues.length - errors, issues, sheets };
}

/** What causeExplainer reads of an issue or a plan's problem. */
interface AtCell {
  code?: string;
  sheet: string | null;
  cell: string | null;
  row: number | null;
  message: string;
  params?: IssueParams;
}

/**
 * What words an issue (or a plan's problem) of a cross-sheet rule with ` (because Sheet!C7 is unknown)` and the
 * param `cause` when an unknown code causes it (else gives the issue itself). The rows it looks up are indexed
 * once, on first use.
 */
export function causeExplainer(parsed: ParsedWorkbook, unknown: UnknownCells): <I extends AtCell>(i: I) => I {
  const rowsOf = new Map<ParsedSheet, Map<number, ParsedRow>>();
  const definingOf = new Map<ParsedSheet, Map<string, ParsedRow>>();
  const rowAt = (s: ParsedSheet, row: number): ParsedRow | undefined => {
    let m = rowsOf.get(s);
    if (!m) rowsOf.set(s, (m = new Map(s.rows.map((r) => [r.row, r]))));
    return m.get(row);
  };
  const defining = (s: ParsedSheet, code: string): ParsedRow | undefined => {
    let m = definingOf.get(s);
    if (!m) {
      m = new Map();
      for (const r of s.rows) {
        const c = r.values.external_id;
        if (typeof c === 'string' && writes(r) && !m.has(c)) m.set(c, r);
      }
      definingOf.set(s, m);
    }
    return m.get(code);
  };
  return <I extends AtCell>(i: I): I => {
    const causes = i.code === undefined ? undefined : CAUSES[i.code];
    if (!causes || i.sheet === null || i.row === null) return i;
    const own = parsed.sheets.find((s) => partsOf(s).some((p) => p.sheetName === i.sheet));
    const part = own && partsOf(own).find((p) => p.sheetName === i.sheet);
    const row = own && part && rowAt(own, i.row + part.offset);
    if (!row) return i;
    for (const [field, sheetName, cells] of causes) {
      const code = row.values[field];
      const target = parsed.sheets.find((s) => s.name === sheetName);
      const def = typeof code === 'string' && target ? defining(target, code) : undefined;
      if (!def || !target) continue;
      for (const f of cells) {
        const at = sourceCellOf(target, f, def.row);
        const ref = `${at.sheet}!${at.cell}`;
        if (at.cell && unknown.has(ref) && ref !== `${i.sheet}!${i.cell}`)
          return { ...i, message: `${i.message} (because ${ref} is unknown)`, params: { ...i.params, cause: ref } };
      }
    }
    return i;
  };
}

/**
 * The codes pass on its own (the app's Check step without a plan, an import refused for the workbook's errors):
 * the workbook's codes resolved as a plan resolves them (one walk per collection, or a few lookups; never a
 * request per code), then every unknown one at its cell.
 */
export async function checkCodes(
  parsed: ParsedWorkbook,
  report: ValidationReport,
  client: ApiClient,
  mappings: CodeMappings | undefined,
  signal?: AbortSignal,
): Promise<Issue[]> {
  const wb = indexWorkbook(parsed, report);
  const svc = await resolveCodes(client, collectCodes(wb), workbookMappings(wb), mappings, signal);
  return unknownCodeIssues(parsed, svc, report);
}
