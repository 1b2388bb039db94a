/**
 * Every list of names the core, the IPC contract and the renderer share, each written once.
 * Types are derived from the arrays; the contract's zod enums are `z.enum(<ARRAY>)`; the renderer's messages are
 * typed `Record<Name, MessageKey>` over them, so a name added here fails to compile wherever it is not handled
 * (and test/renderer/names.test.ts checks every name has an English and a German message).
 * No imports: anything may import this module (core, contract, renderer, sandbox, tests).
 * The API's own vocabulary (units, LCA job statuses, scopes, err_codes) stays in spec/.
 */

/**
 * What one plan entry writes. `bom` is the whole BOM of one product instance (one PUT); `production` the
 * production figures of one product instance (one PUT of the years that change).
 */
export const ENTITY_KINDS = [
  'supplier_company',
  'supplier_plant',
  'supplier_product',
  'silo',
  'product_instance',
  'prechain_product',
  'bom',
  'production',
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** The dry-run action of a plan entry (what each one means: jobs/types.ts). */
export const PLAN_ACTIONS = [
  'create',
  'update',
  'unchanged',
  'replace',
  'skipped_update',
  'blocked',
  'conflict',
  'delete',
] as const;
export type PlanAction = (typeof PLAN_ACTIONS)[number];

/** The actions that send something (a dry run's "everything that writes" filter and count): deletes too. */
export const PLAN_WRITE_ACTIONS = ['create', 'update', 'replace', 'delete'] as const satisfies readonly PlanAction[];

/** What happened to a row of a job, in the CLI's display order. */
export const ROW_OUTCOMES = [
  'created',
  'replayed',
  'already_existed',
  'unchanged',
  'updated',
  'replaced',
  'deleted',
  'already_absent',
  'failed',
  'skipped',
] as const;
export type RowOutcome = (typeof ROW_OUTCOMES)[number];

/** A job row's outcome as the UI sees it: a row not run yet is `pending`. */
export const JOB_ROW_OUTCOMES = [...ROW_OUTCOMES, 'pending'] as const;
export type JobRowOutcome = (typeof JOB_ROW_OUTCOMES)[number];

/** Outcomes that count as success (the row's data is on the service). */
export const SUCCESS_OUTCOMES: readonly RowOutcome[] = ROW_OUTCOMES.filter((o) => o !== 'failed' && o !== 'skipped');

/** Whether an outcome counts as success (`pending`, `failed` and `skipped` do not). */
export function succeeded(outcome: JobRowOutcome): boolean {
  return outcome !== 'pending' && SUCCESS_OUTCOMES.includes(outcome);
}

/** Why a row was skipped. */
export const SKIP_REASONS = ['blocked', 'create_only', 'dependency', 'entitlement'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The status of an import job (what each one means: jobs/types.ts). */
export const JOB_STATUSES = ['running', 'completed', 'paused', 'aborted', 'cancelled', 'interrupted'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Phases of making a plan (the dry run), reported as progress. */
export const PLAN_PHASES = ['preflight', 'resolving', 'reading_boms', 'planning'] as const;
export type PlanPhase = (typeof PLAN_PHASES)[number];

/** Phases of reading and checking a workbook before the plan's. */
export const CHECK_PHASES = ['checking', 'reading', 'validating'] as const;
export type CheckPhase = (typeof CHECK_PHASES)[number];

/** Every phase of the import's progress events (check, then plan). */
export const IMPORT_PHASES = [...CHECK_PHASES, ...PLAN_PHASES] as const;
export type ImportPhase = (typeof IMPORT_PHASES)[number];

/** What the UI shows per instance of an LCA run. `waiting` = not started yet. */
export const LCA_STATES = ['waiting', 'queued', 'processing', 'done', 'failed'] as const;
export type LcaInstanceState = (typeof LCA_STATES)[number];

/** How an instance's LCA ended for us (what each one means: lca/model.ts, InstanceLca). */
export const LCA_OUTCOMES = ['completed', 'idle', 'failed', 'unknown_status', 'error', 'cancelled', 'skipped'] as const;
export type LcaOutcome = (typeof LCA_OUTCOMES)[number];

/** The state of an LCA run as a whole. */
export const LCA_RUN_STATES = ['running', 'done', 'failed'] as const;
export type LcaRunState = (typeof LCA_RUN_STATES)[number];

/** Why an LCA run stopped before every instance was done. */
export const LCA_ABORT_REASONS = ['cancelled', 'auth', 'daily_limit'] as const;
export type LcaAbortReason = (typeof LCA_ABORT_REASONS)[number];

/** Kinds of codes an LCA selection names (and may not find). */
export const LCA_CODE_KINDS = ['instance', 'product', 'plant'] as const;
export type LcaCodeKind = (typeof LCA_CODE_KINDS)[number];

/** How the LCA screen selects instances. */
export const LCA_SELECTORS = ['products', 'plant', 'instances', 'all'] as const;
export type LcaSelectorName = (typeof LCA_SELECTORS)[number];

/** The basis of the LCA chart: per declared unit, or the total of the production. */
export const LCA_BASES = ['per_unit', 'total'] as const;
export type LcaBasisName = (typeof LCA_BASES)[number];

/** The workbook's entity sheets: rows are entities with an external_id (what each takes: workbook/types.ts). */
export const ENTITY_SHEET_NAMES = [
  'supplier-companies',
  'supplier-plants',
  'supplier-products',
  'silos',
  'product-instances',
  'prechain-products',
] as const;
export type EntitySheetName = (typeof ENTITY_SHEET_NAMES)[number];

/** Collections an export can write, in onboarding order (`all` writes every one into one workbook). */
export const EXPORT_COLLECTIONS = ['products', ...ENTITY_SHEET_NAMES, 'bom', 'production'] as const;
export type ExportCollection = (typeof EXPORT_COLLECTIONS)[number];

/** What an export may be asked for: one collection, or `all`. */
export const EXPORT_SELECTIONS = ['all', ...EXPORT_COLLECTIONS] as const;
export type ExportSelection = (typeof EXPORT_SELECTIONS)[number];

/** Columns a results workbook (or CSV file) adds to every row of the input, in this order. */
export const RESULT_COLUMNS = ['_result', '_id', '_err_code', '_message'] as const;
export type ResultColumn = (typeof RESULT_COLUMNS)[number];

/** Languages of the UI. */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

/** The language preference: the OS's, or one of LOCALES. */
export const LANGUAGE_PREFS = ['system', ...LOCALES] as const;
export type LanguagePref = (typeof LANGUAGE_PREFS)[number];

/** The colour preference. */
export const THEME_PREFS = ['system', 'light', 'dark'] as const;
export type ThemePref = (typeof THEME_PREFS)[number];

/** What the user should know about where API keys are kept (null: nothing to say). */
export const KEY_STORE_WARNINGS = ['basic_text', 'plain_file', 'unavailable'] as const;
export type KeyStoreWarning = (typeof KEY_STORE_WARNINGS)[number];
