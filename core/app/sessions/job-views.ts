/**
 * What the Import and Jobs screens see of a plan and a job: rows of the dry run and of the results, filtered
 * and paged on the main side (a plan of 100,000 rows stays here), and the plan restricted to the rows that did
 * not succeed in an earlier job (re-run of failed rows). Pure functions over the import engine's JSON data.
 */
import type { EntryOutcome, EntryState, Plan, PlanEntry, PlanProblem } from '../../jobs/types.js';
import { PLAN_WRITE_ACTIONS } from '../../names.js';
import { planSummary } from '../../jobs/plan.js';
import type { EntryIndex } from '../../jobs/entry-index.js';
import { loadIndexed } from '../../jobs/run.js';
import { decodeRow } from '../../workbook/sheet-parts.js';
import type { DataSheetName, ParsedRow, ParsedSheet, ParsedWorkbook } from '../../workbook/types.js';
import type {
  JobRowFilter,
  JobRowView,
  PlanProblemView,
  PlanRowFilter,
  PlanRowView,
  UndoPlanView,
} from '../../contract/index.js';

type Scalar = string | number | boolean | null;
type AnyOutcome = EntryState;

/** A value as text or number for a table cell: never JSON, never an object. */
export function toScalar(v: unknown): Scalar {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (Array.isArray(v)) return v.map((x) => String(toScalar(x) ?? '—')).join('; ');
  if (typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}: ${String(toScalar(x) ?? '—')}`)
      .join(', ');
  }
  return String(v);
}

const KM = /_km$/;

/** A reference to another entity in a body: its code where the plan knows it (refs), else the value as it is. */
type CodeOf = (v: unknown) => string;

function listWords(v: unknown, item: (x: Record<string, unknown>) => string): Scalar {
  if (!Array.isArray(v)) return toScalar(v);
  if (v.length === 0) return null;
  return v
    .map((x) => (x && typeof x === 'object' ? item(x as Record<string, unknown>) : String(toScalar(x))))
    .join('; ');
}

const num = (v: unknown): string => String(toScalar(v) ?? '—');

/**
 * A value of a service body in words for a table cell (never JSON, never an object), by its field: a transport
 * route as "truck 120 km, train 40 km", hazardous substances by CAS number and mass share, a material type by its
 * category and id, silo items by supplier product and year, a BOM by component and mass, production figures by
 * year. Other objects and lists as `key: value` pairs (toScalar). `codeOf` names a referenced entity.
 */
export function valueWords(field: string, v: unknown, codeOf: CodeOf = (x) => String(toScalar(x) ?? '—')): Scalar {
  if (v === null || v === undefined || typeof v !== 'object') return toScalar(v);
  const name = field.split('.').pop() ?? field;
  switch (name) {
    case 'transport_route': {
      const legs = Object.entries(v as Record<string, unknown>)
        .filter(([, km]) => km !== null && km !== undefined)
        .map(([k, km]) => (KM.test(k) ? `${k.replace(KM, '')} ${num(km)} km` : `${k}: ${num(km)}`));
      return legs.length ? legs.join(', ') : null;
    }
    case 'hazardous_substances':
      return listWords(v, (h) => `CAS ${String(h.cas_number ?? '?')}: ${num(h.mass_share)}`);
    case 'material_type': {
      const m = v as Record<string, unknown>;
      const id = m.elementary_id ?? m.composite_id;
      return id === undefined ? toScalar(v) : `${String(m.category ?? '?')} ${codeOf(id)}`;
    }
    case 'items':
      return listWords(v, (i) => {
        const years = Array.isArray(i.annual_items)
          ? (i.annual_items as Record<string, unknown>[]).map((a) => `${num(a.year)}: ${num(a.amount)}`).join(', ')
          : num(i.annual_items);
        return `${codeOf(i.supplier_product_id)} (${years})`;
      });
    case 'bom':
      return listWords(v, (c) => `${String(c.type ?? '?')} ${codeOf(c.ref)} ${num(c.mass_kg)} kg`);
    case 'production_figures':
      return listWords(v, (f) => `${num(f.year)}: ${num(f.quantity)}`);
    default:
      return toScalar(v);
  }
}

/**
 * The fields a write sends (its body), each value in words: what an undo's re-create, put-back BOM or production
 * figures show (empty fields left out). A place that takes the id of an entity made earlier in the same job names
 * that entity's code.
 */
export function bodyFields(e: Pick<PlanEntry, 'body' | 'refs'>): { field: string; value: Scalar }[] {
  if (!e.body) return [];
  const refAt = new Map((e.refs ?? []).map((r) => [JSON.stringify(r.path), r.code]));
  const codes = new Map<unknown, string>();
  // Ref slots hold null in the body: a copy holds a marker object the words below turn into the code.
  const marked = (v: unknown, at: (string | number)[]): unknown => {
    const code = refAt.get(JSON.stringify(at));
    if (code !== undefined) {
      const marker = { code };
      codes.set(marker, code);
      return marker;
    }
    if (Array.isArray(v)) return v.map((x, i) => marked(x, [...at, i]));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, marked(x, [...at, k])]));
    return v;
  };
  const body = marked(e.body, []) as Record<string, unknown>;
  const codeOf: CodeOf = (x) => codes.get(x) ?? String(toScalar(x) ?? '—');
  const out: { field: string; value: Scalar }[] = [];
  for (const [field, v] of Object.entries(body)) {
    if (v === undefined) continue;
    const code = codes.get(v);
    out.push({ field, value: code ?? valueWords(field, v, codeOf) });
  }
  // A field left empty is not sent as a value: shown only when it is all the body holds (an empty BOM put back).
  const set = out.filter((f) => f.value !== null);
  return set.length ? set : out;
}

export function problemView(p: PlanProblem): PlanProblemView {
  return {
    kind: p.kind,
    sheet: p.sheet,
    cell: p.cell,
    row: p.row,
    field: p.field,
    message: p.message,
    errCode: p.err_code ?? null,
    ...(p.code && { code: p.code }),
    ...(p.params && { params: p.params }),
  };
}

const MAX_ROWS_LISTED = 20;

/** Rows of the workbook by registry sheet and worksheet row, for the values a create shows. */
export type RowLookup = (sheet: string, row: number) => ParsedRow | undefined;

/** Whether a sheet's rows are in strictly ascending row order (as the readers read them). */
function ascending(rows: readonly ParsedRow[]): boolean {
  for (let i = 1; i < rows.length; i++) if (rows[i - 1].row >= rows[i].row) return false;
  return true;
}

/** The row of a number in rows in ascending row order (a binary search). */
function search(rows: readonly ParsedRow[], row: number): ParsedRow | undefined {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = rows[mid].row;
    if (at === row) return rows[mid];
    if (at < row) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * A sheet's row by its number, found in the sheet's own rows by a binary search: the readers read rows in
 * ascending order (a second source of a sheet numbered above the first). No map of every row is kept beside the
 * rows for as long as an import is open (a 130,000-row workbook's would be ~7 MB more while it is planned). A
 * number not found has the sheet's order checked once; a sheet whose rows are not in that order (or repeat a
 * number) is then indexed, the last row of a number counting.
 */
export function rowLookup(parsed: Pick<ParsedWorkbook, 'sheets'>): RowLookup {
  const bySheet = new Map<string, ParsedSheet>();
  for (const s of parsed.sheets) bySheet.set(s.name, s);
  /** per sheet whose order was checked: null when its rows are ascending, else its rows by number */
  const checked = new Map<string, Map<number, ParsedRow> | null>();
  return (sheet, row) => {
    const s = bySheet.get(sheet);
    if (!s) return undefined;
    let byRow = checked.get(sheet);
    if (byRow) return byRow.get(row);
    const found = search(s.rows, row);
    if (found || byRow === null) return found;
    byRow = ascending(s.rows) ? null : new Map(s.rows.map((r) => [r.row, r]));
    checked.set(sheet, byRow);
    return byRow?.get(row);
  };
}

/** A child row of a create as field → value pairs, in the names the update diff uses (jobs/diff.ts). */
export function childFields(
  sheet: string,
  row: number,
  values: Record<string, unknown>,
): { field: string; value: Scalar }[] {
  if (sheet === 'silo-items')
    return [
      {
        field: `items[${String(values.supplier_product_external_id ?? '?')}][${String(values.year ?? '?')}]`,
        value: toScalar(values.amount),
      },
    ];
  if (sheet === 'hazardous-substances')
    return [
      {
        field: `hazardous_substances[${String(values.cas_number ?? '?')}].mass_share`,
        value: toScalar(values.mass_share),
      },
    ];
  return Object.entries(values).map(([k, v]) => ({ field: `${sheet}!${row}.${k}`, value: toScalar(v) }));
}

/** The source's name and row of a plan row (a CSV's file, a workbook's own sheet name; several sources decoded). */
function sourceOf(
  plan: PlanSources | undefined,
  sheet: DataSheetName,
  row: number,
): { sheetName: string; row: number } {
  return decodeRow(plan?.sheetParts?.[sheet], plan?.sheetNames[sheet] ?? sheet, row);
}

type PlanSources = Pick<Plan, 'sheetNames' | 'sheetParts'>;

export function planRowView(e: PlanEntry, rowOf: RowLookup, plan?: PlanSources): PlanRowView {
  const fields: PlanRowView['fields'] = [];
  if (e.action === 'create' || (e.kind !== 'bom' && (e.action === 'blocked' || e.action === 'conflict'))) {
    const main = rowOf(e.sheet, e.row);
    if (main)
      for (const [field, value] of Object.entries(main.values))
        fields.push({ field, value: value === null ? '#CLEAR' : value });
    // The entity's child rows (a silo's yearly amounts, a supplier product's hazardous substances), named as an
    // update names them, so a create shows everything it will send.
    for (const r of e.rows) {
      if (r.sheet === e.sheet && r.row === e.row) continue;
      const child = rowOf(r.sheet, r.row);
      if (child) fields.push(...childFields(r.sheet, r.row, child.values));
    }
  }
  // A delete names the entity it removes (its name on the service, read by the plan), beside the code.
  if (e.action === 'delete' && typeof e.before?.name === 'string') fields.push({ field: 'name', value: e.before.name });
  const d = e.bomDiff;
  const main = sourceOf(plan, e.sheet, e.row);
  return {
    key: e.key,
    kind: e.kind,
    sheet: e.sheet,
    row: e.row,
    source: main.sheetName,
    sourceRow: main.row,
    rows: e.rows.slice(0, MAX_ROWS_LISTED).map((r) => {
      const at = sourceOf(plan, r.sheet, r.row);
      return { sheet: r.sheet, row: at.row, source: at.sheetName };
    }),
    moreRows: Math.max(0, e.rows.length - MAX_ROWS_LISTED),
    label: e.label,
    externalId: e.externalId,
    action: e.action,
    changes: (e.changes ?? []).map((c) => ({
      field: c.field,
      before: valueWords(c.field, c.before),
      after: valueWords(c.field, c.after),
    })),
    fields,
    bom: d
      ? {
          added: d.added.map((c) => ({ type: c.type, code: c.code, massKg: c.mass_kg })),
          removed: d.removed.map((c) => ({ type: c.type, code: c.code, massKg: c.mass_kg })),
          changed: d.changed.map((c) => ({ type: c.type, code: c.code, before: c.before, after: c.after })),
          unchanged: d.unchanged,
        }
      : null,
    notes: e.notes ?? [],
    problems: (e.problems ?? []).map(problemView),
  };
}

function textOf(e: PlanEntry): string {
  return `${e.label} ${e.externalId ?? ''} ${e.sheet} ${e.key} ${(e.problems ?? []).map((p) => p.message).join(' ')}`.toLowerCase();
}

/** Whether a plan entry passes a filter of the dry run's rows (null: the filter lets every entry pass). */
export function planEntryFilter(f: PlanRowFilter): ((e: PlanEntry) => boolean) | null {
  const search = f.search?.trim().toLowerCase() ?? '';
  if (!f.sheet && !f.action && !search) return null;
  const writes = new Set<string>(PLAN_WRITE_ACTIONS);
  return (e) => {
    if (f.sheet && e.sheet !== f.sheet) return false;
    if (f.action === 'writes' ? !writes.has(e.action) : f.action && e.action !== f.action) return false;
    return !search || textOf(e).includes(search);
  };
}

/**
 * Positions of a job folder's entries that pass (every one when `passes` is null, without reading the file; else
 * one pass over plan-entries.jsonl), in plan order: the dry run's and a job's row filters.
 */
export async function positionsPassing(
  index: Pick<EntryIndex, 'size' | 'forEachEntry'>,
  passes: ((e: PlanEntry, i: number) => boolean) | null,
): Promise<number[]> {
  if (!passes) return Array.from({ length: index.size }, (_, i) => i);
  const out: number[] = [];
  await index.forEachEntry((e, i) => {
    if (passes(e, i)) out.push(i);
  });
  return out;
}

/** Indices of the plan's entries that pass the filter, in plan order. */
export function filterPlanEntries(plan: Plan, f: PlanRowFilter): number[] {
  const passes = planEntryFilter(f);
  const out: number[] = [];
  plan.entries.forEach((e, i) => {
    if (!passes || passes(e)) out.push(i);
  });
  return out;
}

/** A row that did not succeed: failed, skipped (other than create-only, which was the user's choice) or not run. */
export function notSucceeded(o: AnyOutcome | undefined): boolean {
  if (o === undefined || o.outcome === 'pending' || o.outcome === 'failed') return true;
  return o.outcome === 'skipped' && (o as EntryOutcome).reason !== 'create_only';
}

function outcomeText(e: PlanEntry, o: AnyOutcome): string {
  if (o.outcome === 'pending') return '';
  const full = o as EntryOutcome;
  if (full.outcome === 'failed' || full.outcome === 'skipped') return full.msg ?? '';
  if (full.outcome === 'updated' && e.changes) {
    return e.changes
      .map((c) => `${c.field}: ${String(toScalar(c.before) ?? '—')} → ${String(toScalar(c.after) ?? '—')}`)
      .join('; ');
  }
  return '';
}

export function jobRowView(e: PlanEntry, o: AnyOutcome, plan?: PlanSources): JobRowView {
  const full = o.outcome === 'pending' ? null : (o as EntryOutcome);
  const at = sourceOf(plan, e.sheet, e.row);
  const problem = full?.outcome === 'skipped' && full.reason === 'blocked' ? e.problems?.[0] : undefined;
  return {
    key: e.key,
    kind: e.kind,
    sheet: e.sheet,
    row: at.row,
    source: at.sheetName,
    rowCount: e.rows.length,
    label: e.label,
    externalId: e.externalId,
    planAction: e.action,
    outcome: o.outcome,
    reason: full?.reason ?? null,
    status: full?.status ?? null,
    errCode: full?.err_code ?? null,
    message: outcomeText(e, o),
    entitlement: full?.entitlement_limit ?? null,
    id: full?.id ?? null,
    ...(problem && { problem: problemView(problem) }),
    ...(full?.outcome === 'replaced' &&
      e.bomDiff && {
        bomDiff: {
          added: e.bomDiff.added.length,
          removed: e.bomDiff.removed.length,
          changed: e.bomDiff.changed.length,
          unchanged: e.bomDiff.unchanged,
        },
      }),
  };
}

/**
 * Whether a job's entry with this outcome passes the filter of the job's rows (sheet, outcome or problems,
 * words); null when the filter lets every entry pass.
 */
export function jobEntryFilter(f: JobRowFilter): ((e: PlanEntry, o: AnyOutcome) => boolean) | null {
  const search = f.search?.trim().toLowerCase() ?? '';
  if (!f.sheet && !f.outcome && !search) return null;
  return (e, o) => {
    if (f.sheet && e.sheet !== f.sheet) return false;
    if (f.outcome === 'problems' ? !notSucceeded(o) : f.outcome && o.outcome !== f.outcome) return false;
    if (search) {
      const full = o as EntryOutcome;
      const text = `${textOf(e)} ${full.err_code ?? ''} ${full.msg ?? ''}`.toLowerCase();
      if (!text.includes(search)) return false;
    }
    return true;
  };
}

/** Identity of an entry across two workbooks: its entity kind and code, or its sheet row when it has no code. */
export function identityOf(e: Pick<PlanEntry, 'kind' | 'externalId' | 'key'>): string {
  return e.externalId ? `${e.kind}|${e.externalId}` : `key|${e.key}`;
}

/** Recompute a plan's summary after entries were left out: the planner's own count. */
export { planSummary as summarizePlan };

/**
 * The identities (identityOf) of a job's entries that did not succeed: what a re-run of its failed rows keeps.
 * Read from the job's folder through its compact index (one pass over plan-entries.jsonl; no entry kept).
 */
export async function failedIdentities(jobsDir: string, jobId: string): Promise<Set<string>> {
  const { index } = await loadIndexed(jobsDir, jobId);
  const wanted = new Set<string>();
  try {
    await index.forEachEntry((e, i) => {
      if (notSucceeded(index.outcomeOf(i))) wanted.add(identityOf(e));
    });
  } finally {
    await index.close();
  }
  return wanted;
}

/**
 * The entries to keep (1 per position): the wanted ones and everything they depend on in the plan, by position
 * (`deps` gives an entry's dependencies; -1 for a key that is no entry of the plan).
 */
export function keptWithDependencies(
  size: number,
  wanted: Iterable<number>,
  deps: (i: number) => Iterable<number>,
): Uint8Array {
  const keep = new Uint8Array(size);
  const stack = [...wanted];
  while (stack.length) {
    const i = stack.pop()!;
    if (i < 0 || keep[i]) continue;
    keep[i] = 1;
    for (const d of deps(i)) if (d >= 0 && !keep[d]) stack.push(d);
  }
  return keep;
}

/** A page of a list of indices. */
export function page<T>(
  indices: readonly number[],
  offset: number,
  limit: number,
  view: (i: number) => T,
): { total: number; offset: number; rows: T[] } {
  const start = Math.min(offset, indices.length);
  return { total: indices.length, offset: start, rows: indices.slice(start, start + limit).map(view) };
}

const UNDO_ROWS_SHOWN = 500;

/**
 * The undo's dry run as the Jobs screen shows it: counts and the entries (conflicts and what cannot be undone
 * first, then in execution order). A re-create shows the values it sends (the snapshot taken before the delete).
 */
export function undoPlanView(jobId: string, plan: Plan): UndoPlanView {
  // An undo has no workbook: what a row sends is its entry's own body (several entries may share sheet and row).
  const noRow: RowLookup = () => undefined;
  const rowView = (e: PlanEntry): PlanRowView => {
    const v = planRowView(e, noRow, plan);
    const sends = e.action === 'create' || e.action === 'replace' || (e.action === 'update' && e.kind === 'production');
    return sends && e.body && !e.bomDiff ? { ...v, fields: bodyFields(e) } : v;
  };
  const a = plan.summary.byAction;
  const isBlocked = (e: PlanEntry) => e.action === 'conflict' || e.action === 'blocked';
  const ordered = [...plan.entries.filter(isBlocked), ...plan.entries.filter((e) => !isBlocked(e))];
  return {
    jobId,
    file: plan.file,
    summary: { byAction: { ...a } as Record<string, number>, entries: plan.summary.entries, rows: plan.summary.rows },
    writes: (a.create ?? 0) + (a.update ?? 0) + (a.replace ?? 0) + (a.delete ?? 0),
    blocked: (a.blocked ?? 0) + (a.conflict ?? 0),
    requests: plan.requests,
    rows: ordered.slice(0, UNDO_ROWS_SHOWN).map(rowView),
    moreRows: Math.max(0, ordered.length - UNDO_ROWS_SHOWN),
  };
}
