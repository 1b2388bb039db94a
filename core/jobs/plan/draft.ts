/**
 * A draft: one entity entry of the workbook before its action is decided — what the row wants (the API fields,
 * route, hazardous substances, silo items) and the problems found so far. Kind planners make drafts; `decide`
 * turns each into an entry.
 */
import { TRANSPORT_MODALITIES } from '../../spec/constants.js';
import type { DataSheetName, IssueParams, RowAction } from '../../workbook/types.js';
import type { Hazard, Pending, SiloItemWanted } from '../diff.js';
import { nounOf } from '../entities.js';
import type { EntityKind, IdentifiedKind, PlanEntry, PlanProblem, RowRef } from '../types.js';
import { rawCode, type WbRow } from '../workbook-rows.js';
import { rowName, type Obj, type PlanState } from './context.js';
import type { EntryRef } from '../plan-sink.js';

export interface Draft {
  kind: IdentifiedKind;
  key: string;
  sheet: DataSheetName;
  row: number;
  rows: RowRef[];
  externalId: string | null;
  /** API fields: absent = not set, null = clear (#CLEAR), Pending = id of an entity created in this job. */
  desired: Obj;
  /** Wanted transport modalities (absent = not set, null = remove). */
  route?: Partial<Record<string, number | null>>;
  hazards?: Hazard[];
  items?: SiloItemWanted[];
  /** For silos: the silo-items row of each item (to point rule violations at a cell). */
  itemRows?: WbRow<unknown>[];
  problems: PlanProblem[];
  snapshot?: string;
  /** Plants the write touches besides desired.plant_id. */
  plants: string[];
  /** The row's action: `create` only if absent, `update` only if present. */
  rowAction?: RowAction;
}

/** Optional scalar: undefined = not set, null = clear. */
export function opt<T>(v: T | null | undefined): T | null | undefined {
  return v === undefined ? undefined : v;
}

/** The transport route a row wants: the modalities it fills (null = remove). */
export function routeOf(t: Partial<Record<(typeof TRANSPORT_MODALITIES)[number], number | null>>): Draft['route'] {
  const route: Partial<Record<string, number | null>> = {};
  for (const m of TRANSPORT_MODALITIES) if (t[m] !== undefined) route[m] = t[m] ?? null;
  return route;
}

/** The draft of an entity sheet's row; a code defined twice is a problem at the second row. */
export function draft(ctx: PlanState, kind: IdentifiedKind, r: WbRow<unknown>): Draft {
  const code = rawCode(r, 'external_id');
  const d: Draft = {
    kind,
    key: `${r.sheet}!${r.row}`,
    sheet: r.sheet,
    row: r.row,
    rows: [{ sheet: r.sheet, row: r.row }],
    externalId: code,
    desired: {},
    problems: [...r.problems],
    plants: [],
  };
  if (r.snapshot) d.snapshot = r.snapshot;
  d.rowAction = r.action;
  if (code) {
    const first = ctx.define(kind, code, d.key);
    // (the same row drafted again: its decision ahead of its turn was dropped)
    if (first !== d.key && !r.problems.some((p) => p.field === 'external_id')) {
      d.problems.push(
        ctx.problemAt(r, 'external_id', {
          kind: 'duplicate',
          message: `external_id "${code}" appears more than once in ${r.sheetName} (first in ${rowName(ctx.entry(first))})`,
          code: 'duplicate_external_id',
          params: firstRowParams(code, ctx.entry(first)),
        }),
      );
    }
  }
  return d;
}

/** Params of a duplicate external_id: where the first row is (variant `elsewhere` when unknown). */
function firstRowParams(code: string, first: EntryRef | undefined): IssueParams {
  return first ? { value: code, firstSheet: first.sheet, firstRow: first.row } : { value: code, variant: 'elsewhere' };
}

/** Rows of a child sheet grouped by their owner's code (in sheet order); rows without one apart. */
export function groupByOwner<T>(
  rows: Iterable<WbRow<T>>,
  field: string,
): { byOwner: Map<string, WbRow<T>[]>; ownerless: WbRow<T>[] } {
  const byOwner = new Map<string, WbRow<T>[]>();
  const ownerless: WbRow<T>[] = [];
  for (const r of rows) {
    const code = rawCode(r, field);
    if (!code) ownerless.push(r);
    else {
      const list = byOwner.get(code);
      if (list) list.push(r);
      else byOwner.set(code, [r]);
    }
  }
  return { byOwner, ownerless };
}

/** Attaches a child sheet's rows of one owner to its draft. */
type Attach = (d: Draft, rows: WbRow<unknown>[]) => void;

/** A child sheet's rows grouped by their owner's code, and how they join their owner's draft. */
export interface ChildRows {
  groups: ReturnType<typeof groupByOwner<unknown>>;
  attach: Attach;
}

/** Rows decided ahead of their turn (ahead.ts). */
export interface RowsAhead {
  /** At its turn: the entry of the row at `position` into the plan, if it was decided ahead (else false). */
  take(position: number): boolean;
}

/**
 * An entity sheet with a child sheet (supplier products → hazardous substances, silos → silo items): its rows,
 * the child rows by owner, what a row wants (`fill`) and how a draft is decided (`settle`).
 */
export interface EntitySheet<T> {
  kind: 'supplier_product' | 'silo';
  rows: readonly WbRow<T>[];
  children: ChildRows;
  fill(d: Draft, r: WbRow<T>): void;
  settle(d: Draft, o: { onlyExisting?: boolean }): void;
}

/** One row of an entity sheet: drafted, the child rows of its code attached (`owned`: for its code's first row), decided. */
export function draftRow<T>(
  ctx: PlanState,
  sheet: EntitySheet<T>,
  r: WbRow<T>,
  owned: WbRow<unknown>[] | undefined,
): void {
  const d = draft(ctx, sheet.kind, r);
  if (owned) sheet.children.attach(d, owned);
  sheet.fill(d, r);
  sheet.settle(d, {});
}

/**
 * An entity sheet with a child sheet (supplier products → hazardous substances, silos → silo items): a draft
 * per row, the child rows attached to the first row of their owner's code, then the child rows whose owner is
 * not in the sheet (an update of the owner's list: `decide` is told `onlyExisting`), then those without an
 * owner code (blocked). Steps for a Slicer (a `yield` after each row): the planner lets the event loop turn
 * between slices, so that deciding 100,000 rows at once does not hold the process for seconds (no progress
 * told, no cancel, none of V8's collection work that waits for a turn).
 */
export function* withChildRows<T>(ctx: PlanState, sheet: EntitySheet<T>, ahead?: RowsAhead): Generator<void, void> {
  const { kind, rows, children, settle } = sheet;
  const { byOwner, ownerless } = children.groups;
  const inSheet = new Set<string>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const code = rawCode(r, 'external_id');
    const first = code !== null && !inSheet.has(code);
    if (first) inSheet.add(code);
    if (!ahead?.take(i)) draftRow(ctx, sheet, r, first ? byOwner.get(code) : undefined);
    yield;
  }
  for (const [code, owned] of byOwner)
    if (!inSheet.has(code)) {
      settle(ownerDraft(ctx, kind, code, owned, children.attach), { onlyExisting: true });
      yield;
    }
  for (const r of ownerless) blockedRow(ctx, kind, r);
}

/**
 * Child rows (hazardous substances, silo items) whose owner is not in its own sheet: an update of the owner's
 * list, with a problem at the first row's owner cell when the service has no such owner.
 */
function ownerDraft(
  ctx: PlanState,
  kind: 'supplier_product' | 'silo',
  code: string,
  rows: WbRow<unknown>[],
  attach: Attach,
): Draft {
  const first = rows[0];
  const field = `${kind}_external_id`;
  const d: Draft = {
    kind,
    key: `${first.sheet}:${code}`,
    sheet: first.sheet,
    row: first.row,
    rows: [],
    externalId: code,
    desired: {},
    problems: [],
    plants: [],
  };
  attach(d, rows);
  if (!ctx.svc[kind].get(code))
    d.problems.push(
      ctx.unresolvedAt(
        first,
        field,
        kind,
        `no ${nounOf(kind)} with external_id "${code}" in this workbook or on the service`,
        'reference_unknown',
        { value: code, entityKind: kind },
      ),
    );
  return d;
}

/** The child rows' problems, each prefixed with its sheet and row, on the owner's draft. */
export function childProblems(d: Draft, r: WbRow<unknown>): void {
  d.problems.push(...r.problems.map((p) => ({ ...p, message: `${r.sheet} row ${r.row}: ${p.message}` })));
}

/** A child row without an owner code (or an owner-less BOM or production row): blocked. */
export function blockedRow(ctx: PlanState, kind: EntityKind, r: WbRow<unknown>): void {
  const problems = r.problems.length
    ? r.problems
    : [
        {
          kind: 'validation' as const,
          sheet: r.sheetName,
          cell: null,
          row: r.row,
          field: null,
          message: 'the row has no code to attach it to',
          code: 'no_owner_code' as const,
        },
      ];
  const e = ctx.newEntry(
    kind,
    `${r.sheet}!${r.row}`,
    { sheet: r.sheet, row: r.row, rows: [{ sheet: r.sheet, row: r.row }] },
    null,
    `${r.sheetName} row ${r.row}`,
  );
  e.problems = problems;
  ctx.emit(e);
}

/**
 * The start of the entry of one instance's rows (its BOM, its production figures): blocked until decided, with
 * the problems of its invalid rows and the reference to the instance (id, pending, or a problem).
 */
export function instanceRowsEntry(
  ctx: PlanState,
  kind: 'bom' | 'production',
  code: string,
  rows: WbRow<unknown>[],
  label: string,
): { entry: PlanEntry; problems: PlanProblem[]; instance: string | Pending | undefined } {
  const first = rows[0];
  const problems: PlanProblem[] = [];
  const entry = ctx.newEntry(
    kind,
    `${kind}:${code}`,
    { sheet: kind, row: first.row, rows: rows.map((r) => ({ sheet: r.sheet, row: r.row })) },
    code,
    label,
  );
  for (const r of rows) if (!r.typed) problems.push(...r.problems);
  const instance = ctx.refValue({ problems }, first, 'product_instance_external_id', 'product_instance', code);
  return { entry, problems, instance };
}
