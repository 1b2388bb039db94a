/** A job's result: the totals beside the outcome chips and the table of rows add up to them and say what they count. */
import { describe, expect, it } from 'vitest';
import { translate } from '../../renderer/src/i18n/index.js';
import { countRows, resultTotals } from '../../renderer/src/screens/import/planView.js';

describe('the totals of a job result', () => {
  // 10 entities created, 1 failed; their 13 worksheet rows (a supplier product with its hazardous substances)
  const counts = { created: 10, failed: 1 };
  const table = countRows({
    'supplier-companies': { created: 4 },
    'supplier-products': { created: 6, failed: 1 },
    'hazardous-substances': { created: 2 },
  });

  it('the worksheet rows are the table total, the entities the sum of the chips', () => {
    expect(resultTotals(counts, table)).toEqual({ rows: 13, entities: 11 });
    expect(translate('en', 'results.rowsEntries', { rows: 13, entries: 11 })).toBe('13 worksheet rows in 11 entities');
  });

  it('each chip says it counts entities', () => {
    expect(translate('en', 'results.outcomeEntities', { outcome: 'Created', count: 10 })).toBe('Created: 10 entities');
    expect(translate('de', 'results.outcomeEntities', { outcome: 'Angelegt', count: 1 })).toBe('Angelegt: 1 Eintrag');
  });
});
