/**
 * An issue of the workbook check (or a problem of the dry run) in the user's language, from its `code` and
 * `params`: the template `issue.<code>.<variant>` or `issue.<code>` (renderer/src/i18n/issues-*.ts) filled with
 * the params plus the issue's field, cell, sheet and row; fields by their labels (`{field}`, `{ruleField}`, and
 * `{label:produced_from}` in a template for a field it names itself). `{expected}` is worded from the `exp…` params (what the
 * column takes). When the code is unknown to this version, or the template needs a value the issue does not
 * carry, the core's English `message` is shown as it is — never raw JSON, never a `{placeholder}`.
 */
import { catalogues, type Locale } from '../../i18n/index.js';
import { fieldLabel } from '../../i18n/field-labels.js';
import { usersText } from '../../i18n/in-use-words.js';

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

/** Issues about a header: their `{field}` is the field name to type in the header row, not its label. */
const HEADER_CODES = new Set(['missing_header', 'duplicate_header', 'header_normalised', 'missing_column']);

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

/** What a column takes, in words, from the `exp…` params (as expectation() in core/workbook/columns.ts). */
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

/** The title of a group of issues with one code (the issue list grouped by kind); the code itself when unknown. */
export function issueGroupTitle(code: string, locale: Locale): string {
  return template(locale, `issueGroup.${code}`) ?? code;
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
  return render(issue, locale, 'issue', {});
}

/**
 * Codes of the planner's own problems (PLAN_PROBLEM_CODES in core/jobs/types.ts): their templates are
 * `plan.<code>[.<variant>]`. Workbook issue codes that are also plan-problem codes do not exist (the test checks).
 */
const PLAN_PARAM_WORDS: Record<string, (v: string) => [name: string, key: string]> = {
  entityKind: (v) => ['entity', `entity.${v}`],
  targetKind: (v) => ['target', `entity.${v}`],
  resource: (v) => ['what', `resource.${v}`],
  verb: (v) => ['action', `verb.${v}`],
};

function render(issue: IssueLike, locale: Locale, prefix: 'issue' | 'plan', words: Record<string, string>): string {
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
  // a field by its label, except where the header itself is the matter (what is to be typed in row 1)
  if (issue.field && !HEADER_CODES.has(code)) vars.field = fieldLabel(issue.field, locale);
  for (const [k, v] of Object.entries(params))
    vars[k] = typeof v === 'number' ? formatNum(v, locale, GROUPED.has(k)) : shownValue(v, locale);
  // the field a rule of the service concerns, by its label
  if (typeof params.ruleField === 'string') vars.ruleField = fieldLabel(params.ruleField, locale);
  // fields listed by name (`name, country`: not used by a delete row, under a merged cell), by their labels
  if (typeof params.fields === 'string')
    vars.fields = params.fields
      .split(', ')
      .map((f) => fieldLabel(f, locale))
      .join(', ');
  Object.assign(vars, words);
  const expected = expectedText(params, locale);
  if (expected !== undefined) vars.expected = expected;
  const keys = prefix === 'issue' ? keysFor(code, params) : keysFor(code, params).map((k) => `plan.${k.slice(6)}`);
  for (const key of keys) {
    const raw = template(locale, key);
    if (raw === undefined) continue;
    // a field the template names itself, by its label
    const t = raw.replace(/\{label:(\w+)\}/g, (_, f: string) => fieldLabel(f, locale));
    let text = fill(t, vars);
    if (text === undefined) continue;
    if (code === 'rule' && vars.got !== undefined && !t.includes('{got}'))
      text += fill(template(locale, 'issue.gotSuffix') ?? '', vars) ?? '';
    // the closest known codes of an unknown one, for templates that do not place them themselves
    if (vars.hint !== undefined && !t.includes('{hint}'))
      text += fill(template(locale, 'issue.hintSuffix') ?? '', vars) ?? '';
    // the unknown code that causes it, at its cell (an error of a rule across sheets)
    if (vars.cause !== undefined && !t.includes('{cause}'))
      text += fill(template(locale, 'issue.causeSuffix') ?? '', vars) ?? '';
    return text.replace(/ {2,}/g, ' ');
  }
  return issue.message;
}

/**
 * A dry-run problem in `locale`: a workbook issue by its code, a planner problem by its `plan.<code>` template
 * (entity kinds, resources and verbs in its params worded by `entity.*`, `entities.*`, `resource.*`, `verb.*`);
 * a problem without a known code by its kind's label with the English message.
 */
export function problemText(problem: ProblemLike, locale: Locale): string {
  // a rule of the service found in a row of the dry run: worded as the check words that rule, by its err_code
  const errCode = problem.params?.errCode;
  if (
    problem.code === 'row_rule' &&
    typeof errCode === 'string' &&
    problem.field &&
    (template(locale, `issue.rule.${errCode}.${problem.field}`) ?? template(locale, `issue.rule.${errCode}`)) !==
      undefined
  )
    return issueText({ ...problem, code: 'rule', params: { ...problem.params, ruleField: problem.field } }, locale);
  if (problem.code && template(locale, `plan.${problem.code}`) !== undefined) {
    const words: Record<string, string> = {};
    for (const [k, v] of Object.entries(problem.params ?? {})) {
      const word = PLAN_PARAM_WORDS[k];
      if (!word || typeof v !== 'string') continue;
      const [name, key] = word(v);
      const w = template(locale, key);
      if (w === undefined) return problem.message;
      words[name] = w;
      if (k === 'entityKind') words.entities = template(locale, `entities.${v}`) ?? w;
    }
    // the users of a blocked delete, worded as the entity kinds are
    if (typeof problem.params?.users === 'string') words.users = usersText(problem.params.users, locale);
    return render(problem, locale, 'plan', words);
  }
  if (problem.code) return issueText(problem, locale);
  const label = template(locale, `problem.${problem.kind}`);
  return label && locale !== 'en' ? `${label}: ${problem.message}` : problem.message;
}
