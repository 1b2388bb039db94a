/**
 * The LCA data Supply Loader works with: the selected product instances, the outcome of each instance's job
 * (with the service's answer kept as it came), and a tolerant reading of the `results` elements.
 *
 * The spec shows nothing of a results element beyond the blocker type `missing_input` and kind
 * `production_data`, and the endpoint is a preview that may change without notice. So the reading here is
 * tolerant: known fields (year, status, partial_year, production_quantity, values[{indicator, unit, module,
 * value}], blockers[{type, kind, code, err_code, msg}], breakdown) are picked out where they have the expected
 * type, everything else is kept as flattened extra fields, and an element whose `values` is missing or not an
 * array is marked `values: null` so the exporter falls back to generic flattening instead of failing.
 * Everything here is plain JSON-serialisable data (the UI receives it over IPC).
 */
import type { LcaAbortReason, LcaOutcome } from '../names.js';
import { type CellValue, type FlatRecord, flattenInto, unknownFields } from './flatten.js';

/** One product instance chosen for the LCA, with what the sheets show about it. */
export interface SelectedInstance {
  id: string;
  external_id: string | null;
  name: string | null;
  plant_id: string | null;
  /** The plant's code (external_id); null when the key cannot read the plant or it has none. */
  plant_code: string | null;
  product_id: string | null;
  /** The product's article number (its external_id). */
  product_article: string | null;
  product_name: string | null;
  /** The product's `unit` (T, M3, KG, …): the declared unit. Undefined/null when the product is not readable. */
  product_unit?: string | null;
  produced_from: number | null;
  produced_to: number | null;
}

/**
 * How an instance's LCA ended for us (LCA_OUTCOMES, names.ts):
 * - `completed`: job completed: results are the stored results
 * - `idle`: no job ever ran (no recompute asked for, none stored): results are empty
 * - `failed`: the job failed: err_code from the job
 * - `unknown_status`: polling stopped at a job status this version does not know (shown to the operator)
 * - `error`: a request failed (permission, not found, network after retries, …): err_code from the error
 * - `cancelled`: not finished because the run was cancelled
 * - `skipped`: not started because the run was aborted (authentication, daily limit)
 */
export type InstanceOutcome = LcaOutcome;

export interface InstanceLca {
  instance: SelectedInstance;
  outcome: InstanceOutcome;
  /** Last job.status seen (raw). */
  job_status: string | null;
  /** The job object as the service returned it last (null when no answer). */
  job: Record<string, unknown> | null;
  /** Of a failed job, or of the request that failed. */
  err_code: string | null;
  msg: string | null;
  /** The error catalog's explanation of err_code (explainErrCode), English. */
  explanation: string | null;
  action: string | null;
  /** Whether we started a recompute (false when one was already in flight and we waited for it instead). */
  recomputed: boolean;
  /** A recompute was already in flight (err_lca_update_not_queued): we waited for it rather than fail. */
  waited_for_running_job: boolean;
  /** The `results` array exactly as the service returned it (elements not interpreted). */
  results: unknown[];
  /** Top-level fields of the lca-results answer other than product_instance_id, job and results. */
  response_extra: FlatRecord;
  /** When our polling ended (ISO time of this machine). */
  checked_at: string | null;
}

export interface LcaRunSummary {
  total: number;
  completed: number;
  idle: number;
  failed: number;
  unknown_status: number;
  error: number;
  cancelled: number;
  skipped: number;
}

export interface LcaReport {
  generated_at: string;
  base_url: string;
  /** svc-<key_id>-**** — never the key. */
  masked_key: string;
  /** In words, e.g. "products CEM-I-42,5R, C30/37". */
  selection: string;
  recompute: boolean;
  instances: InstanceLca[];
  summary: LcaRunSummary;
  /** Why the run stopped early (authentication, daily limit, cancelled); null when it ran to the end. */
  aborted: { reason: LcaAbortReason; err_code: string | null; message: string } | null;
  duration_ms: number;
  /** The per-source breakdown resolved to names (resolveBreakdownContext, hotspots.ts); absent until resolved. */
  breakdown_context?: BreakdownContext;
}

/** One BOM component of an instance, resolved to names (for hotspots). */
export interface ComponentInfo {
  componentType: string;
  ref: string;
  externalId: string | null;
  name: string | null;
  /** Supplier company name(s) (a silo's items may come from several: joined with "; "). */
  supplierCompany: string | null;
  /** Supplier plant name(s). */
  supplierPlant: string | null;
  /** Mass in the BOM per declared unit of product (kg); null when the BOM is not readable or lacks the ref. */
  massKg: number | null;
}

export interface BreakdownContext {
  /** Whether the per-source breakdown could be read (the key has view:recipes and the service returned it). */
  readable: boolean;
  /** Why it is missing, in words; null when readable. */
  reason: string | null;
  /** Per instance id: its components by ref. */
  components: Record<string, ComponentInfo[]>;
  /** Names that could not be resolved (permission, deleted entity …), in words. */
  problems: string[];
}

// ------------------------------------------------------------------ tolerant reading of results elements

export interface ImpactValue {
  indicator: string | null;
  module: string | null;
  unit: string | null;
  /** null = not declared (missing, null or not a number): an empty cell, never 0. */
  value: number | null;
  /** Unknown fields of the value entry, by path under `values[].` */
  extra: FlatRecord;
}

export interface ResultBlocker {
  type: string | null;
  kind: string | null;
  code: string | null;
  err_code: string | null;
  msg: string | null;
  extra: FlatRecord;
}

export interface BreakdownEntry {
  component_type: string | null;
  ref: string | null;
  indicator: string | null;
  module: string | null;
  value: number | null;
  extra: FlatRecord;
}

export interface ResultYear {
  year: number | null;
  status: string | null;
  partial_year: boolean | null;
  production_quantity: number | null;
  /** null: the element has no `values` array (the shape changed) — exported by generic flattening. */
  values: ImpactValue[] | null;
  blockers: ResultBlocker[];
  breakdown: BreakdownEntry[] | null;
  /** Fields not known to this version, flattened by path (e.g. `extra.foo.bar`). */
  extra: FlatRecord;
}

const ELEMENT_FIELDS = new Set([
  'year',
  'status',
  'partial_year',
  'production_quantity',
  'values',
  'blockers',
  'breakdown',
]);
/** Job fields the jobs sheet has its own columns for. */
export const JOB_FIELDS = new Set(['id', 'status', 'err_code', 'msg', 'queued_at', 'started_at', 'finished_at']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

/**
 * A known field holding the wrong type is not lost: it goes to `extra` under its own name, and the known
 * slot stays empty.
 */
function keepIfWrongType(
  extra: FlatRecord,
  obj: Record<string, unknown>,
  field: string,
  parsed: unknown,
  prefix = '',
): void {
  const raw = obj[field];
  if (raw !== undefined && raw !== null && parsed === null) flattenInto(extra, raw, `${prefix}${field}`);
}

type FieldReader = (v: unknown) => unknown;
type Entry<F extends Record<string, FieldReader>> = { [K in keyof F]: ReturnType<F[K]> } & { extra: FlatRecord };

/**
 * A flat entry of known fields, each read by its reader (a known field of the wrong type is kept in `extra`);
 * unknown fields go to `extra` by path under `prefix`. Not an object: every field null, the whole in `extra`
 * under `name`.
 */
function readEntry<F extends Record<string, FieldReader>>(
  raw: unknown,
  fields: F,
  name: string,
  prefix = '',
): Entry<F> {
  const keys = Object.keys(fields);
  const known: Record<string, unknown> = {};
  if (!isObject(raw)) {
    for (const k of keys) known[k] = null;
    return { ...known, extra: flattenInto({}, raw, name) } as Entry<F>;
  }
  const extra = unknownFields(raw, new Set(keys), prefix);
  for (const k of keys) {
    known[k] = fields[k](raw[k]);
    keepIfWrongType(extra, raw, k, known[k], prefix);
  }
  return { ...known, extra } as Entry<F>;
}

const VALUE_READERS = { indicator: str, module: str, unit: str, value: num };
const BLOCKER_READERS = { type: str, kind: str, code: str, err_code: str, msg: str };
const BREAKDOWN_READERS = { component_type: str, ref: str, indicator: str, module: str, value: num };

const readValue = (raw: unknown): ImpactValue => readEntry(raw, VALUE_READERS, 'values[]', 'values[].');
const readBlocker = (raw: unknown): ResultBlocker => readEntry(raw, BLOCKER_READERS, 'blocker');
const readBreakdown = (raw: unknown): BreakdownEntry => readEntry(raw, BREAKDOWN_READERS, 'entry');

/** Read one element of `results` tolerantly (see the module comment). Never throws. */
export function readResultElement(raw: unknown): ResultYear {
  if (!isObject(raw)) {
    return {
      year: null,
      status: null,
      partial_year: null,
      production_quantity: null,
      values: null,
      blockers: [],
      breakdown: null,
      extra: flattenInto({}, raw, 'element'),
    };
  }
  const extra = unknownFields(raw, ELEMENT_FIELDS);
  const y: ResultYear = {
    year: int(raw.year),
    status: str(raw.status),
    partial_year: bool(raw.partial_year),
    production_quantity: num(raw.production_quantity),
    values: Array.isArray(raw.values) ? raw.values.map(readValue) : null,
    blockers: Array.isArray(raw.blockers) ? raw.blockers.map(readBlocker) : [],
    breakdown: Array.isArray(raw.breakdown) ? raw.breakdown.map(readBreakdown) : null,
    extra,
  };
  keepIfWrongType(extra, raw, 'year', y.year);
  keepIfWrongType(extra, raw, 'status', y.status);
  keepIfWrongType(extra, raw, 'partial_year', y.partial_year);
  keepIfWrongType(extra, raw, 'production_quantity', y.production_quantity);
  for (const f of ['values', 'blockers', 'breakdown'] as const) {
    if (raw[f] !== undefined && raw[f] !== null && !Array.isArray(raw[f])) flattenInto(extra, raw[f], f);
  }
  return y;
}

/** All elements of an instance's results, read tolerantly, in the order the service gave (ascending years). */
export function readResults(results: readonly unknown[]): ResultYear[] {
  return results.map(readResultElement);
}

/** ISO date-time string → its UTC year, or null. */
function yearOfIso(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t).getUTCFullYear();
}

/**
 * The service's current calendar year as seen from its answer: the year of the element flagged partial
 * (the current year, spec rule 2), else the year of the job's finished/started/queued time (the service's
 * clock), else this machine's year. Used to tell a future year (blocked until it arrives, nothing to do yet)
 * from a past or current year whose production data is missing (the user must enter it).
 */
export function serviceCurrentYear(
  years: readonly ResultYear[],
  job: Record<string, unknown> | null,
  now = new Date(),
): number {
  const partial = years.find((y) => y.partial_year === true && y.year !== null);
  if (partial?.year != null) return partial.year;
  for (const f of ['finished_at', 'started_at', 'queued_at']) {
    const y = yearOfIso(job?.[f]);
    if (y !== null) return y;
  }
  return now.getUTCFullYear();
}

/** What the user should do about a blocker, in words. */
export function blockerAction(b: ResultBlocker, year: number | null, currentYear: number): string {
  const kind = b.kind ?? '';
  if (kind === 'production_data') {
    if (year !== null && year > currentYear) {
      return `Nothing to do yet: ${year} is a future production year. Once ${year} has begun, enter its production data in the web interface, then recompute.`;
    }
    return `Enter the production data of this product instance for ${year ?? 'this year'} in the web interface, then recompute the LCA.`;
  }
  return `Provide the missing input (${b.type ?? 'unknown type'} / ${kind || 'unknown kind'}) in the web interface, then recompute the LCA.`;
}

/** True when a blocker asks the user to act now (not a future year waiting for its turn). */
export function blockerNeedsAction(year: number | null, currentYear: number): boolean {
  return year === null || year <= currentYear;
}

export function emptySummary(): LcaRunSummary {
  return { total: 0, completed: 0, idle: 0, failed: 0, unknown_status: 0, error: 0, cancelled: 0, skipped: 0 };
}

export function summarize(instances: readonly InstanceLca[]): LcaRunSummary {
  const s = emptySummary();
  s.total = instances.length;
  for (const i of instances) s[i.outcome]++;
  return s;
}

export type { CellValue, FlatRecord };
