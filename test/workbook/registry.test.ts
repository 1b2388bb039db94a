/** The sheet registry against the column lists of the workbook format (the contract), and its row schemas. */
import { describe, expect, it } from 'vitest';
import { BOM_COMPONENT_TYPES, MATERIAL_CATEGORIES, UNITS } from '../../core/spec/constants.js';
import { quickAccept } from '../../core/workbook/columns.js';
import { ISO_COUNTRY_CODES } from '../../core/workbook/countries.js';
import { DATA_SHEETS, PRODUCTS_REFERENCE_SHEET, getSheet } from '../../core/workbook/registry.js';
import { DATA_SHEET_NAMES } from '../../core/workbook/types.js';

/** The workbook format's column lists, verbatim: `*` = required. */
const ISSUE_COLUMNS: Record<string, string> = {
  'supplier-companies': 'external_id*, name*, country, action',
  'supplier-plants': 'external_id*, name*, supplier_company_external_id*, country, city, action',
  'supplier-products':
    'external_id*, name*, plant_code*, material_code*, supplier_plant_external_id, unit*, truck_km, train_km, ship_km, barge_km, epd_id, lifetime_years, secondary_percentage, moisture_content_percentage, action',
  'hazardous-substances': 'supplier_product_external_id*, cas_number*, mass_share*, action',
  silos: 'external_id*, name*, plant_code*, action',
  'silo-items': 'silo_external_id*, supplier_product_external_id*, year*, amount*, action',
  'product-instances': 'external_id*, product_external_id*, plant_code*, produced_from*, produced_to, name, action',
  'prechain-products':
    'external_id*, product_instance_external_id*, plant_code*, truck_km, train_km, ship_km, barge_km, action',
  bom: 'product_instance_external_id*, component_type*, component_external_id*, mass_kg*, action',
  plants: 'plant_code*, plant_id',
  materials: 'material_code*, category, material_type_id',
  // production figures per product instance and year
  production: 'product_instance_external_id*, year*, quantity*',
};

describe('sheet registry', () => {
  it('has exactly the sheets of the workbook format, in the onboarding order of the spec', () => {
    expect([...DATA_SHEET_NAMES].sort()).toEqual(Object.keys(ISSUE_COLUMNS).sort());
    expect(DATA_SHEETS.map((d) => d.name)).toEqual([
      'plants',
      'materials',
      'supplier-companies',
      'supplier-plants',
      'supplier-products',
      'hazardous-substances',
      'silos',
      'silo-items',
      'product-instances',
      'prechain-products',
      'bom',
      'production',
    ]);
  });

  for (const [sheet, list] of Object.entries(ISSUE_COLUMNS)) {
    it(`${sheet}: columns, order and required flags as the issue lists them`, () => {
      const def = getSheet(sheet as (typeof DATA_SHEET_NAMES)[number]);
      const got = Object.entries(def.columns).map(([f, c]) => `${f}${c.required ? '*' : ''}`);
      expect(got.join(', ')).toBe(list);
      for (const c of Object.values(def.columns)) expect(c.description.length).toBeGreaterThan(10);
    });
  }

  it('takes enums from the spec constants: unit, component_type, category; country is ISO 3166 alpha-2', () => {
    expect(getSheet('supplier-products').columns.unit.allowed).toEqual(UNITS);
    expect(getSheet('bom').columns.component_type.allowed).toEqual(BOM_COMPONENT_TYPES);
    expect(getSheet('materials').columns.category.allowed).toEqual(MATERIAL_CATEGORIES);
    expect(getSheet('supplier-companies').columns.country.allowed).toBe(ISO_COUNTRY_CODES);
    expect(ISO_COUNTRY_CODES).toHaveLength(249);
    expect(ISO_COUNTRY_CODES).toContain('DE');
    expect(ISO_COUNTRY_CODES).not.toContain('UK');
  });

  it('marks which code each reference column names', () => {
    expect(getSheet('supplier-plants').columns.supplier_company_external_id.refersTo).toBe('supplier_company');
    expect(getSheet('supplier-products').columns.plant_code.refersTo).toBe('plant');
    expect(getSheet('supplier-products').columns.material_code.refersTo).toBe('material');
    expect(getSheet('product-instances').columns.product_external_id.refersTo).toBe('product');
    expect(getSheet('bom').columns.component_external_id.refersTo).toBe('by_component_type');
  });

  it('keeps a products reference sheet that is export-only', () => {
    expect(PRODUCTS_REFERENCE_SHEET.name).toBe('products');
    expect(PRODUCTS_REFERENCE_SHEET.referenceOnly).toBe(true);
  });

  it('row schemas: required present, optional absent or null (#CLEAR), nothing else', () => {
    const s = getSheet('supplier-companies').schema;
    expect(s.safeParse({ external_id: 'SC-1', name: 'A' }).success).toBe(true);
    expect(s.safeParse({ external_id: 'SC-1', name: 'A', country: null }).success).toBe(true);
    expect(s.safeParse({ external_id: 'SC-1' }).success).toBe(false);
    expect(s.safeParse({ external_id: 'SC-1', name: 'A', colour: 'red' }).success).toBe(false);
    expect(s.safeParse({ external_id: 'SC-1', name: 'A', country: 'XX' }).success).toBe(false);
    const y = getSheet('product-instances').schema;
    expect(
      y.safeParse({ external_id: 'I', product_external_id: 'P', plant_code: 'X', produced_from: 1850 }).success,
    ).toBe(false);
    expect(
      y.safeParse({ external_id: 'I', product_external_id: 'P', plant_code: 'X', produced_from: 2020.5 }).success,
    ).toBe(false);
  });

  it('row rules come from the spec rule functions', () => {
    const rules = getSheet('supplier-products').rowRules!;
    expect(rules({ secondary_percentage: 120 } as never).map((v) => v.err_code)).toEqual([
      'err_invalid_secondary_percentage_range',
    ]);
    expect(getSheet('bom').rowRules!({ mass_kg: 0 } as never)).toHaveLength(1);
    expect(getSheet('product-instances').rowRules!({ produced_from: 2020, produced_to: 2019 } as never)[0].path).toBe(
      'produced_to',
    );
    expect(
      getSheet('hazardous-substances').rowRules!({ cas_number: '7732-18-5', mass_share: 1.5 } as never),
    ).toHaveLength(1);
    expect(
      getSheet('materials').rowRules!({
        material_code: 'M',
        material_type_id: '00000000-0000-4000-8000-000000000001',
      } as never),
    ).toHaveLength(1);
  });

  it('the quick check of each column is never looser than its zod schema', () => {
    const samples: unknown[] = [
      '',
      ' ',
      'a',
      ' a',
      'a ',
      'SP-1',
      'x'.repeat(255),
      'x'.repeat(256),
      'x'.repeat(1000),
      'x'.repeat(1001),
      'a\u0007b',
      'a\nb',
      'a\tb',
      'KG',
      'kg',
      'METRIC TON*KM',
      'DE',
      'de',
      'XX',
      'silo',
      'elementary',
      '00000000-0000-4000-8000-00000000000a',
      '00000000-0000-4000-8000-00000000000A',
      'not-a-uuid',
      0,
      -1,
      1,
      0.5,
      1899,
      1900,
      2024,
      2200,
      2201,
      2024.5,
      100,
      100.1,
      1e308,
      Infinity,
      -Infinity,
      NaN,
      true,
      false,
      {},
      [],
      null,
    ];
    for (const def of [...DATA_SHEETS, PRODUCTS_REFERENCE_SHEET]) {
      for (const [field, col] of Object.entries(def.columns)) {
        const accept = quickAccept(col);
        for (const v of samples) {
          if (accept(v))
            expect(col.schema.safeParse(v).success, `${def.name}.${field} quick-accepts ${String(v)}`).toBe(true);
        }
      }
      // whole rows: quickAccept ⇒ schema
      const row: Record<string, unknown> = {};
      for (const [field, col] of Object.entries(def.columns))
        if (col.required) row[field] = samples.find((v) => quickAccept(col)(v));
      if (def.quickAccept(row)) expect(def.schema.safeParse(row).success, def.name).toBe(true);
      expect(def.quickAccept({ ...row, unknown_field: 'x' })).toBe(false);
    }
  });
});
