/**
 * The pure parts of the LCA impact views: a change with its sign, the instance's name, and the waterfall of one
 * change by source (before, each source's change from the running total, after) on one scale.
 */
import { formatSignificant } from '../../components/format.js';
import type { EntityKind, LcaAbortReason, LcaOutcome } from '../../../../core/names.js';
import { indicatorUnit } from '../../i18n/core-text.js';
import type { Locale, MessageKey, T } from '../../i18n/index.js';
import { ENTITY_KIND_MESSAGE, LCA_ABORT_MESSAGE, LCA_OUTCOME_MESSAGE } from '../../i18n/names.js';

/** An LCA value (four significant digits), "—" when there is none. */
export function lcaValue(v: number | null, locale: Locale): string {
  return v === null ? '—' : formatSignificant(v, locale);
}

/** A change with its sign ("+2.5", "−0.3", "0"); the minus is the typographic one, kept to its number. */
export function signedChange(v: number | null, locale: Locale): string {
  if (v === null) return '—';
  if (v === 0) return '0';
  const text = formatSignificant(Math.abs(v), locale);
  return v > 0 ? `+${text}` : `\u2212${text}`;
}

/** An instance as the panel names it: its code, else its service id; with its plant. */
export function instanceName(i: { externalId: string | null; instanceId: string | null; plantCode?: string | null }) {
  const code = i.externalId ?? i.instanceId ?? '—';
  return i.plantCode ? `${code} @ ${i.plantCode}` : code;
}

export interface WaterfallStep {
  kind: 'before' | 'up' | 'down' | 'after';
  /** where the bar starts and ends, in the value's unit */
  from: number;
  to: number;
  /** the value shown: the total (before, after) or the change */
  value: number;
  /** index into the lines (changes only) */
  line: number | null;
}

export interface Waterfall {
  steps: WaterfallStep[];
  min: number;
  max: number;
}

/**
 * Before, each line's change from the running total, after. Without a before value the changes start at 0 (a
 * plain chart of the attribution); without an after value the last bar is the running total.
 */
export function waterfall(before: number | null, changes: readonly number[], after: number | null): Waterfall {
  const steps: WaterfallStep[] = [];
  let at = before ?? 0;
  if (before !== null) steps.push({ kind: 'before', from: 0, to: before, value: before, line: null });
  changes.forEach((c, line) => {
    steps.push({ kind: c >= 0 ? 'up' : 'down', from: at, to: at + c, value: c, line });
    at += c;
  });
  if (before !== null) {
    const end = after ?? at;
    steps.push({ kind: 'after', from: 0, to: end, value: end, line: null });
  }
  const ends = steps.flatMap((s) => [s.from, s.to]);
  return { steps, min: Math.min(0, ...ends), max: Math.max(0, ...ends) };
}

/** A bar's place on the track, in percent of its width (left, width); a zero-length bar keeps a hairline. */
export function barPlace(s: WaterfallStep, w: Waterfall): { left: number; width: number } {
  const span = w.max - w.min || 1;
  const lo = Math.min(s.from, s.to);
  const hi = Math.max(s.from, s.to);
  return { left: ((lo - w.min) / span) * 100, width: ((hi - lo) / span) * 100 };
}

/**
 * What affects an instance in the words of the UI's language ("silo E-SILO-1"); a prechain instance's cause by
 * the kind of what changed in the instance it stands for; the plan's words for a kind the app does not know.
 */
const CAUSE_ENTITY: Readonly<Record<string, EntityKind>> = {
  bom: 'bom',
  production: 'production',
  supplier_product: 'supplier_product',
  silo: 'silo',
  prechain_product: 'prechain_product',
};
export function causeText(
  t: T,
  c: { kind: string; ofKind?: string | null; code: string | null; label: string },
): string {
  const kind = CAUSE_ENTITY[c.kind === 'prechain_instance' ? (c.ofKind ?? '') : c.kind];
  return kind && c.code ? t(ENTITY_KIND_MESSAGE[kind], { code: c.code }) : c.label;
}

/** A text of the impact (core/lca/impact/types.ts IMPACT_TEXT_CODES) as code and parameters. */
export interface ImpactTextCode {
  code: string;
  params: Record<string, string | number>;
}

const TEXT_MESSAGE: Readonly<Record<string, MessageKey>> = {
  production_changed: 'impact.t.production_changed',
  new_instance: 'impact.t.new_instance',
  component_created: 'impact.t.component_created',
  no_current_per_unit: 'impact.t.no_current_per_unit',
  no_breakdown: 'impact.t.no_breakdown',
  added_without_per_kg: 'impact.t.added_without_per_kg',
  no_current_results: 'impact.t.no_current_results',
  mass_changed: 'impact.t.mass_changed',
  removed: 'impact.t.removed',
  added: 'impact.t.added',
  not_found_after: 'impact.t.not_found_after',
  no_before: 'impact.t.no_before',
  not_read_after: 'impact.t.not_read_after',
};
const CHANGED_MESSAGE: Readonly<Record<string, MessageKey>> = {
  create: 'impact.t.changed.create',
  delete: 'impact.t.changed.delete',
};

/**
 * One of the impact's texts in the UI's language, from its code and parameters; the core's English words when
 * there is no code (kept by an older version) or the app does not know it.
 */
export function impactText(t: T, locale: Locale, c: ImpactTextCode | null | undefined, words: string): string {
  if (!c) return words;
  const p = c.params;
  const str = (k: string) => (p[k] === undefined ? '' : String(p[k]));
  const num = (k: string) => (typeof p[k] === 'number' ? formatSignificant(p[k], locale) : str(k));
  if (c.code === 'component_changed') {
    const kind = str('kind') === 'prechain_instance' ? str('of_kind') : str('kind');
    const what = causeText(t, { kind, code: str('code') || null, label: str('code') });
    const via = CAUSE_ENTITY[str('via_kind')];
    const thing = via
      ? t('impact.t.through', { what, via: t(ENTITY_KIND_MESSAGE[via], { code: str('via_code') }) })
      : what;
    return t(CHANGED_MESSAGE[str('action')] ?? 'impact.t.changed.update', { what: thing });
  }
  if (c.code === 'unread_before') {
    const outcome = LCA_OUTCOME_MESSAGE[str('outcome') as LcaOutcome];
    const err = str('err_code');
    return `${t('impact.t.unread_before', { instance: str('instance'), outcome: outcome ? t(outcome) : str('outcome') })}${err ? ` (${err})` : ''}`;
  }
  if (c.code === 'read_stopped') {
    const why = LCA_ABORT_MESSAGE[str('reason') as LcaAbortReason];
    if (!why) return words;
    const err = str('err_code');
    return `${t('impact.t.read_stopped', { why: t(why) })}${err ? ` (${err})` : ''}`;
  }
  if (c.code === 'outcome') {
    const outcome = LCA_OUTCOME_MESSAGE[str('outcome') as LcaOutcome];
    const side = t(str('side') === 'before' ? 'impact.col.before' : 'impact.col.after');
    const err = str('err_code');
    return `${side}: ${outcome ? t(outcome) : str('outcome')}${err ? ` (${err})` : ''}`;
  }
  const key = TEXT_MESSAGE[c.code];
  if (!key) return words;
  return t(key, {
    year: str('year'),
    code: str('code'),
    instance: str('instance'),
    from: c.code === 'added' ? str('from') : num('from'),
    to: num('to'),
    mass: num('mass'),
  });
}

/** Why a year has no result, in the UI's language for the production-data blockers; the service's words else. */
export function blockerText(t: T, why: string, year: number): string {
  if (why.startsWith('blk_production_data_missing')) return t('lca.blk.productionData', { year });
  if (why.startsWith('blk_production_year_not_reached')) return t('lca.blk.futureYear', { year });
  return why;
}

/** A unit in the UI's language ("kg CO2-Äq."), nothing when there is none. */
export function unitText(unit: string | null, locale: Locale): string {
  return unit === null ? '' : indicatorUnit(unit, locale);
}
