/**
 * No internal names on screen: a field path of the core is shown by the field's label, in English and German,
 * from the one table of field labels that has a label for every column of every data sheet.
 */
import { describe, expect, it } from 'vitest';
import { checkBomMasses, checkMaterialProperties, checkProductionYears } from '../../core/spec/rules.js';
import { columnsOf, DATA_SHEETS } from '../../core/workbook/registry.js';
import { fieldLabel } from '../../renderer/src/i18n/field-labels.js';
import { problemText, issueText } from '../../renderer/src/screens/import/issueText.js';

describe('field labels', () => {
  it('every column of every data sheet has its label in both languages', () => {
    const unlabelled = DATA_SHEETS.flatMap((d) => columnsOf(d).map(([name]) => name)).filter(
      (name) => fieldLabel(name, 'en') === name || fieldLabel(name, 'de') === name,
    );
    expect(unlabelled).toEqual([]);
  });

  it('the paths of an update, a rule and a row are worded by the field they name', () => {
    expect(fieldLabel('transport_route.truck_km', 'en')).toBe('Truck distance (km)');
    expect(fieldLabel('transport_route.truck_km', 'de')).toBe('Strecke per Lkw (km)');
    expect(fieldLabel('production_figures[2024]', 'en')).toBe('Production figure 2024');
    expect(fieldLabel('production_figures[2024]', 'de')).toBe('Produktionsmenge 2024');
    expect(fieldLabel('items[SP-1][2025]', 'en')).toBe('Purchase volume of SP-1 in 2025');
    expect(fieldLabel('production!3.year', 'en')).toBe('Year');
    expect(fieldLabel('production_figures[0].year', 'de')).toBe('Jahr');
    expect(fieldLabel('hazardous_substances[7732-18-5].mass_share', 'en')).toBe('Mass share of 7732-18-5');
    expect(fieldLabel('supplier_company_id', 'en')).toBe('Supplier company');
  });

  it('a path without a label stays as it came', () => {
    expect(fieldLabel('something_new', 'de')).toBe('something_new');
  });

  it('an issue names the field by its label, a header issue by the name to type', () => {
    const at = { sheet: 'supplier-products', cell: 'J4', row: 4, message: 'x' };
    const required = issueText({ ...at, code: 'required', field: 'truck_km' }, 'en');
    expect(required).toContain('Truck distance (km)');
    expect(required).not.toContain('truck_km');
    expect(issueText({ ...at, code: 'missing_header', field: 'truck_km' }, 'en')).toContain('truck_km');
    const blocked = problemText(
      {
        ...at,
        kind: 'reference',
        code: 'reference_unknown',
        field: 'supplier_plant_external_id',
        params: { entityKind: 'supplier_plant', value: 'SPL-9' },
      },
      'de',
    );
    expect(blocked).toContain('Lieferantenwerk');
    expect(blocked).not.toContain('supplier_plant_external_id');
  });

  it('a rule of the service names its fields by their labels, in both languages', () => {
    const at = { sheet: 'product-instances', cell: 'D2', row: 2, message: 'x' };
    const rule = (v: { path: string; err_code: string; msg: string }) => ({
      ...at,
      code: 'rule',
      field: v.path,
      message: v.msg,
      params: { rule: v.msg, errCode: v.err_code, ruleField: v.path },
    });
    const [years] = checkProductionYears(2024, 2020);
    expect(issueText(rule(years), 'en')).toBe('Last year of production must not be before “First year of production”');
    expect(issueText(rule(years), 'de')).toBe(
      'Letztes Produktionsjahr darf nicht vor „Erstes Produktionsjahr“ liegen.',
    );
    const [mass] = checkBomMasses([{ mass_kg: 0 }]);
    expect(issueText(rule({ ...mass, path: 'mass_kg' }), 'de')).not.toContain('mass_kg');
    for (const v of checkMaterialProperties({
      secondary_percentage: 120,
      moisture_content_percentage: -1,
      lifetime_years: 0,
    }))
      for (const locale of ['en', 'de'] as const)
        expect(issueText(rule(v), locale), v.msg).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
  });

  it("fields listed by name (a delete row's unused cells, a merged cell) are listed by their labels", () => {
    const at = { sheet: 'supplier-companies', cell: 'C3', row: 3, field: null, message: 'x' };
    const unused = issueText({ ...at, code: 'delete_cells_unused', params: { fields: 'name, country' } }, 'de');
    expect(unused).toBe('Eine Löschzeile verwendet nur „Ihr Code“; nicht verwendet: Bezeichnung, Land');
    const merged = issueText({ ...at, code: 'merged_cell', params: { range: 'B2:C2', fields: 'name, country' } }, 'en');
    expect(merged).toContain('Name, Country');
  });
});
