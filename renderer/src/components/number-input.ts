/**
 * A number the user typed, read in the UI's language: German "41250,5" and "41.250,5" are 41250.5, English
 * "41250.5" and "41,250.5" are 41250.5. The separators come from Intl.NumberFormat, not from a table here.
 *
 * Nothing is silently reinterpreted: a text that a reader of the other language would read differently ("1.234"
 * in German: 1234 or 1.234?) or that uses the other language's decimal mark ("41250.5" in German) is refused as
 * ambiguous, with the readings it could have, so the screen can show how to type it.
 */
import type { Locale, T } from '../i18n/index.js';

export type TypedNumber =
  | { ok: true; value: number }
  | { ok: false; reason: 'empty' | 'not_a_number' }
  /** `readings`: what the text could mean, in order (the UI writes them in its own language as examples) */
  | { ok: false; reason: 'ambiguous'; readings: number[] };

/** The group and decimal separators of a locale (de: "." and ","; en: "," and "."). */
export function separators(locale: Locale): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(12345.6);
  return {
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
  };
}

const SPACES = /[\s\u00a0\u202f]/g;
const DIGITS = /^\d+$/;

/** "1.234.567" with "." as the group mark: grouped in threes after the first group. */
function grouped(intPart: string, group: string): boolean {
  const groups = intPart.split(group);
  return groups.length > 1 && /^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((g) => /^\d{3}$/.test(g));
}

/** `int` and `frac` digits as a number. */
const toNumber = (int: string, frac: string | null): number => Number(frac === null ? int : `${int}.${frac}`);

/**
 * Read a typed number in the UI's language. Spaces between digit groups are allowed ("41 250,5"); a leading
 * minus is kept (the caller decides whether a negative number is allowed).
 */
export function parseTypedNumber(text: string, locale: Locale): TypedNumber {
  let s = text.trim();
  if (s === '') return { ok: false, reason: 'empty' };
  const negative = s.startsWith('-') || s.startsWith('−');
  if (negative) s = s.slice(1);
  s = s.replace(SPACES, '');
  const { group, decimal } = separators(locale);
  const sign = negative ? -1 : 1;
  const signed = (r: TypedNumber): TypedNumber =>
    r.ok
      ? { ok: true, value: sign * r.value }
      : r.reason === 'ambiguous'
        ? { ...r, readings: r.readings.map((n) => sign * n) }
        : r;
  if (!/^[\d.,]+$/.test(s) || !/\d/.test(s)) return { ok: false, reason: 'not_a_number' };

  const decimals = s.split(decimal);
  // two decimal marks ("1,234,5" in German) are no number of the language
  if (decimals.length > 2) return { ok: false, reason: 'not_a_number' };
  const [intPart, frac = null] = decimals;
  if (frac !== null && !DIGITS.test(frac)) return { ok: false, reason: 'not_a_number' };
  if (intPart === '' && frac !== null) return signed({ ok: true, value: toNumber('0', frac) });
  if (DIGITS.test(intPart)) {
    // "41250,5" (de) or "41250.5" (en): the language's own decimal mark
    return signed({ ok: true, value: toNumber(intPart, frac) });
  }
  if (grouped(intPart, group)) {
    const int = intPart.split(group).join('');
    // "41.250,5" (de): a group mark and a decimal mark, or two group marks ("1.234.567"): a grouping
    if (frac !== null || intPart.split(group).length > 2) return signed({ ok: true, value: toNumber(int, frac) });
    // "1.234" (de) alone: 1234 here, 1.234 in the other language
    const [whole, part] = intPart.split(group);
    return signed({ ok: false, reason: 'ambiguous', readings: [toNumber(int, null), toNumber(whole, part)] });
  }
  // the other language's decimal mark: "41250.5" in German
  const other = intPart.split(group);
  if (frac === null && other.length === 2 && DIGITS.test(other[0]) && DIGITS.test(other[1]))
    return signed({ ok: false, reason: 'ambiguous', readings: [toNumber(other[0], other[1])] });
  return { ok: false, reason: 'not_a_number' };
}

/** A number as an example of how to type it in the UI's language: no grouping, the language's decimal mark. */
export function typingExample(n: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 20 }).format(n);
}

/** Why a typed number is refused, in the UI's words, with how to type it; null when it is read. */
export function typedNumberProblem(text: string, result: TypedNumber, locale: Locale, t: T): string | null {
  if (result.ok || result.reason === 'empty') return null;
  if (result.reason !== 'ambiguous') return t('number.notANumber', { text, example: typingExample(41250.5, locale) });
  const examples = result.readings.map((n) => typingExample(n, locale)).join(t('number.or'));
  return t(result.readings.length > 1 ? 'number.ambiguous' : 'number.otherMark', { text, examples });
}

/**
 * A quantity typed into a form (0 or more): its value, or why it is refused in the UI's words. An empty field is
 * refused without a text (the field's `required` says it).
 */
export function readQuantity(text: string, locale: Locale, t: T): { value: number } | { problem: string | null } {
  const read = parseTypedNumber(text, locale);
  if (!read.ok) return { problem: typedNumberProblem(text, read, locale, t) };
  return read.value < 0 ? { problem: t('number.negative') } : { value: read.value };
}
