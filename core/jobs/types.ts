/**
 * Shapes of the import engine: the plan (dry run), the job's outcomes, progress events and the job's meta.
 * Everything here is plain JSON-serialisable data: the plan is saved with the job, shown by the UI and printed
 * by the CLI; results come back the same way from a live run, a resume or a job read back from disk.
 */
import type { DataSheetName, Issue, IssueCode, IssueParams } from '../workbook/types.js';
import {
  PLAN_ACTIONS,
  ROW_OUTCOMES,
  SUCCESS_OUTCOMES,
  type EntityKind,
  type JobRowOutcome,
  type JobStatus,
  type PlanAction,
  type RowOutcome,
  type SkipReason,
} from '../names.js';

/** The lists of names live in names.ts (entity kinds, plan actions, row outcomes, skip reasons, job statuses). */
export { PLAN_ACTIONS, ROW_OUTCOMES, SUCCESS_OUTCOMES };
export type { EntityKind, JobStatus, PlanAction, RowOutcome, SkipReason };

/** The kinds that are entities of their own (spec/entities.ts). */
export type { IdentifiedKind } from '../spec/entities.js';

/**
 * The dry-run action of an entry (PLAN_ACTIONS, names.ts).
 * - `create`: not on the service; will be created.
 * - `update`: on the service with other values; the changed fields are PATCHed (silo items replaced whole).
 * - `unchanged`: on the service with the same values; nothing is sent.
 * - `replace`: a BOM that differs from the service's (or is new): the whole set is PUT.
 * - `skipped_update`: would be an `update` or `replace`, but the plan was made with `createOnly`; nothing is
 *   sent and the row is reported as skipped (reason `create_only`).
 * - `blocked`: a validation error, an unresolved code, a blocked dependency or a preflight problem.
 * - `conflict`: the row was exported with a snapshot of the service entity and that entity changed since (or
 *   was deleted): blocked instead of being silently compared against new data.
 * - `delete`: a row with action `delete`, or an entity a mirrored sheet no longer has: the entity is DELETEd
 *   (after every create and update, in reverse dependency order). `id` null = already absent (nothing sent).
 */
export const WRITE_ACTIONS: readonly PlanAction[] = ['create', 'update', 'replace'];

/** A worksheet row (1-based, as in Excel) of a registry sheet. */
export interface RowRef {
  sheet: DataSheetName;
  row: number;
}

/**
 * Machine-readable kinds of the planner's own problems (the `message` says it in English, for the CLI). A UI
 * words them itself from `code` + `params` (renderer/src/i18n/issues-*.ts: `plan.<code>[.<variant>]`;
 * test/renderer/issue-text.test.ts checks every code has an English and a German template).
 */
export const PLAN_PROBLEM_CODES = [
  /** a reference cell names a row that is blocked: {value, targetKind, targetCode, targetSheet, targetRow} */
  'reference_blocked',
  /** no entity of that kind with that external_id in the workbook or on the service: {value, entityKind} */
  'reference_unknown',
  /** plant code not known: {value} */
  'plant_unknown',
  /** material code not known: {value} */
  'material_unknown',
  /** product article number not on the service: {value} */
  'product_unknown',
  /** the service's list could not be read: {resource, detail}, variant `permission` when the key lacks a scope */
  'service_unreadable',
  /** external_id twice in a sheet: {value, firstSheet, firstRow}; variant `elsewhere` when the first row is unknown */
  'duplicate_external_id',
  /** a row of a child sheet without its owner's code */
  'no_owner_code',
  /** an existing entity expected (child rows of an owner not in its sheet): {entityKind, value} */
  'not_on_service',
  /** a new silo without items: {value} */
  'silo_without_items',
  /** a silo rule of the service (checkSiloItems): {errCode, value}; variant = which rule */
  'silo_rule',
  /** the row's _snapshot no longer matches: variant `changed`, `deleted` or `unreadable` */
  'snapshot_conflict',
  /** preflight: the key lacks a scope: {scope, verb, entityKind} */
  'missing_scope',
  /** preflight: the key cannot reach a plant: {plant} */
  'plant_unreachable',
  /** preflight: the key has expired (or another reason of the preflight): {detail} */
  'key_unusable',
  /** a row rule of the registry or a schema check failed without a workbook issue code: {detail} */
  'row_rule',
  /** the row has errors reported by the workbook check */
  'row_has_errors',
  /** a mirror would delete more entities than the cap: {sheet, count, cap} */
  'mirror_cap',
  /** a delete of an entity that stays in use after the plan: {entityKind, value, users} (users by code, in words) */
  'in_use',
] as const;
export type PlanProblemCode = (typeof PLAN_PROBLEM_CODES)[number];

/** Why an entry is blocked, at a cell when there is one. */
export interface PlanProblem {
  kind:
    'validation' | 'unresolved' | 'dependency_blocked' | 'preflight' | 'conflict' | 'rule' | 'unreadable' | 'duplicate';
  /** Sheet name as in the file. */
  sheet: string | null;
  /** A1 address without the sheet ('C7'), when the problem sits at a cell. */
  cell: string | null;
  row: number | null;
  field: string | null;
  message: string;
  /** For preflight problems: the spec's err_code the service would answer with. */
  err_code?: string;
  /**
   * The issue's code and params for `validation` problems from the workbook check; a PLAN_PROBLEM_CODES entry
   * and the values its message is built from for the planner's own problems (a UI words them itself).
   */
  code?: IssueCode | PlanProblemCode;
  params?: IssueParams;
}

/** One field of an update: API field name (dotted for nested: `transport_route.truck_km`, `items[SP-1][2025]`). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface BomComponentView {
  type: string;
  /** The component's external_id where known (else the service id). */
  code: string;
  mass_kg: number;
}
export interface BomDiff {
  added: BomComponentView[];
  removed: BomComponentView[];
  changed: { type: string; code: string; before: number; after: number }[];
  unchanged: number;
}

/** A place in a body that takes the id of an entity created earlier in the same job. */
export interface RefSlot {
  /** Path in the body, e.g. ['supplier_company_id'] or ['items', 0, 'supplier_product_id'] or ['bom', 3, 'ref']. */
  path: (string | number)[];
  /** Key of the entry that creates the entity. */
  key: string;
  code: string;
}

export interface PlanEntry {
  /** Unique in the plan: `supplier-products!7` (sheet!row), `bom:PI-1` (one BOM per instance). */
  key: string;
  kind: EntityKind;
  /** Dependency level: 0 companies … 6 BOM. */
  level: number;
  /** Main sheet of the entry (for a BOM: `bom`). */
  sheet: DataSheetName;
  /** Main worksheet row (for a BOM: its first row). */
  row: number;
  /** Every worksheet row whose outcome is this entry's (hazardous substances with their product, silo items with their silo, BOM rows with their BOM). */
  rows: RowRef[];
  /** The entity's code (for a BOM: the instance's external_id); null when the row has none. */
  externalId: string | null;
  /** For people: `supplier product SP-1`, `BOM of PI-1`. */
  label: string;
  action: PlanAction;
  /** Service id when the entity exists (update/unchanged/skipped_update; for a BOM: the instance id). */
  id: string | null;
  /**
   * create: the create payload; update: the PATCH (changed fields only); replace: `{ bom: [...] }`. Places that
   * take the id of an entity created in this job hold null and are listed in `refs`.
   */
  body?: Record<string, unknown>;
  refs?: RefSlot[];
  /** Keys of the entries (created in this job) that must succeed first. */
  dependsOn?: string[];
  changes?: FieldChange[];
  bomDiff?: BomDiff;
  /** For people: "after create of supplier-companies!3 (SC-1)", create-only notes. */
  notes?: string[];
  problems?: PlanProblem[];
  /** Plants the write touches (for preflight and display). */
  plantIds?: string[];
  /**
   * The entity as the planner read it from the service, before this entry changes it (update, delete; for a BOM
   * replace `{ bom: [...] }` with component ids): the before-state a job keeps of everything it changes (what an
   * undo needs; created entities are known by their outcome's id).
   */
  before?: Record<string, unknown>;
}

export type PlanCounts = Partial<Record<PlanAction, number>>;

export interface Plan {
  format: 'supply-loader/plan@1';
  createdAt: string;
  /** Base name of the workbook. */
  file: string;
  /** Sheet names as they are in the file (registry name → name in the file). */
  sheetNames: Partial<Record<DataSheetName, string>>;
  /** Column letters of each field as they are in the file. */
  sheetColumns: Partial<Record<DataSheetName, Record<string, string>>>;
  /**
   * Sheets fed by several sources (workbook/sheet-parts.ts): each source's name and the offset of its row
   * numbers, so an entry's row is shown at its source (`MAT_2025-11.csv!3`). Absent when no sheet has several.
   */
  sheetParts?: Partial<Record<DataSheetName, { sheetName: string; offset: number }[]>>;
  baseUrl: string;
  manufacturerId: string;
  /** Masked key (svc-<key_id>-****) the plan was made with. */
  maskedKey: string;
  options: { createOnly: boolean; mirror?: DataSheetName[]; maxDeletes?: number };
  /** An undo plan (jobs/undo.ts): the id of the job it takes back. */
  undoes?: string;
  /** Per mirrored sheet: how many entities carry an external_id, how many the mirror deletes, the cap. */
  mirror?: {
    sheet: DataSheetName;
    kind: EntityKind;
    managed: number;
    deletes: number;
    cap: number;
    overCap: boolean;
  }[];
  /** Entities of mirrored types without an external_id: never touched ("not managed by the workbook"). */
  notManaged?: { kind: EntityKind; id: string; name: string | null }[];
  /** Rows with action `ignore`: skipped, nothing planned. */
  ignoredRows?: RowRef[];
  /**
   * The codes the workbook refers to that neither it nor the service knows, each an error at its cell with the
   * known codes it may be a typo of (jobs/code-check.ts); absent when every code is known.
   */
  unknownCodes?: Issue[];
  /** In execution order: by level, then sheet row. */
  entries: PlanEntry[];
  summary: {
    /** Entries per main sheet and action. */
    bySheet: Partial<Record<DataSheetName, PlanCounts>>;
    byAction: PlanCounts;
    entries: number;
    /** Worksheet rows covered by entries. */
    rows: number;
  };
  /** Requests the dry run sent (resolution, BOM reads, /v2/me). */
  requests: number;
  /** From /v2/me: the key's effective scopes and plants, what they block, and warnings (e.g. the key expires soon). */
  preflight: { ok: boolean; scopes: string[]; plant_ids: string[]; problems: PlanProblem[]; warnings: string[] };
}

/** A plan without its entries (those are in a job folder's plan-entries.jsonl: planImport, readJobIndex). */
export type PlanHeader = Omit<Plan, 'entries'>;

// ---------------------------------------------------------------- running

export interface EntitlementInfo {
  dimension: string;
  usage: number;
  limit: number;
}

export interface EntryOutcome {
  key: string;
  outcome: RowOutcome;
  /** Service id (of the entity; for a BOM, of the instance). */
  id?: string;
  /** HTTP status of the answer that settled it (failed rows: the error's status; 0 = no answer). */
  status?: number;
  err_code?: string;
  msg?: string;
  /** The catalog's explanation of err_code (English). */
  explanation?: string;
  action_hint?: string;
  reason?: SkipReason;
  entitlement_limit?: EntitlementInfo;
  /**
   * In the journal's outcome lines of entity writes: whether the entity was on the service before the job, from
   * the plan (false for a create, whatever the answer: a create whose answer was lost is still the job's own).
   */
  existed_before?: boolean;
  at?: string;
}

/**
 * JobStatus (JOB_STATUSES, names.ts):
 * - `running`: in progress (or the process died: listJobs reports that as `interrupted`).
 * - `completed`: every entry has an outcome (some may be failed or skipped).
 * - `paused`: stopped on request or by err_svc_daily_limit_reached; resumable.
 * - `aborted`: stopped by a 401 (key revoked, expired, wrong); resumable with a working key.
 * - `cancelled`: stopped by the AbortSignal; resumable.
 * - `interrupted`: meta says running but the process is gone (crash, kill); resumable.
 */
export type StopReason = 'auth' | 'daily_limit' | 'user_pause' | 'cancelled';

export const RESUMABLE_STATUSES: readonly JobStatus[] = ['paused', 'aborted', 'cancelled', 'interrupted'];

export type OutcomeCounts = Partial<Record<JobRowOutcome, number>>;

export interface JobSession {
  startedAt: string;
  finishedAt: string | null;
  maskedKey: string;
  status: JobStatus;
  reason?: StopReason;
}

export interface JobMeta {
  format: 'supply-loader/job@1';
  jobId: string;
  status: JobStatus;
  reason?: StopReason;
  /** Words for the status (e.g. what the 401 means and how to resume). */
  message?: string;
  file: string;
  /** Full path of the workbook the plan was made from, when the caller gave it (for results workbooks). */
  inputPath?: string;
  baseUrl: string;
  manufacturerId: string;
  /** Masked key of the latest session: svc-<key_id>-****. Never the key. */
  maskedKey: string;
  createdAt: string;
  startedAt: string;
  finishedAt: string | null;
  updatedAt: string;
  pid: number;
  /** Entries and worksheet rows. */
  entries: number;
  rows: number;
  counts: OutcomeCounts;
  entitlementLimits?: EntitlementInfo[];
  sessions: JobSession[];
  /** An undo job: the id of the job it takes back. */
  undoes?: string;
}

/** An entry's outcome in a job, or `pending` while it has none (not run yet, or the job stopped before it). */
export type EntryState = EntryOutcome | { key: string; outcome: 'pending' };

export interface JobResult {
  jobId: string;
  status: JobStatus;
  reason?: StopReason;
  message?: string;
  baseUrl: string;
  maskedKey: string;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number;
  /** Per entry, in plan order; `pending` entries have no outcome yet (stopped job). */
  entries: EntryState[];
  /** Entries per outcome. */
  counts: OutcomeCounts;
  /** Worksheet rows per sheet and outcome. */
  bySheet: Partial<Record<DataSheetName, OutcomeCounts>>;
  entitlementLimits: EntitlementInfo[];
  /** Requests sent in the last session. */
  requests: number;
}

/** A job's result without the outcome of every entry (those stay in the job's EntryIndex). */
export type JobResultSummary = Omit<JobResult, 'entries'>;

export interface JobProgress {
  jobId: string;
  status: JobStatus;
  /** Worksheet rows settled / in the plan. */
  done: number;
  total: number;
  rowsPerS: number;
  /** Seconds left at the current rate; null until a rate is known. */
  etaS: number | null;
  /** Entries per outcome so far. */
  byOutcome: OutcomeCounts;
  level: number;
}

export interface JobSummary {
  jobId: string;
  status: JobStatus;
  reason?: StopReason;
  file: string;
  baseUrl: string;
  maskedKey: string;
  createdAt: string;
  finishedAt: string | null;
  entries: number;
  rows: number;
  counts: OutcomeCounts;
  resumable: boolean;
  /** An undo job: the id of the job it takes back. */
  undoes?: string;
}
