/**
 * Chart data for the UI: GWP-total per year per instance — one series per instance, points {year, value,
 * partial}. A point's value is the sum of the GWP-total values the year declares over its modules (A1-A3,
 * plus A4 where there is transport); null when the year declares none (blocked, or not computed) — the chart
 * shows a gap, never a 0. Plain JSON-serialisable data.
 */
import { GWP_TOTAL, orderModules } from './indicators.js';
import { type LcaReport, readResults } from './model.js';

export interface GwpPoint {
  year: number;
  /** Σ of GWP-total over the declared modules; null = nothing declared for that year. */
  value: number | null;
  /** The current calendar year, covering only the part entered so far (spec rule 2). */
  partial: boolean;
  status: string | null;
  /** GWP-total per module, as declared. */
  modules: Record<string, number>;
}

export interface GwpSeries {
  instanceId: string;
  externalId: string | null;
  /** For the legend: "PI-HEID-10011 · CEM I 42,5 R". */
  label: string;
  plantCode: string | null;
  productArticle: string | null;
  points: GwpPoint[];
}

export interface GwpChartData {
  indicator: typeof GWP_TOTAL;
  /** Unit of GWP-total as the service gave it (e.g. "kg CO2 eq."), null when nothing was declared. */
  unit: string | null;
  /** Every year any series has a point for, ascending. */
  years: number[];
  /** Modules summed into the values, in EN 15804 order. */
  modules: string[];
  series: GwpSeries[];
}

export function gwpChartData(report: Pick<LcaReport, 'instances'>): GwpChartData {
  let unit: string | null = null;
  const years = new Set<number>();
  const modulesSeen: string[] = [];
  const series: GwpSeries[] = report.instances.map((i) => {
    const points: GwpPoint[] = [];
    for (const y of readResults(i.results)) {
      if (y.year === null) continue;
      const modules: Record<string, number> = {};
      let sum: number | null = null;
      for (const v of y.values ?? []) {
        if (v.indicator !== GWP_TOTAL || v.value === null) continue;
        unit ??= v.unit;
        const m = v.module ?? '';
        modules[m] = (modules[m] ?? 0) + v.value;
        modulesSeen.push(m);
        sum = (sum ?? 0) + v.value;
      }
      years.add(y.year);
      points.push({ year: y.year, value: sum, partial: y.partial_year === true, status: y.status, modules });
    }
    points.sort((a, b) => a.year - b.year);
    const inst = i.instance;
    const name = inst.product_name ?? inst.name;
    const code = inst.external_id ?? inst.id;
    return {
      instanceId: inst.id,
      externalId: inst.external_id,
      label: name ? `${code} · ${name}` : code,
      plantCode: inst.plant_code,
      productArticle: inst.product_article,
      points,
    };
  });
  return {
    indicator: GWP_TOTAL,
    unit,
    years: [...years].sort((a, b) => a - b),
    modules: orderModules(modulesSeen),
    series,
  };
}
