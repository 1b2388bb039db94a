/**
 * A field path of the core (`transport_route.truck_km`, `items[SP-1][2025]`, `production_figures[2024]`,
 * `production_figures[0].year`, `production!3.year`) as the user reads it: the field's label from the one table of
 * field labels (fields-en.ts, fields-de.ts). A service id field is labelled as the column that names it by code
 * (`supplier_company_id` as `supplier_company_external_id`); a path with no label stays as it came.
 */
import { catalogues, translate, type Locale, type MessageKey } from './index.js';

function labelKey(name: string, locale: Locale): MessageKey | undefined {
  const cat = catalogues[locale] as Record<string, string>;
  for (const key of [`field.${name}`, `field.${name.replace(/_id$/, '_external_id')}`])
    if (Object.hasOwn(cat, key)) return key as MessageKey;
  return undefined;
}

/** The label of a field path in `locale`; the path itself when no label is known. */
export function fieldLabel(path: string, locale: Locale): string {
  // a field of a row (`production!3.year`): the row is told elsewhere
  const field = path.replace(/^[^!]+![^.]+\./, '');
  let m = /^production_figures\[(?<year>\d{4})\]$/.exec(field)?.groups;
  if (m) return translate(locale, 'fieldPath.productionFigure', { year: m.year });
  m = /^items\[(?<code>.+)\]\[(?<year>\d{4})\]$/.exec(field)?.groups;
  if (m) return translate(locale, 'fieldPath.siloItem', { code: m.code, year: m.year });
  m = /^hazardous_substances\[(?<cas>[^\]]+)\]\.mass_share$/.exec(field)?.groups;
  if (m) return translate(locale, 'fieldPath.hazardMassShare', { cas: m.cas });
  // the last named part of a nested path (`transport_route.truck_km`, `production_figures[0].year`)
  const last = /(?:^|\.)(?<name>[a-z_]+)$/.exec(field)?.groups?.name;
  const key = last === undefined ? undefined : labelKey(last, locale);
  return key ? translate(locale, key) : path;
}
