/**
 * BOMs: one entry per product instance of the bom sheet — the whole set of components, compared with the BOM
 * on the service (read before planning, 8 at a time): `replace` with the component diff, or `unchanged`.
 */
import { ApiError, type ApiClient } from '../../api/index.js';
import { bomDiff, extractRefs, isPending, type BomWanted } from '../diff.js';
import { BOM_COMPONENT_TYPES } from '../../spec/constants.js';
import { RESOURCE } from '../entities.js';
import { snapshotOf } from '../snapshot.js';
import type { IdentifiedKind } from '../types.js';
import type { ServiceIndex } from '../resolve.js';
import type { WbRow, WorkbookRows } from '../workbook-rows.js';
import type { Obj, PlanProgress, PlanState } from './context.js';
import { conflictProblem, ownIdRefs, settle } from './decide.js';
import { blockedRow, groupByOwner, instanceRowsEntry } from './draft.js';
import { readPerInstance } from './instance-reads.js';
import { forEachPooled } from '../pool.js';
import { PLAN_NOTES } from '../plan-notes.js';

/** The kind a BOM row's component_type names (the spec's component types are kinds of the entity table). */
export const COMPONENT_KIND: Record<string, IdentifiedKind> = Object.fromEntries(
  BOM_COMPONENT_TYPES.map((t) => [t, t satisfies IdentifiedKind]),
);

/** BOMs on the service per instance id, or why one could not be read. */
export type ServerBoms = Map<
  string,
  { bom: { type: string; ref: string; mass_kg: number }[] } | { unreadable: string }
>;

/**
 * Read the BOMs of the instances the bom sheet names that are on the service, and the codes of their components
 * the workbook does not name (so a component a replace removes is shown by its code, not its id).
 */
/** The codes of BOM components not known yet, one GET each (8 at a time); one that cannot be read keeps its id. */
export async function readComponentCodes(
  boms: ServerBoms,
  svc: ServiceIndex,
  client: ApiClient,
  signal: AbortSignal | undefined,
): Promise<void> {
  const unknown = new Map<string, string>();
  for (const b of boms.values())
    if ('bom' in b) for (const c of b.bom) if (!svc.codeOfId.has(c.ref)) unknown.set(c.ref, c.type);
  await forEachPooled(
    [...unknown],
    8,
    async ([id, type]) => {
      const kind = COMPONENT_KIND[type];
      if (!kind) return;
      try {
        const e: { external_id?: string | null } = await client[RESOURCE[kind]].get(id, { signal });
        if (e.external_id) svc.codeOfId.set(id, e.external_id);
      } catch (e) {
        if (!(e instanceof ApiError) || e.classification === 'auth' || e.classification === 'daily_limit') throw e;
      }
    },
    () => signal?.aborted === true,
  );
  signal?.throwIfAborted();
}

/**
 * The BOMs on the service of the instances the bom sheet names (one GET each): they need only the instances'
 * ids, so they are read as soon as those are resolved; the codes of their components (readComponentCodes) once
 * every kind is.
 */
export function readServerBoms(
  wb: WorkbookRows,
  svc: ServiceIndex,
  client: ApiClient,
  signal: AbortSignal | undefined,
  progress: (p: PlanProgress) => void,
): Promise<ServerBoms> {
  return readPerInstance(
    wb,
    svc,
    'bom',
    signal,
    async (id) => ({
      bom: (await client.bom.get(id, { signal })).map((c) => ({
        type: c.type,
        ref: c.ref.toLowerCase(),
        mass_kg: c.mass_kg,
      })),
    }),
    (e) =>
      e instanceof ApiError && (e.classification === 'permission' || e.classification === 'validation')
        ? `${e.err_code}: ${e.msg}`
        : undefined,
    (done, total) => progress({ phase: 'reading_boms', done, total }),
  );
}

export function planBoms(ctx: PlanState, serverBoms: ServerBoms): void {
  const { byOwner, ownerless } = groupByOwner(ctx.wb.rows('bom'), 'product_instance_external_id');
  for (const r of ownerless) blockedRow(ctx, 'bom', r);
  for (const [code, rows] of byOwner) planBom(ctx, serverBoms, code, rows);
}

function planBom(
  ctx: PlanState,
  serverBoms: ServerBoms,
  code: string,
  rows: WbRow<{
    product_instance_external_id: string;
    component_type: string;
    component_external_id: string;
    mass_kg: number;
  }>[],
): void {
  const first = rows[0];
  const { entry, problems, instance } = instanceRowsEntry(ctx, 'bom', code, rows, `BOM of ${code}`);
  const host = { problems };
  const components: BomWanted[] = [];
  const plants = new Set<string>();
  for (const r of rows) {
    const t = r.typed;
    if (!t) continue;
    const kind = COMPONENT_KIND[t.component_type];
    const ref = ctx.refValue(host, r, 'component_external_id', kind, t.component_external_id);
    if (ref === undefined) continue;
    components.push({ type: t.component_type, ref, code: t.component_external_id, mass_kg: t.mass_kg });
    const p = ctx.plantOfComponent(kind, t.component_external_id);
    if (p) plants.add(p);
  }
  const instPlant = ctx.instance(code).plant;
  if (instPlant) plants.add(instPlant);
  entry.plantIds = [...plants].sort();
  const snapshot = rows.find((r) => r.snapshot)?.snapshot;

  if (problems.length > 0 || instance === undefined) {
    entry.problems = problems;
    return ctx.emit(entry);
  }
  const instanceId = isPending(instance) ? null : instance;
  const server = instanceId ? serverBoms.get(instanceId) : { bom: [] };
  const current = server && 'bom' in server ? server.bom : null;
  if (snapshot && (current === null || snapshotOf('bom', current) !== snapshot)) {
    entry.action = 'conflict';
    entry.problems = [
      conflictProblem(
        ctx,
        first,
        'product_instance_external_id',
        current === null ? 'could not be read' : 'changed on the service since the export',
        current === null ? 'unreadable' : 'changed',
      ),
    ];
    return ctx.emit(entry);
  }
  entry.id = instanceId;
  const diff = bomDiff(current ?? [], components, ctx.codeOfId);
  entry.bomDiff = diff;
  const notes: string[] = [];
  if (current === null && server && 'unreadable' in server) notes.push(PLAN_NOTES.bomUnreadable(server.unreadable));
  const same = current !== null && diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
  if (same) {
    entry.action = 'unchanged';
    if (notes.length) entry.notes = notes;
    return ctx.emit(entry);
  }
  const body: Obj = { bom: components.map((c) => ({ type: c.type, ref: c.ref, mass_kg: c.mass_kg })) };
  const { body: clean, refs } = extractRefs(body);
  refs.push(...ownIdRefs(instance));
  if (ctx.createOnly && current !== null && current.length > 0) {
    entry.action = 'skipped_update';
    notes.push(PLAN_NOTES.bomCreateOnly());
    entry.notes = notes;
    return ctx.emit(entry);
  }
  entry.action = 'replace';
  entry.body = clean;
  if (current !== null) entry.before = { bom: current.map((c) => ({ ...c })) };
  settle(ctx, entry, refs, notes, 'bom.put');
}
