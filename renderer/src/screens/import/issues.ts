/**
 * The validation screen's logic: filter the workbook's issues (severity, sheet, text) and group them (by sheet,
 * by field, or by kind) into one flat list of group headers and issues that a virtual list can render.
 */
import type { WorkbookIssueView } from '../../../../core/ipc/contract.js';
import { columnNumber } from '../../../../core/workbook/cell-ref.js';
import type { T } from '../../i18n/index.js';

export const ISSUE_GROUPINGS = ['sheet', 'field', 'code'] as const;
export type IssueGroupBy = (typeof ISSUE_GROUPINGS)[number];
export const SEVERITY_FILTERS = ['all', 'error', 'warning'] as const;
export type SeverityFilter = (typeof SEVERITY_FILTERS)[number];

export interface IssueFilter {
  severity: SeverityFilter;
  /** '' = every sheet; '(file)' = issues of the file itself */
  sheet: string;
  search: string;
}

export const FILE_LEVEL = '(file)';

/** `text`: the issue's text as shown (in the user's language); the search looks in it and in the English message. */
export function filterIssues(
  issues: readonly WorkbookIssueView[],
  f: IssueFilter,
  text?: (i: WorkbookIssueView) => string,
): WorkbookIssueView[] {
  const q = f.search.trim().toLowerCase();
  return issues.filter((i) => {
    if (f.severity !== 'all' && i.severity !== f.severity) return false;
    if (f.sheet !== '' && (i.sheet ?? FILE_LEVEL) !== f.sheet) return false;
    if (
      q &&
      !`${i.sheet ?? ''} ${i.cell ?? ''} ${i.field ?? ''} ${i.code} ${i.message} ${text?.(i) ?? ''}`
        .toLowerCase()
        .includes(q)
    )
      return false;
    return true;
  });
}

export type IssueLine =
  | { kind: 'group'; key: string; label: string; errors: number; warnings: number }
  /** `alsoAt`: the other places of the same warning (one line: the warning, then the rows it concerns) */
  | { kind: 'issue'; key: string; issue: WorkbookIssueView; alsoAt?: { cell: string | null; row: number | null }[] };

function groupKey(i: WorkbookIssueView, by: IssueGroupBy): string {
  if (by === 'sheet') return i.sheet ?? FILE_LEVEL;
  if (by === 'field') return i.field ?? '—';
  return i.code;
}

/** Errors before warnings within a group, then by row and cell; groups in the order their first issue comes. */
export function groupIssues(issues: readonly WorkbookIssueView[], by: IssueGroupBy): IssueLine[] {
  const groups = new Map<string, WorkbookIssueView[]>();
  for (const i of issues) {
    const k = groupKey(i, by);
    const g = groups.get(k);
    if (g) g.push(i);
    else groups.set(k, [i]);
  }
  const out: IssueLine[] = [];
  let n = 0;
  for (const [k, list] of groups) {
    const errors = list.filter((i) => i.severity === 'error').length;
    out.push({ kind: 'group', key: `g:${k}`, label: k, errors, warnings: list.length - errors });
    const sorted = [...list].sort(
      (a, b) =>
        (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
        (a.sheet ?? '').localeCompare(b.sheet ?? '') ||
        (a.row ?? 0) - (b.row ?? 0) ||
        cellColumn(a.cell) - cellColumn(b.cell),
    );
    // one line per warning, however many rows it concerns: the same warning at other places joins the first
    const same = new Map<string, Extract<IssueLine, { kind: 'issue' }>>();
    for (const issue of sorted) {
      const k = issue.severity === 'warning' ? sameWarningKey(issue) : null;
      const first = k === null ? undefined : same.get(k);
      if (first) (first.alsoAt ??= []).push({ cell: issue.cell, row: issue.row });
      else {
        const line: Extract<IssueLine, { kind: 'issue' }> = { kind: 'issue', key: `i:${n++}`, issue };
        if (k !== null) same.set(k, line);
        out.push(line);
      }
    }
  }
  return out;
}

/** What makes two warnings the same warning: all but the place (cell, row) they are at. */
function sameWarningKey(i: WorkbookIssueView): string {
  return JSON.stringify([i.code, i.sheet, i.field, i.params ?? null, i.row === null ? i.message : null]);
}

/** Column number of an A1 address ("C7" → 3, "AA2" → 27); 0 without one. */
export function cellColumn(cell: string | null): number {
  const m = /^([A-Z]+)\d+$/.exec(cell ?? '');
  return m ? columnNumber(m[1]) : 0;
}

/** Sheets that have issues, for the sheet filter (in the order they come). */
export function issueSheets(issues: readonly WorkbookIssueView[]): string[] {
  return [...new Set(issues.map((i) => i.sheet ?? FILE_LEVEL))];
}

/** The places of a repeated warning in words: its cells (or rows), the first ten, then "…". */
export function placesText(places: readonly { cell: string | null; row: number | null }[], t: T): string {
  const shown = places
    .slice(0, 10)
    .map((p) => p.cell ?? (p.row !== null ? t('plan.rowN', { row: p.row }) : '—'))
    .join(', ');
  return places.length > 10 ? `${shown}, …` : shown;
}
