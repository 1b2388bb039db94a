/**
 * Shapes of what an import does to the LCA: the product instances a job's plan affects (and the job rows that
 * affect each), the estimate of the change made in the dry run from the current per-source breakdown, and the
 * impact report (before → after per instance, year, indicator and module, with the change attributed to the
 * components whose contribution changed). Plain JSON-serialisable data: kept in the job folder, printed by the
 * CLI, sent to the app.
 */
import type { PlanAction, RowRef } from '../../jobs/types.js';

/** One component of a BOM as the service holds it (or as a plan's BOM replace writes it). */
export interface BomComponent {
  type: string;
  /** Service id of the component (lower case). */
  ref: string;
  mass_kg: number;
}

/** A product instance on the service with its BOM: what the affected set is computed from. */
export interface InstanceBom {
  id: string;
  external_id: string | null;
  plant_id: string | null;
  /** The plant's code where known. */
  plant_code?: string | null;
  /** null: the BOM could not be read (the instance is listed as not checked). */
  bom: BomComponent[] | null;
}

/** The service's silos (their supplier products) and prechain products (their instance), for indirect uses. */
export interface ServiceComponents {
  silos: { id: string; external_id: string | null; items: string[] }[];
  prechainProducts: { id: string; external_id: string | null; product_instance_id: string | null }[];
}

/**
 * What makes an instance affected (IMPACT_CAUSE_KINDS): its BOM is replaced (`bom`), its production figures
 * change (`production`), or a component of its BOM — a supplier product, a silo, a supplier product in one of
 * its silos, a prechain product, or the product instance a prechain product stands for — is created, updated
 * or deleted by the job.
 */
export const IMPACT_CAUSE_KINDS = [
  'bom',
  'production',
  'supplier_product',
  'silo',
  'prechain_product',
  'prechain_instance',
] as const;
export type ImpactCauseKind = (typeof IMPACT_CAUSE_KINDS)[number];

/**
 * The code and parameters of one of the impact's texts (why something is not estimated, how an estimated part
 * came about, a report note, an instance's problem, what the dry run could not read), beside its English words: the app words it in the UI's
 * language, the CLI and the workbook keep the English.
 */
export const IMPACT_TEXT_CODES = [
  // not estimated
  'component_changed',
  'production_changed',
  'new_instance',
  'component_created',
  'no_current_per_unit',
  'no_breakdown',
  'added_without_per_kg',
  'no_current_results',
  // an estimated part
  'mass_changed',
  'removed',
  'added',
  // report notes
  'not_found_after',
  'no_before',
  'not_read_after',
  // an instance's problem: an LCA outcome that is not `completed`
  'outcome',
  // the dry run's read of the current results: an instance not read as completed, the read stopped early
  'unread_before',
  'read_stopped',
] as const;
export type ImpactTextCode = (typeof IMPACT_TEXT_CODES)[number];
export interface ImpactText {
  code: ImpactTextCode;
  params: Record<string, string | number>;
}

/** One plan entry that affects an instance, and the job rows it stands for. */
export interface ImpactCause {
  kind: ImpactCauseKind;
  /** The entry's action (create, update, replace, delete). */
  action: PlanAction;
  entryKey: string;
  /** The entry's words: `supplier product SP-1`, `BOM of PI-2`. */
  label: string;
  /** The changed entity's code (a BOM, production figures: the instance's code). */
  code: string | null;
  /** The changed entity's service id (null for one the job creates; a BOM, production figures: the instance's). */
  ref: string | null;
  /** A BOM replace: the codes of the components it adds, removes or changes the mass of. */
  components?: string[];
  /**
   * How the instance uses the changed entity when not directly: through a silo of its BOM (a supplier product
   * in it), through a prechain product of its BOM (the instance it stands for).
   */
  via?: { type: 'silo' | 'prechain_product'; ref: string; code: string | null };
  /** A `prechain_instance` cause: the kind of the cause of the instance it stands for (what changed there). */
  of_kind?: ImpactCauseKind;
  /** The worksheet rows of the entry. */
  rows: RowRef[];
  /** The same rows as `sheet!row` in the names of the source. */
  where: string[];
}

export interface AffectedInstance {
  /** Service id; null for an instance this job creates (known after the job from its BOM entry's outcome). */
  id: string | null;
  external_id: string | null;
  plant_id: string | null;
  plant_code: string | null;
  /** For an instance the job creates: the key of its BOM entry. */
  entryKey?: string;
  causes: ImpactCause[];
  /** Every job row that affects it, as `sheet!row` in the names of the source (sorted, each once). */
  rows: string[];
}

export interface AffectedPlant {
  plant_id: string | null;
  plant_code: string | null;
  count: number;
  /** Codes (else ids) of its affected instances. */
  instances: string[];
}

/** The instances a job's plan affects, per plant. */
export interface AffectedSet {
  instances: AffectedInstance[];
  byPlant: AffectedPlant[];
  /**
   * Whether the service's BOMs were read (false when the plan changes no component, so only its BOM replaces
   * and production figures count).
   */
  bomsRead: boolean;
  /** What could not be checked, in words (BOMs or silos not readable): those instances may be affected too. */
  unchecked: string[];
}

// ---------------------------------------------------------------- estimates (dry run)

/**
 * What every line of the impact is about: one instance, year, indicator and module, with the unit of its values
 * and their basis.
 */
export interface ImpactCell {
  instance_id: string;
  external_id: string | null;
  year: number;
  indicator: string;
  module: string;
  unit: string | null;
  basis: ImpactBasis;
}

/** An estimated change of one instance, year, indicator and module, per declared unit (or total). */
export interface ImpactEstimate extends ImpactCell {
  /** The current value (from the stored results). */
  current: number | null;
  /** The estimated change (after − before), and what it is made of. */
  estimated_change: number;
  /** Per component: its code (else id), its service id, the estimated change of its contribution, and how. */
  parts: { component: string; ref: string; change: number; why: string; why_code?: ImpactText }[];
}

/** What the dry run could not estimate for an instance, in words (and the rows it concerns). */
export interface NotEstimated {
  instance_id: string | null;
  external_id: string | null;
  why: string;
  /** The reason's code and parameters (absent in estimates kept by an older version). */
  why_code?: ImpactText;
  rows: string[];
}

export interface ImpactEstimates {
  kind: 'estimate';
  /** Words shown with every estimate: it is no result. */
  note: string;
  estimates: ImpactEstimate[];
  not_estimated: NotEstimated[];
}

// ---------------------------------------------------------------- the report

/** Values per declared unit (the year's production quantity is known) or as the service reports them (totals). */
export type ImpactBasis = 'per_declared_unit' | 'total';

/** One instance, year, indicator and module: before, after, change. */
export interface ImpactRow extends ImpactCell {
  plant_code: string | null;
  /** The product's declared unit (T, M3, …) when the basis is per declared unit. */
  declared_unit: string | null;
  before: number | null;
  after: number | null;
  /** after − before; null when either is missing (a blocked year, a new indicator). */
  change: number | null;
  /** change / |before| × 100; null when before is 0 or missing. */
  change_pct: number | null;
  /** The year was blocked before / after the job: the blocker in words. */
  blocked_before: string | null;
  blocked_after: string | null;
}

/**
 * One line of the attribution of a change (IMPACT_SOURCE_LINES): a component whose contribution changed, the
 * change of the production figures (when the service's values per declared unit move with them), or what the
 * breakdown does not explain. The lines of an instance, year, indicator and module sum to its change.
 */
export const IMPACT_SOURCE_LINES = ['component', 'production_figures', 'not_attributed'] as const;
export type ImpactSourceLine = (typeof IMPACT_SOURCE_LINES)[number];

export interface ImpactSourceRow extends ImpactCell {
  line: ImpactSourceLine;
  component_type: string | null;
  /** The component's service id. */
  ref: string | null;
  code: string | null;
  name: string | null;
  /** Supplier company (and plant) of the component. */
  supplier: string | null;
  before: number | null;
  after: number | null;
  change: number;
  /** The job rows that changed it (`sheet!row`). */
  rows: string[];
}

/** Per affected instance: how its before and after results came about. */
export interface ImpactInstance {
  instance_id: string;
  external_id: string | null;
  plant_code: string | null;
  /** The job's rows that affect it. */
  rows: string[];
  /** LCA outcome of the read before the job (absent: not read) and of the recompute after it. */
  before_outcome: string | null;
  after_outcome: string | null;
  /** Why an outcome is not `completed`, in words. */
  problem: string | null;
  /** The same as codes, one per side (absent in reports written by an older version). */
  problem_codes?: ImpactText[];
  /** Past or current years blocked after the job by missing production data (the user must enter it). */
  years_needing_data: number[];
}

export interface ImpactReport {
  format: 'supply-loader/lca-impact@1';
  job_id: string;
  generated_at: string;
  base_url: string;
  masked_key: string;
  /** Whether the affected instances were recomputed after the job (false: their stored results were read). */
  recomputed: boolean;
  instances: ImpactInstance[];
  rows: ImpactRow[];
  sources: ImpactSourceRow[];
  /** Whether the breakdown could be read before and after (without it, all goes to `not_attributed`). */
  breakdown: { before: boolean; after: boolean };
  /** The run stopped early (key refused, daily limit, cancelled): the instances left are without after-values. */
  aborted: { reason: string; message: string } | null;
  /** Instances affected but not compared (no before kept, created by the job, not recomputed), in words. */
  notes: string[];
  /** The notes' codes and parameters, in the same order (absent in reports written by an older version). */
  note_codes?: ImpactText[];
}
