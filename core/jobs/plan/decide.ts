/**
 * The decision step: a draft (what the workbook wants) against the service's entity (what is there) gives the
 * entry's action — create, update with the field-level before → after, unchanged, skipped_update (create-only,
 * or a row asking `create` of an existing entity), blocked, conflict (an exported row whose entity changed) —
 * and every write is checked against the key (preflight).
 */
import { preflightReport, type PlannedOperation } from '../../api/preflight.js';
import { maskApiKey } from '../../spec/constants.js';
import type { Operation } from '../../spec/scopes.js';
import {
  display,
  extractRefs,
  hasKeys,
  hazardChanges,
  isPending,
  mergeRoute,
  routeChanges,
  sameScalar,
  siloItemChanges,
} from '../diff.js';
import { nounOf, nounsOf, operationOf } from '../entities.js';
import { materialKey, sameMaterial } from '../resolve.js';
import { snapshotOf } from '../snapshot.js';
import type { EntityKind, FieldChange, PlanEntry, PlanProblem, RefSlot } from '../types.js';
import type { Obj, PlanState, RowAt } from './context.js';
import type { Draft } from './draft.js';
import { PLAN_NOTES } from '../plan-notes.js';

/** Decide a draft's entry and emit it. `onlyExisting`: the draft only updates (child rows of an owner elsewhere). */
export function decide(ctx: PlanState, d: Draft, o: { onlyExisting?: boolean } = {}): void {
  const existing = d.externalId ? (ctx.svc[d.kind].get(d.externalId) as Obj | undefined) : undefined;
  const entry = ctx.newEntry(
    d.kind,
    d.key,
    d,
    d.externalId,
    `${nounOf(d.kind)} ${d.externalId ?? `(row ${d.row})`}`,
    existing ? String(existing.id).toLowerCase() : null,
  );
  const plantId =
    typeof d.desired.plant_id === 'string'
      ? d.desired.plant_id
      : typeof existing?.plant_id === 'string'
        ? existing.plant_id.toLowerCase()
        : null;
  const sp = d.desired.supplier_plant_id;
  ctx.noteFacts(
    d.key,
    d.kind === 'supplier_product'
      ? {
          plant: ctx.intern(plantId),
          materialKey: ctx.intern(materialKey(d.desired.material_type ?? existing?.material_type)),
          supplierPlantId: ctx.intern(
            isPending(sp)
              ? `pending:${sp.$pending}`
              : sp === undefined
                ? ((existing?.supplier_plant_id as string | null | undefined) ?? null)
                : (sp as string | null),
          ),
        }
      : { plant: ctx.intern(plantId) },
  );
  // The plants the entry touches, each once: most rows name one or two, a list is enough.
  const plants: string[] = [];
  if (plantId) plants.push(plantId);
  if (typeof existing?.plant_id === 'string') addOnce(plants, existing.plant_id.toLowerCase());
  for (const p of d.plants) addOnce(plants, p);
  if (plants.length) entry.plantIds = plants.sort();

  const at: RowAt = { sheet: d.sheet, sheetName: ctx.wb.sheetName(d.sheet), row: d.row };
  // The service's list of the row's own kind could not be read: whether the entity exists is unknown, so the
  // row is neither a create (of an entity that may exist) nor an update.
  if (
    !existing &&
    d.externalId &&
    ctx.svc.unreadable[d.kind] &&
    !d.problems.some((p) => p.code === 'service_unreadable')
  )
    d.problems.push(
      ctx.unresolvedAt(
        at,
        'external_id',
        d.kind,
        '',
        'reference_unknown',
        { value: d.externalId, entityKind: d.kind },
        'unreadable',
      ),
    );
  if (d.problems.length > 0) {
    entry.problems = d.problems;
    return ctx.emit(entry);
  }
  if (d.snapshot && (!existing || snapshotOf(d.kind, existing) !== d.snapshot)) {
    entry.action = 'conflict';
    entry.problems = [
      conflictProblem(
        ctx,
        at,
        'external_id',
        existing ? 'changed on the service since the export' : 'was deleted on the service since the export',
        existing ? 'changed' : 'deleted',
      ),
    ];
    return ctx.emit(entry);
  }
  let body: Obj;
  let op: 'create' | 'update';
  if (!existing) {
    if (o.onlyExisting || d.rowAction === 'update') {
      entry.problems = [
        {
          kind: 'unresolved',
          sheet: at.sheetName,
          cell: null,
          row: d.row,
          field: null,
          message: `${entry.label} is not on the service`,
          code: 'not_on_service',
          params: d.externalId
            ? { entityKind: d.kind, value: d.externalId }
            : { entityKind: d.kind, value: `(row ${d.row})` },
        },
      ];
      return ctx.emit(entry);
    }
    body = createBody(d);
    if (d.kind === 'silo' && !(Array.isArray(body.items) && body.items.length > 0)) {
      entry.problems = [
        ctx.problemAt(at, 'external_id', {
          kind: 'rule',
          message: `silo ${d.externalId} needs at least one item in the silo-items sheet`,
          code: 'silo_without_items',
          params: { value: String(d.externalId) },
        }),
      ];
      return ctx.emit(entry);
    }
    op = 'create';
    entry.action = 'create';
  } else {
    const { changes, patch } = fieldDiff(ctx, d, existing);
    if (changes.length === 0) {
      entry.action = 'unchanged';
      return ctx.emit(entry);
    }
    entry.changes = changes;
    if (ctx.createOnly || d.rowAction === 'create') {
      entry.action = 'skipped_update';
      entry.notes = [ctx.createOnly ? PLAN_NOTES.createOnlyNotApplied() : PLAN_NOTES.actionCreateExists()];
      return ctx.emit(entry);
    }
    body = patch;
    op = 'update';
    entry.action = 'update';
    entry.before = { ...existing };
  }
  const { body: clean, refs } = extractRefs(body);
  entry.body = clean;
  settle(ctx, entry, refs, [], operationOf(d.kind, op));
}

/**
 * The end of every write entry: the entries it waits for (`dependsOn`, with an "after create of" note each),
 * its notes, the preflight of its operation, and into the plan.
 */
export function settle(ctx: PlanState, entry: PlanEntry, refs: RefSlot[], notes: string[], operation: Operation): void {
  if (refs.length) {
    entry.refs = refs;
    entry.dependsOn = [...new Set(refs.map((r) => r.key))];
    notes.push(...ctx.afterNotes(entry.dependsOn));
  }
  if (notes.length) entry.notes = notes;
  preflight(ctx, entry, operation);
  ctx.emit(entry);
}

/** The slot of the entry's own id when it is an entity created in this import (a BOM's or production's instance). */
export function ownIdRefs(instance: unknown): RefSlot[] {
  return isPending(instance) ? [{ path: ['$id'], key: instance.$pending, code: instance.code }] : [];
}

/** Silo items as the API takes them. */
function itemsBody(items: NonNullable<Draft['items']>): Obj[] {
  return items.map((it) => ({ supplier_product_id: it.supplier_product_id, annual_items: it.annual_items }));
}

function createBody(d: Draft): Obj {
  const body: Obj = {};
  for (const [k, v] of Object.entries(d.desired)) if (v !== undefined && v !== null) body[k] = v;
  if (d.route) {
    const route = mergeRoute(null, d.route);
    if (route) body.transport_route = route;
  }
  if (d.hazards && d.hazards.length) body.hazardous_substances = d.hazards;
  if (d.items) body.items = itemsBody(d.items);
  return body;
}

/** The fields that differ (before → after, references shown as codes) and the PATCH that changes them. */
function fieldDiff(ctx: PlanState, d: Draft, existing: Obj): { changes: FieldChange[]; patch: Obj } {
  const changes: FieldChange[] = [];
  const patch: Obj = {};
  // Every row of a re-sync is compared, nearly all of them unchanged: no array of the row's fields per row.
  for (const k in d.desired) {
    const v = d.desired[k];
    if (v === undefined || k === 'external_id') continue;
    const cur = existing[k];
    const same = k === 'material_type' ? sameMaterial(v, cur) : sameScalar(v, cur);
    if (same) continue;
    changes.push({ field: k, before: display(cur ?? null, ctx.codeOfId), after: display(v, ctx.codeOfId) });
    patch[k] = v;
  }
  if (d.route && hasKeys(d.route)) {
    const next = mergeRoute(existing.transport_route, d.route);
    const fc = routeChanges(existing.transport_route, next);
    if (fc.length) {
      changes.push(...fc);
      patch.transport_route = next;
    }
  }
  if (d.hazards) {
    const fc = hazardChanges(existing.hazardous_substances, d.hazards);
    if (fc.length) {
      changes.push(...fc);
      patch.hazardous_substances = d.hazards;
    }
  }
  if (d.items) {
    const fc = siloItemChanges(existing.items, d.items, ctx.codeOfId);
    if (fc.length) {
      changes.push(...fc);
      patch.items = itemsBody(d.items);
    }
  }
  return { changes, patch };
}

/** `value` added to `list` unless it is in it already. */
function addOnce(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}

export function conflictProblem(
  ctx: PlanState,
  r: RowAt,
  field: string,
  what: string,
  variant: 'changed' | 'deleted' | 'unreadable',
): PlanProblem {
  return {
    kind: 'conflict',
    sheet: r.sheetName,
    cell: ctx.wb.cell(r.sheet, field, r.row),
    row: r.row,
    field: '_snapshot',
    message: `this row was exported from the service and the entity ${what}: export it again (or remove the _snapshot cell to compare with the current data)`,
    code: 'snapshot_conflict',
    params: { variant },
  };
}

/** The key's scopes and plants against the entry's operation: what it lacks blocks the entry, with the reason. */
export function preflight(ctx: PlanState, entry: PlanEntry, operation: Operation): void {
  const op: PlannedOperation = { operation, plant_ids: entry.plantIds ?? [] };
  const report = preflightReport(ctx.me, ctx.maskedKey || maskApiKey(null), [op]);
  if (report.ok) return;
  const verb = operation.endsWith('.create')
    ? 'create'
    : operation.endsWith('.delete')
      ? 'delete'
      : operation === 'bom.put'
        ? 'replace'
        : 'update';
  const problems: PlanProblem[] = report.problems.map((p) => ({
    kind: 'preflight',
    sheet: ctx.wb.sheetName(entry.sheet),
    cell: null,
    row: entry.row,
    field: null,
    message:
      p.kind === 'missing_scope'
        ? `the API key lacks the scope ${p.scope}, needed to ${verb} ${nounsOf(entry.kind)}`
        : p.kind === 'plant_unreachable'
          ? `the API key cannot reach plant ${ctx.plantLabel(p.plant_id)}`
          : p.message,
    err_code:
      p.kind === 'missing_scope'
        ? 'err_permission_denied'
        : p.kind === 'plant_unreachable'
          ? 'err_plant_no_access'
          : 'err_not_authenticated',
    ...preflightCode(p, verb, entry.kind, ctx.plantLabel(p.plant_id)),
  }));
  entry.action = 'blocked';
  entry.problems = problems;
  delete entry.body;
  delete entry.refs;
  delete entry.dependsOn;
  delete entry.before;
  for (const p of problems) {
    if (!ctx.preflightProblems.some((q) => q.message === p.message))
      ctx.preflightProblems.push({ ...p, sheet: null, row: null });
  }
}

/** Code and params of a preflight problem (what its message is built from). */
function preflightCode(
  p: { kind: string; scope?: string; message: string },
  verb: string,
  entityKind: EntityKind,
  plant: string,
): Pick<PlanProblem, 'code' | 'params'> {
  if (p.kind === 'missing_scope')
    return { code: 'missing_scope', params: { scope: String(p.scope), verb, entityKind } };
  if (p.kind === 'plant_unreachable') return { code: 'plant_unreachable', params: { plant } };
  return { code: 'key_unusable', params: { detail: p.message } };
}
