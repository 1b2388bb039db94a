/**
 * The comparisons a dry run makes for every row (a re-sync compares every row of the workbook with its entity):
 * transport routes merged and compared field by field, material types compared as their keys.
 */
import { describe, expect, it } from 'vitest';
import { mergeRoute, routeChanges } from '../../core/jobs/diff.js';
import { materialKey, sameMaterial } from '../../core/jobs/resolve.js';

describe('transport routes', () => {
  it('the workbook’s modalities over the service’s: a cleared one goes, an empty route is none', () => {
    expect(mergeRoute({ truck_km: 10, train_km: 5, ship_km: null }, { train_km: null, ship_km: 3 })).toEqual({
      truck_km: 10,
      ship_km: 3,
    });
    expect(mergeRoute({ truck_km: 10 }, { truck_km: null })).toBeNull();
    expect(mergeRoute(null, { truck_km: null })).toBeNull();
    expect(mergeRoute(undefined, { truck_km: 0 })).toEqual({ truck_km: 0 });
    // a modality cleared that the service does not have: nothing to remove, the rest stays
    expect(mergeRoute({ train_km: 5 }, { truck_km: null })).toEqual({ train_km: 5 });
  });

  it('the same route has no change; each differing modality is one change, in key order', () => {
    expect(routeChanges({ truck_km: 10, train_km: 5 }, { train_km: 5, truck_km: 10 + 1e-12 })).toEqual([]);
    expect(routeChanges(null, null)).toEqual([]);
    expect(routeChanges({ truck_km: null }, null)).toEqual([]);
    expect(routeChanges({ truck_km: 10, ship_km: 2 }, { truck_km: 12, train_km: 4, ship_km: 2 })).toEqual([
      { field: 'transport_route.train_km', before: null, after: 4 },
      { field: 'transport_route.truck_km', before: 10, after: 12 },
    ]);
    expect(routeChanges({ truck_km: 10 }, null)).toEqual([
      { field: 'transport_route.truck_km', before: 10, after: null },
    ]);
  });

  it('a list of no change is never added to by its users', () => {
    const none = routeChanges({ truck_km: 1 }, { truck_km: 1 });
    expect(() => (none as unknown[]).push(1)).toThrow();
    expect(routeChanges({ truck_km: 1 }, { truck_km: 1 })).toHaveLength(0);
  });
});

describe('material types', () => {
  const el = (id: string) => ({ category: 'elementary', elementary_id: id });
  const co = (id: string) => ({ category: 'composite', composite_id: id });
  const cases: [unknown, unknown][] = [
    [el('AB-1'), el('ab-1')],
    [el('ab-1'), el('ab-2')],
    [el('ab-1'), co('ab-1')],
    [co('X'), co('x')],
    [el('ab-1'), null],
    [null, undefined],
    [{ category: 'elementary' }, null],
    [
      { category: 'other', elementary_id: 'a' },
      { category: 'other', elementary_id: 'a' },
    ],
    ['elementary:a', 'elementary:a'],
  ];
  it.each(cases)('sameMaterial(%j, %j) is materialKey equality', (a, b) => {
    expect(sameMaterial(a, b)).toBe(materialKey(a) === materialKey(b));
  });
});
