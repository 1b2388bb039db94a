/**
 * Float noise off LCA numbers. Sums and quotients of service values carry binary rounding errors
 * (11147827.499999998 for 11147827.5; a change of 1.1e-13 between two equal years). Values are shown and
 * written with 12 significant digits, more than any LCA input holds, and a difference that is noise relative
 * to the values it comes from is 0.
 */

/** Significant digits kept: the noise of a few float operations is far below them. */
const DIGITS = 12;

/** `v` rounded to 12 significant digits, never -0. Whole numbers (counts, years, numeric codes) stay as they are. */
export function withoutFloatNoise(v: number): number {
  if (v === 0) return 0;
  if (!Number.isFinite(v) || Number.isInteger(v)) return v;
  const r = Number(v.toPrecision(DIGITS));
  return r === 0 ? 0 : r;
}

/** `a - b`, exactly 0 when it is below the 12th significant digit of the larger of the two. */
export function difference(a: number, b: number): number {
  const d = a - b;
  if (Math.abs(d) <= Math.max(Math.abs(a), Math.abs(b)) * 10 ** -DIGITS * 5) return 0;
  return withoutFloatNoise(d);
}
