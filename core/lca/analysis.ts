/**
 * LCA results as practitioners read them (pure functions over an LcaReport, plain JSON out):
 *  - per declared unit: every value ÷ the year's production quantity, in the product's `unit` (per t, per m³…);
 *    where the service gives no quantity (or 0) a note says so instead of dividing;
 *  - modules kept apart (A1-A3, A4) and summed only when asked (A1-A4), saying which modules a sum holds;
 *  - hotspots: the per-source breakdown with names (BreakdownContext from hotspots.ts), share of the year's total;
 *  - trend: change per indicator against the previous computed year, partial years marked;
 *  - chart data for any indicator, per declared unit or as totals.
 * Values are as computed by the service: nothing here recomputes an impact, it only divides and sums.
 */
import type { LcaBasisName } from '../names.js';
import { GWP_TOTAL, MODULE_SELECTIONS, type ModuleSelection, indicatorInfo, orderIndicators } from './indicators.js';
import { difference, withoutFloatNoise } from './precision.js';
import {
  type ComponentInfo,
  type ImpactValue,
  type InstanceLca,
  type LcaReport,
  type ResultYear,
  readResults,
} from './model.js';

/** The product's `unit` (spec enum) as written after "per": T → t, M3 → m³ … Unknown units are kept as given. */
const DECLARED_UNIT_LABELS: Readonly<Record<string, string>> = Object.freeze({
  M: 'm',
  M2: 'm²',
  M3: 'm³',
  KG: 'kg',
  T: 't',
  L: 'l',
  KWH: 'kWh',
  MJ: 'MJ',
  UNIT: 'unit',
  'METRIC TON*KM': 't·km',
});

export function declaredUnitLabel(unit: string | null | undefined): string | null {
  if (!unit) return null;
  return DECLARED_UNIT_LABELS[unit] ?? unit;
}

export const NO_QUANTITY_NOTE = 'no production quantity given for this year: no value per declared unit';
export const ZERO_QUANTITY_NOTE = 'production quantity is 0: no value per declared unit';

export interface PerUnit {
  /** value ÷ production quantity, full precision; null when it cannot be divided (see note). */
  value: number | null;
  /** Why there is no per-unit value although there is a value; null otherwise. */
  note: string | null;
}

/** value ÷ quantity, or a note saying why not. A value that is not declared stays null without a note. */
export function perDeclaredUnit(value: number | null, quantity: number | null): PerUnit {
  if (value === null) return { value: null, note: null };
  if (quantity === null) return { value: null, note: NO_QUANTITY_NOTE };
  if (quantity === 0) return { value: null, note: ZERO_QUANTITY_NOTE };
  return { value: withoutFloatNoise(value / quantity), note: null };
}

export interface ModuleValue {
  /** Sum over the selection's modules the year declares; null when it declares none of them. */
  value: number | null;
  /** Modules the value holds. */
  modules: string[];
  /** Modules of the selection the year does not declare (e.g. A4 without transport). */
  missing: string[];
}

/** An indicator's value for a module selection (A1-A3, A4, or A1-A4 summed), saying what it holds. */
export function moduleValue(
  values: readonly ImpactValue[] | null,
  indicator: string,
  selection: ModuleSelection,
): ModuleValue {
  const wanted: readonly string[] = MODULE_SELECTIONS[selection];
  let sum: number | null = null;
  const modules: string[] = [];
  for (const m of wanted) {
    const v = (values ?? []).find((x) => x.indicator === indicator && x.module === m && x.value !== null);
    if (!v) continue;
    sum = (sum ?? 0) + (v.value as number);
    modules.push(m);
  }
  return {
    value: sum === null ? null : withoutFloatNoise(sum),
    modules,
    missing: wanted.filter((m) => !modules.includes(m)),
  };
}

/** Unit of an indicator as the service declared it in the report (first seen), else the data file's. */
export function unitsOf(report: Pick<LcaReport, 'instances'>): Map<string, string> {
  const out = new Map<string, string>();
  for (const i of report.instances)
    for (const y of readResults(i.results))
      for (const v of y.values ?? []) if (v.indicator && v.unit && !out.has(v.indicator)) out.set(v.indicator, v.unit);
  return out;
}

/** Indicators the report declares, in the standard's order. */
export function indicatorsOf(report: Pick<LcaReport, 'instances'>): string[] {
  const seen: string[] = [];
  for (const i of report.instances)
    for (const y of readResults(i.results)) for (const v of y.values ?? []) if (v.indicator) seen.push(v.indicator);
  return orderIndicators(seen);
}

/** Module selections worth offering for a report: A1-A3 and A4 when declared, A1-A4 when both are. */
export function moduleSelectionsOf(report: Pick<LcaReport, 'instances'>): ModuleSelection[] {
  const seen = new Set<string>();
  for (const i of report.instances)
    for (const y of readResults(i.results)) for (const v of y.values ?? []) if (v.module) seen.add(v.module);
  const out: ModuleSelection[] = [];
  if (seen.has('A1-A3')) out.push('A1-A3');
  if (seen.has('A4')) out.push('A4');
  if (seen.has('A1-A3') && seen.has('A4')) out.push('A1-A4');
  return out;
}

// ------------------------------------------------------------------ hotspots

export interface HotspotRow {
  instanceId: string;
  year: number;
  partial: boolean;
  indicator: string;
  module: string | null;
  unit: string | null;
  component: ComponentInfo;
  value: number;
  /** value ÷ the year's production quantity */
  perDeclaredUnit: PerUnit;
  /** The year's total of this indicator and module as the service declared it. */
  yearTotal: number | null;
  /** value ÷ yearTotal (0…1 for positive contributions); null when the total is 0 or not declared. */
  share: number | null;
}

function unknownComponent(type: string | null, ref: string | null): ComponentInfo {
  return {
    componentType: type ?? 'unknown',
    ref: ref ?? '',
    externalId: null,
    name: null,
    supplierCompany: null,
    supplierPlant: null,
    massKg: null,
  };
}

/**
 * One row per instance × computed year × breakdown entry (component × indicator × module), with the names of
 * the report's breakdown context. Empty when the breakdown is not readable.
 */
export function hotspotRows(report: Pick<LcaReport, 'instances' | 'breakdown_context'>): HotspotRow[] {
  const ctx = report.breakdown_context;
  if (!ctx?.readable) return [];
  const units = unitsOf(report);
  const rows: HotspotRow[] = [];
  for (const i of report.instances) {
    const byRef = new Map((ctx.components[i.instance.id] ?? []).map((c) => [c.ref.toLowerCase(), c]));
    for (const y of readResults(i.results)) {
      if (y.year === null || y.status !== 'computed') continue;
      for (const e of y.breakdown ?? []) {
        if (e.indicator === null || e.value === null) continue;
        const total = moduleTotal(y, e.indicator, e.module);
        rows.push({
          instanceId: i.instance.id,
          year: y.year,
          partial: y.partial_year === true,
          indicator: e.indicator,
          module: e.module,
          unit: units.get(e.indicator) ?? indicatorInfo(e.indicator)?.unit ?? null,
          component: byRef.get((e.ref ?? '').toLowerCase()) ?? unknownComponent(e.component_type, e.ref),
          value: e.value,
          perDeclaredUnit: perDeclaredUnit(e.value, y.production_quantity),
          yearTotal: total,
          share: total === null || total === 0 ? null : withoutFloatNoise(e.value / total),
        });
      }
    }
  }
  return rows;
}

function moduleTotal(y: ResultYear, indicator: string, module: string | null): number | null {
  const v = (y.values ?? []).find((x) => x.indicator === indicator && x.module === module && x.value !== null);
  return v ? (v.value as number) : null;
}

export interface HotspotSlice {
  /** null for the "rest" slice */
  component: ComponentInfo | null;
  label: string;
  value: number;
  share: number | null;
}

/** A component in words: "CEM I 42,5 R (SP-CEM) · Zement AG, Werk Nord". */
export function componentLabel(c: ComponentInfo): string {
  const name = c.name ?? c.externalId ?? c.ref;
  const code = c.name && c.externalId ? ` (${c.externalId})` : '';
  const supplier = [c.supplierCompany, c.supplierPlant].filter(Boolean).join(', ');
  return `${name}${code}${supplier ? ` · ${supplier}` : ''}`;
}

/**
 * Contribution of each component to one instance-year (summed over the selection's modules), largest first:
 * the top `n` and one "rest" slice for the others. Shares are of the year's total for the selection.
 */
export function hotspotSlices(
  rows: readonly HotspotRow[],
  q: { instanceId: string; year: number; indicator: string; modules: ModuleSelection; top?: number },
): HotspotSlice[] {
  const wanted: readonly string[] = MODULE_SELECTIONS[q.modules];
  const byComp = new Map<string, { c: ComponentInfo; value: number }>();
  const totals = new Map<string, number>();
  for (const r of rows) {
    if (r.instanceId !== q.instanceId || r.year !== q.year || r.indicator !== q.indicator) continue;
    if (!wanted.includes(r.module ?? '')) continue;
    const k = `${r.component.componentType}:${r.component.ref}`;
    const cur = byComp.get(k) ?? { c: r.component, value: 0 };
    cur.value += r.value;
    byComp.set(k, cur);
    if (r.yearTotal !== null) totals.set(r.module ?? '', r.yearTotal);
  }
  const total = [...totals.values()].reduce((s, v) => s + v, 0);
  const sorted = [...byComp.values()].sort((a, b) => Math.abs(b.value) - Math.abs(a.value));
  const top = q.top ?? 10;
  const share = (v: number) => (total === 0 ? null : withoutFloatNoise(v / total));
  const out: HotspotSlice[] = sorted.slice(0, top).map((x) => ({
    component: x.c,
    label: componentLabel(x.c),
    value: withoutFloatNoise(x.value),
    share: share(x.value),
  }));
  const rest = sorted.slice(top);
  if (rest.length > 0) {
    const v = withoutFloatNoise(rest.reduce((s, x) => s + x.value, 0));
    out.push({
      component: null,
      label: `${rest.length} other component${rest.length === 1 ? '' : 's'}`,
      value: v,
      share: share(v),
    });
  }
  return out;
}

export interface SupplierProductTotal {
  component: ComponentInfo;
  label: string;
  value: number;
  /** Instances it contributes to. */
  instances: number;
}

/**
 * Across the report: the components (supplier products, silos, prechain products) that contribute most in
 * total to an indicator over the selection's modules, for one year or all computed years. Same supplier
 * product in several instances → one entry (by type and ref).
 */
export function topContributors(
  rows: readonly HotspotRow[],
  q: { indicator: string; modules: ModuleSelection; year?: number; top?: number },
): SupplierProductTotal[] {
  const wanted: readonly string[] = MODULE_SELECTIONS[q.modules];
  const m = new Map<string, { c: ComponentInfo; value: number; inst: Set<string> }>();
  for (const r of rows) {
    if (r.indicator !== q.indicator || !wanted.includes(r.module ?? '')) continue;
    if (q.year !== undefined && r.year !== q.year) continue;
    const k = `${r.component.componentType}:${r.component.ref}`;
    const cur = m.get(k) ?? { c: r.component, value: 0, inst: new Set<string>() };
    cur.value += r.value;
    cur.inst.add(r.instanceId);
    m.set(k, cur);
  }
  return [...m.values()]
    .sort((a, b) => Math.abs(b.value) - Math.abs(a.value))
    .slice(0, q.top ?? 10)
    .map((x) => ({
      component: x.c,
      label: componentLabel(x.c),
      value: withoutFloatNoise(x.value),
      instances: x.inst.size,
    }));
}

// ------------------------------------------------------------------ trend

export interface TrendRow {
  instanceId: string;
  indicator: string;
  modules: ModuleSelection;
  unit: string | null;
  year: number;
  partial: boolean;
  value: number;
  perDeclaredUnit: PerUnit;
  /** The previous computed year (null for the first). */
  previousYear: number | null;
  previousPartial: boolean | null;
  changeAbs: number | null;
  /** (value − previous) ÷ |previous| × 100; null when there is no previous year or it is 0. */
  changePct: number | null;
  changePerUnitAbs: number | null;
  changePerUnitPct: number | null;
}

const pct = (cur: number, prev: number): number | null =>
  prev === 0 ? null : withoutFloatNoise((difference(cur, prev) / Math.abs(prev)) * 100);

/**
 * Per instance × indicator × module selection: each computed year against the previous computed year. The
 * selections are those the report declares (A1-A3, A4, A1-A4). Partial (current) years are marked on both
 * sides of a comparison: a partial year's total covers only the months entered so far.
 */
export function trendRows(report: Pick<LcaReport, 'instances'>): TrendRow[] {
  const units = unitsOf(report);
  const indicators = indicatorsOf(report);
  const selections = moduleSelectionsOf(report);
  const rows: TrendRow[] = [];
  for (const i of report.instances) {
    const years = readResults(i.results)
      .filter((y): y is ResultYear & { year: number } => y.year !== null && y.status === 'computed')
      .sort((a, b) => a.year - b.year);
    for (const ind of indicators) {
      for (const sel of selections) {
        let prev: { year: number; partial: boolean; value: number; perUnit: number | null } | null = null;
        for (const y of years) {
          const mv = moduleValue(y.values, ind, sel);
          if (mv.value === null || mv.missing.length > 0) continue; // never mix a sum with a missing module
          const pu = perDeclaredUnit(mv.value, y.production_quantity);
          rows.push({
            instanceId: i.instance.id,
            indicator: ind,
            modules: sel,
            unit: units.get(ind) ?? null,
            year: y.year,
            partial: y.partial_year === true,
            value: mv.value,
            perDeclaredUnit: pu,
            previousYear: prev?.year ?? null,
            previousPartial: prev ? prev.partial : null,
            changeAbs: prev ? difference(mv.value, prev.value) : null,
            changePct: prev ? pct(mv.value, prev.value) : null,
            changePerUnitAbs:
              prev && prev.perUnit !== null && pu.value !== null ? difference(pu.value, prev.perUnit) : null,
            changePerUnitPct: prev && prev.perUnit !== null && pu.value !== null ? pct(pu.value, prev.perUnit) : null,
          });
          prev = { year: y.year, partial: y.partial_year === true, value: mv.value, perUnit: pu.value };
        }
      }
    }
  }
  return rows;
}

// ------------------------------------------------------------------ chart

export type ChartBasis = LcaBasisName;

export interface LcaChartPoint {
  year: number;
  /** null = a gap (blocked, not declared, or no quantity to divide by), never 0 */
  value: number | null;
  partial: boolean;
  status: string | null;
  /** Why the value is missing although the year is computed (e.g. no production quantity). */
  note: string | null;
  /** Modules the value holds. */
  modules: string[];
}

export interface LcaChartSeries {
  instanceId: string;
  externalId: string | null;
  label: string;
  plantCode: string | null;
  productArticle: string | null;
  productName: string | null;
  /** The declared unit label (t, m³ …), null when the product's unit is unknown. */
  declaredUnit: string | null;
  points: LcaChartPoint[];
}

export interface LcaChartData {
  indicator: string;
  nameEn: string | null;
  nameDe: string | null;
  unit: string | null;
  modules: ModuleSelection;
  basis: ChartBasis;
  years: number[];
  /**
   * The series drawn. Per declared unit: only the instances of ONE declared unit (`declaredUnit`) — values
   * per t and per m³ are never put on one axis; as totals: every instance (same unit of the indicator).
   */
  series: LcaChartSeries[];
  /** Per declared unit: the declared unit on the axis; null as totals (or when no instance has a unit). */
  declaredUnit: string | null;
  /** Declared units of the selection with their number of instances, most instances first (then by name). */
  declaredUnits: { unit: string | null; count: number }[];
  /** Per declared unit: the instances not drawn because they are declared in another unit. */
  hidden: { instanceId: string; label: string; declaredUnit: string | null }[];
}

/**
 * The declared units of a selection, most instances first (ties by name; unknown unit last). The chart per
 * declared unit shows one of them at a time: the one asked for when the selection has it, else the first.
 */
export function groupByDeclaredUnit<T extends { declaredUnit: string | null }>(
  series: readonly T[],
  wanted?: string | null,
): { unit: string | null; units: { unit: string | null; count: number }[]; shown: T[]; hidden: T[] } {
  const counts = new Map<string | null, number>();
  for (const s of series) counts.set(s.declaredUnit, (counts.get(s.declaredUnit) ?? 0) + 1);
  const units = [...counts]
    .map(([unit, count]) => ({ unit, count }))
    .sort(
      (a, b) =>
        b.count - a.count ||
        Number(a.unit === null) - Number(b.unit === null) ||
        (a.unit ?? '').localeCompare(b.unit ?? ''),
    );
  const unit =
    wanted !== undefined && units.some((u) => u.unit === wanted) ? (wanted as string | null) : (units[0]?.unit ?? null);
  return {
    unit,
    units,
    shown: series.filter((s) => s.declaredUnit === unit),
    hidden: series.filter((s) => s.declaredUnit !== unit),
  };
}

function seriesLabel(i: InstanceLca): string {
  const inst = i.instance;
  const name = inst.product_name ?? inst.name;
  const code = inst.external_id ?? inst.id;
  const plant = inst.plant_code ? ` @ ${inst.plant_code}` : '';
  return name ? `${code} · ${name}${plant}` : `${code}${plant}`;
}

/** Chart data of any indicator, per declared unit (default) or totals, for a module selection. */
export function lcaChartData(
  report: Pick<LcaReport, 'instances'>,
  q: { indicator?: string; modules?: ModuleSelection; basis?: ChartBasis; declaredUnit?: string | null } = {},
): LcaChartData {
  const indicator = q.indicator ?? GWP_TOTAL;
  const modules = q.modules ?? (moduleSelectionsOf(report).includes('A1-A4') ? 'A1-A4' : 'A1-A3');
  const basis = q.basis ?? 'per_unit';
  const info = indicatorInfo(indicator);
  const years = new Set<number>();
  const series = report.instances.map((i): LcaChartSeries => {
    const points: LcaChartPoint[] = [];
    for (const y of readResults(i.results)) {
      if (y.year === null) continue;
      years.add(y.year);
      const mv = moduleValue(y.values, indicator, modules);
      let value = mv.value;
      let note: string | null = null;
      if (mv.value !== null && mv.missing.length > 0 && modules === 'A1-A4')
        note = `${mv.missing.join(', ')} not declared for this year: the value holds ${mv.modules.join(' + ')} only`;
      if (basis === 'per_unit') {
        const pu = perDeclaredUnit(mv.value, y.production_quantity);
        value = pu.value;
        note = pu.note ?? note;
      }
      points.push({
        year: y.year,
        value,
        partial: y.partial_year === true,
        status: y.status,
        note,
        modules: mv.modules,
      });
    }
    points.sort((a, b) => a.year - b.year);
    const inst = i.instance;
    return {
      instanceId: inst.id,
      externalId: inst.external_id,
      label: seriesLabel(i),
      plantCode: inst.plant_code,
      productArticle: inst.product_article,
      productName: inst.product_name,
      declaredUnit: declaredUnitLabel(inst.product_unit),
      points,
    };
  });
  const g = groupByDeclaredUnit(series, q.declaredUnit);
  const perUnit = basis === 'per_unit';
  return {
    indicator,
    nameEn: info?.name_en ?? null,
    nameDe: info?.name_de ?? null,
    unit: unitsOf(report).get(indicator) ?? info?.unit ?? null,
    modules,
    basis,
    years: [...years].sort((a, b) => a - b),
    series: perUnit ? g.shown : series,
    declaredUnit: perUnit ? g.unit : null,
    declaredUnits: g.units,
    hidden: perUnit
      ? g.hidden.map((s) => ({ instanceId: s.instanceId, label: s.label, declaredUnit: s.declaredUnit }))
      : [],
  };
}
