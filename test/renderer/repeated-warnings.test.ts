/** The same warning at many rows is one line of the check: the warning, then the places it concerns. */
import { describe, expect, it } from 'vitest';
import type { WorkbookIssueView } from '../../core/ipc/contract.js';
import { translate, type MessageKey } from '../../renderer/src/i18n/index.js';
import { groupIssues, placesText } from '../../renderer/src/screens/import/issues.js';

const t = (key: MessageKey, vars?: Record<string, string | number>) => translate('en', key, vars);
const warning = (row: number, params: Record<string, string | number> = { year: 2024 }): WorkbookIssueView => ({
  severity: 'warning',
  code: 'date_as_year',
  sheet: 'product-instances',
  cell: `D${row}`,
  row,
  field: 'produced_from',
  message: 'produced_from: …',
  params,
});

describe('repeated warnings', () => {
  it('one line per warning, with the other rows it concerns', () => {
    const lines = groupIssues([warning(2), warning(3), warning(4), warning(5, { year: 2025 })], 'code');
    const issues = lines.filter((l) => l.kind === 'issue');
    expect(issues).toHaveLength(2);
    expect(issues[0]).toMatchObject({ issue: { cell: 'D2' }, alsoAt: [{ cell: 'D3' }, { cell: 'D4' }] });
    expect(issues[1].alsoAt).toBeUndefined();
    // the group still counts every warning
    expect(lines[0]).toMatchObject({ kind: 'group', warnings: 4 });
  });

  it('errors stay one line each (each is to be fixed at its cell)', () => {
    const errors = [warning(2), warning(3)].map((i) => ({ ...i, severity: 'error' as const }));
    expect(groupIssues(errors, 'code').filter((l) => l.kind === 'issue')).toHaveLength(2);
  });

  it('the places in words, the first ten', () => {
    const places = Array.from({ length: 12 }, (_, i) => ({ cell: `D${i + 3}`, row: i + 3 }));
    expect(placesText(places.slice(0, 2), t)).toBe('D3, D4');
    expect(placesText(places, t)).toMatch(/^D3, D4, .*, D12, …$/);
    expect(placesText([{ cell: null, row: 7 }], t)).toBe(translate('en', 'plan.rowN', { row: 7 }));
    expect(translate('en', 'check.alsoAt', { count: 2, places: 'D3, D4' })).toBe('Also at 2 more places: D3, D4');
  });
});
