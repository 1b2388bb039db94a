/**
 * Display order of LCA indicators and modules. The spec does not list indicators ("results elements: fields
 * not shown"), so this is only an ordering for sheets and charts: the EN 15804+A2 core indicators first, in
 * the standard's order, then any other indicator the service returns, in the order first seen. Nothing here
 * filters: an indicator or module we do not know is exported all the same.
 */

/** The EN 15804+A2 core environmental impact indicators, in the standard's order. */
export const CORE_INDICATORS = [
  'GWP-total',
  'GWP-fossil',
  'GWP-biogenic',
  'GWP-luluc',
  'ODP',
  'AP',
  'EP-freshwater',
  'EP-marine',
  'EP-terrestrial',
  'POCP',
  'ADPE',
  'ADPF',
  'WDP',
] as const;

/** The indicator the `gwp` sheet and the chart are about. */
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
