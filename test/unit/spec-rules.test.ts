import { describe, expect, it } from 'vitest';
import { checkMaterialProperties, checkSiloItems, findDuplicateBomComponents, sameBom } from '../../core/spec/rules.js';
import { capPlants, capScopes, effectiveKeyScopes } from '../../core/spec/scopes.js';
import { maskApiKey } from '../../core/spec/constants.js';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

describe('spec rules', () => {
  it('finds a (type, ref) pair twice, case-insensitively on the uuid', () => {
    const v = findDuplicateBomComponents([
      { type: 'silo', ref: A },
      { type: 'supplier_product', ref: A },
      { type: 'silo', ref: A.toUpperCase() },
    ]);
    expect(v).toHaveLength(1);
    expect(v[0].path).toBe('bom[2]');
  });
  it('compares BOMs as sets', () => {
    const x = [
      { type: 'silo' as const, ref: A, mass_kg: 1 },
      { type: 'silo' as const, ref: B, mass_kg: 2 },
    ];
    expect(sameBom(x, [...x].reverse())).toBe(true);
    expect(sameBom(x, [{ ...x[0], mass_kg: 3 }, x[1]])).toBe(false);
  });
  it('checks silo items', () => {
    const p = { plant_id: 'P1', material_key: 'e:1', supplier_plant_id: 'SP' };
    expect(checkSiloItems('P1', [])[0].msg).toMatch(/at least 1/);
    expect(checkSiloItems('P1', [{ supplier_product_id: A, product: p }])).toEqual([]);
    const codes = checkSiloItems('P1', [
      { supplier_product_id: A, product: p },
      { supplier_product_id: A, product: p },
      { supplier_product_id: B, product: { ...p, plant_id: 'P2', material_key: 'e:2', supplier_plant_id: null } },
    ]).map((v) => v.err_code);
    expect(codes).toContain('err_supplier_product_missing_supplier_plant');
    expect(codes.filter((c) => c === 'err_not_valid')).toHaveLength(3);
  });
  it('checks material-property ranges with the spec codes', () => {
    expect(checkMaterialProperties({ secondary_percentage: 101 })[0].err_code).toBe(
      'err_invalid_secondary_percentage_range',
    );
    expect(checkMaterialProperties({ moisture_content_percentage: -1 })[0].err_code).toBe(
      'err_invalid_moisture_content_range',
    );
    expect(checkMaterialProperties({ secondary_percentage: 100, moisture_content_percentage: 0 })).toEqual([]);
  });
  it('caps keys by member and applies the edit:recipes legacy rule', () => {
    expect([...effectiveKeyScopes(['edit:products'], true)]).toContain('edit:recipes');
    expect([...effectiveKeyScopes(['edit:products'], false)]).not.toContain('edit:recipes');
    expect(capScopes(['view:plants', 'edit:materials'], ['view:plants'])).toEqual(['view:plants']);
    expect(capPlants(null, ['p1'])).toEqual(['p1']);
    expect(capPlants(['p1', 'p2'], null)).toEqual(['p1', 'p2']);
    expect(capPlants(['p1', 'p2'], ['p2'])).toEqual(['p2']);
  });
  it('masks keys', () => {
    expect(maskApiKey('svc-abc123-SECRETSECRET')).toBe('svc-abc123-****');
    expect(maskApiKey('garbage')).not.toContain('garbage');
  });
});
