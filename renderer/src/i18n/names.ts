/**
 * The message of every name the screens show (plan actions, row outcomes, entity kinds, statuses …), one map per
 * list of names (core/names.ts and the spec's lists). Each map is checked by the compiler with
 * `satisfies KeysFor<Name>`: a name added to a list without its message in en.ts fails to compile
 * here; de.ts has the same keys as en.ts (Messages), and test/renderer/names.test.ts checks every value exists in
 * both catalogues at run time.
 */
import {
  ENTITY_KINDS,
  EXPORT_SELECTIONS,
  IMPORT_PHASES,
  JOB_ROW_OUTCOMES,
  JOB_STATUSES,
  LCA_ABORT_REASONS,
  LCA_BASES,
  LCA_CODE_KINDS,
  LCA_OUTCOMES,
  LCA_SELECTORS,
  LCA_STATES,
  PLAN_ACTIONS,
  SKIP_REASONS,
  type EntityKind,
  type ExportSelection,
  type ImportPhase,
  type JobRowOutcome,
  type JobStatus,
  type LcaAbortReason,
  type LcaBasisName,
  type LcaCodeKind,
  type LcaInstanceState,
  type LcaOutcome,
  type LcaSelectorName,
  type PlanAction,
  type SkipReason,
} from '../../../core/names.js';
import {
  BOM_COMPONENT_TYPES,
  ENTITLEMENT_DIMENSIONS,
  type BomComponentType,
  type EntitlementDimension,
} from '../../../core/spec/constants.js';
import { SCOPES, type Scope } from '../../../core/spec/scopes.js';
import type { MessageKey } from './en.js';
import type { T } from './index.js';

/** A message key for every name of a list: what each map below must satisfy. */
type KeysFor<N extends string> = Record<N, MessageKey>;

/** `{create: 'action.create', …}`: the message key `<prefix>.<name>` of every name of a list. */
export function messageKeys<const P extends string, const N extends string>(
  prefix: P,
  names: readonly N[],
): { readonly [K in N]: `${P}.${K}` } {
  return Object.fromEntries(names.map((n) => [n, `${prefix}.${n}`])) as { readonly [K in N]: `${P}.${K}` };
}

/** The message of a name that arrives as plain text (a service's value): undefined when this version has none. */
export function messageOf<N extends string>(
  map: Readonly<Record<N, MessageKey>>,
  name: string,
): MessageKey | undefined {
  return Object.hasOwn(map, name) ? map[name as N] : undefined;
}

/** A name in words; a name this version has no message for (a service's new value) stays as it came. */
export function wordsOf<N extends string>(t: T, map: Readonly<Record<N, MessageKey>>, name: string): string {
  const key = messageOf(map, name);
  return key ? t(key) : name;
}

export const PLAN_ACTION_MESSAGE = messageKeys('action', PLAN_ACTIONS) satisfies KeysFor<PlanAction>;
export const OUTCOME_MESSAGE = messageKeys('outcome', JOB_ROW_OUTCOMES) satisfies KeysFor<JobRowOutcome>;
export const ENTITY_KIND_MESSAGE = messageKeys('kind', ENTITY_KINDS) satisfies KeysFor<EntityKind>;
export const SKIP_REASON_MESSAGE = messageKeys('skip', SKIP_REASONS) satisfies KeysFor<SkipReason>;
export const JOB_STATUS_MESSAGE = messageKeys('job.status', JOB_STATUSES) satisfies KeysFor<JobStatus>;
export const JOB_STATUS_TEXT_MESSAGE = messageKeys('job.statusText', JOB_STATUSES) satisfies KeysFor<JobStatus>;
export const IMPORT_PHASE_MESSAGE = messageKeys('import.phase', IMPORT_PHASES) satisfies KeysFor<ImportPhase>;
export const COMPONENT_TYPE_MESSAGE = messageKeys('component', BOM_COMPONENT_TYPES) satisfies KeysFor<BomComponentType>;
export const DIMENSION_MESSAGE = messageKeys(
  'dimension',
  ENTITLEMENT_DIMENSIONS,
) satisfies KeysFor<EntitlementDimension>;
export const SCOPE_MESSAGE = messageKeys('scope', SCOPES) satisfies KeysFor<Scope>;
export const EXPORT_TITLE_MESSAGE = messageKeys('export.c', EXPORT_SELECTIONS) satisfies KeysFor<ExportSelection>;
export const EXPORT_TEXT_MESSAGE = messageKeys('export.d', EXPORT_SELECTIONS) satisfies KeysFor<ExportSelection>;
export const LCA_STATE_MESSAGE = messageKeys('lca.st', LCA_STATES) satisfies KeysFor<LcaInstanceState>;
export const LCA_OUTCOME_MESSAGE = messageKeys('lca.out', LCA_OUTCOMES) satisfies KeysFor<LcaOutcome>;
export const LCA_ABORT_MESSAGE = messageKeys('lca.aborted', LCA_ABORT_REASONS) satisfies KeysFor<LcaAbortReason>;
export const LCA_SELECTOR_MESSAGE = messageKeys('lca.by', LCA_SELECTORS) satisfies KeysFor<LcaSelectorName>;
export const LCA_UNKNOWN_MESSAGE = messageKeys('lca.unknown', LCA_CODE_KINDS) satisfies KeysFor<LcaCodeKind>;
export const LCA_BASIS_MESSAGE = messageKeys('lca.basis', LCA_BASES) satisfies KeysFor<LcaBasisName>;
