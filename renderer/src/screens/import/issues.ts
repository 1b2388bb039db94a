/**
 * The validation screen's logic: filter the workbook's issues (severity, sheet, text) and group them (by sheet,
 * by field, or by kind) into one flat list of group headers and issues that a virtual list can render.
 */
import type { WorkbookIssueView } from '../../../../core/ipc/contract.js';
import { columnNumber } from '../../../../core/workbook/cell-ref.js';

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
  | { kind: 'issue'; key: string; issue: WorkbookIssueView };

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
    for (const issue of sorted) out.push({ kind: 'issue', key: `i:${n++}`, issue });
  }
  return out;
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
