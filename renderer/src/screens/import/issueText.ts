/**
 * An issue of the workbook check (or a problem of the dry run) in the user's language, from its `code` and
 * `params`: the template `issue.<code>.<variant>` or `issue.<code>` (renderer/src/i18n/issues-*.ts) filled with
 * the params plus the issue's field, cell, sheet and row. `{expected}` is worded from the `exp…` params (what the
 * column takes). When the code is unknown to this version, or the template needs a value the issue does not
 * carry, the core's English `message` is shown as it is — never raw JSON, never a `{placeholder}`.
 */
import { catalogues, type Locale } from '../../i18n/index.js';

export type IssueParams = Record<string, string | number>;

/** What an issue or a plan problem has that the text is built from. */
export interface IssueLike {
  code?: string | null;
  sheet: string | null;
  cell: string | null;
  row: number | null;
  field: string | null;
  message: string;
  params?: IssueParams;
}

/** Problems of the dry run: a workbook issue when `code` is set, else one of the planner's kinds. */
export interface ProblemLike extends IssueLike {
  kind: string;
}

/** Numbers counted in thousands get a thousands separator; years, rows, limits of a range do not. */
const GROUPED = new Set(['count', 'errors', 'warnings', 'length', 'lastRow', 'limit']);

function template(locale: Locale, key: string): string | undefined {
  const cat = catalogues[locale] as Record<string, string>;
  return Object.prototype.hasOwnProperty.call(cat, key) ? cat[key] : undefined;
}

function formatNum(n: number, locale: Locale, grouped: boolean): string {
  return n.toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits: 10, useGrouping: grouped });
}

/** A value as the core shows it (`"SP-1"`, `12.5`): German quotes and decimal comma in German. */
function shownValue(v: string, locale: Locale): string {
  if (locale !== 'de') return v;
  if (/^-?\d+(\.\d+)?$/.test(v)) return formatNum(Number(v), locale, false);
  return v.replace(/"([^"]*)"/g, '„$1“');
}

/** Fill `{name}`; undefined when a placeholder has no value. */
function fill(text: string, vars: Record<string, string>): string | undefined {
  let missing = false;
  const out = text.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name in vars) return vars[name];
    missing = true;
    return '';
  });
  return missing ? undefined : out;
}

/** What a column takes, in words, from the `exp…` params (as expectation() in electron/core/workbook/columns.ts). */
export function expectedText(params: IssueParams, locale: Locale): string | undefined {
  const type = params.expType;
  if (typeof type !== 'string') return undefined;
  const t = template(locale, `expect.${type}`);
  if (t === undefined) return undefined;
  const num = (v: string | number | undefined) => (typeof v === 'number' ? formatNum(v, locale, false) : v);
  const min = num(params.expMin);
  const max = num(params.expMax);
  let rangeKey: string | null = null;
  if (type === 'integer' || type === 'decimal') {
    if (min !== undefined && max !== undefined) rangeKey = params.expMinExclusive ? 'gtLe' : 'fromTo';
    else if (min !== undefined) rangeKey = params.expMinExclusive ? 'gt' : 'min';
    else if (max !== undefined) rangeKey = 'max';
  }
  const vars: Record<string, string> = {};
  if (min !== undefined) vars.min = min;
  if (max !== undefined) vars.max = max;
  if (params.expMaxLength !== undefined) vars.maxLength = String(num(params.expMaxLength));
  if (params.expAllowed !== undefined) vars.allowed = String(params.expAllowed);
  vars.range = rangeKey ? (fill(template(locale, `expect.range.${rangeKey}`) ?? '', vars) ?? '') : '';
  vars.unit =
    typeof params.expUnit === 'string'
      ? (fill(template(locale, 'expect.unit') ?? '', { unit: params.expUnit }) ?? '')
      : '';
  return fill(t, vars);
}

/** Template keys to try for an issue, most specific first. */
function keysFor(code: string, params: IssueParams): string[] {
  const keys: string[] = [];
  if (code === 'rule' && typeof params.errCode === 'string') {
    if (typeof params.ruleField === 'string') keys.push(`issue.rule.${params.errCode}.${params.ruleField}`);
    keys.push(`issue.rule.${params.errCode}`);
  }
  if (typeof params.variant === 'string') keys.push(`issue.${code}.${params.variant}`);
  keys.push(`issue.${code}`);
  return keys;
}

/** The issue's text in `locale`; the core's English message when the code or a value is unknown. */
export function issueText(issue: IssueLike, locale: Locale): string {
  const code = issue.code;
  if (!code) return issue.message;
  const params = issue.params ?? {};
  const vars: Record<string, string> = {};
  for (const [k, v] of [
    ['field', issue.field],
    ['cell', issue.cell],
    ['sheet', issue.sheet],
    ['row', issue.row],
  ] as const)
    if (v !== null && v !== undefined) vars[k] = typeof v === 'number' ? String(v) : v;
  for (const [k, v] of Object.entries(params))
    vars[k] = typeof v === 'number' ? formatNum(v, locale, GROUPED.has(k)) : shownValue(v, locale);
  const expected = expectedText(params, locale);
  if (expected !== undefined) vars.expected = expected;
  for (const key of keysFor(code, params)) {
    const t = template(locale, key);
    if (t === undefined) continue;
    let text = fill(t, vars);
    if (text === undefined) continue;
    if (code === 'rule' && vars.got !== undefined && !t.includes('{got}'))
      text += fill(template(locale, 'issue.gotSuffix') ?? '', vars) ?? '';
    return text.replace(/ {2,}/g, ' ');
  }
  return issue.message;
}

/** A dry-run problem in `locale`: a workbook issue by its code; the planner's own problems by kind, with its message. */
export function problemText(problem: ProblemLike, locale: Locale): string {
  if (problem.code) return issueText(problem, locale);
  const label = template(locale, `problem.${problem.kind}`);
  return label && locale !== 'en' ? `${label}: ${problem.message}` : problem.message;
}
