/**
 * The sandbox's material factors: each material's A1-A3 factors are a record by indicator code (the type requires
 * every indicator but the derived GWP-total), so a value can only sit under the indicator it names.
 */
import { describe, expect, it } from 'vitest';
import { INDICATOR_CODES } from '../../sandbox/lca.js';
import { MATERIAL_FACTORS, type MaterialFactors } from '../../sandbox/lca-factors.js';

describe('material factors', () => {
  it('every material has a finite value for every indicator; GWP-total is fossil + biogenic + luluc', () => {
    expect(MATERIAL_FACTORS.length).toBeGreaterThan(0);
    for (const m of MATERIAL_FACTORS) {
      expect(Object.keys(m.factors).sort(), m.code).toEqual([...INDICATOR_CODES].sort());
      for (const c of INDICATOR_CODES) expect(Number.isFinite(m.factors[c]), `${m.code} ${c}`).toBe(true);
      const f = m.factors;
      expect(f['GWP-total']).toBeCloseTo(f['GWP-fossil'] + f['GWP-biogenic'] + f['GWP-luluc'], 12);
    }
  });

  it('each value under the indicator it names (clinker and paper as published in the data)', () => {
    const by = new Map(MATERIAL_FACTORS.map((m) => [m.code, m]));
    expect(by.get('MAT-CLINKER')?.factors).toMatchObject({
      'GWP-fossil': 0.846,
      'GWP-biogenic': 0.003,
      'GWP-luluc': 0.0004,
      ODP: 1.6e-8,
      AP: 1.15e-3,
      'EP-freshwater': 2.2e-6,
      'EP-marine': 5.2e-4,
      'EP-terrestrial': 5.8e-3,
      POCP: 1.45e-3,
      ADPE: 1.2e-7,
      ADPF: 3.1,
      WDP: 0.012,
    });
    // biogenic carbon stored: negative biogenic GWP
    expect(by.get('MAT-PAPER')?.factors['GWP-biogenic']).toBe(-1.36);
    expect(by.get('MAT-ELEC')?.unit).toBe('KWH');
  });

  it('a material without every indicator does not compile', () => {
    // @ts-expect-error WDP (and the rest) missing
    const partial: MaterialFactors = { 'GWP-fossil': 1, 'GWP-biogenic': 0, 'GWP-luluc': 0 };
    expect(partial['GWP-fossil']).toBe(1);
  });
});
