/**
 * An updated row's changes as the job's results show them: the engine writes them `field: before → after; …`
 * with the core's field paths (`transport_route.truck_km`); each field is named by its label in the UI's language
 * (field-labels.ts), the values kept as written. A message of another form is kept as it came.
 */
import { fieldLabel } from '../i18n/field-labels.js';
import type { Locale } from '../i18n/index.js';

const FIELD = /^(?<field>[a-z_][a-z0-9_]*(?:\[[^\]]*\]|\.[a-z_][a-z0-9_]*)*): (?<rest>[\s\S]*)$/;

/** The changes of an updated row with its fields' labels; the message itself when it is not a list of changes. */
export function changesText(message: string, locale: Locale): string {
  const parts = message.split(/; (?=[a-z_][a-z0-9_.[\]]*: )/);
  const out: string[] = [];
  for (const p of parts) {
    const m = FIELD.exec(p)?.groups;
    if (!m) return message;
    out.push(`${fieldLabel(m.field!, locale)}: ${m.rest}`);
  }
  return out.join('; ');
}
