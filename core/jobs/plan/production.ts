/**
 * Production figures: one entry per product instance of the production sheet — the years whose figure differs
 * from the service's (read before planning, 8 at a time) are PUT; years outside the instance's production
 * period are blocked at their cell.
 */
import { ApiError, type ApiClient } from '../../api/index.js';
import { isPending } from '../diff.js';
import type { FieldChange } from '../types.js';
import type { WbRow, WorkbookRows } from '../workbook-rows.js';
import type { ServiceIndex } from '../resolve.js';
import type { PlanState } from './context.js';
import { ownIdRefs, settle } from './decide.js';
import { blockedRow, groupByOwner, instanceRowsEntry } from './draft.js';
import { readPerInstance } from './instance-reads.js';
import { PLAN_NOTES } from '../plan-notes.js';

/** Production figures on the service per instance id (year → quantity), or why they could not be read. */
export type ServerProduction = Map<string, Map<number, number> | { unreadable: string }>;

/** Read the figures of the instances the production sheet names (one GET each, 8 at a time). */
export function readProduction(
  wb: WorkbookRows,
  svc: ServiceIndex,
  client: ApiClient,
  signal: AbortSignal | undefined,
): Promise<ServerProduction> {
  return readPerInstance(
    wb,
    svc,
    'production',
    signal,
    async (id) => new Map((await client.productionFigures.get(id, { signal })).map((f) => [f.year, f.quantity])),
    (e) =>
      e instanceof ApiError && e.classification !== 'auth' && e.classification !== 'daily_limit' && e.status !== 500
        ? e.msg
          ? `${e.err_code}: ${e.msg}`
          : e.err_code
        : undefined,
  );
}

/** One entry per product instance of the production sheet: the years whose figure changes are PUT. */
export function planProduction(ctx: PlanState, serverProduction: ServerProduction): void {
  const { byOwner, ownerless } = groupByOwner(ctx.wb.rows('production'), 'product_instance_external_id');
  for (const r of ownerless) blockedRow(ctx, 'production', r);
  const thisYear = new Date().getUTCFullYear();
  for (const [code, rows] of byOwner) planFigures(ctx, serverProduction, code, rows, thisYear);
}

function planFigures(
  ctx: PlanState,
  serverProduction: ServerProduction,
  code: string,
  rows: WbRow<{ year: number; quantity: number }>[],
  thisYear: number,
): void {
  const { entry, problems, instance } = instanceRowsEntry(
    ctx,
    'production',
    code,
    rows,
    `production figures of ${code}`,
  );
  const { entry: instanceEntry, plant: instPlant } = ctx.instance(code);
  if (instPlant) entry.plantIds = [instPlant];
  // The production period: the workbook's row of the instance, else the service's.
  const svcInst = ctx.svc.product_instance.get(code) as { produced_from?: unknown; produced_to?: unknown } | undefined;
  const wbInst = instanceEntry?.body as { produced_from?: unknown; produced_to?: unknown } | undefined;
  const from = typeof wbInst?.produced_from === 'number' ? wbInst.produced_from : svcInst?.produced_from;
  const to = wbInst && 'produced_to' in wbInst ? wbInst.produced_to : svcInst?.produced_to;
  const wanted = new Map<number, { quantity: number; row: WbRow<unknown> }>();
  for (const r of rows) {
    const t = r.typed;
    if (!t) continue;
    const outside = (typeof from === 'number' && t.year < from) || (typeof to === 'number' && t.year > to);
    if (outside) {
      problems.push(
        ctx.problemAt(r, 'year', {
          kind: 'rule',
          message: `year ${t.year} lies outside the production period of ${code} (${String(from)}–${typeof to === 'number' ? to : 'open'})`,
          code: 'row_rule',
          params: {
            detail: `year ${t.year} outside ${String(from)}–${typeof to === 'number' ? to : 'open'}`,
            // worded by the app: `plan.row_rule.outside_period[_open]`
            variant: typeof to === 'number' ? 'outside_period' : 'outside_period_open',
            year: t.year,
            ...(typeof from === 'number' && { from }),
            ...(typeof to === 'number' && { to }),
          },
        }),
      );
      continue;
    }
    wanted.set(t.year, { quantity: t.quantity, row: r });
  }
  if (problems.length > 0 || instance === undefined) {
    entry.problems = problems;
    return ctx.emit(entry);
  }
  const instanceId = isPending(instance) ? null : instance;
  const server = instanceId ? serverProduction.get(instanceId) : new Map<number, number>();
  const current = server instanceof Map ? server : null;
  const notes: string[] = [];
  if (server && !(server instanceof Map)) notes.push(PLAN_NOTES.figuresUnreadable(server.unreadable));
  const changes: FieldChange[] = [];
  const figures: { year: number; quantity: number }[] = [];
  for (const [year, w] of [...wanted].sort((a, b) => a[0] - b[0])) {
    const before = current?.get(year);
    if (current && before === w.quantity) continue;
    changes.push({ field: `production_figures[${year}]`, before: before ?? null, after: w.quantity });
    figures.push({ year, quantity: w.quantity });
  }
  for (const year of wanted.keys()) if (year > thisYear) notes.push(PLAN_NOTES.futureYear(year));
  entry.id = instanceId;
  if (figures.length === 0) {
    entry.action = 'unchanged';
    if (notes.length) entry.notes = notes;
    return ctx.emit(entry);
  }
  if (ctx.createOnly && current !== null && figures.some((f) => current.has(f.year))) {
    entry.action = 'skipped_update';
    notes.push(PLAN_NOTES.figuresCreateOnly());
    entry.notes = notes;
    return ctx.emit(entry);
  }
  entry.action = current !== null && figures.every((f) => !current.has(f.year)) ? 'create' : 'update';
  entry.changes = changes;
  entry.body = { production_figures: figures };
  settle(ctx, entry, ownIdRefs(instance), notes, 'productionFigures.put');
}
