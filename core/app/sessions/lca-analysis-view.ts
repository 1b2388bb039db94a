/**
 * The analysis of a finished LCA run as the LCA screen shows it (the contract's LcaAnalysisView): any indicator,
 * per declared unit or totals, the hotspots of one instance and year, and the trend (plain data).
 */
import {
  hotspotRows,
  hotspotSlices,
  indicatorsOf,
  lcaChartData,
  moduleSelectionsOf,
  topContributors,
  trendRows,
} from '../../lca/analysis.js';
import { indicatorInfo, type ModuleSelection } from '../../lca/indicators.js';
import { readResults, type LcaReport } from '../../lca/model.js';
import type { LcaAnalysisView } from '../../contract/index.js';

/** What the screen asks for; anything left out (or not in the run) falls back to the run's first choice. */
export interface AnalysisQuery {
  indicator?: string;
  modules?: ModuleSelection;
  basis?: 'per_unit' | 'total';
  declaredUnit?: string | null;
  instanceId?: string;
  year?: number;
}

export function analysisView(report: LcaReport, q: AnalysisQuery): LcaAnalysisView {
  const codes = indicatorsOf(report);
  const selections = moduleSelectionsOf(report);
  const indicator = q.indicator && codes.includes(q.indicator) ? q.indicator : (codes[0] ?? 'GWP-total');
  const modules: ModuleSelection =
    q.modules && selections.includes(q.modules) ? q.modules : selections.includes('A1-A4') ? 'A1-A4' : 'A1-A3';
  const basis = q.basis ?? 'per_unit';
  const chart = lcaChartData(report, { indicator, modules, basis, declaredUnit: q.declaredUnit });
  const rows = hotspotRows(report);
  const choices: { instanceId: string; year: number; partial: boolean }[] = [];
  for (const i of report.instances)
    for (const y of readResults(i.results))
      if (y.status === 'computed' && y.year !== null)
        choices.push({ instanceId: i.instance.id, year: y.year, partial: y.partial_year === true });
  const latestOf = (id: string) =>
    choices.filter((c) => c.instanceId === id && !c.partial).at(-1) ??
    choices.filter((c) => c.instanceId === id).at(-1);
  const chosen =
    choices.find((c) => c.instanceId === q.instanceId && c.year === q.year) ??
    (q.instanceId ? latestOf(q.instanceId) : undefined) ??
    (choices[0] ? latestOf(choices[0].instanceId) : undefined);
  const ctx = report.breakdown_context;
  const wanted = new Set<string>(modules === 'A1-A4' ? ['A1-A3', 'A4'] : [modules]);
  const hot = chosen && ctx?.readable ? { instanceId: chosen.instanceId, year: chosen.year } : null;
  const slices = hot ? hotspotSlices(rows, { ...hot, indicator, modules, top: 10 }) : [];
  const table = hot
    ? rows
        .filter(
          (r) =>
            r.instanceId === hot.instanceId &&
            r.year === hot.year &&
            r.indicator === indicator &&
            wanted.has(r.module ?? ''),
        )
        .sort((a, b) => Math.abs(b.value) - Math.abs(a.value))
    : [];
  const top = hot ? topContributors(rows, { indicator, modules, year: hot.year, top: 10 }) : [];
  return {
    indicators: codes.map((c) => {
      const info = indicatorInfo(c);
      return { code: c, unit: info?.unit ?? null };
    }),
    moduleSelections: selections,
    indicator,
    modules,
    basis,
    chart: {
      unit: chart.unit,
      declaredUnit: chart.declaredUnit,
      declaredUnits: chart.declaredUnits,
      hidden: chart.hidden,
      years: chart.years,
      series: chart.series.map((s) => ({
        instanceId: s.instanceId,
        label: s.label,
        plantCode: s.plantCode,
        productArticle: s.productArticle,
        declaredUnit: s.declaredUnit,
        points: s.points.map((p) => ({
          year: p.year,
          value: p.value,
          partial: p.partial,
          status: p.status,
          note: p.note,
        })),
      })),
    },
    hotspots: {
      readable: ctx?.readable ?? false,
      reason: ctx?.readable ? null : (ctx?.reason ?? null),
      instanceId: chosen?.instanceId ?? null,
      year: chosen?.year ?? null,
      choices,
      slices: slices.map((x) => ({ label: x.label, value: x.value, share: x.share, rest: x.component === null })),
      rows: table.map((r) => ({
        component: r.component,
        module: r.module,
        value: r.value,
        perDeclaredUnit: r.perDeclaredUnit,
        share: r.share,
      })),
      top: top.map((t) => ({ label: t.label, value: t.value, instances: t.instances })),
    },
    trend: trendRows(report)
      .filter((t) => t.indicator === indicator && t.modules === modules)
      .map((t) => ({
        instanceId: t.instanceId,
        year: t.year,
        partial: t.partial,
        value: t.value,
        perDeclaredUnit: t.perDeclaredUnit,
        previousYear: t.previousYear,
        previousPartial: t.previousPartial,
        changeAbs: t.changeAbs,
        changePct: t.changePct,
        changePerUnitAbs: t.changePerUnitAbs,
        changePerUnitPct: t.changePerUnitPct,
      })),
  };
}
