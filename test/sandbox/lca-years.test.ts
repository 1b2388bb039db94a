/**
 * The sandbox LCA engine's year rules (spec "Rules for results" 1–3) and blocker codes, on computeResults
 * directly (pure function, sandbox clock passed in as `now`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERR_CODES } from '../../core/spec/err-codes.js';
import {
  BLOCKER_CODES,
  BLOCKER_PRODUCTION_DATA_MISSING,
  BLOCKER_PRODUCTION_YEAR_NOT_REACHED,
  computeResults,
  makeFactors,
} from '../../sandbox/lca.js';
import type { ComponentInput, LcaInputs, LcaResultElement } from '../../sandbox/lca.js';

const NOW = new Date('2025-06-15T10:00:00Z'); // current calendar year 2025

const cement = makeFactors({
  'GWP-fossil': 0.8,
  'GWP-biogenic': 0.01,
  'GWP-luluc': 0.002,
  ODP: 1e-8,
  AP: 1e-3,
  'EP-freshwater': 3e-6,
  'EP-marine': 5e-4,
  'EP-terrestrial': 5e-3,
  POCP: 1.4e-3,
  ADPE: 1.5e-7,
  ADPF: 3,
  WDP: 0.02,
});
const COMPONENTS: ComponentInput[] = [
  {
    type: 'supplier_product',
    ref: '11111111-1111-5111-8111-111111111111',
    mass_kg: 300,
    factors_per_kg: cement,
    transport_route: { truck_km: 50 },
  },
];

function run(instance: LcaInputs['instance'], production: Record<number, number>, now: Date = NOW): LcaResultElement[] {
  return computeResults({
    instance,
    components: COMPONENTS,
    production: (y) => production[y],
    now,
    includeBreakdown: false,
  });
}

const inst = (produced_from: number, produced_to: number | null) => ({ id: 'i-1', produced_from, produced_to });

describe('rule 1: reportable years', () => {
  it('runs from produced_from to produced_to, ascending', () => {
    const r = run(inst(2019, 2023), { 2019: 1, 2020: 1, 2021: 1, 2022: 1, 2023: 1 });
    expect(r.map((e) => e.year)).toEqual([2019, 2020, 2021, 2022, 2023]);
    expect(r.every((e) => e.status === 'computed' && !e.partial_year)).toBe(true);
  });

  it('caps an open-ended instance at the current calendar year, even with data for later years', () => {
    const r = run(inst(2022, null), { 2022: 10, 2023: 10, 2024: 10, 2025: 5, 2026: 10 });
    expect(r.map((e) => e.year)).toEqual([2022, 2023, 2024, 2025]);
  });

  it('takes the current year from the clock in UTC, so it moves at the new year', () => {
    const before = run(inst(2024, null), { 2024: 1, 2025: 1 }, new Date('2025-12-31T23:59:59.999Z'));
    const after = run(inst(2024, null), { 2024: 1, 2025: 1 }, new Date('2026-01-01T00:00:00.000Z'));
    expect(before.map((e) => e.year)).toEqual([2024, 2025]);
    expect(before[1]).toMatchObject({ status: 'computed', partial_year: true });
    expect(after.map((e) => e.year)).toEqual([2024, 2025, 2026]);
    expect(after[1]).toMatchObject({ status: 'computed', partial_year: false });
    expect(after[2]).toMatchObject({ status: 'blocked', partial_year: true });
  });

  it('reports nothing for an open-ended instance that starts in the future, or a reversed range', () => {
    expect(run(inst(2027, null), { 2027: 1 })).toEqual([]);
    expect(run(inst(2023, 2021), { 2021: 1, 2022: 1, 2023: 1 })).toEqual([]);
  });
});

describe('rule 2: the current year', () => {
  it('is blocked with a missing_input/production_data blocker before its data exists, and marked partial', () => {
    const [y] = run(inst(2025, null), {});
    expect(y).toEqual({
      year: 2025,
      status: 'blocked',
      partial_year: true,
      production_quantity: null,
      values: [],
      blockers: [
        {
          type: 'missing_input',
          kind: 'production_data',
          code: BLOCKER_PRODUCTION_DATA_MISSING,
          err_code: BLOCKER_PRODUCTION_DATA_MISSING,
          msg: expect.stringContaining('2025'),
        },
      ],
    });
  });

  it('is computed and partial once its production data is entered', () => {
    const [y] = run(inst(2025, null), { 2025: 120 });
    expect(y).toMatchObject({
      year: 2025,
      status: 'computed',
      partial_year: true,
      production_quantity: 120,
      blockers: [],
    });
    const gwp = y.values.find((v) => v.indicator === 'GWP-total' && v.module === 'A1-A3');
    expect(gwp?.value).toBeCloseTo(120 * 300 * 0.812, 6);
  });

  it('treats an entered quantity of 0 as data (computed, zero values), unlike a missing one', () => {
    const [y] = run(inst(2025, null), { 2025: 0 });
    expect(y.status).toBe('computed');
    expect(y.production_quantity).toBe(0);
    expect(y.values.length).toBeGreaterThan(0);
    expect(y.values.every((v) => v.value === 0)).toBe(true);
  });

  it('marks only the current year partial', () => {
    const r = run(inst(2023, 2026), { 2023: 1, 2024: 1, 2025: 1, 2026: 1 });
    expect(r.map((e) => [e.year, e.partial_year])).toEqual([
      [2023, false],
      [2024, false],
      [2025, true],
      [2026, false],
    ]);
  });
});

describe('rule 3: future years', () => {
  it('lists a future year covered by produced_to as blocked, even when its data was entered', () => {
    const r = run(inst(2024, 2027), { 2024: 10, 2025: 4, 2026: 11, 2027: 12 });
    expect(r.map((e) => [e.year, e.status])).toEqual([
      [2024, 'computed'],
      [2025, 'computed'],
      [2026, 'blocked'],
      [2027, 'blocked'],
    ]);
    for (const future of r.slice(2)) {
      expect(future.values).toEqual([]);
      expect(future.production_quantity).toBeNull();
      expect(future.blockers).toHaveLength(1);
      expect(future.blockers[0]).toMatchObject({
        type: 'missing_input',
        kind: 'production_data',
        code: BLOCKER_PRODUCTION_YEAR_NOT_REACHED,
      });
    }
  });

  it('unblocks the year once it arrives on the clock and its data exists', () => {
    const later = run(inst(2024, 2027), { 2024: 10, 2025: 4, 2026: 11 }, new Date('2026-03-01T00:00:00Z'));
    expect(later.map((e) => [e.year, e.status, e.partial_year])).toEqual([
      [2024, 'computed', false],
      [2025, 'computed', false],
      [2026, 'computed', true],
      [2027, 'blocked', false],
    ]);
  });
});

describe('past years', () => {
  it('lists a past year without production data as blocked between computed years', () => {
    const r = run(inst(2020, 2023), { 2020: 5, 2022: 5, 2023: 5 });
    expect(r.map((e) => e.status)).toEqual(['computed', 'blocked', 'computed', 'computed']);
    expect(r[1]).toMatchObject({ year: 2021, partial_year: false, production_quantity: null, values: [] });
    expect(r[1].blockers.map((b) => [b.type, b.kind, b.code])).toEqual([
      ['missing_input', 'production_data', BLOCKER_PRODUCTION_DATA_MISSING],
    ]);
  });
});

describe('blocker codes', () => {
  it('are all used by computeResults and unique', () => {
    const r = run(inst(2024, 2026), {});
    const used = new Set(r.flatMap((e) => e.blockers.map((b) => b.code)));
    expect([...used].sort()).toEqual([...BLOCKER_CODES].sort());
    expect(new Set(BLOCKER_CODES).size).toBe(BLOCKER_CODES.length);
  });

  it('are disjoint from the API err_code namespace (the error catalog)', () => {
    expect(ERR_CODES.size).toBeGreaterThan(100);
    for (const code of BLOCKER_CODES) {
      expect(code).not.toMatch(/^err_/);
      expect(ERR_CODES.has(code)).toBe(false);
    }
  });

  const specPath = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/spec/api-v2.md');
  it.skipIf(!existsSync(specPath))('are disjoint from every err_code the spec lists', () => {
    const specCodes = new Set(readFileSync(specPath, 'utf8').match(/\berr_[a-z0-9_]+/g) ?? []);
    expect(specCodes.size).toBeGreaterThan(100);
    for (const code of BLOCKER_CODES) expect(specCodes.has(code)).toBe(false);
  });
});
