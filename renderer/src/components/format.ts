/**
 * Formatting for the work screens (Import, Jobs, Export, LCA): numbers, durations, ETA, rates, cell values
 * and the tone of an action or outcome. Pure functions, so they are unit-tested (test/renderer/work-logic).
 */
import type { Locale } from '../i18n/index.js';

export function formatNumber(n: number, locale: Locale, maximumFractionDigits = 0): string {
  return n.toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits });
}

/**
 * An LCA value as practitioners read it: four significant digits, grouped, never in exponent notation
 * ("321,900,000", "1,211,000", "0.0001234"; German "321.900.000", "0,0001234").
 */
export function formatSignificant(n: number, locale: Locale, digits = 4): string {
  if (n === 0) return '0'; // never "-0"
  return n.toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', { maximumSignificantDigits: digits });
}

/**
 * A percentage (already ×100) with its sign kept to the number by a no-break space ("3.3 %", never "3.3" at a
 * line's end and "%" on the next): one decimal, two significant digits below 0.1 % ("0.042 %"), and float noise
 * or a rounded-away value is "0 %", never "-0 %".
 */
export function formatPercent(v: number, locale: Locale): string {
  const tag = locale === 'de' ? 'de-DE' : 'en-GB';
  const abs = Math.abs(v);
  const text =
    abs < 1e-9
      ? '0'
      : abs < 0.1
        ? v.toLocaleString(tag, { maximumSignificantDigits: 2 })
        : v.toLocaleString(tag, { maximumFractionDigits: 1 });
  return `${/^-0([.,]0*)?$/.test(text) ? '0' : text}\u00a0%`;
}

/**
 * A chart axis tick at any magnitude: large values compact ("329M", "1.2k"), the rest with three significant
 * digits ("798", "0.0000066"): a small indicator such as ODP (~1e-6 per declared unit) is never "0".
 */
export function formatAxisTick(n: number, locale: Locale): string {
  if (Math.abs(n) >= 10_000) return formatCompact(n, locale);
  return formatSignificant(n, locale, 3);
}

/** A value from the service or a workbook cell, for a table: numbers in the user's locale, blanks as a dash. */
export function formatValue(v: string | number | boolean | null | undefined, locale: Locale): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'number') return formatNumber(v, locale, 6);
  if (typeof v === 'boolean') return v ? '✓' : '✗';
  return v;
}

/**
 * Fields whose numbers are identifiers or calendar years, never quantities: `year`, `produced_from`,
 * `produced_to`, any `…_code`, `…_id`, `external_id`, `cas_number`, postal codes. They are shown as written
 * ("2024", not "2,024"). Matched on the last part of a dotted or indexed field name (`items[SP-1][2025]` is an
 * amount; `transport_route.year` would be a year).
 */
const PLAIN_FIELD = /(^|_)(year|years|from|to|code|id|zip|postcode|postal_code|cas_number|number)$/i;

export function isPlainField(field: string): boolean {
  if (field.endsWith(']')) return false; // items[SP-1][2025]: an amount per year
  const last = field.split('.').pop() ?? field;
  return PLAIN_FIELD.test(last);
}

/** A value of a named field: years and codes as written, quantities in the user's locale. */
export function formatFieldValue(
  field: string,
  v: string | number | boolean | null | undefined,
  locale: Locale,
): string {
  if (typeof v === 'number' && isPlainField(field)) return String(v);
  return formatValue(v, locale);
}

/**
 * Seconds as people say them: "45 s", "3 min 20 s", "2 h 05 min". Rounded so it does not flicker: whole seconds
 * under a minute, 5-second steps under 10 minutes, whole minutes above.
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 600) {
    const r = Math.round(s / 5) * 5;
    const m = Math.floor(r / 60);
    const rest = r % 60;
    return rest === 0 ? `${m} min` : `${m} min ${rest} s`;
  }
  const mins = Math.round(s / 60);
  if (mins < 60) return `${mins} min`;
  const h = Math.floor(mins / 60);
  return `${h} h ${String(mins % 60).padStart(2, '0')} min`;
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  return formatDuration(ms / 1000);
}

/** Rows per second: one decimal below 10, whole numbers above. */
export function formatRate(rowsPerS: number, locale: Locale): string {
  if (!Number.isFinite(rowsPerS) || rowsPerS <= 0) return '—';
  return formatNumber(rowsPerS, locale, rowsPerS < 10 ? 1 : 0);
}

/**
 * Time left from what is done and the current rate; null until it can be known (no rate yet, or nothing done).
 * Uses the engine's own estimate when it gave one.
 */
export function etaSeconds(done: number, total: number, rowsPerS: number, engineEta: number | null): number | null {
  if (engineEta !== null && Number.isFinite(engineEta) && engineEta >= 0) return engineEta;
  if (done >= total) return 0;
  if (!Number.isFinite(rowsPerS) || rowsPerS <= 0 || done === 0) return null;
  return (total - done) / rowsPerS;
}

export function percent(done: number, total: number): number {
  if (total <= 0) return done > 0 ? 100 : 0;
  return Math.max(0, Math.min(100, Math.floor((done / total) * 100)));
}

export type Tone = 'ok' | 'change' | 'neutral' | 'warn' | 'bad';

const ACTION_TONE: Record<string, Tone> = {
  create: 'ok',
  update: 'change',
  replace: 'change',
  unchanged: 'neutral',
  skipped_update: 'neutral',
  blocked: 'bad',
  conflict: 'bad',
  // a delete is destructive: red, never the green of a create
  delete: 'bad',
};

const OUTCOME_TONE: Record<string, Tone> = {
  created: 'ok',
  replayed: 'ok',
  already_existed: 'ok',
  updated: 'change',
  replaced: 'change',
  // deleted on the service: destructive, red like a delete in the dry run
  deleted: 'bad',
  already_absent: 'neutral',
  unchanged: 'neutral',
  skipped: 'warn',
  failed: 'bad',
  pending: 'neutral',
};

export function actionTone(action: string): Tone {
  return ACTION_TONE[action] ?? 'neutral';
}

export function outcomeTone(outcome: string, reason?: string | null): Tone {
  if (outcome === 'skipped' && reason === 'create_only') return 'neutral';
  return OUTCOME_TONE[outcome] ?? 'neutral';
}

/** ISO time → local date and time, as the user reads it (never shifted as text). */
export function formatDateTime(iso: string | null, locale: Locale): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** "svc-abc-****" is already masked; anything else that looks like a key is never shown. */
export function safeKeyText(masked: string): string {
  return /^svc-[A-Za-z0-9]+-\*{4}$/.test(masked) ? masked : '—';
}

/** Large numbers on a chart axis: "329 M", "1.2 k" (compact, in the user's locale). */
export function formatCompact(n: number, locale: Locale): string {
  // en-US: "340M" (en-GB writes "340m", which reads like milli)
  return n.toLocaleString(locale === 'de' ? 'de-DE' : 'en-US', { notation: 'compact', maximumFractionDigits: 1 });
}

/**
 * A name's parts, each ending after a separator (`_`, `-`, `.`, `/`, `\`): the places a file or sheet name may
 * wrap ("Lieferanten_2026-02.csv" → "Lieferanten_", "2026-", "02.", "csv").
 */
export function nameParts(name: string): string[] {
  return name.split(/(?<=[-_./\\])(?=.)/);
}
