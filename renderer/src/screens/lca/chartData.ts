/**
 * The GWP chart's data for recharts: one row per year, one column per instance; a year an instance has no
 * value for (blocked, not computed) stays null so the line shows a gap, never a 0. Plus the blockers of a run
 * in a list that says who must act.
 */
import type { LcaChartView, LcaInstanceView } from '../../../../core/ipc/contract.js';
import type { T } from '../../i18n/index.js';

/** Colours that read on light and dark backgrounds, distinct for the first ten lines. */
export const SERIES_COLOURS = [
  '#2f7ed8',
  '#e8743b',
  '#19a979',
  '#945ecf',
  '#d64550',
  '#13a4b4',
  '#b8860b',
  '#7a8b99',
  '#c2185b',
  '#5b8c00',
];

export interface ChartSeries {
  dataKey: string;
  name: string;
  colour: string;
  instanceId: string;
}

export interface ChartModel {
  /** one row per year from the first to the last, each year once (a year nobody has a value for is a gap) */
  rows: Record<string, number | null>[];
  /** the x-axis ticks: every year of `rows`, so the axis shows each year at even spacing */
  years: number[];
  series: ChartSeries[];
  /** the current (partial) year, when any series has one */
  partialYear: number | null;
  /** at least one value to draw */
  hasValues: boolean;
}

export function chartModel(chart: LcaChartView): ChartModel {
  const series = chart.series.map((s, i) => ({
    dataKey: `s${i}`,
    name: s.label,
    colour: SERIES_COLOURS[i % SERIES_COLOURS.length],
    instanceId: s.instanceId,
  }));
  let partialYear: number | null = null;
  let hasValues = false;
  const years = everyYear(chart.years);
  const rows = years.map((year) => {
    const row: Record<string, number | null> = { year };
    chart.series.forEach((s, i) => {
      const p = s.points.find((x) => x.year === year);
      row[`s${i}`] = p?.value ?? null;
      if (p?.value !== null && p?.value !== undefined) hasValues = true;
      if (p?.partial) partialYear = year;
    });
    return row;
  });
  return { rows, years, series, partialYear, hasValues };
}

/** Every year from the first to the last of `years` (sorted, once each). */
export function everyYear(years: readonly number[]): number[] {
  const known = years.filter((y) => Number.isInteger(y));
  if (known.length === 0) return [];
  const first = Math.min(...known);
  const last = Math.max(...known);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** What a chart of the results shows, as its title and caption say it. */
export interface ChartSubject {
  /** the indicator's code (GWP-total, ODP …) */
  indicator: string;
  /** its name in the user's language, when known */
  indicatorName: string | null;
  /** the modules summed (A1-A3, A4, A1-A4) */
  modules: string;
  /** the axis unit as shown ("kg CFC-11 eq. per t") */
  unit: string;
}

/** The chart's title and caption for the indicator and modules it shows (never GWP-total's for another). */
export function chartText(s: ChartSubject, t: T): { title: string; caption: string } {
  const vars = { indicator: s.indicator, modules: s.modules, unit: s.unit, name: s.indicatorName ?? s.indicator };
  return { title: t('lca.chartOfTitle', vars), caption: t('lca.chartOfCaption', vars) };
}

export interface BlockerLine {
  instance: string;
  instanceId: string;
  /** the product's declared unit (t, m³, unit), in which its production quantity is given; null when not known */
  declaredUnit: string | null;
  year: number | null;
  kind: string | null;
  type: string | null;
  errCode: string | null;
  msg: string | null;
  needsAction: boolean;
}

/** Every blocker of every instance: those that need the user first (past and current years), then future years. */
export function blockerLines(instances: readonly LcaInstanceView[]): BlockerLine[] {
  const out: BlockerLine[] = [];
  for (const i of instances) {
    for (const y of i.years) {
      for (const b of y.blockers) {
        out.push({
          instance: i.externalId ?? i.id,
          instanceId: i.id,
          declaredUnit: i.declaredUnit,
          year: y.year,
          kind: b.kind,
          type: b.type,
          errCode: b.errCode,
          msg: b.msg,
          needsAction: b.needsAction,
        });
      }
    }
  }
  return out.sort(
    (a, b) =>
      Number(b.needsAction) - Number(a.needsAction) ||
      a.instance.localeCompare(b.instance) ||
      (a.year ?? 0) - (b.year ?? 0),
  );
}

export function yearCounts(i: LcaInstanceView): {
  computed: number;
  blocked: number;
  latest: { year: number; gwp: number; partial: boolean } | null;
} {
  let computed = 0;
  let blocked = 0;
  let latest: { year: number; gwp: number; partial: boolean } | null = null;
  for (const y of i.years) {
    if (y.gwp !== null) {
      computed++;
      if (y.year !== null && (latest === null || y.year > latest.year))
        latest = { year: y.year, gwp: y.gwp, partial: y.partial };
    } else blocked++;
  }
  return { computed, blocked, latest };
}

/**
 * The label of a blocker's production input: it names the unit the quantity is in, the product's declared unit
 * ("t", "m³"; the service's UNIT counts pieces), or says "the product's unit" when the product is not readable.
 */
export function quantityLabel(line: Pick<BlockerLine, 'year' | 'declaredUnit'>, t: T): string {
  const year = line.year ?? '?';
  if (!line.declaredUnit) return t('lca.enterQuantity', { year });
  const unit = line.declaredUnit === 'unit' ? t('lca.declaredUnitPieces') : line.declaredUnit;
  return t('lca.enterQuantityIn', { year, unit });
}
