/**
 * The in-use diagnosis of a refused DELETE: which of the service's err_codes are in-use refusals, and what still
 * references the entity (read-only, after the refusal), named in words for the entry's failure message. Not the
 * dry run's in-use check (`plan/in-use.ts`), whose user kinds and words it shares.
 */
import type { ApiClient } from '../api/index.js';
import {
  ENTITIES,
  IDENTIFIED_KINDS,
  RESOURCE,
  isUserKind,
  userKindsOf,
  usersOfRefusal,
  usedIdsOf,
  type UserKind,
} from './entities.js';
import { userWords } from './plan/in-use.js';
import type { EntityKind, IdentifiedKind } from './types.js';

/** The spec's in-use refusals of a DELETE (each kind's `inUseCodes`). */
export const IN_USE_CODES = new Set<string>(IDENTIFIED_KINDS.flatMap((k) => ENTITIES[k].inUseCodes));

/** At most this many users are named (and BOMs read) after an in-use refusal. */
const USERS_NAMED = 5;
const BOMS_READ = 200;

type Obj = { id: string; external_id?: string | null; name?: string | null } & Record<string, unknown>;

/**
 * What still references an entity, read after an in-use refusal (read-only): the users the refusal's err_code
 * is about (any user of the kind without one) — the supplier plants of a company, the supplier products of a
 * plant, the silos or the BOMs holding a supplier product, the BOMs holding a silo or prechain product, the
 * prechain products of an instance. Words like `silo SILO-1, the BOM of product instance PI-2`; null if none
 * found.
 */
export async function whatUses(
  client: ApiClient,
  kind: IdentifiedKind,
  id: string,
  signal?: AbortSignal,
  errCode?: string,
): Promise<string | null> {
  const names: string[] = [];
  const same = (v: unknown) => typeof v === 'string' && v.toLowerCase() === id.toLowerCase();
  const label = (x: { id: string; external_id?: string | null; name?: string | null }) =>
    x.name ? `"${x.name}" (${x.id})` : x.id;
  const collect = async <T extends { id: string; external_id?: string | null; name?: string | null }>(
    items: AsyncIterable<T>,
    user: UserKind,
    hit: (x: T) => boolean,
  ) => {
    for await (const x of items) {
      if (names.length >= USERS_NAMED) break;
      if (hit(x)) names.push(userWords(user, x.external_id, label(x)));
    }
  };
  const o = { signal };
  const about = new Set<UserKind>((errCode !== undefined && usersOfRefusal(errCode)) || userKindsOf(kind));
  // The users of the kinds with a collection, in the order of the entity table; then the BOMs, one read each.
  for (const user of Object.keys(ENTITIES) as EntityKind[])
    if (user !== 'bom' && isUserKind(user) && about.has(user))
      await collect(client[RESOURCE[user]].walk({}, o) as AsyncIterable<Obj>, user, (x) =>
        (usedIdsOf(user, x) ?? []).some(same),
      );
  if (about.has('bom')) {
    let read = 0;
    for await (const inst of client.productInstances.walk({}, o)) {
      if (names.length >= USERS_NAMED || read++ >= BOMS_READ) break;
      const bom = await client.bom.get(inst.id, o);
      if (bom.some((c) => same(c.ref))) names.push(userWords('bom', inst.external_id, label(inst)));
    }
  }
  return names.length ? names.join(', ') : null;
}
