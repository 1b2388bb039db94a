/** Workbook-local validation: schema, spec rules, keys, BOM pairs, silo items, references — at exact cells. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatIssue, rowsOf } from '../../core/workbook/helpers.js';
import { readWorkbook } from '../../core/workbook/reader.js';
import { listReferences } from '../../core/workbook/references.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import type { ParsedWorkbook, ValidationReport } from '../../core/workbook/types.js';
import { headerOf, rowOf, tempDir, writeXlsx } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const P1 = '00000000-0000-4000-8000-0000000000a1';
const M1 = '00000000-0000-4000-8000-0000000000b1';
const sp = (id: string, plant: string, material: string | null, extra: Record<string, unknown> = {}) =>
  rowOf('supplier-products', {
    external_id: id,
    name: `Product ${id}`,
    plant_code: plant,
    material_code: material,
    supplier_plant_external_id: 'SPL-1',
    unit: 'T',
    ...extra,
  } as never);

let parsed: ParsedWorkbook;
let report: ValidationReport;
beforeAll(async () => {
  const path = tmp.file('validate.xlsx');
  await writeXlsx(path, {
    plants: [headerOf('plants'), ['P1', P1], ['P2', null]],
    materials: [headerOf('materials'), ['M1', 'elementary', M1], ['M2', null, '00000000-0000-4000-8000-0000000000b2']],
    'supplier-companies': [
      headerOf('supplier-companies'),
      ['SC-1', 'Kies AG', 'DE'],
      ['SC-2', '#CLEAR', 'AT'],
      ['SC-1', 'Kies AG again', null],
    ],
    'supplier-plants': [
      headerOf('supplier-plants'),
      ['SPL-1', 'Werk 1', 'SC-1', 'DE', 'Köln'],
      ['SPL-2', 'Werk 2', 'SC-X', null, null],
    ],
    'supplier-products': [
      headerOf('supplier-products'),
      sp('SP-1', 'P1', 'M1', { secondary_percentage: 120 }),
      sp('SP-2', 'P2', 'M1'),
      sp('SP-3', 'P1', 'M2', { lifetime_years: 0 }),
      sp('SP-4', 'P1', 'M1', { supplier_plant_external_id: null }),
      sp('SP-5', 'P1', null),
    ],
    'hazardous-substances': [
      headerOf('hazardous-substances'),
      ['SP-1', '7732-18-5', 0.05],
      ['SP-1', 'abc', 0.1],
      ['SP-1', '7732-18-5', 0.02],
    ],
    silos: [headerOf('silos'), ['S-1', 'Silo 1', 'P1']],
    'silo-items': [
      headerOf('silo-items'),
      ['S-1', 'SP-1', 2024, 100],
      ['S-1', 'SP-2', 2024, 50],
      ['S-1', 'SP-3', 2024, 50],
      ['S-1', 'SP-4', 2024, 50],
      ['S-1', 'SP-1', 2024, 70],
      ['S-9', 'SP-X', 2024, 1],
    ],
    'product-instances': [
      headerOf('product-instances'),
      ['PI-1', 'A-1', 'P1', 2020, 2019],
      ['PI-2', 'A-2', 'P1', 2021, null],
    ],
    'prechain-products': [headerOf('prechain-products'), ['PC-1', 'PI-2', 'P1', 12]],
    bom: [
      headerOf('bom'),
      ['PI-2', 'supplier_product', 'SP-1', 10],
      ['PI-2', 'supplier_product', 'SP-1', 5],
      ['PI-2', 'silo', 'S-1', -5],
      ['PI-2', 'prechain_product', 'PC-1', 1],
      ['PI-3', 'supplier_product', 'sp-1', 1],
      ['PI-2', 'silo', 'SP-1', 2],
    ],
  });
  parsed = await readWorkbook(path);
  report = await validateWorkbook(parsed);
});

const cells = (code: string) => report.issues.filter((i) => i.code === code).map((i) => `${i.sheet}!${i.cell}`);
const blocked = (sheet: string) => report.sheets.find((s) => s.name === sheet)!.blockedRows;

describe('validateWorkbook', () => {
  it('reads without reader errors; the report is JSON and says not ok', () => {
    expect(parsed.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(report.ok).toBe(false);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    expect(report.errors).toBe(report.issues.filter((i) => i.severity === 'error').length);
  });

  it('required blanks and #CLEAR on a required field', () => {
    expect(cells('required')).toEqual(['supplier-products!D6']);
    expect(cells('clear_required')).toEqual(['supplier-companies!B3']);
  });

  it('duplicate keys in a sheet: every occurrence, naming the other rows', () => {
    expect(cells('duplicate_key')).toEqual([
      'supplier-companies!A2',
      'supplier-companies!A4',
      'hazardous-substances!A2',
      'hazardous-substances!A4',
      'silo-items!A2',
      'silo-items!A6',
    ]);
    expect(report.issues.find((i) => i.code === 'duplicate_key')!.message).toMatch(
      /"SC-1" appears 2 times .*rows 2, 4/,
    );
  });

  it('spec rules per row: percentages 0–100, lifetime > 0, CAS number, produced_to ≥ produced_from, mass_kg > 0, category with a type id', () => {
    expect(cells('rule')).toEqual([
      'materials!B3',
      'supplier-products!M2',
      'supplier-products!L4',
      'hazardous-substances!B3',
      'product-instances!E2',
      'bom!D4',
    ]);
    const msg = (cell: string) => report.issues.find((i) => `${i.sheet}!${i.cell}` === cell)!.message;
    expect(msg('supplier-products!M2')).toMatch(/secondary_percentage must be between 0 and 100 \(got 120\)/);
    expect(msg('product-instances!E2')).toMatch(/produced_to must not be before produced_from/);
    expect(msg('bom!D4')).toMatch(/mass_kg must be greater than 0 \(got -5\)/);
  });

  it('a (component_type, component) twice in one instance BOM; other types or instances do not clash', () => {
    expect(cells('duplicate_bom_component')).toEqual(['bom!C3']);
    expect(report.issues.find((i) => i.code === 'duplicate_bom_component')!.message).toMatch(/first in row 2/);
    expect(blocked('bom')).toEqual([2, 3, 4]);
  });

  it('silo items: at the silo plant, one material type, with a supplier plant', () => {
    expect(cells('silo_item_plant')).toEqual(['silo-items!B3']);
    expect(cells('silo_item_material')).toEqual(['silo-items!B4']);
    expect(cells('silo_item_no_supplier_plant')).toEqual(['silo-items!B5']);
    expect(blocked('silo-items')).toEqual([2, 3, 4, 5, 6]);
  });

  it('lists the blocked rows per sheet', () => {
    expect(blocked('supplier-products')).toEqual([2, 4, 6]);
    expect(blocked('supplier-plants')).toEqual([]);
    expect(blocked('product-instances')).toEqual([2]);
    expect(blocked('materials')).toEqual([3]);
  });

  it('orders issues by sheet (onboarding order), row and column', () => {
    const order = report.issues.map((i) => i.sheet);
    expect(order.indexOf('materials')).toBeLessThan(order.indexOf('supplier-companies'));
    expect(order.lastIndexOf('silo-items')).toBeLessThan(order.indexOf('bom'));
  });

  it('resolves references in the workbook or leaves them to the service', () => {
    const refs = report.references;
    const find = (type: keyof typeof refs, code: string) => refs[type]!.find((r) => r.code === code);
    expect(find('plant', 'P1')).toMatchObject({ resolution: 'workbook', target: { sheet: 'plants', row: 2 } });
    expect(find('plant', 'P2')).toMatchObject({ resolution: 'service', target: null });
    expect(find('supplier_company', 'SC-1')).toMatchObject({
      resolution: 'workbook',
      target: { sheet: 'supplier-companies', row: 2 },
    });
    expect(find('supplier_company', 'SC-X')).toMatchObject({
      resolution: 'service',
      first: { sheet: 'supplier-plants', row: 3, cell: 'C3' },
    });
    expect(find('product', 'A-1')).toMatchObject({ resolution: 'service' });
    expect(find('silo', 'S-9')).toMatchObject({ resolution: 'service' });
    expect(find('silo', 'S-1')).toMatchObject({ resolution: 'workbook', target: { sheet: 'silos', row: 2 } });
    expect(find('prechain_product', 'PC-1')).toMatchObject({ resolution: 'workbook' });
    expect(find('product_instance', 'PI-3')).toMatchObject({ resolution: 'service' });
    expect(find('material', 'M2')).toMatchObject({ resolution: 'workbook', target: { sheet: 'materials', row: 3 } });
    expect(find('supplier_product', 'SP-1')!.uses).toBe(7); // 3 hazardous substances, 2 silo items, 2 BOM rows
    // the component type decides what a BOM code names: SP-1 as a silo is a silo code
    expect(find('silo', 'SP-1')).toMatchObject({ resolution: 'service' });
  });

  it('lists the references each row makes, with their cells', () => {
    const all = [...listReferences(parsed)];
    expect(all.filter((r) => r.sheet === 'bom' && r.row === 4)).toEqual([
      {
        sheet: 'bom',
        row: 4,
        field: 'product_instance_external_id',
        cell: 'A4',
        entityType: 'product_instance',
        code: 'PI-2',
        resolution: 'workbook',
        target: { sheet: 'product-instances', row: 3 },
      },
      {
        sheet: 'bom',
        row: 4,
        field: 'component_external_id',
        cell: 'C4',
        entityType: 'silo',
        code: 'S-1',
        resolution: 'workbook',
        target: { sheet: 'silos', row: 2 },
      },
    ]);
    expect(all.filter((r) => r.sheet === 'supplier-products').map((r) => r.entityType)).toEqual(
      expect.arrayContaining(['plant', 'material', 'supplier_plant']),
    );
    expect(all.length).toBe(
      Object.values(report.references).reduce((n, list) => n + list!.reduce((m, r) => m + r.uses, 0), 0),
    );
  });

  it('gives typed rows with their blocked flag, and prints issues by cell', () => {
    const rows = rowsOf(parsed, report, 'product-instances');
    expect(rows.map((r) => [r.row, r.blocked])).toEqual([
      [2, true],
      [3, false],
    ]);
    expect(rows[1].data).toEqual({
      external_id: 'PI-2',
      product_external_id: 'A-2',
      plant_code: 'P1',
      produced_from: 2021,
    });
    const i = report.issues.find((x) => x.code === 'duplicate_bom_component')!;
    expect(formatIssue(i)).toMatch(/^error bom!C3: supplier_product "SP-1" appears twice/);
  });

  it('a workbook that could not be read validates to its file error only', async () => {
    const path = tmp.file('empty.xlsx');
    await import('node:fs/promises').then((fs) => fs.writeFile(path, ''));
    const r = await validateWorkbook(await readWorkbook(path));
    expect(r).toMatchObject({ ok: false, errors: 1, sheets: [], references: {} });
  });
});
