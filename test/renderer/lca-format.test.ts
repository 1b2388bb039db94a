/** LCA values in the app: significant digits, grouped, never exponent notation (3.219e+8 is not how an EPD reads). */
import { describe, expect, it } from 'vitest';
import { formatSignificant } from '../../renderer/src/components/format.js';

describe('formatSignificant', () => {
  it('large annual totals are grouped whole numbers, small per-kg values keep their digits', () => {
    expect(formatSignificant(321_912_345.6, 'en')).toBe('321,900,000');
    expect(formatSignificant(1_210_621.095, 'en')).toBe('1,211,000');
    expect(formatSignificant(798.6543, 'en')).toBe('798.7');
    expect(formatSignificant(0.000123456, 'en')).toBe('0.0001235');
    expect(formatSignificant(-5_934_197.289, 'en')).toBe('-5,934,000');
    expect(formatSignificant(0, 'en')).toBe('0');
  });

  it('in German with German separators', () => {
    expect(formatSignificant(321_912_345.6, 'de')).toBe('321.900.000');
    expect(formatSignificant(0.000123456, 'de')).toBe('0,0001235');
  });

  it('never writes an exponent', () => {
    for (const v of [3.219e8, 1e-7, 6.02e23, -4.2e-9]) expect(formatSignificant(v, 'en')).not.toMatch(/e/i);
  });
});
