/**
 * Deletes: rows with action `delete` on the entity sheets, and mirrored sheets (every entity of the sheet's type
 * with an external_id that the sheet does not have, under a cap); rows with action `ignore` are listed.
 */
import type { ApiClient } from '../../api/index.js';
import type { DataSheetName } from '../../workbook/types.js';
import { DELETE_LEVEL, ENTITIES, ENTITY_SHEETS, nounOf, nounsOf, operationOf } from '../entities.js';
import type { IdentifiedKind, Plan, PlanEntry, PlanProblem, RowRef } from '../types.js';
import { rawCode } from '../workbook-rows.js';
import type { Obj, PlanState } from './context.js';
import { preflight } from './decide.js';
import { PLAN_NOTES } from '../plan-notes.js';

/** Default cap of a mirror: 10 % of the type's entities with an external_id, rounded down, at least 5. */
export function defaultMaxDeletes(managed: number): number {
  return Math.max(5, Math.floor(managed / 10));
}

/** Rows with action `ignore` (every sheet): skipped, listed in the plan. */
export function ignoredRows(ctx: PlanState): RowRef[] {
  const out: RowRef[] = [];
  for (const sheet of ctx.wb.sheets.keys())
    for (const r of ctx.wb.actionRows(sheet, 'ignore')) out.push({ sheet: r.sheet, row: r.row });
  return out;
}

/** A delete entry of one service entity (or of a code the service does not have: already absent). */
function deleteEntry(
  ctx: PlanState,
  kind: IdentifiedKind,
  key: string,
  at: { sheet: DataSheetName; row: number },
  code: string | null,
  existing: Obj | undefined,
  problems: PlanProblem[],
  why: string,
): PlanEntry {
  const { sheet, row } = at;
  const name = typeof existing?.name === 'string' ? existing.name : null;
  const entry = ctx.newEntry(
    kind,
    key,
    { sheet, row, rows: row > 0 ? [{ sheet, row }] : [] },
    code,
    `${nounOf(kind)} ${code ?? `(row ${row})`}${name ? ` "${name}"` : ''}`,
    existing ? String(existing.id).toLowerCase() : null,
    DELETE_LEVEL[kind],
  );
  entry.action = problems.length ? 'blocked' : 'delete';
  entry.notes = [why];
  if (typeof existing?.plant_id === 'string') entry.plantIds = [existing.plant_id.toLowerCase()];
  if (problems.length) {
    entry.problems = problems;
    return entry;
  }
  if (!existing) entry.notes = [why, PLAN_NOTES.alreadyAbsent()];
  else {
    entry.before = { ...existing };
    preflight(ctx, entry, operationOf(kind, 'delete'));
  }
  return entry;
}

/** Rows with action `delete` on the entity sheets: their entries (emitted once checked for uses: in-use.ts). */
export function planDeleteRows(ctx: PlanState): PlanEntry[] {
  const out: PlanEntry[] = [];
  for (const [sheet, kind] of Object.entries(ENTITY_SHEETS) as [DataSheetName, IdentifiedKind][]) {
    for (const r of ctx.wb.actionRows(sheet, 'delete')) {
      const code = rawCode(r, 'external_id');
      const existing = code ? (ctx.svc[kind].get(code) as Obj | undefined) : undefined;
      const problems = [...r.problems];
      if (code && ctx.svc.unreadable[kind] && !existing)
        problems.push(
          ctx.unresolvedAt(
            r,
            'external_id',
            kind,
            '',
            'reference_unknown',
            { value: code, entityKind: kind },
            'unreadable',
          ),
        );
      const filled = Object.keys(r.values).filter(
        (f) => f !== 'external_id' && f !== 'action' && r.values[f] !== undefined && r.values[f] !== null,
      );
      const why = filled.length ? PLAN_NOTES.actionDeleteNotUsed(filled) : PLAN_NOTES.actionDelete();
      out.push(deleteEntry(ctx, kind, `${sheet}!${r.row}`, r, code, existing, problems, why));
    }
  }
  return out;
}

/** Whether the workbook has rows with action `delete`. */
export function hasDeleteRows(ctx: PlanState): boolean {
  return (Object.keys(ENTITY_SHEETS) as DataSheetName[]).some((sheet) => ctx.wb.actionRows(sheet, 'delete').length > 0);
}

/**
 * Mirrored sheets: every entity of the sheet's type on the service that carries an external_id and is not in
 * the sheet (any row, whatever its action) is deleted; entities without one are listed, never touched. Over
 * the cap, every delete of that sheet is blocked (nothing is deleted). The entries are returned, not emitted
 * (they are checked for uses first: in-use.ts).
 */
export async function planMirror(
  ctx: PlanState,
  client: ApiClient,
  sheets: readonly DataSheetName[],
  maxDeletes: number | undefined,
  signal: AbortSignal | undefined,
): Promise<{ sheets: NonNullable<Plan['mirror']>; notManaged: NonNullable<Plan['notManaged']>; entries: PlanEntry[] }> {
  const out: NonNullable<Plan['mirror']> = [];
  const entries: PlanEntry[] = [];
  const notManaged: NonNullable<Plan['notManaged']> = [];
  const wb = ctx.wb;
  for (const sheet of sheets) {
    const kind = ENTITY_SHEETS[sheet];
    if (!kind) throw new Error(`${sheet} cannot be mirrored: only ${Object.keys(ENTITY_SHEETS).join(', ')} can`);
    const inSheet = new Set<string>();
    for (const r of [...wb.rows(sheet), ...wb.actionRows(sheet, 'delete'), ...wb.actionRows(sheet, 'ignore')]) {
      const c = rawCode(r, 'external_id');
      if (c) inSheet.add(c);
    }
    const resource = (client as unknown as Record<string, { walk(q: object, o: object): AsyncIterable<Obj> }>)[
      ENTITIES[kind].resource
    ];
    const gone: Obj[] = [];
    let managed = 0;
    for await (const e of resource.walk({}, { signal })) {
      const code = typeof e.external_id === 'string' && e.external_id !== '' ? e.external_id : null;
      if (!code) {
        notManaged.push({ kind, id: String(e.id).toLowerCase(), name: typeof e.name === 'string' ? e.name : null });
        continue;
      }
      managed++;
      if (!inSheet.has(code)) gone.push(e);
    }
    // In code order (as people read a list), whatever order the service lists them in.
    gone.sort((a, b) => String(a.external_id).localeCompare(String(b.external_id), 'en', { numeric: true }));
    const cap = maxDeletes ?? defaultMaxDeletes(managed);
    const overCap = gone.length > cap;
    const sheetName = wb.sheetName(sheet);
    for (const e of gone) {
      const code = String(e.external_id);
      const problems: PlanProblem[] = overCap
        ? [
            {
              kind: 'rule',
              sheet: sheetName,
              cell: null,
              row: null,
              field: null,
              message: `the mirror of ${sheetName} would delete ${gone.length} ${nounsOf(kind)}, more than the cap of ${cap} (--max-deletes): nothing is deleted`,
              code: 'mirror_cap',
              params: { sheet: sheetName, count: gone.length, cap },
            },
          ]
        : [];
      entries.push(
        deleteEntry(
          ctx,
          kind,
          `mirror:${sheet}:${code}`,
          { sheet, row: 0 },
          code,
          e,
          problems,
          PLAN_NOTES.mirrorNotIn(sheetName),
        ),
      );
    }
    out.push({ sheet, kind, managed, deletes: gone.length, cap, overCap });
  }
  return { sheets: out, notManaged, entries };
}
