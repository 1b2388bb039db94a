/** The LCA screen's view of an instance names its product's declared unit, in which production figures are given. */
import { describe, expect, it } from 'vitest';
import { instanceView, selectedView } from '../../core/app/sessions/lca-views.js';
import type { SelectedInstance } from '../../core/lca/model.js';

const instance = (product_unit: string | null | undefined): SelectedInstance => ({
  id: 'pi-1',
  external_id: 'PI-1',
  name: null,
  plant_id: null,
  plant_code: null,
  product_id: 'p-1',
  product_article: 'ART-1',
  product_name: 'Beton C25/30',
  product_unit,
  produced_from: 2023,
  produced_to: null,
});

describe('LCA instance views', () => {
  it('carry the declared unit as written after "per" (M3 → m³, T → t); null when the product is not readable', () => {
    expect(selectedView(instance('M3')).declaredUnit).toBe('m³');
    expect(instanceView(instance('T'), undefined, undefined).declaredUnit).toBe('t');
    expect(selectedView(instance('UNIT')).declaredUnit).toBe('unit');
    expect(selectedView(instance(undefined)).declaredUnit).toBeNull();
    expect(selectedView(instance(null)).declaredUnit).toBeNull();
  });
});
