/**
 * The write of one plan entry, per kind and action: the journal intent it records first and the request that
 * sends it. A BOM or production figures are a PUT (re-sending is a no-op); a delete treats a 404 as done and
 * names the users after an in-use refusal; an update is a PATCH; a create carries its Idempotency-Key (the same
 * across retries and resumes of the entry) and, resumed after an unrecorded answer, looks the external_id up
 * before sending again where the service does not de-duplicate by that key.
 */
import { ApiError, fieldDifferences, idempotencyKey, type ApiClient, type CreateResult } from '../api/index.js';
import { explainErrCode } from '../api/errors.js';
import { fillRefs } from './diff.js';
import type { IntentLine } from './journal.js';
import { isServerIdempotent, RESOURCE } from './entities.js';
import type { EntryOutcome, IdentifiedKind, PlanEntry } from './types.js';
import { IN_USE_WORDS } from './in-use-words.js';
import { IN_USE_CODES, whatUses } from './what-uses.js';

/** An intent line as the job gives it to the journal (which adds `t` and `at`). */
export type IntentInput = Omit<IntentLine, 't' | 'at'>;

type Writable = {
  create(
    body: unknown,
    o: { signal?: AbortSignal; idempotencyKey?: string; onExisting?: 'error' | 'compare' },
  ): Promise<CreateResult<{ id: string }>>;
  update(id: string, patch: unknown, o: { signal?: AbortSignal }): Promise<{ id: string }>;
  findByExternalId(code: string, o: { signal?: AbortSignal }): Promise<{ id: string } | null>;
  delete(id: string, o: { signal?: AbortSignal }): Promise<{ id: string }>;
};

function resourceOf(client: ApiClient, kind: IdentifiedKind): Writable {
  return client[RESOURCE[kind]] as unknown as Writable;
}

/** What a write needs of the job that runs it. */
export interface WriteContext {
  client: ApiClient;
  signal: AbortSignal | undefined;
  manufacturerId: string;
  jobId: string;
  /** The journal's intents without an outcome, from earlier sessions of the job. */
  openIntents: Map<string, IntentLine>;
  /** The service id of the entry with this key (planned, or from its outcome). */
  idOf(key: string): string | undefined;
  /** The entry's failed outcome for this error. */
  failure(e: PlanEntry, err: unknown): EntryOutcome;
}

/**
 * The entry's write: its journal intent and the request that sends it (`send`, run once a write slot is held),
 * or its outcome when nothing is to be sent (a delete of what the service no longer has).
 */
export function prepareWrite(
  e: PlanEntry,
  cx: WriteContext,
): { outcome: EntryOutcome } | { intent: IntentInput; send: () => Promise<EntryOutcome> } {
  const { client, signal } = cx;
  const body = fillRefs(e.body ?? {}, e.refs ?? [], (k) => cx.idOf(k));
  const idRef = e.refs?.find((r) => r.path[0] === '$id');
  const targetId = e.id ?? (idRef ? cx.idOf(idRef.key) : undefined);
  const o = { signal };

  if (e.kind === 'bom') {
    if (!targetId) throw new Error(`no product instance id for ${e.label}`);
    return {
      intent: { key: e.key, op: 'replace', external_id: e.externalId },
      send: async () => {
        await client.bom.put(targetId, (body.bom ?? []) as Parameters<ApiClient['bom']['put']>[1], o);
        return { key: e.key, outcome: 'replaced', id: targetId, status: 200 };
      },
    };
  }
  if (e.kind === 'production') {
    // PUT sets the years sent (others unchanged): re-sending after a lost answer is a no-op.
    if (!targetId) throw new Error(`no product instance id for ${e.label}`);
    return {
      intent: { key: e.key, op: 'replace', external_id: e.externalId },
      send: async () => {
        const figures = (body.production_figures ?? []) as Parameters<ApiClient['productionFigures']['put']>[1];
        await client.productionFigures.put(targetId, figures, o);
        return { key: e.key, outcome: e.action === 'create' ? 'created' : 'updated', id: targetId, status: 200 };
      },
    };
  }
  const kind = e.kind; // narrowed: neither a BOM nor production figures
  const resource = resourceOf(client, kind);
  if (e.action === 'delete') {
    if (!targetId)
      return { outcome: { key: e.key, outcome: 'already_absent', msg: 'not on the service: nothing to delete' } };
    const sentBefore = cx.openIntents.has(e.key);
    return {
      intent: { key: e.key, op: 'delete', external_id: e.externalId },
      send: async () => {
        try {
          await resource.delete(targetId, o);
          return { key: e.key, outcome: 'deleted', id: targetId, status: 200 };
        } catch (err) {
          // Gone after an attempt whose answer was lost: that attempt deleted it. Gone before (deleted by someone
          // else, or by a session that stopped before recording it): already absent. Both are a success.
          // Gone on resume of an entry whose intent is in the journal but not its outcome: the earlier session sent
          // the DELETE (the intent is written before the request), so that session deleted it.
          if (err instanceof ApiError && err.err_code === 'err_not_found')
            return err.ambiguous || sentBefore
              ? {
                  key: e.key,
                  outcome: 'deleted',
                  id: targetId,
                  status: 200,
                  msg: sentBefore
                    ? 'deleted by an earlier session of this job, whose answer was not recorded'
                    : err.msg,
                }
              : { key: e.key, outcome: 'already_absent', id: targetId, status: err.status, msg: err.msg };
          if (err instanceof ApiError && IN_USE_CODES.has(err.err_code)) {
            const users = await whatUses(client, kind, targetId, signal, err.err_code).catch(() => null);
            const f = cx.failure(e, err);
            if (users) f.msg = IN_USE_WORDS.usedBy(err.msg, users);
            return f;
          }
          throw err;
        }
      },
    };
  }
  if (e.action === 'update') {
    if (!targetId) throw new Error(`no service id for ${e.label}`);
    return {
      intent: { key: e.key, op: 'update', external_id: e.externalId },
      send: async () => {
        const updated = await resource.update(targetId, body, o);
        return { key: e.key, outcome: 'updated', id: String(updated.id).toLowerCase(), status: 200 };
      },
    };
  }
  // create
  const open = cx.openIntents.get(e.key);
  // One key per intent of one job entry: the same across retries and resumes of this entry (the journal keeps
  // it), another for a new job or an undo, so a create that an undo or a later job sends again is created,
  // never answered with the replay of an earlier job's create of an entity deleted since.
  const idemKey =
    open?.idempotency_key ??
    idempotencyKey(cx.manufacturerId, e.kind, e.externalId, { job: cx.jobId, entry: e.key, body });
  return {
    intent: { key: e.key, op: 'create', external_id: e.externalId, idempotency_key: idemKey },
    send: async () => {
      if (open && !isServerIdempotent(kind) && e.externalId) {
        // A create whose answer was never recorded: did it land? Look before sending again.
        const found = await resource.findByExternalId(e.externalId, o);
        if (found) {
          const differences = fieldDifferences(body, found);
          if (differences.length === 0)
            return { key: e.key, outcome: 'already_existed', id: String(found.id).toLowerCase(), status: 200 };
          return {
            key: e.key,
            outcome: 'failed',
            status: 409,
            err_code: 'err_external_id_exists',
            msg: `an active ${kind.replace(/_/g, ' ')} with external_id "${e.externalId}" exists with other values (${differences.join(', ')})`,
            explanation: explainErrCode('err_external_id_exists').explanation,
          };
        }
      }
      const res = await resource.create(body, { signal, idempotencyKey: idemKey, onExisting: 'compare' });
      return { key: e.key, outcome: res.outcome, id: String(res.entity.id).toLowerCase(), status: res.status };
    },
  };
}
