/**
 * Texts the core keeps in both languages as data (the err_code catalog's explanations and actions, the
 * EN 15804+A2 indicator names and units), in the UI's language. The one place the renderer picks a language of
 * core data: components call these and never choose between an English and a German field themselves.
 */
import { explainErrCode } from '../../../core/api/errors.js';
import { INDICATOR_INFO, indicatorInfo } from '../../../core/lca/indicators.js';
import type { Locale } from '../../../core/names.js';
import type { T } from './index.js';
import type { IgnoredSheetReason } from '../../../core/workbook/reader.js';

export interface ErrCodeText {
  /** Whether the catalog knows the code (an unknown one gets a general explanation). */
  known: boolean;
  explanation: string;
  /** What the user can do about it, when the catalog says. */
  action: string | null;
}

/** An err_code explained in the UI's language. */
export function errCodeText(code: string, locale: Locale): ErrCodeText {
  const info = explainErrCode(code);
  return locale === 'de'
    ? { known: info.known, explanation: info.explanation_de, action: info.action_de ?? null }
    : { known: info.known, explanation: info.explanation, action: info.action ?? null };
}

/** An indicator's name in the UI's language; null for a code the indicator list does not have. */
export function indicatorName(code: string, locale: Locale): string | null {
  const info = indicatorInfo(code);
  if (!info) return null;
  return locale === 'de' ? info.name_de : info.name_en;
}

const GERMAN_UNIT = new Map(INDICATOR_INFO.map((i) => [i.unit, i.unit_de]));

/**
 * An indicator's unit as the service writes it ("kg CO2 eq.") in the UI's language ("kg CO2-Äq."); a unit the
 * indicator list does not have stays as it came.
 */
export function indicatorUnit(unit: string, locale: Locale): string {
  return locale === 'de' ? (GERMAN_UNIT.get(unit) ?? unit) : unit;
}

/** The notes of the LCA chart's points (core/lca/analysis.ts), known by their shapes. */
const CHART_NOTES: readonly [RegExp, (m: Record<string, string>, t: T) => string][] = [
  [/^no production quantity given for this year: no value per declared unit$/, (_, t) => t('lca.chartNote.noQuantity')],
  [/^production quantity is 0: no value per declared unit$/, (_, t) => t('lca.chartNote.zeroQuantity')],
  [
    /^(?<missing>.+) not declared for this year: the value holds (?<modules>.+) only$/,
    (m, t) => t('lca.chartNote.missingModules', { missing: m.missing, modules: m.modules }),
  ],
];

/** A note of a point of the LCA chart in the UI's words; a note of another shape stays as it came. */
export function chartNoteText(note: string, t: T): string {
  for (const [shape, words] of CHART_NOTES) {
    const m = shape.exec(note);
    if (m) return words({ ...m.groups }, t);
  }
  return note;
}

const IGNORED_SHEET_SHAPES: Readonly<Record<IgnoredSheetReason, RegExp>> = {
  unknown: /^not a Supply Loader sheet$/,
  referenceOnly: /^reference only$/,
  instructions: /^instructions and lists$/,
  second: /^a second (?<sheet>\S+) sheet$/,
};

/** Why a sheet is not read (core/workbook/reader.ts IGNORED_SHEET_REASONS) in the UI's words; as it came when unknown. */
export function ignoredSheetText(reason: string, t: T): string {
  for (const [name, shape] of Object.entries(IGNORED_SHEET_SHAPES) as [IgnoredSheetReason, RegExp][]) {
    const m = shape.exec(reason);
    if (m) return t(`check.ignoredReason.${name}`, { ...m.groups });
  }
  return reason;
}
