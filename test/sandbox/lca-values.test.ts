/**
 * The sandbox LCA engine's arithmetic: values against hand-computed numbers, composites, silos, prechain
 * inputs, the per-source breakdown, GWP-total = fossil + biogenic + luluc, and the per-kg resource fields.
 */
import { describe, expect, it } from 'vitest';
import {
  INDICATORS,
  INDICATOR_CODES,
  TRANSPORT_FACTORS,
  compositeFactors,
  computeResults,
  impactsPerKg,
  makeFactors,
  prechainFactors,
  siloFactors,
  transportImpactsPerKg,
} from '../../sandbox/lca.js';
import type { ComponentInput, ImpactFactors, ImpactValue, LcaInputs, SiloItemInput } from '../../sandbox/lca.js';

const NOW = new Date('2025-06-15T10:00:00Z');
const REF_A = 'aaaaaaaa-aaaa-5aaa-8aaa-aaaaaaaaaaaa';
const REF_B = 'bbbbbbbb-bbbb-5bbb-8bbb-bbbbbbbbbbbb';
const REF_S = 'cccccccc-cccc-5ccc-8ccc-cccccccccccc';

/** Simple round factors so the expected values can be worked out by hand. */
function factors(fossil: number, biogenic: number, luluc: number, rest: number): ImpactFactors {
  return makeFactors({
    'GWP-fossil': fossil,
    'GWP-biogenic': biogenic,
    'GWP-luluc': luluc,
    ODP: rest * 1e-8,
    AP: rest * 1e-3,
    'EP-freshwater': rest * 1e-6,
    'EP-marine': rest * 1e-4,
    'EP-terrestrial': rest * 1e-3,
    POCP: rest * 1e-3,
    ADPE: rest * 1e-7,
    ADPF: rest,
    WDP: rest * 1e-2,
  });
}
const CEMENT = factors(0.8, 0.01, 0.002, 3); // GWP-total 0.812
const GRAVEL = factors(0.005, 0, 0.0001, 0.07); // GWP-total 0.0051

const value = (values: readonly ImpactValue[], indicator: string, module: string): number | undefined =>
  values.find((v) => v.indicator === indicator && v.module === module)?.value;

function relClose(actual: number | undefined, expected: number, rel = 1e-12): void {
  expect(actual).toBeDefined();
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(Math.abs(expected) * rel + 1e-15);
}

function oneYear(components: ComponentInput[], quantity: number, includeBreakdown = false, year = 2024) {
  const inputs: LcaInputs = {
    instance: { id: 'i', produced_from: year, produced_to: year },
    components,
    production: (y) => (y === year ? quantity : undefined),
    now: NOW,
    includeBreakdown,
  };
  const [el] = computeResults(inputs);
  expect(el.status).toBe('computed');
  return el;
}

// 300 kg cement by truck 100 km + train 200 km, 1800 kg gravel without transport; 1000 units produced.
const TWO: ComponentInput[] = [
  {
    type: 'supplier_product',
    ref: REF_A,
    mass_kg: 300,
    factors_per_kg: CEMENT,
    transport_route: { truck_km: 100, train_km: 200 },
  },
  { type: 'supplier_product', ref: REF_B, mass_kg: 1800, factors_per_kg: GRAVEL, transport_route: null },
];

describe('values of a 2-component BOM with transport', () => {
  it('A1-A3 = Σ mass × factor × quantity (hand-computed)', () => {
    const el = oneYear(TWO, 1000);
    // (300 × 0.812 + 1800 × 0.0051) × 1000 = (243.6 + 9.18) × 1000
    relClose(value(el.values, 'GWP-total', 'A1-A3'), 252_780);
    // (300 × 0.8 + 1800 × 0.005) × 1000
    relClose(value(el.values, 'GWP-fossil', 'A1-A3'), 249_000);
    // ADPF: (300 × 3 + 1800 × 0.07) × 1000 MJ
    relClose(value(el.values, 'ADPF', 'A1-A3'), 1_026_000);
    // WDP: (300 × 0.03 + 1800 × 0.0007) × 1000
    relClose(value(el.values, 'WDP', 'A1-A3'), 10_260);
  });

  it('A4 = mass/1000 × km × t·km factor × quantity, for every indicator', () => {
    const el = oneYear(TWO, 1000);
    const T = TRANSPORT_FACTORS;
    // the truck is 0.099 and the train 0.02 kg CO2 eq. per t·km: 0.3 t × (100 × 0.099 + 200 × 0.02) × 1000
    relClose(value(el.values, 'GWP-total', 'A4'), 4_170, 1e-9);
    for (const code of INDICATOR_CODES) {
      relClose(value(el.values, code, 'A4'), 0.3 * (100 * T.truck_km[code] + 200 * T.train_km[code]) * 1000, 1e-9);
    }
  });

  it('lists every indicator once per module, with the EN 15804+A2 unit', () => {
    const el = oneYear(TWO, 1000);
    expect(el.values).toHaveLength(2 * 13);
    for (const module of ['A1-A3', 'A4']) {
      const mod = el.values.filter((v) => v.module === module);
      expect(mod.map((v) => v.indicator)).toEqual(INDICATORS.map((i) => i.code));
      expect(mod.map((v) => v.unit)).toEqual(INDICATORS.map((i) => i.unit));
    }
  });

  it('declares no A4 values when no component is transported', () => {
    const el = oneYear([{ ...TWO[1] }], 10);
    expect(el.values.map((v) => v.module)).toEqual(Array(13).fill('A1-A3'));
  });

  it('scales linearly with the production quantity', () => {
    const a = oneYear(TWO, 1000);
    const b = oneYear(TWO, 250);
    for (const v of a.values) relClose(value(b.values, v.indicator, v.module), v.value / 4, 1e-12);
  });
});

describe('GWP-total', () => {
  it('equals GWP-fossil + GWP-biogenic + GWP-luluc in values and breakdown, negative biogenic included', () => {
    const paper = factors(0.74, -1.36, 0.003, 11);
    const el = oneYear(
      [
        ...TWO,
        { type: 'supplier_product', ref: REF_S, mass_kg: 9, factors_per_kg: paper, transport_route: { ship_km: 400 } },
      ],
      77,
      true,
    );
    const groups = new Map<string, Map<string, number>>();
    for (const v of [...el.values.map((x) => ({ ...x, ref: 'total' })), ...(el.breakdown ?? [])]) {
      const key = `${v.ref}|${v.module}`;
      const g = groups.get(key) ?? new Map<string, number>();
      g.set(v.indicator, v.value);
      groups.set(key, g);
    }
    expect(groups.size).toBe(2 + 3 + 2); // totals A1-A3/A4, three A1-A3 components, two transported ones
    for (const g of groups.values()) {
      relClose(
        g.get('GWP-total'),
        (g.get('GWP-fossil') ?? NaN) + (g.get('GWP-biogenic') ?? NaN) + (g.get('GWP-luluc') ?? NaN),
        1e-12,
      );
    }
  });

  it('is derived by makeFactors from its parts', () => {
    expect(CEMENT['GWP-total']).toBeCloseTo(0.812, 12);
    expect(factors(0.74, -1.36, 0.003, 1)['GWP-total']).toBeCloseTo(-0.617, 12);
  });
});

describe('breakdown', () => {
  it('is absent unless asked for', () => {
    expect(oneYear(TWO, 1000, false)).not.toHaveProperty('breakdown');
    const blocked = computeResults({
      instance: { id: 'i', produced_from: 2024, produced_to: 2024 },
      components: TWO,
      production: () => undefined,
      now: NOW,
      includeBreakdown: true,
    });
    expect(blocked[0]).toMatchObject({ status: 'blocked', breakdown: [] });
  });

  it('has one entry per component, indicator and module, and sums to the totals', () => {
    const el = oneYear(TWO, 1000, true);
    const bd = el.breakdown ?? [];
    expect(bd).toHaveLength(13 * 2 /* A: A1-A3 + A4 */ + 13 /* B: A1-A3 only */);
    expect(new Set(bd.map((b) => `${b.component_type}|${b.ref}`))).toEqual(
      new Set([`supplier_product|${REF_A}`, `supplier_product|${REF_B}`]),
    );
    for (const v of el.values) {
      const sum = bd
        .filter((b) => b.indicator === v.indicator && b.module === v.module)
        .reduce((s, b) => s + b.value, 0);
      relClose(sum, v.value, 1e-12);
    }
    // the cement's own share, by hand: 300 × 0.812 × 1000
    relClose(bd.find((b) => b.ref === REF_A && b.indicator === 'GWP-total' && b.module === 'A1-A3')?.value, 243_600);
  });
});

describe('composites', () => {
  it('weight their elementaries by mass share', () => {
    const clinker = factors(0.85, 0, 0, 3);
    const ggbs = factors(0.08, 0, 0, 1);
    const blend = compositeFactors([
      { share: 0.6, factors: clinker },
      { share: 0.4, factors: ggbs },
    ]);
    relClose(blend['GWP-fossil'], 0.6 * 0.85 + 0.4 * 0.08); // 0.542
    relClose(blend.ADPF, 0.6 * 3 + 0.4 * 1); // 2.2
    relClose(blend['GWP-total'], 0.542);
    // as a BOM component: 500 kg of the blend, 2 units
    const el = oneYear(
      [{ type: 'supplier_product', ref: REF_A, mass_kg: 500, factors_per_kg: blend, transport_route: null }],
      2,
    );
    relClose(value(el.values, 'GWP-total', 'A1-A3'), 542);
  });

  it('normalise shares that do not sum to 1', () => {
    const a = factors(1, 0, 0, 1);
    const b = factors(0, 0, 0, 0);
    relClose(
      compositeFactors([
        { share: 3, factors: a },
        { share: 1, factors: b },
      ])['GWP-fossil'],
      0.75,
    );
  });
});

describe('silos', () => {
  const P: SiloItemInput = {
    supplier_product_id: 'p',
    factors_per_kg: factors(1.0, 0, 0, 2),
    transport_route: { truck_km: 100 },
    annual_items: [
      { year: 2024, amount: 100 },
      { year: 2025, amount: 300 },
    ],
  };
  const Q: SiloItemInput = {
    supplier_product_id: 'q',
    factors_per_kg: factors(0.2, 0, 0, 1),
    transport_route: { ship_km: 1000 },
    annual_items: [
      { year: 2024, amount: 300 },
      { year: 2025, amount: 100 },
    ],
  };

  it('weight items by that year’s annual amounts, and equally when the year has none', () => {
    relClose(siloFactors([P, Q], 2025).factors_per_kg['GWP-fossil'], 0.75 * 1.0 + 0.25 * 0.2); // 0.8
    relClose(siloFactors([P, Q], 2024).factors_per_kg['GWP-fossil'], 0.25 * 1.0 + 0.75 * 0.2); // 0.4
    relClose(siloFactors([P, Q], 2023).factors_per_kg['GWP-fossil'], 0.5 * 1.0 + 0.5 * 0.2); // 0.6
    expect(siloFactors([P, Q], 2025).transport_route).toEqual({ truck_km: 75, train_km: 0, ship_km: 250, barge_km: 0 });
  });

  it('are weighted per result year inside computeResults', () => {
    const silo: ComponentInput = {
      type: 'silo',
      ref: REF_S,
      mass_kg: 200,
      factors_per_kg: factors(99, 0, 0, 0), // fallback, not used when silo_items are given
      transport_route: null,
      silo_items: [P, Q],
    };
    const r = computeResults({
      instance: { id: 'i', produced_from: 2023, produced_to: null },
      components: [silo],
      production: () => 10,
      now: NOW,
      includeBreakdown: false,
    });
    expect(r.map((e) => e.year)).toEqual([2023, 2024, 2025]);
    // 200 kg × weighted GWP-fossil × 10 units
    relClose(value(r[0].values, 'GWP-fossil', 'A1-A3'), 200 * 0.6 * 10);
    relClose(value(r[1].values, 'GWP-fossil', 'A1-A3'), 200 * 0.4 * 10);
    relClose(value(r[2].values, 'GWP-fossil', 'A1-A3'), 200 * 0.8 * 10);
    // transport of 2025: 0.2 t × (75 km truck + 250 km ship) × 10 units
    const T = TRANSPORT_FACTORS;
    relClose(
      value(r[2].values, 'GWP-total', 'A4'),
      0.2 * (75 * T.truck_km['GWP-total'] + 250 * T.ship_km['GWP-total']) * 10,
      1e-9,
    );
  });
});

describe('prechain products', () => {
  it('carry the per-kg impacts of their instance BOM, upstream transport folded into A1-A3', () => {
    const perKg = prechainFactors(TWO, 2024);
    // (300 × 0.812 + 0.3 t × (100 × 0.099 + 200 × 0.02) + 1800 × 0.0051) / 2100 kg
    relClose(perKg['GWP-total'], (243.6 + 4.17 + 9.18) / 2100, 1e-9);
    const el = oneYear(
      [
        {
          type: 'prechain_product',
          ref: REF_A,
          mass_kg: 1000,
          factors_per_kg: perKg,
          transport_route: { barge_km: 120 },
        },
      ],
      5,
      true,
    );
    relClose(value(el.values, 'GWP-total', 'A1-A3'), 1000 * perKg['GWP-total'] * 5);
    relClose(value(el.values, 'GWP-total', 'A4'), 1 * 120 * TRANSPORT_FACTORS.barge_km['GWP-total'] * 5, 1e-9);
    expect(el.breakdown?.every((b) => b.component_type === 'prechain_product' && b.ref === REF_A)).toBe(true);
  });

  it('are zero for an empty BOM', () => {
    expect(Object.values(prechainFactors([], 2024)).every((v) => v === 0)).toBe(true);
  });
});

describe('per-kg resource fields', () => {
  it('impactsPerKg lists the 13 indicators as A1-A3 with units and the factor values', () => {
    const out = impactsPerKg(CEMENT);
    expect(out.map((v) => [v.indicator, v.unit, v.module])).toEqual(INDICATORS.map((i) => [i.code, i.unit, 'A1-A3']));
    for (const v of out) expect(v.value).toBe(CEMENT[v.indicator]);
  });

  it('transportImpactsPerKg = Σ km × t·km factor / 1000, zeros without a route', () => {
    const out = transportImpactsPerKg({ truck_km: 250, barge_km: 80 });
    expect(out.map((v) => [v.indicator, v.unit, v.module])).toEqual(INDICATORS.map((i) => [i.code, i.unit, 'A4']));
    for (const v of out) {
      relClose(
        v.value,
        (250 * TRANSPORT_FACTORS.truck_km[v.indicator] + 80 * TRANSPORT_FACTORS.barge_km[v.indicator]) / 1000,
        1e-12,
      );
    }
    expect(transportImpactsPerKg(null).every((v) => v.value === 0)).toBe(true);
  });
});

describe('transport factors', () => {
  it('have realistic GWP per t·km: truck ≈ 0.1, rail ≈ 0.02, ship ≈ 0.01, barge ≈ 0.035', () => {
    const gwp = (m: keyof typeof TRANSPORT_FACTORS) => TRANSPORT_FACTORS[m]['GWP-total'];
    expect(gwp('truck_km')).toBeGreaterThan(0.08);
    expect(gwp('truck_km')).toBeLessThan(0.12);
    expect(gwp('train_km')).toBeCloseTo(0.02, 2);
    expect(gwp('ship_km')).toBeCloseTo(0.01, 2);
    expect(gwp('barge_km')).toBeCloseTo(0.035, 2);
    for (const m of Object.keys(TRANSPORT_FACTORS) as (keyof typeof TRANSPORT_FACTORS)[]) {
      for (const code of INDICATOR_CODES) expect(TRANSPORT_FACTORS[m][code]).toBeGreaterThan(0);
    }
  });
});
