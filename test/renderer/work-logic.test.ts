/**
 * Logic of the Import, Jobs and LCA screens that is not layout: formatting of durations, rates and ETA,
 * the tone of actions and outcomes, the page cache of the virtual tables, grouping and filtering of the
 * workbook's issues, the dry run's count table, the chart model (gaps stay gaps) and the blockers list (the messages of every
 * list of names: names.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { LcaChartView, LcaInstanceView, WorkbookIssueView } from '../../core/ipc/contract.js';
import { engineDetail } from '../../renderer/src/components/JobResults.js';
import {
  actionTone,
  etaSeconds,
  formatCompact,
  formatDuration,
  formatRate,
  formatValue,
  nameParts,
  outcomeTone,
  percent,
  safeKeyText,
} from '../../renderer/src/components/format.js';
import { PageCache } from '../../renderer/src/components/pageCache.js';
import { translate } from '../../renderer/src/i18n/index.js';
import type { T } from '../../renderer/src/i18n/index.js';
import { cellColumn, filterIssues, groupIssues, issueSheets } from '../../renderer/src/screens/import/issues.js';
import {
  actionColumns,
  countRows,
  outcomeColumns,
  rowsText,
  runReadiness,
} from '../../renderer/src/screens/import/planView.js';
import {
  blockerLines,
  chartModel,
  chartText,
  everyYear,
  quantityLabel,
  yearCounts,
} from '../../renderer/src/screens/lca/chartData.js';

describe('formatting', () => {
  it('splits a file or sheet name after its separators, where it may wrap, and nowhere else', () => {
    expect(nameParts('Lieferanten_2026-02.csv')).toEqual(['Lieferanten_', '2026-', '02.', 'csv']);
    expect(nameParts('supplier-companies')).toEqual(['supplier-', 'companies']);
    expect(nameParts('Materialnummer')).toEqual(['Materialnummer']);
    expect(nameParts('a-').join('')).toBe('a-');
  });

  it('says durations as people do, without flicker', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(44.6)).toBe('45 s');
    expect(formatDuration(61)).toBe('1 min');
    expect(formatDuration(203)).toBe('3 min 25 s');
    expect(formatDuration(599)).toBe('10 min');
    expect(formatDuration(3 * 3600 + 5 * 60)).toBe('3 h 05 min');
    expect(formatDuration(Number.NaN)).toBe('—');
    expect(formatDuration(-1)).toBe('—');
  });

  it('estimates the time left from the rate, or takes the engine’s estimate', () => {
    expect(etaSeconds(0, 100, 0, null)).toBeNull(); // nothing known yet
    expect(etaSeconds(10, 100, 0, null)).toBeNull();
    expect(etaSeconds(20, 100, 4, null)).toBe(20);
    expect(etaSeconds(20, 100, 4, 33)).toBe(33);
    expect(etaSeconds(100, 100, 0, null)).toBe(0);
    expect(etaSeconds(20, 100, 4, Number.POSITIVE_INFINITY)).toBe(20);
  });

  it('formats rates, percentages, values and masked keys', () => {
    expect(formatRate(0, 'en')).toBe('—');
    expect(formatRate(3.456, 'en')).toBe('3.5');
    expect(formatRate(1234.4, 'de')).toBe('1.234');
    expect(percent(0, 0)).toBe(0);
    expect(percent(5, 0)).toBe(100);
    expect(percent(1, 3)).toBe(33);
    expect(percent(7, 5)).toBe(100);
    expect(formatValue(null, 'en')).toBe('—');
    expect(formatValue('', 'en')).toBe('—');
    expect(formatValue(1200.5, 'de')).toBe('1.200,5');
    expect(formatValue(1200.5, 'en')).toBe('1,200.5');
    expect(safeKeyText('svc-abc123-****')).toBe('svc-abc123-****');
    expect(safeKeyText('svc-abc123-realsecret')).toBe('—');
    expect(formatCompact(329_029_826, 'en')).toBe('329M');
  });

  it('gives actions and outcomes a tone; a create-only skip is the user’s choice, not a problem', () => {
    expect(actionTone('create')).toBe('ok');
    expect(actionTone('blocked')).toBe('bad');
    expect(actionTone('whatever')).toBe('neutral');
    expect(outcomeTone('failed')).toBe('bad');
    expect(outcomeTone('skipped', 'dependency')).toBe('warn');
    expect(outcomeTone('skipped', 'create_only')).toBe('neutral');
  });

  it('drops the engine’s lead from a skip detail (the sentence above says it)', () => {
    expect(engineDetail('not sent: supplier product SP-1 (supplier-products row 5) failed')).toBe(
      'supplier product SP-1 (supplier-products row 5) failed',
    );
    expect(engineDetail('blocked: unit is wrong')).toBe('unit is wrong');
    expect(engineDetail('something else')).toBe('something else');
  });
});

describe('page cache of the virtual tables', () => {
  it('asks only for the pages a visible range needs, once', () => {
    const c = new PageCache<number>(100);
    expect(c.missing(0, 30)).toEqual([0]);
    c.markPending(0);
    expect(c.missing(0, 30)).toEqual([]); // asked for already
    c.put(
      0,
      Array.from({ length: 100 }, (_, i) => i),
      100_000,
    );
    expect(c.get(42)).toBe(42);
    expect(c.get(142)).toBeUndefined();
    expect(c.missing(95, 310)).toEqual([1, 2, 3]);
    expect(c.missing(99_950, 100_500)).toEqual([999]); // clamped to the total
    c.markPending(1);
    c.fail(1);
    expect(c.missing(150, 160)).toEqual([1]); // a failed page is asked for again
    expect(c.missing(10, 5)).toEqual([]);
    expect(() => new PageCache(0)).toThrow();
  });
});

const issue = (over: Partial<WorkbookIssueView>): WorkbookIssueView => ({
  severity: 'error',
  code: 'required',
  sheet: 'supplier-products',
  cell: 'B2',
  row: 2,
  field: 'name',
  message: 'name is required',
  ...over,
});

describe('workbook issues: filter and group', () => {
  const issues = [
    issue({
      severity: 'warning',
      code: 'date_as_year',
      sheet: 'silo-items',
      cell: 'C4',
      row: 4,
      field: 'year',
      message: 'a date read as its year',
    }),
    issue({ cell: 'AA3', row: 3, field: 'unit', code: 'not_allowed', message: 'unit BARRELS' }),
    issue({}),
    issue({
      sheet: null,
      cell: null,
      row: null,
      field: null,
      code: 'hidden_sheet',
      severity: 'warning',
      message: 'a hidden sheet',
    }),
    issue({ cell: 'C3', row: 3, field: 'plant_code' }),
  ];

  it('filters by severity, sheet (or the file itself) and words', () => {
    expect(filterIssues(issues, { severity: 'error', sheet: '', search: '' })).toHaveLength(3);
    expect(filterIssues(issues, { severity: 'all', sheet: 'silo-items', search: '' })).toHaveLength(1);
    expect(filterIssues(issues, { severity: 'all', sheet: '(file)', search: '' })[0].code).toBe('hidden_sheet');
    expect(filterIssues(issues, { severity: 'all', sheet: '', search: 'barrels' })).toHaveLength(1);
    expect(filterIssues(issues, { severity: 'all', sheet: '', search: 'aa3' })).toHaveLength(1);
    expect(issueSheets(issues)).toEqual(['silo-items', 'supplier-products', '(file)']);
  });

  it('groups with counts; errors first, then by row and column (AA after C)', () => {
    const lines = groupIssues(issues, 'sheet');
    expect(
      lines.filter((l) => l.kind === 'group').map((l) => l.kind === 'group' && [l.label, l.errors, l.warnings]),
    ).toEqual([
      ['silo-items', 0, 1],
      ['supplier-products', 3, 0],
      ['(file)', 0, 1],
    ]);
    const sp = lines.slice(3, 6).map((l) => (l.kind === 'issue' ? l.issue.cell : null));
    expect(sp).toEqual(['B2', 'C3', 'AA3']);
    const byField = groupIssues(issues, 'field').filter((l) => l.kind === 'group');
    expect(byField.map((l) => l.kind === 'group' && l.label)).toEqual(['year', 'unit', 'name', '—', 'plant_code']);
    expect(cellColumn('C7')).toBe(3);
    expect(cellColumn('AA2')).toBe(27);
    expect(cellColumn(null)).toBe(0);
  });
});

describe('dry run and results tables', () => {
  it('shows the five core action columns always, the others only when they occur', () => {
    expect(actionColumns({ create: 2 })).toEqual(['create', 'update', 'unchanged', 'replace', 'blocked']);
    expect(actionColumns({ conflict: 1, skipped_update: 0 })).toEqual([
      'create',
      'update',
      'unchanged',
      'replace',
      'blocked',
      'conflict',
    ]);
    expect(outcomeColumns({ failed: 1 }, { created: 3, pending: 0 })).toEqual(['created', 'failed']);
  });

  it('orders sheets as the onboarding does and totals every column', () => {
    const t = countRows({
      bom: { replace: 2 },
      'supplier-companies': { create: 2, unchanged: 1 },
      'x-unknown': { create: 1 },
      silos: {},
    });
    expect(t.rows.map((r) => r.sheet)).toEqual(['supplier-companies', 'bom', 'x-unknown']);
    expect(t.totals).toEqual({ create: 3, unchanged: 1, replace: 2 });
    expect(t.total).toBe(6);
  });

  it('runs only when something is to be sent, and blocked rows need a confirmation', () => {
    expect(runReadiness({ writes: 0, blocked: 0 }, false)).toBe('nothing');
    expect(runReadiness({ writes: 3, blocked: 2 }, false)).toBe('confirm_blocked');
    expect(runReadiness({ writes: 3, blocked: 2 }, true)).toBe('ready');
    expect(runReadiness({ writes: 3, blocked: 0 }, false)).toBe('ready');
  });

  it('says worksheet rows shortly', () => {
    expect(rowsText([{ row: 7 }], 0)).toBe('7');
    expect(rowsText([{ row: 2 }, { row: 3 }, { row: 4 }], 0)).toBe('2–4');
    expect(rowsText([{ row: 2 }, { row: 5 }], 0)).toBe('2, 5');
    expect(rowsText([{ row: 2 }, { row: 3 }], 4)).toBe('2, 3 (+4)');
    expect(rowsText([], 0)).toBe('');
  });
});

describe('LCA chart and blockers', () => {
  const chart: LcaChartView = {
    unit: 'kg CO2 eq.',
    years: [2023, 2024, 2025],
    modules: ['A1-A3'],
    series: [
      {
        instanceId: 'a',
        externalId: 'PI-1',
        label: 'PI-1',
        points: [
          { year: 2023, value: 10, partial: false, status: 'computed' },
          { year: 2024, value: null, partial: false, status: 'blocked' },
          { year: 2025, value: 5, partial: true, status: 'computed' },
        ],
      },
      {
        instanceId: 'b',
        externalId: 'PI-2',
        label: 'PI-2',
        points: [{ year: 2024, value: 0, partial: false, status: 'computed' }],
      },
    ],
  };

  it('keeps a year without a value as a gap (null), never 0, and marks the partial year', () => {
    const m = chartModel(chart);
    expect(m.rows).toEqual([
      { year: 2023, s0: 10, s1: null },
      { year: 2024, s0: null, s1: 0 },
      { year: 2025, s0: 5, s1: null },
    ]);
    expect(m.partialYear).toBe(2025);
    expect(m.hasValues).toBe(true);
    expect(m.series.map((s) => s.colour)).toHaveLength(2);
    expect(new Set(m.series.map((s) => s.colour)).size).toBe(2);
    expect(
      chartModel({
        ...chart,
        series: [{ ...chart.series[0], points: chart.series[0].points.map((p) => ({ ...p, value: null })) }],
      }).hasValues,
    ).toBe(false);
  });

  it('has a row and an axis tick for every year from the first to the last, evenly spaced', () => {
    const m = chartModel({ ...chart, years: [2025, 2021, 2023] });
    expect(m.years).toEqual([2021, 2022, 2023, 2024, 2025]);
    expect(m.rows.map((r) => r.year)).toEqual([2021, 2022, 2023, 2024, 2025]);
    expect(m.rows[1]).toEqual({ year: 2022, s0: null, s1: null }); // a year nobody has a value for: a gap
    expect(everyYear([])).toEqual([]);
  });

  it('titles and captions the chart with the indicator and modules it shows', () => {
    const t: T = (k, v) => translate('en', k, v);
    const odp = chartText({ indicator: 'ODP', indicatorName: 'Ozone depletion', modules: 'A1-A3', unit: 'kg' }, t);
    expect(odp.title).toBe('ODP (A1-A3) per year');
    expect(odp.caption).toContain('Ozone depletion (ODP), modules A1-A3');
    expect(`${odp.title} ${odp.caption}`).not.toContain('GWP');
    const de = chartText(
      { indicator: 'GWP-total', indicatorName: null, modules: 'A1-A4', unit: 'kg CO2 eq.' },
      (k, v) => translate('de', k, v),
    );
    expect(de.title).toBe('GWP-total (A1-A4) je Jahr');
  });

  const inst = (code: string, years: LcaInstanceView['years']): LcaInstanceView => ({
    id: code,
    externalId: code,
    name: null,
    plantCode: null,
    productArticle: null,
    productName: null,
    declaredUnit: code === 'PI-1' ? 'm³' : null,
    producedFrom: 2023,
    producedTo: null,
    state: 'done',
    outcome: 'completed',
    jobStatus: 'completed',
    errCode: null,
    msg: null,
    recomputed: true,
    waitedForRunningJob: false,
    years,
  });
  const blk = (needsAction: boolean) => ({
    type: 'missing_input',
    kind: 'production_data',
    code: null,
    errCode: null,
    msg: null,
    needsAction,
  });

  it('lists the blockers that need the user first, and counts computed and blocked years', () => {
    const list = blockerLines([
      inst('PI-2', [{ year: 2030, status: 'blocked', partial: false, gwp: null, blockers: [blk(false)] }]),
      inst('PI-1', [
        { year: 2024, status: 'computed', partial: false, gwp: 12, blockers: [] },
        { year: 2026, status: 'blocked', partial: true, gwp: null, blockers: [blk(true)] },
      ]),
    ]);
    expect(list.map((b) => [b.instance, b.year, b.needsAction])).toEqual([
      ['PI-1', 2026, true],
      ['PI-2', 2030, false],
    ]);
    // the production input names the product's declared unit; "the product's unit" only when it is not known
    const tEn: T = (k, v) => translate('en', k, v);
    const tDe: T = (k, v) => translate('de', k, v);
    expect(list.map((b) => b.declaredUnit)).toEqual(['m³', null]);
    expect(quantityLabel(list[0], tEn)).toBe('Production quantity 2026 (m³)');
    expect(quantityLabel(list[0], tDe)).toBe('Produktionsmenge 2026 (m³)');
    expect(quantityLabel({ year: 2026, declaredUnit: 'unit' }, tDe)).toBe('Produktionsmenge 2026 (Stück)');
    expect(quantityLabel({ year: 2026, declaredUnit: 't' }, tEn)).toBe('Production quantity 2026 (t)');
    expect(quantityLabel(list[1], tEn)).toBe('Production quantity 2030 (in the product’s unit)');
    const yc = yearCounts(
      inst('PI-1', [
        { year: 2024, status: 'computed', partial: false, gwp: 12, blockers: [] },
        { year: 2025, status: 'computed', partial: false, gwp: 13, blockers: [] },
        { year: 2026, status: 'blocked', partial: true, gwp: null, blockers: [] },
      ]),
    );
    expect(yc).toEqual({ computed: 2, blocked: 1, latest: { year: 2025, gwp: 13, partial: false } });
  });
});
