/**
 * Deletes of entities that are still in use. The service refuses (409) the delete of a supplier company with
 * supplier plants, a supplier plant with supplier products, a supplier product in a silo or a BOM, a silo or a
 * prechain product in a BOM, a product instance with prechain products. The dry run reads those users (only
 * the kinds the plan deletes need) and applies the plan's own writes to them: a delete whose users all go —
 * deleted by the same plan, or rewritten without it (a BOM replaced without the component, a silo's items
 * without the product, a supplier plant moved to another company) — is a normal delete that waits for them
 * (`dependsOn`, and after the deletes of its users); one still in use is blocked with the users named by code.
 */
import { ApiError, type ApiClient } from '../../api/index.js';
import {
  isUserKind,
  nounOf,
  nounsOf,
  RESOURCE,
  USER_KINDS,
  usedIdsOf,
  userKindsOf,
  type UserKind,
} from '../entities.js';
import { IN_USE_WORDS } from '../in-use-words.js';
import { forEachPooled } from '../pool.js';
import type { IdentifiedKind, PlanEntry, PlanProblem } from '../types.js';
import type { ServerBoms } from './boms.js';
import type { Obj, PlanState } from './context.js';
import { PLAN_NOTES } from '../plan-notes.js';

/** `silo SILO-1`, `the BOM of product instance PI-2` (by code; the name or id when the entity has none). */
export function userWords(kind: UserKind, code: string | null | undefined, fallback: string): string {
  return IN_USE_WORDS.user(kind, code || fallback);
}

/** A plan's write to a user: the references it leaves (`targets`), from the entry that writes it. */
interface PlannedUse {
  entryKey: string;
  words: string;
  targets: Set<string>;
}

/**
 * The references the plan's writes leave, noted as entries are emitted (only when the plan deletes). Keyed by
 * `kind:id` of the user on the service, or `kind:entry key` of one the plan creates.
 */
export class PlannedUses {
  readonly byUser = new Map<string, PlannedUse>();

  note(e: PlanEntry): void {
    if (e.action !== 'create' && e.action !== 'update' && e.action !== 'replace') return;
    const kind = e.kind;
    if (!isUserKind(kind) || !e.body) return;
    const targets = usedIdsOf(kind, e.body);
    if (targets === undefined) return;
    // A BOM's id is its instance's; an entity this plan creates has none yet.
    this.byUser.set(`${kind}:${e.id ?? e.key}`, {
      entryKey: e.key,
      words: userWords(kind, e.externalId, e.label),
      targets: new Set(targets),
    });
  }
}
/** A kind of users that could not be read: what (in words), its slug and the service's answer. */
interface Unreadable {
  what: string;
  resource: string;
  detail: string;
}

/** A user on the service: what it references now. */
interface ServiceUser {
  key: string;
  kind: UserKind;
  /** The entity's id (a BOM: its instance's id). */
  id: string;
  words: string;
  targets: string[];
}

/** The users of the kinds wanted, read from the service; a kind that could not be read, with why. */
async function readUsers(
  client: ApiClient,
  kinds: Set<UserKind>,
  serverBoms: ServerBoms,
  signal: AbortSignal | undefined,
): Promise<{ users: ServiceUser[]; unreadable: Map<UserKind, Unreadable> }> {
  const users: ServiceUser[] = [];
  const unreadable = new Map<UserKind, Unreadable>();
  const o = { signal };
  const label = (x: Obj) => (typeof x.name === 'string' && x.name ? `"${x.name}" (${String(x.id)})` : String(x.id));
  const add = (kind: UserKind, x: Obj, id: string, code: unknown) =>
    users.push({
      key: `${kind}:${id}`,
      kind,
      id,
      words: userWords(kind, typeof code === 'string' ? code : null, label(x)),
      targets: usedIdsOf(kind, x) ?? [],
    });
  const guard = async (kind: UserKind, what: string, read: () => Promise<void>) => {
    try {
      await read();
    } catch (e) {
      if (!(e instanceof ApiError) || e.classification === 'auth' || e.classification === 'daily_limit') throw e;
      unreadable.set(kind, {
        what,
        resource: what.replace(/[^a-zA-Z]+/g, '_').replace(/^_|_$/g, ''),
        detail: `${e.err_code} ${e.msg}`,
      });
    }
  };
  await Promise.all(
    [...kinds].map((kind) =>
      kind === 'bom'
        ? guard(kind, 'the BOMs of the product instances', async () => {
            const instances: Obj[] = [];
            for await (const inst of client.productInstances.walk({}, o)) instances.push(inst as unknown as Obj);
            let failed: unknown;
            await forEachPooled(
              instances,
              8,
              async (inst) => {
                const id = String(inst.id).toLowerCase();
                const known = serverBoms.get(id);
                let bom: Obj[];
                if (known && 'bom' in known) bom = known.bom;
                else {
                  try {
                    bom = (await client.bom.get(id, o)) as unknown as Obj[];
                  } catch (e) {
                    failed ??= e;
                    return;
                  }
                }
                add('bom', { id, bom }, id, inst.external_id);
                const last = users[users.length - 1];
                if (!inst.external_id) last.words = userWords('bom', null, label(inst));
              },
              () => failed !== undefined || signal?.aborted === true,
            );
            if (failed !== undefined) throw failed;
          })
        : guard(kind, nounsOf(kind), async () => {
            for await (const x of client[RESOURCE[kind]].walk({}, o) as AsyncIterable<Obj>)
              add(kind, x, String(x.id).toLowerCase(), x.external_id);
          }),
    ),
  );
  signal?.throwIfAborted();
  // One order whatever order the reads ended in: by kind as the service checks them, then by words.
  const rank = (k: UserKind) => USER_KINDS.indexOf(k);
  users.sort((a, b) => rank(a.kind) - rank(b.kind) || a.words.localeCompare(b.words, 'en', { numeric: true }));
  return { users, unreadable };
}

/**
 * Blocks the deletes among `entries` whose entity is still in use after this plan (naming the users), and
 * orders the others after the entries that remove their uses. `entries` are the plan's delete entries, not yet
 * emitted.
 */
export async function checkDeletesInUse(
  ctx: PlanState,
  client: ApiClient,
  entries: PlanEntry[],
  serverBoms: ServerBoms,
  signal: AbortSignal | undefined,
): Promise<void> {
  const targets = entries.filter((e) => e.action === 'delete' && e.id !== null);
  if (targets.length === 0) return;
  const kinds = new Set<UserKind>();
  for (const e of targets) for (const k of userKindsOf(e.kind as IdentifiedKind)) kinds.add(k);
  const { users, unreadable } = await readUsers(client, kinds, serverBoms, signal);
  const planned = ctx.uses instanceof PlannedUses ? ctx.uses.byUser : new Map<string, PlannedUse>();

  // Every user after the plan: the service's (as the plan rewrites it), then the ones the plan creates.
  interface After {
    key: string;
    kind: UserKind;
    id: string | null;
    words: string;
    targets: Set<string>;
    /** The plan's write that changed its references (the delete waits for it). */
    writtenBy?: string;
  }
  const after: After[] = [];
  const seen = new Set<string>();
  for (const u of users) {
    seen.add(u.key);
    const w = planned.get(u.key);
    after.push(
      w
        ? { key: u.key, kind: u.kind, id: u.id, words: u.words, targets: w.targets, writtenBy: w.entryKey }
        : { key: u.key, kind: u.kind, id: u.id, words: u.words, targets: new Set(u.targets) },
    );
  }
  for (const [key, w] of planned) {
    const kind = key.slice(0, key.indexOf(':')) as UserKind;
    if (!seen.has(key) && kinds.has(kind))
      after.push({ key, kind, id: null, words: IN_USE_WORDS.writtenByImport(w.words), targets: w.targets });
  }
  const byTarget = new Map<string, After[]>();
  for (const u of after)
    for (const t of u.targets) {
      const list = byTarget.get(t);
      if (list) list.push(u);
      else byTarget.set(t, [u]);
    }
  // The plan's deletes by the id they delete: a BOM goes with its product instance.
  const deleteOf = new Map<string, PlanEntry>();
  for (const e of targets) deleteOf.set(`${e.kind}:${e.id}`, e);
  const deletedWith = (u: After): PlanEntry | undefined =>
    u.id === null ? undefined : deleteOf.get(u.kind === 'bom' ? `product_instance:${u.id}` : `${u.kind}:${u.id}`);

  // Until nothing changes: a delete whose user's delete is blocked is blocked too.
  const stillUsing = (e: PlanEntry, blocked: Map<PlanEntry, unknown>): string[] => {
    const still: string[] = [];
    for (const u of byTarget.get(String(e.id)) ?? []) {
      const d = deletedWith(u);
      if (d && !blocked.has(d)) continue;
      still.push(d ? IN_USE_WORDS.deleteBlocked(u.words) : u.words);
    }
    return still;
  };
  const blocked = new Map<PlanEntry, { users: string[]; unreadable: Unreadable[] }>();
  for (let changed = true; changed;) {
    changed = false;
    for (const e of targets) {
      if (blocked.has(e)) continue;
      const notRead = userKindsOf(e.kind as IdentifiedKind).flatMap((k) => unreadable.get(k) ?? []);
      if (notRead.length || stillUsing(e, blocked).length) {
        blocked.set(e, { users: [], unreadable: notRead });
        changed = true;
      }
    }
  }
  for (const [e, w] of blocked) w.users = stillUsing(e, blocked);
  // The uses on the service each delete waits to see removed: by a write without it, or by the user's delete.
  const serviceUses = new Map<string, ServiceUser[]>();
  for (const u of users)
    for (const t of u.targets) {
      const list = serviceUses.get(t);
      if (list) list.push(u);
      else serviceUses.set(t, [u]);
    }
  const afterOf = new Map(after.map((u) => [u.key, u]));
  for (const e of targets) {
    const w = blocked.get(e);
    if (w) {
      block(ctx, e, w.users, w.unreadable);
      continue;
    }
    const waits: string[] = [];
    const notes: string[] = [];
    for (const s of serviceUses.get(String(e.id)) ?? []) {
      const u = afterOf.get(s.key);
      const d = u && deletedWith(u);
      if (u?.writtenBy) {
        waits.push(u.writtenBy);
        notes.push(PLAN_NOTES.afterWrittenWithout(u.words));
      } else if (d) {
        waits.push(d.key);
        notes.push(
          s.kind === 'bom' ? PLAN_NOTES.afterDeleteWithBom(d.label, s.words) : PLAN_NOTES.afterDeleteOf(d.label),
        );
      }
    }
    if (waits.length) {
      e.dependsOn = [...new Set([...(e.dependsOn ?? []), ...waits])];
      e.notes = [...(e.notes ?? []), ...new Set(notes)];
    }
  }
  // A delete runs with or after the deletes it waits for (deletes run level by level).
  const byKey = new Map(targets.map((e) => [e.key, e]));
  for (let changed = true; changed;) {
    changed = false;
    for (const e of targets)
      for (const k of e.dependsOn ?? []) {
        const d = byKey.get(k);
        if (d && d.level > e.level) {
          e.level = d.level;
          changed = true;
        }
      }
  }
}

function block(ctx: PlanState, e: PlanEntry, users: string[], unreadable: Unreadable[]): void {
  const value = e.externalId ?? String(e.id);
  // A delete row's problem at its external_id cell; a mirror's at its sheet.
  const at =
    e.row > 0
      ? {
          sheet: ctx.wb.sheetName(e.sheet),
          cell: ctx.wb.cell(e.sheet, 'external_id', e.row),
          row: e.row,
          field: 'external_id',
        }
      : { sheet: ctx.wb.sheetName(e.sheet), cell: null, row: null, field: null };
  const problems: PlanProblem[] = [];
  if (users.length)
    problems.push({
      kind: 'rule',
      ...at,
      message: `${nounOf(e.kind)} ${value} is still used by ${users.join(', ')}: remove that use first (or delete ${users.length > 1 ? 'them' : 'it'} in this import)`,
      code: 'in_use',
      params: { entityKind: e.kind, value, users: users.join(', ') },
    });
  for (const u of unreadable)
    problems.push({
      kind: 'unreadable',
      ...at,
      message: `whether ${nounOf(e.kind)} ${value} is still in use is unknown: could not read ${u.what} from the service: ${u.detail}`,
      code: 'service_unreadable',
      params: { resource: u.resource, detail: u.detail },
    });
  e.action = 'blocked';
  e.problems = problems;
  delete e.before;
  delete e.dependsOn;
}
