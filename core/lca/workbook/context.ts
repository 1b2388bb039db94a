/**
 * What every sheet builder of the LCA workbook reads: the report, its results read tolerantly, the indicators
 * and modules over the whole export (in display order), the unit of each indicator, and the notes the builders
 * add for the about sheet.
 */
import { orderIndicators, orderModules } from '../indicators.js';
import { type InstanceLca, type LcaReport, type ResultYear, readResults } from '../model.js';

export interface LcaExportOptions {
  /** Add the `breakdown` sheet (per-source impacts) when the service returned it. Default false. */
  breakdown?: boolean;
  /** Most extra (unknown-field) columns per sheet; the rest go to one `more_fields` JSON column. Default 200. */
  maxExtraColumns?: number;
}

export interface ExportContext {
  report: LcaReport;
  opts: LcaExportOptions;
  maxExtra: number;
  parsed: { i: InstanceLca; years: ResultYear[] }[];
  byId: Map<string, InstanceLca>;
  /** Indicators over the whole export, in display order. */
  indicators: string[];
  /** (indicator, module) pairs any instance declared, in display order. */
  pairs: [string, string | null][];
  /** Unit of each indicator (first seen). */
  unitOf: Map<string, string>;
  /** Result elements without a `values` list (the answer changed shape). */
  shapeChanged: number;
  /** Whether any element carried a per-source breakdown. */
  breakdownPresent: boolean;
  /** Things the user should know, in the order the builders met them. */
  notes: string[];
}

export function exportContext(report: LcaReport, opts: LcaExportOptions): ExportContext {
  const parsed = report.instances.map((i) => ({ i, years: readResults(i.results) }));
  const indicatorsSeen: string[] = [];
  const modulesSeen: string[] = [];
  const unitOf = new Map<string, string>();
  let shapeChanged = 0;
  let breakdownPresent = false;
  for (const { years } of parsed) {
    for (const y of years) {
      if (y.values === null) shapeChanged++;
      if (y.breakdown && y.breakdown.length > 0) breakdownPresent = true;
      for (const v of y.values ?? []) {
        if (v.indicator === null) continue;
        indicatorsSeen.push(v.indicator);
        if (v.module !== null) modulesSeen.push(v.module);
        if (v.unit !== null && !unitOf.has(v.indicator)) unitOf.set(v.indicator, v.unit);
      }
    }
  }
  const indicators = orderIndicators(indicatorsSeen);
  const modules = orderModules(modulesSeen);
  const declared = new Set<string>();
  for (const { years } of parsed)
    for (const y of years)
      for (const v of y.values ?? []) if (v.indicator !== null) declared.add(`${v.indicator}\u0000${v.module ?? ''}`);
  const pairs: [string, string | null][] = [];
  for (const ind of indicators) {
    for (const m of modules) if (declared.has(`${ind}\u0000${m}`)) pairs.push([ind, m]);
    if (declared.has(`${ind}\u0000`)) pairs.push([ind, null]);
  }
  return {
    report,
    opts,
    maxExtra: opts.maxExtraColumns ?? 200,
    parsed,
    byId: new Map(report.instances.map((i) => [i.instance.id, i])),
    indicators,
    pairs,
    unitOf,
    shapeChanged,
    breakdownPresent,
    notes: [],
  };
}
