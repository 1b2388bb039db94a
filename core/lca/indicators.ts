/**
 * Display order of LCA indicators and modules. The spec does not list indicators ("results elements: fields
 * not shown"), so this is only an ordering for sheets and charts: the EN 15804+A2 core indicators first, in
 * the standard's order, then any other indicator the service returns, in the order first seen. Nothing here
 * filters: an indicator or module we do not know is exported all the same.
 */

import indicatorData from './data/en15804-a2-indicators.json' with { type: 'json' };

/** One indicator of EN 15804+A2 as the data file (data/en15804-a2-indicators.json) describes it. */
export interface IndicatorInfo {
  code: string;
  name_en: string;
  name_de: string;
  /** Unit as the service writes it (English). */
  unit: string;
  unit_de: string;
  definition_en: string;
  definition_de: string;
}

/** The EN 15804+A2 core environmental impact indicators, in the standard's order (from the data file). */
export const INDICATOR_INFO: readonly IndicatorInfo[] = Object.freeze(indicatorData.indicators.map((i) => ({ ...i })));
export const INDICATOR_SOURCE: string = indicatorData.source;

/** Their codes, in the standard's order. */
export const CORE_INDICATORS: readonly string[] = Object.freeze(INDICATOR_INFO.map((i) => i.code));

const INFO_BY_CODE = new Map(INDICATOR_INFO.map((i) => [i.code, i]));
/** Name, unit and definition of an indicator code; undefined for one the data file does not list. */
export function indicatorInfo(code: string | null | undefined): IndicatorInfo | undefined {
  return code ? INFO_BY_CODE.get(code) : undefined;
}

/** The indicator the chart is about, and the first of the `indicators` sheet. */
export const GWP_TOTAL = 'GWP-total';

/** Life-cycle modules in EN 15804 order (the service returns A1-A3 and, with transport, A4). */
export const MODULE_ORDER = ['A1-A3', 'A1', 'A2', 'A3', 'A4', 'A5', 'C1', 'C2', 'C3', 'C4', 'D'] as const;

/** Sort key: known entries by their place in `known`, unknown ones after them in first-seen order. */
export function orderBy(known: readonly string[], seen: Iterable<string>): string[] {
  const rank = new Map(known.map((k, i) => [k, i]));
  const firstSeen = new Map<string, number>();
  for (const s of seen) if (!firstSeen.has(s)) firstSeen.set(s, firstSeen.size);
  return [...firstSeen.keys()].sort((a, b) => {
    const ra = rank.get(a);
    const rb = rank.get(b);
    if (ra !== undefined && rb !== undefined) return ra - rb;
    if (ra !== undefined) return -1;
    if (rb !== undefined) return 1;
    return (firstSeen.get(a) ?? 0) - (firstSeen.get(b) ?? 0);
  });
}

export function orderIndicators(seen: Iterable<string>): string[] {
  return orderBy(CORE_INDICATORS, seen);
}

export function orderModules(seen: Iterable<string>): string[] {
  return orderBy(MODULE_ORDER, seen);
}

/**
 * Module selections a user may ask for: A1-A3 and A4 apart, or summed (A1-A4 = A1-A3 + A4). Never mixed
 * silently: a sum says which of its modules the year declared (see moduleValue in analysis.ts).
 */
export const MODULE_SELECTIONS = {
  'A1-A3': ['A1-A3'],
  A4: ['A4'],
  'A1-A4': ['A1-A3', 'A4'],
} as const satisfies Record<string, readonly string[]>;
export type ModuleSelection = keyof typeof MODULE_SELECTIONS;
