/**
 * "Did you mean …?": how alike two names or codes are, and the closest known ones. Used for unknown headers
 * (reader), unknown codes (planner) and mapping suggestions (mapping/suggest.ts).
 */

/** Edit distance (insert, delete, substitute, swap of two neighbours), bounded by `max` (returns max + 1 beyond). */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length];
}

/** Lower case, words split on anything but letters and digits. */
function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * How alike two names are, 0..1: the better of the edit-distance ratio of the squashed names and the share of
 * words they have in common (prefix words count: `truck` ~ `truck_km`, `truck_distance_km` ~ `truck_km`).
 * `min`: only a value of at least `min` is needed exactly — below it, some value below `min` is returned (the
 * edit distance then stops as soon as the ratio cannot reach `min`, and is skipped when the lengths alone say so).
 */
export function nameSimilarity(a: string, b: string, min = 0): number {
  const sa = words(a).join('');
  const sb = words(b).join('');
  if (!sa || !sb) return 0;
  if (sa === sb) return 1;
  const longest = Math.max(sa.length, sb.length);
  const maxD = min > 0 ? Math.floor((1 - min) * longest + 1e-9) : Infinity;
  const d = Math.abs(sa.length - sb.length) > maxD ? maxD + 1 : editDistance(sa, sb, maxD);
  const ratio = 1 - d / longest;
  const wa = words(a);
  const wb = words(b);
  const common = wb.filter((w) => wa.includes(w)).length;
  const overlap = wb.length ? common / wb.length : 0;
  // All of b's words in a (a says more): alike, but less than an exact or near-exact spelling.
  const contained = common === wb.length && common > 0 ? 0.8 : overlap * 0.7;
  return Math.max(ratio, contained);
}

/** The known names at least `min` alike to `name`, best first (at most `limit`). */
export function closestNames(name: string, known: Iterable<string>, min = 0.75, limit = 3): string[] {
  const scored: { k: string; s: number }[] = [];
  for (const k of known) {
    const s = nameSimilarity(name, k);
    if (s >= min) scored.push({ k, s });
  }
  return scored
    .sort((x, y) => y.s - x.s || x.k.localeCompare(y.k))
    .slice(0, limit)
    .map((x) => x.k);
}

/**
 * Known codes closest to an unknown one (`MAT-SNAD` → `MAT-SAND`): case-insensitive edit distance at most 2
 * (1 for codes of up to 4 characters), best first.
 */
export function closestCodes(code: string, known: Iterable<string>, limit = 3): string[] {
  const c = code.toUpperCase();
  const max = c.length <= 4 ? 1 : 2;
  const scored: { k: string; d: number }[] = [];
  for (const k of known) {
    if (k === code) continue;
    const d = editDistance(c, k.toUpperCase(), max);
    if (d <= max) scored.push({ k, d });
  }
  return scored
    .sort((x, y) => x.d - y.d || x.k.localeCompare(y.k))
    .slice(0, limit)
    .map((x) => x.k);
}
