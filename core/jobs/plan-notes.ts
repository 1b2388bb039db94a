/**
 * The notes a plan (the dry run) gives its entries, written once: the plan's JSON and the CLI show them as they
 * are, the app words each in its language by the same names (renderer/src/i18n/plan-notes.ts reads them back by
 * their shape, so a note changed here without its words there fails test/renderer/german.test.ts).
 */
import { ENTITIES, nounOf } from './entities.js';
import type { EntityKind } from './types.js';

/** The English noun of each kind as an entry's label starts with it (`supplier company SC-1`), longest first. */
export const LABEL_NOUNS: readonly { kind: EntityKind; noun: string }[] = (Object.keys(ENTITIES) as EntityKind[])
  .map((kind) => ({ kind, noun: nounOf(kind) }))
  .sort((a, b) => b.noun.length - a.noun.length);

/** Where an entry's row is, as a note names it: `supplier-companies row 3`, or `another row` when not known. */
export function rowWords(at: { sheet: string; row: number } | undefined): string {
  return at ? `${at.sheet} row ${at.row}` : 'another row';
}

export const PLAN_NOTES = {
  /** An entry that waits for the create of another (`supplier company SC-1`, `supplier-companies row 3`). */
  afterCreate: (label: string, row: string) => `after create of ${label} (${row})`,
  /** A delete that waits until a user of the entity is written without it. */
  afterWrittenWithout: (user: string) => `after ${user} is written without it`,
  /** A delete that waits for the delete of a user of it. */
  afterDeleteOf: (label: string) => `after the delete of ${label}`,
  /** A delete that waits for the delete of a product instance, and its BOM with it. */
  afterDeleteWithBom: (label: string, bom: string) => `after the delete of ${label} (and with it ${bom})`,
  createOnlyNotApplied: () => 'create-only: the differences are not applied',
  actionCreateExists: () => 'action create: the entity exists, the differences are not applied',
  actionDelete: () => 'action delete',
  /** A delete row with other cells filled than external_id (field names). */
  actionDeleteNotUsed: (fields: readonly string[]) =>
    `action delete (only external_id is used; not used: ${fields.join(', ')})`,
  alreadyAbsent: () => 'not on the service: already absent, nothing is sent',
  mirrorNotIn: (sheet: string) => `mirror: not in ${sheet}`,
  bomUnreadable: (detail: string) => `the current BOM could not be read (${detail}): it is replaced without a diff`,
  bomCreateOnly: () => "create-only: the BOM differs from the service's but is not replaced",
  figuresUnreadable: (detail: string) =>
    `the production figures on the service could not be read (${detail}): every year is written`,
  futureYear: (year: number) =>
    `${year} is a future year: its figure is written now, and its LCA stays blocked until ${year} arrives (spec rule 3)`,
  figuresCreateOnly: () => 'create-only: production figures that differ from the service are not overwritten',
} as const;

export type PlanNoteName = keyof typeof PLAN_NOTES;

/**
 * What a job says of a row it did not send, written once like the notes above (the renderer words them by shape,
 * renderer/src/i18n/plan-notes.ts).
 */
export const RUN_NOTES = {
  /** A row not sent because a row it depends on (`supplier product SP-1 (supplier-products row 5)`) did not succeed. */
  dependencyNotSent: (what: string, outcome: string) =>
    `not sent: ${what} ${outcome !== 'pending' ? (outcome === 'failed' ? 'failed' : `was ${outcome}`) : 'did not run'}`,
  /** A row whose differences are not applied because the import runs create-only. */
  createOnly: () => 'not applied: the import runs create-only',
} as const;

export type RunNoteName = keyof typeof RUN_NOTES;
