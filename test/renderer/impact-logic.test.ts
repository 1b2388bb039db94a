/** The LCA impact panel's pure parts: signed changes, instance names, the waterfall of one change by source. */
import { describe, expect, it } from 'vitest';
import { translate, type MessageKey } from '../../renderer/src/i18n/index.js';
import {
  barPlace,
  blockerText,
  causeText,
  unitText,
  instanceName,
  lcaValue,
  signedChange,
  waterfall,
} from '../../renderer/src/screens/impact/impactLogic.js';

describe('LCA impact values', () => {
  it('shows a change with its sign and the typographic minus, 0 without a sign, none as a dash', () => {
    expect(signedChange(2.5, 'en')).toBe('+2.5');
    expect(signedChange(-1234.5, 'de')).toBe('\u22121.235');
    expect(signedChange(0, 'en')).toBe('0');
    expect(signedChange(null, 'en')).toBe('—');
    expect(lcaValue(null, 'en')).toBe('—');
  });

  it('names an instance by its code and plant, else by its id', () => {
    expect(instanceName({ externalId: 'PI-1', instanceId: 'i', plantCode: 'P1' })).toBe('PI-1 @ P1');
    expect(instanceName({ externalId: null, instanceId: 'i-1' })).toBe('i-1');
  });
});

describe('the waterfall of a change', () => {
  it('runs from before through each change to after, on one scale', () => {
    const w = waterfall(10, [3, -5], 8);
    expect(w.steps.map((s) => [s.kind, s.from, s.to])).toEqual([
      ['before', 0, 10],
      ['up', 10, 13],
      ['down', 13, 8],
      ['after', 0, 8],
    ]);
    expect([w.min, w.max]).toEqual([0, 13]);
    expect(barPlace(w.steps[2]!, w)).toEqual({ left: (8 / 13) * 100, width: (5 / 13) * 100 });
  });

  it('without a before value charts the changes from 0, below 0 too', () => {
    const w = waterfall(null, [-2, 1], null);
    expect(w.steps.map((s) => s.kind)).toEqual(['down', 'up']);
    expect([w.min, w.max]).toEqual([-2, 0]);
    expect(barPlace(w.steps[0]!, w)).toEqual({ left: 0, width: 100 });
  });
});

describe('the service’s words in the UI’s language', () => {
  const de = (key: MessageKey, vars?: Record<string, string | number>) => translate('de', key, vars);

  it('names what affects an instance by its kind and code, the plan’s words for a kind it does not know', () => {
    expect(causeText(de, { kind: 'silo', code: 'E-SILO-1', label: 'silo E-SILO-1' })).toBe(
      translate('de', 'kind.silo', { code: 'E-SILO-1' }),
    );
    expect(causeText(de, { kind: 'prechain_instance', ofKind: 'silo', code: 'E-SILO-1', label: 'silo E-SILO-1' })).toBe(
      translate('de', 'kind.silo', { code: 'E-SILO-1' }),
    );
    expect(causeText(de, { kind: 'prechain_instance', code: 'E-SILO-1', label: 'silo E-SILO-1' })).toBe(
      'silo E-SILO-1',
    );
    expect(causeText(de, { kind: 'other', code: 'X', label: 'the plan’s words' })).toBe('the plan’s words');
  });

  it('words the production-data blockers, keeps any other blocker as the service wrote it', () => {
    expect(blockerText(de, 'blk_production_data_missing: No production data for 2026', 2026)).toBe(
      translate('de', 'lca.blk.productionData', { year: 2026 }),
    );
    expect(blockerText(de, 'blk_production_year_not_reached: 2027 is a future year', 2027)).toBe(
      translate('de', 'lca.blk.futureYear', { year: 2027 }),
    );
    expect(blockerText(de, 'blk_other: something', 2026)).toBe('blk_other: something');
  });

  it('writes a unit in German as the LCA screen does, none as nothing', () => {
    expect(unitText('kg CO2 eq.', 'de')).toBe('kg CO2-Äq.');
    expect(unitText(null, 'de')).toBe('');
  });
});
