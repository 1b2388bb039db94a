/** The check's summary says what it counts: data rows apart from the code mappings' reference rows. */
import { describe, expect, it } from 'vitest';
import type { ImportValidation } from '../../core/ipc/contract.js';
import { translate, type Locale, type MessageKey } from '../../renderer/src/i18n/index.js';
import { rowCounts, rowsWhat } from '../../renderer/src/screens/import/checkCounts.js';

const tOf = (locale: Locale) => (key: MessageKey, vars?: Record<string, string | number>) =>
  translate(locale, key, vars);
const sheet = (name: string, rows: number) =>
  ({ name, sheetName: name, rows, blockedRows: 0 }) as ImportValidation['sheets'][number];

describe('the check summary counts', () => {
  const sheets = [sheet('plants', 12), sheet('materials', 35), sheet('supplier-companies', 6), sheet('bom', 10)];

  it('data rows and reference rows add up to the rows read', () => {
    expect(rowCounts(sheets)).toEqual({ data: 16, reference: 47 });
  });

  it('"No problems found in 16 data rows and 47 reference rows", not in 63 rows', () => {
    const en = translate('en', 'check.ok', { what: rowsWhat(sheets, tOf('en'), 'en') });
    expect(en).toBe('No problems found in 16 data rows and 47 reference rows (plant and material codes).');
    const de = translate('de', 'check.ok', { what: rowsWhat(sheets, tOf('de'), 'de') });
    expect(de).toBe('Keine Probleme in 16 Datenzeilen und 47 Zuordnungszeilen (Werks- und Materialcodes) gefunden.');
  });

  it('without reference rows, just the rows', () => {
    expect(rowsWhat([sheet('supplier-companies', 1)], tOf('en'), 'en')).toBe('1 row');
  });
});
