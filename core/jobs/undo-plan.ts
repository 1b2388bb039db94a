/**
 * The undo plan of a finished job, computed from its plan entries (their `before`) and journal outcomes against
 * the service as it is now (the rules: undo.ts). In memory while it is made; undo.ts writes it into the undo
 * job's folder.
 */
import { UNDO_NOTES } from './undo-notes.js';
import { ApiError, fieldDifferences, type ApiClient } from '../api/index.js';
import { bomDiff, fillRefs } from './diff.js';
import { effectiveStatus, listJobs, readMeta, readPlan } from './job-store.js';
import { createFieldsOf, DELETE_LEVEL, ENTITIES, isIdentifiedKind, LEVEL } from './entities.js';
import { planSummary } from './plan.js';
import { withInstanceChildren } from './plan/instance-before.js';
import { undoRefusal } from './undo-refusal.js';
import { loadIndexed } from './job-result.js';
import type { EntryOutcome, FieldChange, IdentifiedKind, Plan, PlanEntry, PlanProblem, RefSlot } from './types.js';

type Obj = Record<string, unknown>;
type Component = { type: string; ref: string; mass_kg: number };
type Figure = { year: number; quantity: number };
/** Why an entry of an undo is not sent: its variant (`undo_…`, the UI's `plan.<code>.<variant>`) and values. */
type UndoWhy = { variant: string } & Record<string, string>;

/** Outcomes of a create that put the entity on the service (a replay, or a lost answer found by external_id). */
const CREATED = new Set(['created', 'replayed', 'already_existed']);

interface Readable {
  get(id: string, o?: { signal?: AbortSignal }): Promise<Obj>;
  findByExternalId(code: string, o?: { signal?: AbortSignal }): Promise<Obj | null>;
}

function resource(client: ApiClient, kind: IdentifiedKind): Readable {
  return (client as unknown as Record<string, Readable>)[ENTITIES[kind].resource];
}

/** A read that answers null for what the service no longer has (err_not_found). */
async function orGone<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof ApiError && e.err_code === 'err_not_found') return null;
    throw e;
  }
}

const current = (client: ApiClient, kind: IdentifiedKind, id: string, signal?: AbortSignal): Promise<Obj | null> =>
  orGone(() => resource(client, kind).get(id, { signal }));

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

const components = (v: unknown): Component[] =>
  (Array.isArray(v) ? (v as Obj[]) : []).map((c) => ({
    type: String(c.type),
    ref: String(c.ref).toLowerCase(),
    mass_kg: Number(c.mass_kg),
  }));

const YEAR_FIELD = /^production_figures\[(\d+)\]$/;

export interface UndoOptions {
  client: ApiClient;
  jobsDir: string;
  signal?: AbortSignal;
}

/** The outcomes of a job on disk that are settled (not pending), by entry key. */
async function settledOutcomes(jobsDir: string, jobId: string): Promise<Map<string, EntryOutcome>> {
  const { index } = await loadIndexed(jobsDir, jobId);
  const outcomes = new Map<string, EntryOutcome>();
  try {
    for (let i = 0; i < index.size; i++) {
      const o = index.outcomeOf(i);
      if (o.outcome !== 'pending') outcomes.set(o.key, o);
    }
  } finally {
    await index.close();
  }
  return outcomes;
}

/** The undo plan of a completed job (reads only); refusals in words (see planUndo). */
export async function undoPlanOf(jobId: string, o: UndoOptions): Promise<Plan> {
  const { client, jobsDir, signal } = o;
  const startRequests = client.stats().requests;
  const [job, meta, outcomes, jobs] = await Promise.all([
    readPlan(jobsDir, jobId),
    readMeta(jobsDir, jobId),
    settledOutcomes(jobsDir, jobId),
    listJobs(jobsDir),
  ]);
  const status = effectiveStatus(meta);
  if (status !== 'completed')
    throw new Error(`Job ${jobId} is ${status}: only a completed job can be undone (resume it first).`);
  const refused = undoRefusal(jobId, meta.baseUrl, client.baseUrl, jobs);
  if (refused) throw new Error(refused);
  const me = await client.me({ signal });
  if (me.manufacturer_id.toLowerCase() !== job.manufacturerId.toLowerCase())
    throw new Error(
      `The API key belongs to another manufacturer than job ${jobId} (${job.manufacturerId}); use a key of that manufacturer.`,
    );

  const idOf = (k: string) => outcomes.get(k)?.id;
  /** Entities the job created: planned as creates (they were not on the service), and on it after the job. */
  const createdKeys = new Set(
    job.entries
      .filter(
        (e) => isIdentifiedKind(e.kind) && e.action === 'create' && CREATED.has(outcomes.get(e.key)?.outcome ?? ''),
      )
      .map((e) => e.key),
  );
  /** The entry writes into an instance the job created (its BOM, its production figures go with it). */
  const ofCreatedInstance = (e: PlanEntry): boolean => {
    const r = e.refs?.find((x) => x.path[0] === '$id');
    return r !== undefined && createdKeys.has(r.key);
  };
  // Old ids of the entities the job deleted → the key of their re-creation in the undo.
  const recreateKey = new Map<string, { key: string; code: string }>();
  for (const e of job.entries)
    if (outcomes.get(e.key)?.outcome === 'deleted' && e.id && e.before)
      recreateKey.set(e.id.toLowerCase(), { key: `undo:${e.key}`, code: e.externalId ?? e.id });
  /** Codes of the ids the undo's entries name (for the BOM diffs people read). */
  const codes = new Map<string, string>();
  for (const e of job.entries) {
    const id = idOf(e.key) ?? e.id;
    if (id && e.externalId && isIdentifiedKind(e.kind)) codes.set(id.toLowerCase(), e.externalId);
  }
  const codeOfId = (id: string) => codes.get(id.toLowerCase());

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
      entry.refs = [...(entry.refs ?? []), ...refs];
      entry.dependsOn = [...new Set([...(entry.dependsOn ?? []), ...refs.map((r) => r.key)])];
      entry.notes = [
        ...(entry.notes ?? []),
        ...[...new Set(refs.map((r) => r.code))].map((c) => UNDO_NOTES.afterRecreate(c)),
      ];
    }
  };

  // A problem of the undo carries its variant (`undo_…`) and values, for a UI to word it (`plan.<code>.<variant>`):
  // a conflict as `snapshot_conflict`, a rule as `row_rule` (whose words also take the message as `detail`).
  const problem = (
    u: PlanEntry,
    kind: 'conflict' | 'rule',
    message: string,
    why: UndoWhy,
    field: string | null = null,
  ): PlanProblem => ({
    kind,
    sheet: u.sheet,
    cell: null,
    row: u.row,
    field,
    message,
    ...(kind === 'conflict'
      ? { code: 'snapshot_conflict', params: { jobId, ...why } }
      : { code: 'row_rule', params: { detail: message, jobId, ...why } }),
  });
  const conflict = (u: PlanEntry, message: string, why: UndoWhy, field: string | null = null): PlanEntry => {
    delete u.body;
    return { ...u, action: 'conflict', problems: [problem(u, 'conflict', message, why, field)] };
  };
  const blocked = (u: PlanEntry, message: string, why: UndoWhy): PlanEntry => {
    delete u.body;
    return { ...u, action: 'blocked', problems: [problem(u, 'rule', message, why)] };
  };

  /** The BOM of an instance put back: a replace with its before-state (the BOM it replaces). */
  const bomEntry = (u: PlanEntry, wanted: Component[], now: Component[], note: string): PlanEntry => {
    const entry: PlanEntry = {
      ...u,
      kind: 'bom',
      level: LEVEL.bom,
      action: 'replace',
      notes: [...(u.notes ?? []), note],
    };
    entry.before = { bom: now };
    entry.bomDiff = bomDiff(
      now,
      wanted.map((c) => ({ ...c, code: recreateKey.get(c.ref)?.code ?? codeOfId(c.ref) ?? c.ref })),
      (id) => codeOfId(id) ?? recreateKey.get(id)?.code,
    );
    withRefs(entry, { bom: wanted });
    return entry;
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
      if (out.outcome !== 'created' && out.outcome !== 'updated') continue;
      // The figures of an instance the job created go with the instance.
      if (ofCreatedInstance(e) || !out.id) continue;
      const u: PlanEntry = { ...base, id: out.id, level: LEVEL.production };
      const now = await orGone(() => client.productionFigures.get(out.id!, { signal }));
      if (!now) {
        entries.push(
          conflict(u, `the product instance was deleted since job ${jobId}`, { variant: 'undo_instance_deleted' }),
        );
        continue;
      }
      const nowOf = new Map(now.map((f) => [f.year, f.quantity]));
      const written = (e.changes ?? []).flatMap((c) => {
        const m = YEAR_FIELD.exec(c.field);
        return m ? [{ year: Number(m[1]), before: c.before, after: c.after }] : [];
      });
      const changed = written.filter((w) => nowOf.get(w.year) !== w.after).map((w) => w.year);
      if (changed.length) {
        entries.push(
          conflict(
            u,
            `production figures of ${changed.join(', ')} were changed on the service since job ${jobId}`,
            { variant: 'undo_figures_changed', years: changed.join(', ') },
            'production_figures',
          ),
        );
        continue;
      }
      const back = written.filter((w) => typeof w.before === 'number');
      const added = written.filter((w) => typeof w.before !== 'number').map((w) => w.year);
      if (back.length) {
        const figures: Figure[] = back.map((w) => ({ year: w.year, quantity: w.before as number }));
        entries.push({
          ...u,
          action: 'update',
          body: { production_figures: figures },
          before: { production_figures: back.map((w) => ({ year: w.year, quantity: nowOf.get(w.year) })) },
          changes: back.map((w): FieldChange => ({
            field: `production_figures[${w.year}]`,
            before: w.after,
            after: w.before,
          })),
          notes: [UNDO_NOTES.figuresSetBack()],
        });
      }
      if (added.length)
        entries.push(
          blocked(
            { ...u, key: `${u.key}:added` },
            `production figures of ${added.join(', ')} were added by job ${jobId} and are not undone: the API sets years, it cannot take one back`,
            { variant: 'undo_figures_added', years: added.join(', ') },
          ),
        );
      continue;
    }

    if (e.kind === 'bom') {
      if (out.outcome !== 'replaced' || !out.id) continue;
      // The BOM of an instance this job created goes with the instance.
      if (ofCreatedInstance(e)) continue;
      const u: PlanEntry = { ...base, id: out.id, level: LEVEL.bom };
      const now = await orGone(() => client.bom.get(out.id!, { signal }));
      if (!now) {
        entries.push(
          conflict(u, `the product instance was deleted since job ${jobId}`, { variant: 'undo_instance_deleted' }),
        );
        continue;
      }
      if (fieldDifferences(after.bom ?? [], now).length > 0) {
        entries.push(
          conflict(u, `the BOM was changed on the service since job ${jobId}`, { variant: 'undo_bom_changed' }, 'bom'),
        );
        continue;
      }
      if (!Array.isArray(e.before?.bom)) {
        entries.push(
          blocked(u, `the BOM before job ${jobId} was not recorded: it cannot be put back`, {
            variant: 'undo_bom_not_recorded',
          }),
        );
        continue;
      }
      entries.push(bomEntry(u, components(e.before.bom), components(now), UNDO_NOTES.bomPutBack()));
      continue;
    }

    if (!isIdentifiedKind(e.kind)) continue;
    const kind = e.kind;
    if (createdKeys.has(e.key) && out.id) {
      const u: PlanEntry = {
        ...base,
        level: DELETE_LEVEL[kind],
        id: out.id,
        action: 'delete',
        notes: [UNDO_NOTES.createdDeleted()],
      };
      const now = await current(client, kind, out.id, signal);
      if (!now) {
        entries.push({ ...u, id: null, notes: [UNDO_NOTES.createdAlreadyDeleted()] });
        continue;
      }
      // What the job sent must still be there, and what it left out still empty (the service's defaults).
      const diff = [
        ...fieldDifferences(after, now),
        ...createFieldsOf(kind).filter((k) => !(k in after) && !isEmpty(now[k])),
      ];
      if (diff.length) {
        entries.push(
          conflict(
            u,
            `changed on the service since job ${jobId}: ${diff.join(', ')}`,
            { variant: 'undo_changed', fields: diff.join(', ') },
            diff[0],
          ),
        );
        continue;
      }
      u.before = { ...now };
      // An instance takes its BOM and production figures with it: kept, for an undo of this undo.
      entries.push(await withInstanceChildren(u, u.sheet, client, signal));
      continue;
    }
    if (out.outcome === 'updated' && out.id && e.before) {
      const u: PlanEntry = { ...base, id: out.id, level: LEVEL[kind], action: 'update' };
      const now = await current(client, kind, out.id, signal);
      if (!now) {
        entries.push(conflict(u, `deleted on the service since job ${jobId}`, { variant: 'undo_deleted' }));
        continue;
      }
      const diff = fieldDifferences(after, now);
      if (diff.length) {
        entries.push(
          conflict(
            u,
            `changed on the service since job ${jobId}: ${diff.join(', ')}`,
            { variant: 'undo_changed', fields: diff.join(', ') },
            diff[0],
          ),
        );
        continue;
      }
      const patch: Obj = {};
      for (const k of Object.keys(after)) patch[k] = e.before[k] ?? null;
      u.changes = Object.keys(after).map((k) => ({ field: k, before: now[k] ?? null, after: patch[k] }));
      u.before = { ...now };
      u.notes = [UNDO_NOTES.setBack(Object.keys(after))];
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
        notes: [UNDO_NOTES.recreated(String(e.id))],
      };
      if (e.externalId) {
        const found = await resource(client, kind).findByExternalId(e.externalId, { signal });
        if (found) {
          entries.push(
            conflict(
              u,
              `an entity with external_id "${e.externalId}" was created on the service since job ${jobId} (id ${String(found.id)})`,
              { variant: 'undo_code_taken', value: e.externalId, id: String(found.id) },
            ),
          );
          continue;
        }
      }
      const body: Obj = {};
      for (const k of createFieldsOf(kind)) if (e.before[k] !== undefined) body[k] = e.before[k];
      withRefs(u, body);
      entries.push(u);
      if (kind === 'product_instance') entries.push(...instanceChildren(e, u, jobId, withRefs, blocked, bomEntry));
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

/**
 * A re-created product instance's BOM and production figures, as they were before the job deleted it (read at
 * plan time into the delete's `before`), each written once the instance is re-created. A delete planned without
 * them (an older job folder) cannot put them back: that entry is blocked with the reason.
 */
function instanceChildren(
  e: PlanEntry,
  instance: PlanEntry,
  jobId: string,
  withRefs: (entry: PlanEntry, body: Obj) => void,
  blocked: (u: PlanEntry, message: string, why: UndoWhy) => PlanEntry,
  bomEntry: (u: PlanEntry, wanted: Component[], now: Component[], note: string) => PlanEntry,
): PlanEntry[] {
  const code = e.externalId ?? e.id ?? e.key;
  const child = (suffix: string, kind: 'bom' | 'production', label: string): PlanEntry => ({
    key: `${instance.key}:${suffix}`,
    kind,
    level: LEVEL[kind],
    sheet: kind,
    row: e.row,
    rows: [],
    externalId: e.externalId,
    label,
    action: 'unchanged',
    id: null,
    refs: [{ path: ['$id'], key: instance.key, code }],
    dependsOn: [instance.key],
    notes: [UNDO_NOTES.afterRecreate(code)],
  });
  const before = e.before ?? {};
  const out: PlanEntry[] = [];
  if (!Array.isArray(before.bom) || !Array.isArray(before.production_figures)) {
    out.push(
      blocked(
        child('bom', 'bom', `BOM of ${code}`),
        `the BOM and production figures of ${code} were not recorded before job ${jobId} deleted it: the instance is re-created without them`,
        { variant: 'undo_children_not_recorded', value: code },
      ),
    );
    return out;
  }
  const bom = components(before.bom);
  if (bom.length) out.push(bomEntry(child('bom', 'bom', `BOM of ${code}`), bom, [], UNDO_NOTES.bomPutBack()));
  const figures = (before.production_figures as Obj[]).map((f) => ({
    year: Number(f.year),
    quantity: Number(f.quantity),
  }));
  if (figures.length) {
    const p: PlanEntry = {
      ...child('production', 'production', `production figures of ${code}`),
      action: 'create',
      changes: figures.map((f) => ({ field: `production_figures[${f.year}]`, before: null, after: f.quantity })),
    };
    p.notes = [...(p.notes ?? []), UNDO_NOTES.figuresPutBack()];
    withRefs(p, { production_figures: figures });
    out.push(p);
  }
  return out;
}
