/**
 * What the check's summary counts, said as what it is: the rows of the data sheets (the entities to import) apart
 * from the rows of the code mappings (plants, materials), which are reference rows, not data.
 */
import { CODE_MAPPING_SHEETS } from '../../../../core/workbook/types.js';
import type { ImportValidation } from '../../../../core/ipc/contract.js';
import { formatNumber } from '../../components/format.js';
import type { Locale, T } from '../../i18n/index.js';

const REFERENCE = new Set<string>(CODE_MAPPING_SHEETS);

/** The rows of the check's sheets: data rows and reference rows (they add up to the rows read). */
export function rowCounts(sheets: ImportValidation['sheets']): { data: number; reference: number } {
  let data = 0;
  let reference = 0;
  for (const s of sheets) {
    if (REFERENCE.has(s.name)) reference += s.rows;
    else data += s.rows;
  }
  return { data, reference };
}

/** "16 data rows and 47 reference rows (plant and material codes)", or "16 rows" when there are no reference rows. */
export function rowsWhat(sheets: ImportValidation['sheets'], t: T, locale: Locale): string {
  const { data, reference } = rowCounts(sheets);
  return reference === 0
    ? t('check.rowsWhat', { rows: formatNumber(data, locale) })
    : t('check.rowsWhatSplit', { rows: formatNumber(data, locale), reference: formatNumber(reference, locale) });
}
