/**
 * The words that name what still uses an entity whose delete the service refuses (or the dry run blocks), written
 * once: the plan's JSON, the job's journal and the CLI show them as they are; the app words each in its language
 * by the same shapes (renderer/src/i18n/in-use-words.ts reads them back, so a shape changed here without its reader
 * there fails test/renderer/in-use-words.test.ts).
 */
import { nounOf, USER_KINDS, type UserKind } from './entities.js';

export const IN_USE_WORDS = {
  /** `silo SILO-1`, `the BOM of product instance PI-2` (by code; the name or id when the entity has none). */
  user: (kind: UserKind, name: string) =>
    kind === 'bom' ? `the BOM of product instance ${name}` : `${nounOf(kind)} ${name}`,
  /** A user the import itself writes, still with the reference. */
  writtenByImport: (user: string) => `${user} (written by this import)`,
  /** A user the import deletes, whose own delete is blocked. */
  deleteBlocked: (user: string) => `${user} (whose delete is blocked)`,
  /** The service's refusal of a delete with the users found after it. */
  usedBy: (serviceMessage: string, users: string) => `${serviceMessage} — still used by ${users}`,
} as const;

/** The English noun of each kind of user, longest first (as the reader of the words must try them). */
export const USER_NOUNS: readonly { kind: UserKind; noun: string }[] = USER_KINDS.filter((k) => k !== 'bom')
  .map((kind) => ({ kind, noun: nounOf(kind) }))
  .sort((a, b) => b.noun.length - a.noun.length);
