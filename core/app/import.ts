/**
 * The import operation's rules, once for the CLI (`plan`, `import`, `watch`) and the app (`import.plan`,
 * `import.run`): making the plan (the profile's saved mappings, the options), refusing a plan with blocked
 * entries unless the user says to import the rest, and the workbook's mapping rows to remember in the profile
 * once the job completed. The operation that follows these rules: import-job.ts.
 */
import type { ApiClient } from '../api/index.js';
import { planImport, type PlanContext, type PlanProgress } from '../jobs/plan.js';
import type { ServiceWalks } from '../jobs/service-walks.js';
import type { CodeMappings, ServiceIndex } from '../jobs/resolve.js';
import type { PlanHeader } from '../jobs/types.js';
import {
  countMappings,
  getProfileMappings,
  mappingsFromWorkbook,
  mergeProfileMappings,
} from '../settings/code-mappings.js';
import type { SettingsStore } from '../settings/settings.js';
import type { DataSheetName, ParsedWorkbook, ValidationReport } from '../workbook/types.js';
import { ENTITIES, ENTITY_SHEETS } from '../jobs/entities.js';
import { AppError } from './errors.js';

export interface PlanOptions {
  createOnly: boolean;
  /** sheets to mirror (entities of their type not in the sheet are deleted) and the cap of deletes */
  mirror?: DataSheetName[];
  maxDeletes?: number;
  /**
   * only the entries that did not succeed in this job (and the entries they depend on in the new plan): their
   * identities (sessions/job-views.ts failedIdentities)
   */
  previous?: { jobId: string; failed: ReadonlySet<string> };
}

export interface PlanServices {
  client: ApiClient;
  /** the profile's saved code mappings (savedMappings) */
  mappings?: CodeMappings;
  /** the manufacturer the key must belong to, when known */
  manufacturerId?: string;
  /** the service reads started while the workbook was read (readWhileWalking): the plan uses them */
  walks?: ServiceWalks;
  /** the workbook's codes resolved by its codes pass on this client with these mappings (checkSourceCodes) */
  resolved?: ServiceIndex;
  /** told the workbook's codes once the plan resolved them (for another plan of it on this client: `resolved`) */
  onResolved?: (svc: ServiceIndex) => void;
  signal?: AbortSignal;
  onProgress?: (p: PlanProgress) => void;
}

/** The saved code mappings of a profile, or undefined when it has none. */
export function savedMappings(settings: SettingsStore, profileId: string): CodeMappings | undefined {
  const m = getProfileMappings(settings, profileId);
  const n = countMappings(m);
  return n.plants + n.materials > 0 ? m : undefined;
}

/**
 * The dry run of a read and checked workbook against the service (reads only), its entries written to
 * `entriesPath` (a job folder's plan-entries.jsonl) as they are decided, not held in memory; the plan's header is
 * returned. Codes the workbook does not map: the profile's saved mappings, then the service (jobs/resolve.ts).
 */
export async function makePlan(
  w: { parsed: ParsedWorkbook; report: ValidationReport },
  s: PlanServices,
  o: Omit<PlanOptions, 'previous'>,
  entriesPath: string,
): Promise<PlanHeader> {
  try {
    return await planImport(w.parsed, planContext(w, s, o), entriesPath);
  } finally {
    s.walks?.cancel(); // also when the options are refused before planning
  }
}

/** The sheets a plan may mirror (their type's entities with an external_id not in the sheet are deleted). */
export const MIRRORABLE_SHEETS = Object.keys(ENTITY_SHEETS) as DataSheetName[];

/**
 * Options that would make the plan guess are refused: a mirror with create-only (a mirror deletes, create-only
 * writes only new rows), a mirror of a sheet no source feeds or whose rows could not be read (it would delete
 * every entity of that type with an external_id), a negative or fractional cap of deletes.
 */
export function checkPlanOptions(parsed: ParsedWorkbook, o: Omit<PlanOptions, 'previous'>): void {
  if (!o.mirror?.length) return;
  if (o.createOnly)
    throw new AppError(
      'invalid_input',
      'create-only and mirror cannot be combined: a mirror deletes entities, create-only writes only new rows',
    );
  if (o.maxDeletes !== undefined && !(Number.isInteger(o.maxDeletes) && o.maxDeletes >= 0))
    throw new AppError('invalid_input', `the cap of deletes must be a whole number of 0 or more (got ${o.maxDeletes})`);
  for (const sheet of o.mirror) {
    const kind = ENTITY_SHEETS[sheet];
    const nouns = kind ? ENTITIES[kind].nouns : 'entities';
    const fed = parsed.sheets.find((s) => s.name === sheet);
    if (!fed)
      throw new AppError(
        'invalid_input',
        `cannot mirror ${sheet}: no sheet or CSV source of this import feeds it (the mirror would delete every one of the ${nouns} with an external_id on the service)`,
      );
    if (fed.unreadRows !== undefined)
      throw new AppError(
        'invalid_input',
        `cannot mirror ${sheet}: its rows could not be read (a header error), so the mirror would delete ${nouns} that are in it`,
      );
  }
}

function planContext(
  w: { parsed: ParsedWorkbook; report: ValidationReport },
  s: PlanServices,
  o: Omit<PlanOptions, 'previous'>,
): PlanContext {
  checkPlanOptions(w.parsed, o);
  return {
    client: s.client,
    ...(s.manufacturerId !== undefined ? { manufacturerId: s.manufacturerId } : {}),
    ...(s.mappings ? { mappings: s.mappings } : {}),
    validation: w.report,
    ...(s.walks ? { walks: s.walks } : {}),
    ...(s.resolved ? { resolved: s.resolved } : {}),
    ...(s.onResolved ? { onResolved: s.onResolved } : {}),
    options: {
      createOnly: o.createOnly,
      ...(o.mirror?.length ? { mirror: o.mirror } : {}),
      ...(o.maxDeletes !== undefined ? { maxDeletes: o.maxDeletes } : {}),
    },
    ...(s.signal ? { signal: s.signal } : {}),
    ...(s.onProgress ? { onProgress: s.onProgress } : {}),
  };
}

/** Entries an import would not send: blocked (validation, unresolved code, preflight) or in conflict. */
export function blockedCount(plan: Pick<PlanHeader, 'summary'>): number {
  return (plan.summary.byAction.blocked ?? 0) + (plan.summary.byAction.conflict ?? 0);
}

/**
 * The rule of running a plan: with blocked entries nothing is sent, unless the user confirmed that the rest is
 * imported without them (`--skip-blocked`, the app's confirmation). Returns the number of blocked entries when
 * the run is refused, else null.
 */
export function refusedForBlocked(plan: Pick<PlanHeader, 'summary'>, skipBlocked: boolean): number | null {
  const blocked = blockedCount(plan);
  return blocked > 0 && !skipBlocked ? blocked : null;
}

/** Merges the workbook's mapping rows into a profile; what was added and changed. */
export type RememberMappings = (settings: SettingsStore, profileId: string) => { added: number; changed: number };

/**
 * Mapping memory: the mapping rows of the workbook (plants, materials) that passed validation, merged into the
 * profile once the import completed. Returns what to call after a completed job, or undefined when the workbook
 * has none. Read before the workbook is dropped (the job runs from the plan).
 */
export function mappingMemory(parsed: ParsedWorkbook, report: ValidationReport): RememberMappings | undefined {
  const remembered = mappingsFromWorkbook(parsed, report).mappings;
  const count = countMappings(remembered);
  if (count.plants + count.materials === 0) return undefined;
  return (settings, profileId) => {
    const r = mergeProfileMappings(settings, profileId, remembered);
    return { added: r.added, changed: r.changed };
  };
}
