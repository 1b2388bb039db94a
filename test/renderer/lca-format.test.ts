/** LCA values in the app: significant digits, grouped, never exponent notation (3.219e+8 is not how an EPD reads). */
import { describe, expect, it } from 'vitest';
import { formatAxisTick, formatPercent, formatSignificant } from '../../renderer/src/components/format.js';

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

describe('float noise and small values', () => {
  it('a zero is "0", never "-0"', () => {
    expect(formatSignificant(-0, 'en')).toBe('0');
  });

  it('percentages: the sign stays with its number, noise and rounded-away values are "0 %", small ones keep digits', () => {
    expect(formatPercent(3.3125, 'en')).toBe('3.3\u00a0%');
    expect(formatPercent(39.94, 'de')).toBe('39,9\u00a0%');
    expect(formatPercent(-0.00000000000011, 'en')).toBe('0\u00a0%');
    expect(formatPercent(-0, 'en')).toBe('0\u00a0%');
    expect(formatPercent(0.0421, 'en')).toBe('0.042\u00a0%');
    expect(formatPercent(-12.04, 'en')).toBe('-12\u00a0%');
    expect(formatPercent(-12.06, 'en')).toBe('-12.1\u00a0%');
  });

  it('axis ticks show significant digits at any magnitude: ODP per declared unit is not "0"', () => {
    expect(formatAxisTick(0.0000066, 'en')).toBe('0.0000066');
    expect(formatAxisTick(0.000002, 'de')).toBe('0,000002');
    expect(formatAxisTick(798.65, 'en')).toBe('799');
    expect(formatAxisTick(0, 'en')).toBe('0');
    expect(formatAxisTick(329_029_826, 'en')).toBe('329M');
  });
});
