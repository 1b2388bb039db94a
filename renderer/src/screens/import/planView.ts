/**
 * Logic of the dry run and results views that is not layout: which count columns to show, the per-sheet
 * count table in onboarding order with totals, the filter a click on a count sets, the choices of the action
 * filter (everything that writes: deletes too) and which sheets the mirror box offers (or why none).
 */
import type { MirrorSheet, PlanOverview } from '../../../../core/ipc/contract.js';
import type { T } from '../../i18n/index.js';
import { DATA_SHEET_NAMES, ENTITY_SHEET_NAMES } from '../../../../core/workbook/types.js';
import { PLAN_WRITE_ACTIONS, type JobRowOutcome, type PlanAction } from '../../../../core/names.js';

/** Onboarding order of the data sheets: the workbook registry's own list. */
export const SHEET_ORDER = DATA_SHEET_NAMES;

/** Always shown (create / update / unchanged / blocked / BOM replace); the others when they occur. */
const CORE_ACTIONS = ['create', 'update', 'unchanged', 'replace', 'blocked'] as const satisfies readonly PlanAction[];
const OTHER_ACTIONS = ['skipped_update', 'conflict', 'delete'] as const satisfies readonly PlanAction[];
export type ActionColumn = (typeof CORE_ACTIONS)[number] | (typeof OTHER_ACTIONS)[number];

export function actionColumns(byAction: Record<string, number>): ActionColumn[] {
  return [...CORE_ACTIONS, ...OTHER_ACTIONS.filter((a) => (byAction[a] ?? 0) > 0)];
}

export const OUTCOME_ORDER = [
  'created',
  'updated',
  'replaced',
  'deleted',
  'already_absent',
  'unchanged',
  'already_existed',
  'replayed',
  'failed',
  'skipped',
  'pending',
] as const satisfies readonly JobRowOutcome[];
export type OutcomeColumn = (typeof OUTCOME_ORDER)[number];

/** Outcome columns that occur in any of the count maps, in a fixed order. */
export function outcomeColumns(...counts: Record<string, number>[]): OutcomeColumn[] {
  return OUTCOME_ORDER.filter((o) => counts.some((c) => (c[o] ?? 0) > 0));
}

export interface CountRow {
  sheet: string;
  counts: Record<string, number>;
  total: number;
}

function sheetRank(s: string): number {
  const i = (SHEET_ORDER as readonly string[]).indexOf(s);
  return i < 0 ? SHEET_ORDER.length : i;
}

/** Rows of a per-sheet count table in onboarding order, and the totals row. */
export function countRows(bySheet: Record<string, Record<string, number>>): {
  rows: CountRow[];
  totals: Record<string, number>;
  total: number;
} {
  const rows = Object.entries(bySheet)
    .map(([sheet, counts]) => ({ sheet, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) }))
    .filter((r) => r.total > 0)
    .sort((a, b) => sheetRank(a.sheet) - sheetRank(b.sheet) || a.sheet.localeCompare(b.sheet));
  const totals: Record<string, number> = {};
  for (const r of rows) for (const [k, v] of Object.entries(r.counts)) totals[k] = (totals[k] ?? 0) + v;
  return { rows, totals, total: rows.reduce((a, r) => a + r.total, 0) };
}

/**
 * The totals a job's result shows beside its outcome chips and its table of rows per sheet, taken from them so the
 * numbers on the screen add up: the worksheet rows are the table's total, the entities the chips' sum.
 */
export function resultTotals(
  counts: Readonly<Record<string, number>>,
  table: { total: number },
): { rows: number; entities: number } {
  return { rows: table.total, entities: Object.values(counts).reduce((a, b) => a + b, 0) };
}

/** What the Run button may do: nothing to send, needs a confirmation for blocked rows, or ready. */
export function runReadiness(
  ov: Pick<PlanOverview, 'writes' | 'blocked'>,
  skipBlocked: boolean,
): 'nothing' | 'confirm_blocked' | 'ready' {
  if (ov.writes === 0) return 'nothing';
  if (ov.blocked > 0 && !skipBlocked) return 'confirm_blocked';
  return 'ready';
}

/** Worksheet rows of an entry in words: "row 7", "rows 2–4", "rows 2, 5, 9 and 3 more". */
export function rowsText(rows: readonly { row: number }[], more: number): string {
  if (rows.length === 0) return '';
  const nums = rows.map((r) => r.row);
  const contiguous = nums.every((n, i) => i === 0 || n === nums[i - 1] + 1);
  let text: string;
  if (nums.length === 1) text = `${nums[0]}`;
  else if (contiguous && more === 0) text = `${nums[0]}–${nums[nums.length - 1]}`;
  else text = nums.slice(0, 6).join(', ') + (nums.length > 6 ? ` …` : '');
  return more > 0 ? `${text} (+${more})` : text;
}

/** "row 7" / "rows 2–4" in the user's language. */
export function rowLabel(t: T, rows: readonly { row: number }[], more: number): string {
  const text = rowsText(rows, more);
  return rows.length + more > 1 ? t('plan.rowsN', { rows: text }) : t('plan.rowN', { row: text });
}

/** The entries "everything that writes" lets through, counted from the dry run's actions (deletes too). */
export function writesCount(byAction: Record<string, number>): number {
  return PLAN_WRITE_ACTIONS.reduce((n, a) => n + (byAction[a] ?? 0), 0);
}

/** The action filter's choices: everything, everything that writes (when anything does), then each column. */
export function actionFilterChoices(byAction: Record<string, number>): ('' | 'writes' | ActionColumn)[] {
  return ['', ...(writesCount(byAction) > 0 ? (['writes'] as const) : []), ...actionColumns(byAction)];
}

/**
 * The sheets the mirror box offers: the entity sheets the workbook has (and those mirrored already); none, with
 * the reason, for a re-run of failed rows (it sends only those rows) or a workbook without an entity sheet.
 */
export function mirrorChoices(
  ov: Pick<PlanOverview, 'summary' | 'onlyFailedOf'>,
  mirror: readonly MirrorSheet[],
): { sheets: MirrorSheet[]; none: null | 'only_failed' | 'no_entity_sheet' } {
  if (ov.onlyFailedOf) return { sheets: [], none: 'only_failed' };
  const sheets = ENTITY_SHEET_NAMES.filter((s) => ov.summary.bySheet[s] !== undefined || mirror.includes(s));
  return { sheets, none: sheets.length ? null : 'no_entity_sheet' };
}
