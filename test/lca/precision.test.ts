/** Float noise off LCA numbers: 12 significant digits, and a difference below them is 0. */
import { describe, expect, it } from 'vitest';
import { difference, withoutFloatNoise } from '../../core/lca/precision.js';

describe('withoutFloatNoise', () => {
  it('drops the binary rounding error of a sum or quotient', () => {
    expect(withoutFloatNoise(11147827.499999998)).toBe(11147827.5);
    expect(withoutFloatNoise(0.1 + 0.2)).toBe(0.3);
    expect(withoutFloatNoise(5.68e-14)).toBe(5.68e-14); // a small value is not noise by itself
    expect(withoutFloatNoise(6.6e-6 / 3)).toBe(0.0000022);
  });

  it('never -0; whole numbers (years, numeric codes) as they are', () => {
    expect(Object.is(withoutFloatNoise(-0), 0)).toBe(true);
    expect(withoutFloatNoise(1234567890123456)).toBe(1234567890123456);
    expect(withoutFloatNoise(Number.NaN)).toBeNaN();
  });
});

describe('difference', () => {
  it('two equal values that went through different float operations differ by 0', () => {
    const a = (0.1 + 0.2) * 1e6;
    const b = 0.3 * 1e6;
    expect(a - b).not.toBe(0);
    expect(difference(a, b)).toBe(0);
    expect(difference(11147827.5, 11147827.499999998)).toBe(0);
    expect(Object.is(difference(1, 1), 0)).toBe(true);
  });

  it('a real change is kept, without noise', () => {
    expect(difference(1250, 1000)).toBe(250);
    expect(difference(0.3, 0.1)).toBe(0.2);
    expect(difference(6.6e-6, 6.5e-6)).toBe(1e-7);
  });
});
