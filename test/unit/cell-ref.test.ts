/** Cell references, once (core/workbook/cell-ref.ts): letters ↔ numbers, both ways. */
import { describe, expect, it } from 'vitest';
import { columnLetter, columnNumber } from '../../core/workbook/cell-ref.js';

describe('cell references', () => {
  it('numbers to letters and back', () => {
    expect([1, 26, 27, 52, 53, 702, 703, 16384].map(columnLetter)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ]);
    for (let n = 1; n <= 20_000; n++) expect(columnNumber(columnLetter(n))).toBe(n);
    expect(columnNumber('aa')).toBe(27);
  });
});
