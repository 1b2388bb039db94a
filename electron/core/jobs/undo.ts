/**
 * Undo a finished job (issue 13 §3): the undo plan is computed from the job's plan entries (their `before`, the
 * state read before the job changed anything) and its journal outcomes (the ids of what it created), against
 * the service as it is now. The plan is an ordinary Supply Loader plan run by runJob (journaled, resumable), with
 * `undoes` naming the job it takes back:
 * - created entities → DELETEd (after everything else, in reverse dependency order);
 * - updated fields → PATCHed back to their before values (only the fields the job changed; hazardous substances
 *   and silo items follow their owner's before-state, as they were written with it);
 * - a replaced BOM → PUT back as it was (an empty BOM when the job created it);
 * - deleted entities → re-created from the before snapshot (a new id: the entry's note says so); references to
 *   other entities the job deleted take the ids of their re-creation.
 *
 * A row whose entity changed on the service since the job — the service's values differ from what the job wrote
 * for the fields it changed, a created entity was modified, an updated one was deleted, a deleted one was
 * created again by someone — is not touched: its entry is a `conflict` that says what changed, and blocks the
 * undo as a blocked row blocks an import. Production figures are not undone (the API sets years, it cannot remove
 * one): such entries are listed as `blocked` with words saying so.
 */
import { ApiError, fieldDifferences, type ApiClient } from '../api/index.js';
import { fillRefs } from './diff.js';
import { readMeta, readPlan } from './job-store.js';
import { effectiveStatus } from './job-store.js';
import { createFieldsOf, DELETE_LEVEL, ENTITIES, isIdentifiedKind, LEVEL } from './entities.js';
import { planSummary } from './plan.js';
import { loadJobResult, runJob, type RunOptions } from './run.js';
import type {
  EntryOutcome,
  IdentifiedKind,
  JobResult,
  Plan,
  PlanEntry,
  PlanProblem,
  RefSlot,
} from './types.js';

type Obj = Record<string, unknown>;

/** Outcomes of a job entry that created the entity (a replayed create created it too). */
const CREATED = new Set(['created', 'replayed']);

interface Readable {
  get(id: string, o?: { signal?: AbortSignal }): Promise<Obj>;
  findByExternalId(code: string, o?: { signal?: AbortSignal }): Promise<Obj | null>;
}

function resource(client: ApiClient, kind: IdentifiedKind): Readable {
  return (client as unknown as Record<string, Readable>)[ENTITIES[kind].resource];
}

async function current(client: ApiClient, kind: IdentifiedKind, id: string, signal?: AbortSignal): Promise<Obj | null> {
  try {
    return await resource(client, kind).get(id, { signal });
  } catch (e) {
    if (e instanceof ApiError && e.err_code === 'err_not_found') return null;
    throw e;
  }
}

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

export interface UndoOptions {
  client: ApiClient;
  jobsDir: string;
  signal?: AbortSignal;
}

/**
 * The undo plan of a completed job (reads only). Throws, in words, for a job that is not completed (resume it
 * first) or was made for another manufacturer than the client's key.
 */
export async function planUndo(jobId: string, o: UndoOptions): Promise<Plan> {
  const { client, jobsDir, signal } = o;
  const startRequests = client.stats().requests;
  const [job, meta, result] = await Promise.all([
    readPlan(jobsDir, jobId),
    readMeta(jobsDir, jobId),
    loadJobResult(jobsDir, jobId),
  ]);
  const status = effectiveStatus(meta);
  if (status !== 'completed')
    throw new Error(`Job ${jobId} is ${status}: only a completed job can be undone (resume it first).`);
  const me = await client.me({ signal });
  if (me.manufacturer_id.toLowerCase() !== job.manufacturerId.toLowerCase())
    throw new Error(
      `The API key belongs to another manufacturer than job ${jobId} (${job.manufacturerId}); use a key of that manufacturer.`,
    );

  const outcomes = new Map<string, EntryOutcome>();
  for (const r of result.entries) if (r.outcome !== 'pending') outcomes.set(r.key, r as EntryOutcome);
  const idOf = (k: string) => outcomes.get(k)?.id;
  const createdKeys = new Set(
    job.entries.filter((e) => CREATED.has(outcomes.get(e.key)?.outcome ?? '')).map((e) => e.key),
  );
  // Old ids of the entities the job deleted → the key of their re-creation in the undo.
  const recreateKey = new Map<string, { key: string; code: string }>();
  for (const e of job.entries)
    if (outcomes.get(e.key)?.outcome === 'deleted' && e.id && e.before)
      recreateKey.set(e.id.toLowerCase(), { key: `undo:${e.key}`, code: e.externalId ?? e.id });

  /** Ids of re-created entities in a body become references to their re-creation (filled when it ran). */
  const withRefs = (entry: PlanEntry, body: Obj): void => {
    const refs: RefSlot[] = [];
    const walk = (v: unknown, path: (string | number)[]): unknown => {
      if (typeof v === 'string') {
        const r = recreateKey.get(v.toLowerCase());
        if (r && r.key !== entry.key) {
          refs.push({ path, key: r.key, code: r.code });
          return null;
        }
        return v;
      }
      if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
      if (v && typeof v === 'object')
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
      return v;
    };
    entry.body = walk(body, []) as Obj;
    if (refs.length) {
      entry.refs = refs;
      entry.dependsOn = [...new Set(refs.map((r) => r.key))];
      entry.notes = [
        ...(entry.notes ?? []),
        ...[...new Set(refs.map((r) => r.code))].map((c) => `after re-create of ${c}`),
      ];
    }
  };

  const conflict = (u: PlanEntry, message: string, field: string | null = null): PlanEntry => {
    const p: PlanProblem = {
      kind: 'conflict',
      sheet: u.sheet,
      cell: null,
      row: u.row,
      field,
      message,
      code: 'snapshot_conflict',
      params: { jobId },
    };
    delete u.body;
    return { ...u, action: 'conflict', problems: [p] };
  };

  const entries: PlanEntry[] = [];
  for (const e of job.entries) {
    const out = outcomes.get(e.key);
    if (!out) continue;
    const base: PlanEntry = {
      key: `undo:${e.key}`,
      kind: e.kind,
      level: e.level,
      sheet: e.sheet,
      row: e.row,
      rows: e.rows,
      externalId: e.externalId,
      label: e.label,
      action: 'unchanged',
      id: out.id ?? e.id,
    };
    const after = fillRefs(e.body ?? {}, e.refs ?? [], idOf);

    if (e.kind === 'production') {
      if (out.outcome === 'created' || out.outcome === 'updated')
        entries.push({
          ...base,
          action: 'blocked',
          problems: [
            {
              kind: 'rule',
              sheet: e.sheet,
              cell: null,
              row: e.row,
              field: null,
              message: 'production figures are not undone: the API sets years, it cannot take one back',
              code: 'row_rule',
              params: { detail: 'production figures' },
            },
          ],
        });
      continue;
    }

    if (e.kind === 'bom') {
      if (out.outcome !== 'replaced' || !out.id) continue;
      // The BOM of an instance this job created goes with the instance.
      const instRef = e.refs?.find((r) => r.path[0] === '$id');
      if (instRef && createdKeys.has(instRef.key)) continue;
      let now: Obj[];
      try {
        now = (await client.bom.get(out.id, { signal })) as unknown as Obj[];
      } catch (err) {
        if (err instanceof ApiError && err.err_code === 'err_not_found') {
          entries.push(conflict({ ...base, level: LEVEL.bom }, `the product instance was deleted since job ${jobId}`));
          continue;
        }
        throw err;
      }
      if (fieldDifferences(after.bom ?? [], now).length > 0) {
        entries.push(conflict({ ...base, level: LEVEL.bom }, `the BOM was changed on the service since job ${jobId}`, 'bom'));
        continue;
      }
      const before = ((e.before?.bom ?? []) as Obj[]).map((c) => ({ type: c.type, ref: c.ref, mass_kg: c.mass_kg }));
      const u: PlanEntry = { ...base, level: LEVEL.bom, action: 'replace', notes: ['BOM put back as it was before the job'] };
      withRefs(u, { bom: before });
      entries.push(u);
      continue;
    }

    if (!isIdentifiedKind(e.kind)) continue;
    const kind = e.kind;
    if (CREATED.has(out.outcome) && out.id) {
      const u: PlanEntry = { ...base, level: DELETE_LEVEL[kind], id: out.id, action: 'delete', notes: ['created by the job: deleted'] };
      const now = await current(client, kind, out.id, signal);
      if (!now) {
        entries.push({ ...u, id: null, notes: ['created by the job, already deleted: nothing is sent'] });
        continue;
      }
      // What the job sent must still be there, and what it left out still empty (the service's defaults).
      const diff = [
        ...fieldDifferences(after, now),
        ...createFieldsOf(kind).filter((k) => !(k in after) && !isEmpty(now[k])),
      ];
      if (diff.length) {
        entries.push(conflict(u, `changed on the service since job ${jobId}: ${diff.join(', ')}`, diff[0]));
        continue;
      }
      u.before = { ...now };
      entries.push(u);
      continue;
    }
    if (out.outcome === 'updated' && out.id && e.before) {
      const u: PlanEntry = { ...base, id: out.id, level: LEVEL[kind], action: 'update' };
      const now = await current(client, kind, out.id, signal);
      if (!now) {
        entries.push(conflict(u, `deleted on the service since job ${jobId}`));
        continue;
      }
      const diff = fieldDifferences(after, now);
      if (diff.length) {
        entries.push(conflict(u, `changed on the service since job ${jobId}: ${diff.join(', ')}`, diff[0]));
        continue;
      }
      const patch: Obj = {};
      for (const k of Object.keys(after)) patch[k] = e.before[k] ?? null;
      u.changes = Object.keys(after).map((k) => ({ field: k, before: now[k] ?? null, after: patch[k] }));
      u.before = { ...now };
      u.notes = [`set back: ${Object.keys(after).join(', ')}`];
      withRefs(u, patch);
      entries.push(u);
      continue;
    }
    if (out.outcome === 'deleted' && e.before) {
      const u: PlanEntry = {
        ...base,
        id: null,
        level: LEVEL[kind],
        action: 'create',
        notes: [`deleted by the job: re-created from the snapshot taken before the delete, with a new id (was ${e.id})`],
      };
      if (e.externalId) {
        const found = await resource(client, kind).findByExternalId(e.externalId, { signal });
        if (found) {
          entries.push(
            conflict(u, `an entity with external_id "${e.externalId}" was created on the service since job ${jobId} (id ${String(found.id)})`),
          );
          continue;
        }
      }
      const body: Obj = {};
      for (const k of createFieldsOf(kind)) if (e.before[k] !== undefined) body[k] = e.before[k];
      withRefs(u, body);
      entries.push(u);
    }
  }

  // Execution order: creates, updates and BOMs by level; deletes after them (the runner runs those last).
  entries.sort((a, b) => a.level - b.level || a.row - b.row);
  return {
    format: 'supply-loader/plan@1',
    createdAt: new Date().toISOString(),
    file: job.file,
    sheetNames: job.sheetNames,
    sheetColumns: job.sheetColumns,
    baseUrl: client.baseUrl,
    manufacturerId: job.manufacturerId,
    maskedKey: client.maskedKey,
    options: { createOnly: false },
    undoes: jobId,
    entries,
    summary: planSummary(entries),
    requests: client.stats().requests - startRequests,
    preflight: { ok: true, scopes: me.scopes ?? [], plant_ids: me.plant_ids ?? [], problems: [], warnings: [] },
  };
}

/** Entries an undo would not send: conflicts (and production figures, which cannot be taken back). */
export function undoBlocked(plan: Plan): PlanEntry[] {
  return plan.entries.filter((e) => e.action === 'conflict' || e.action === 'blocked');
}

export interface UndoJobOptions extends UndoOptions, Omit<RunOptions, 'client' | 'jobsDir' | 'signal' | 'inputPath'> {
  /** Plan only: nothing is sent. */
  dryRun?: boolean;
  /** Undo the rest when some entries are conflicts (by default nothing is sent then). */
  skipBlocked?: boolean;
}

export type UndoJobResult =
  | { stage: 'dry_run'; plan: Plan; blocked: PlanEntry[] }
  | { stage: 'blocked'; plan: Plan; blocked: PlanEntry[] }
  | { stage: 'run'; plan: Plan; blocked: PlanEntry[]; result: JobResult };

/**
 * Undo a job, the operation the CLI's `undo` (and a desktop action) adapts: always its own dry run first
 * (planUndo); nothing is sent for a dry run, nor when entries are conflicts without `skipBlocked`; else the undo
 * plan runs as a journaled, resumable job (resumeJob continues it) whose meta names the job it undoes.
 */
export async function undoJob(jobId: string, o: UndoJobOptions): Promise<UndoJobResult> {
  const { dryRun, skipBlocked, ...run } = o;
  const plan = await planUndo(jobId, o);
  const blocked = undoBlocked(plan);
  if (dryRun) return { stage: 'dry_run', plan, blocked };
  if (blocked.length > 0 && !skipBlocked) return { stage: 'blocked', plan, blocked };
  const result = await runJob(plan, run);
  return { stage: 'run', plan, blocked, result };
}
