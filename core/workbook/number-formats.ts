/** Which cell styles show a date or a percentage: the number formats of a workbook's styles part. */
import { attr } from './xml-parts.js';

export type StyleKind = 'date' | 'percent';

/** Built-in number formats that show dates/times, and percentages (ECMA-376 §18.8.30). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);
const BUILTIN_PERCENT_FORMATS = new Set([9, 10]);

/** What a number format code shows: quoted text, escapes and [colour]/[locale] sections do not count. */
export function formatKind(code: string): StyleKind | null {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?!h\]|m\]|s\])[^\]]*\]/gi, '')
    .replace(/_.|\*./g, '');
  if (bare.includes('%')) return 'percent';
  if (/general/i.test(bare)) return null;
  return /[dmyhs]/i.test(bare) ? 'date' : null;
}

/** Cell styles (cellXfs order) whose number format shows a date or a percentage. */
export function styleKindsOf(stylesXml: string): Map<number, StyleKind> {
  const custom = new Map<number, string>();
  for (const tag of stylesXml.match(/<(\w+:)?numFmt\b[^>]*>/g) ?? []) {
    const id = Number(attr(tag, 'numFmtId'));
    const code = attr(tag, 'formatCode');
    if (Number.isFinite(id) && code !== undefined) custom.set(id, code);
  }
  const out = new Map<number, StyleKind>();
  const xfs = /<(\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(\w+:)?cellXfs>/.exec(stylesXml)?.[2] ?? '';
  let i = 0;
  for (const tag of xfs.match(/<(\w+:)?xf\b[^>]*>/g) ?? []) {
    const id = Number(attr(tag, 'numFmtId') ?? '0');
    const kind = custom.has(id)
      ? formatKind(custom.get(id)!)
      : BUILTIN_DATE_FORMATS.has(id)
        ? 'date'
        : BUILTIN_PERCENT_FORMATS.has(id)
          ? 'percent'
          : null;
    if (kind) out.set(i, kind);
    i++;
  }
  return out;
}
