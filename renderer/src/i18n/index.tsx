/**
 * One catalogue per language (en.ts is the reference, de.ts has the same keys — test/renderer/i18n.test.ts).
 * The language follows the OS (navigator.language) unless the user picks one.
 */
import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { de } from './de.js';
import { en } from './en.js';
import type { MessageKey, Messages } from './en.js';
import type { Locale } from '../../../core/names.js';

export type { Locale } from '../../../core/names.js';
export const catalogues: Record<Locale, Messages> = { en, de };

export function localeFromNavigator(languages: readonly string[] | undefined, fallback = 'en'): Locale {
  for (const l of languages ?? [fallback]) {
    const base = l.toLowerCase().split('-')[0];
    if (base === 'de') return 'de';
    if (base === 'en') return 'en';
  }
  return 'en';
}

export function resolveLocale(pref: 'system' | Locale, languages?: readonly string[]): Locale {
  return pref === 'system' ? localeFromNavigator(languages) : pref;
}

export type Vars = Record<string, string | number>;

/** `{count, plural, one {# row} other {# rows}}`: the form of a count, chosen by Intl.PluralRules. */
const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const PLURAL_FORM = /(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;

/** The number a count placeholder stands for: a number, or a count already formatted ("1.234", "1,234"). */
function countOf(v: string | number): number {
  return typeof v === 'number' ? v : Number(v.replace(/[^\d]/g, ''));
}

function plural(locale: Locale, forms: string, value: string | number): string {
  const n = countOf(value);
  const byName = new Map([...forms.matchAll(PLURAL_FORM)].map((m) => [m[1], m[2]]));
  const form = byName.get(`=${n}`) ?? byName.get(new Intl.PluralRules(locale).select(n)) ?? byName.get('other') ?? '';
  return form.replace(/#/g, String(value));
}

/**
 * Look up a message and fill `{name}` placeholders and `{name, plural, one {…} other {…}}` counts (`#` is the
 * count as given). An unknown placeholder stays visible, never crashes.
 */
/** `{label:external_id}`: a field named in a text, by its label from the one table of field labels (`field.*`). */
const FIELD_LABEL = /\{label:(\w+)\}/g;

function withFieldLabels(locale: Locale, text: string): string {
  if (!text.includes('{label:')) return text;
  const cat = catalogues[locale] as Record<string, string>;
  return text.replace(FIELD_LABEL, (m, field: string) => cat[`field.${field}`] ?? m);
}

export function translate(locale: Locale, key: MessageKey, vars?: Vars): string {
  const text = withFieldLabels(locale, catalogues[locale][key] ?? en[key]);
  if (!vars) return text;
  return text
    .replace(PLURAL, (m, name: string, forms: string) => (name in vars ? plural(locale, forms, vars[name]) : m))
    .replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

export type T = (key: MessageKey, vars?: Vars) => string;

interface I18nValue {
  locale: Locale;
  t: T;
}

const I18nContext = createContext<I18nValue>({ locale: 'en', t: (k, v) => translate('en', k, v) });

export function I18nProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  const value: I18nValue = { locale, t: (k, v) => translate(locale, k, v) };
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  return useContext(I18nContext);
}

export type { MessageKey };
