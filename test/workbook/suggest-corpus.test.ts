/**
 * `mapping suggest` on ERP-shaped exports: a confident suggestion (≥ 0.8, applied without asking) on the held-out
 * part of the corpus (test/fixtures/erp-exports/) is right, and the rules that use a column's values.
 */
import { describe, expect, it } from 'vitest';
import { HIGH_CONFIDENCE, suggestMapping, type KnownCodes } from '../../core/workbook/column-mapping/suggest.js';
import type { PeekedSource } from '../../core/workbook/sources/peek.js';
import { ERP_CORPUS } from '../fixtures/erp-exports/corpus.js';
import { scoreCorpus } from '../fixtures/erp-exports/score.js';

const csv = (name: string, rows: string[][]): PeekedSource => ({
  name,
  file: name,
  isFile: true,
  rows,
  csv: { encoding: 'utf-8', bom: false, delimiter: ';' },
});

const PRODUCTS = ['4711-100', '4711-200', '4712-100', '4713-010'];
const rowsOf = (header: string[], row: (i: number) => string[], n = 8) => [
  header,
  ...Array.from({ length: n }, (_, i) => row(i)),
];

/** The confident field per column of the first source. */
function confident(sources: PeekedSource[], known?: KnownCodes) {
  const { perSource } = suggestMapping(sources, undefined, known);
  const s = perSource[0];
  return {
    sheet: s.sheet,
    columns: Object.fromEntries(
      s.columns.filter((c) => c.confidence >= HIGH_CONFIDENCE).map((c) => [c.column, `${c.field} (${c.method})`]),
    ),
  };
}

describe('mapping suggest on the ERP export corpus', () => {
  it('the corpus has a development and a held-out part, each column with its truth', () => {
    const held = ERP_CORPUS.filter((e) => e.split === 'heldout');
    expect(held.length).toBeGreaterThanOrEqual(10);
    expect(ERP_CORPUS.length - held.length).toBeGreaterThanOrEqual(10);
    expect(new Set(ERP_CORPUS.map((e) => e.id)).size).toBe(ERP_CORPUS.length);
  });

  it('every confident suggestion on the held-out exports is right, and most field columns get one', () => {
    const s = scoreCorpus(ERP_CORPUS.filter((e) => e.split === 'heldout'));
    expect(s.misses).toEqual([]);
    expect(s.precision).toBe(1);
    expect(s.sheetsRight).toBe(s.sources);
    // Not right by saying nothing: the confident suggestions cover most columns that are a field.
    expect(s.coverage).toBeGreaterThanOrEqual(0.85);
  });
});

describe('suggestions by values', () => {
  const instances = (h: string) =>
    rowsOf([h, 'Werk', 'Fertigungsversion', 'Gültig ab'], (i) => [
      PRODUCTS[i % 4],
      '1000',
      `000${(i % 3) + 1}`,
      '2024',
    ]);

  it("a column of the service's product article numbers is a product reference, not the instance's own code", () => {
    const src = csv('export.csv', instances('Nummer'));
    expect(confident([src], { product: new Set(PRODUCTS) })).toMatchObject({
      sheet: 'product-instances',
      columns: { Nummer: 'product_external_id (values)', Fertigungsversion: 'external_id (synonym)' },
    });
    // Without the service's codes the header alone does not make it one.
    expect(confident([src]).columns.Nummer ?? '').not.toMatch(/^product_external_id/);
  });

  it('an article number is the product in product-instances and the own code in supplier-products (synonyms per sheet)', () => {
    const inst = csv(
      'export.csv',
      rowsOf(['Artikelnummer', 'Fertigungsversion', 'Werk', 'Gültig ab'], (i) => [
        PRODUCTS[i % 4],
        '0001',
        '1000',
        '2024',
      ]),
    );
    expect(confident([inst])).toMatchObject({
      sheet: 'product-instances',
      columns: { Artikelnummer: 'product_external_id (synonym)', Fertigungsversion: 'external_id (synonym)' },
    });
    const sp = csv(
      'export.csv',
      rowsOf(['Artikelnummer', 'Bezeichnung', 'Werk', 'Materialart', 'ME'], (i) => [
        `A${i}`,
        'Sand',
        '1000',
        'ROH',
        'KG',
      ]),
    );
    expect(confident([sp])).toMatchObject({
      sheet: 'supplier-products',
      columns: { Artikelnummer: 'external_id (synonym)' },
    });
  });

  it('a column that holds none of the service codes of a kind it names is no reference to it', () => {
    const src = csv(
      'MAT.csv',
      rowsOf(['Materialnummer', 'Bezeichnung', 'Werk', 'Material', 'ME'], (i) => [
        `RM-${i}`,
        'Sand',
        '1000',
        `X-${i}`,
        'KG',
      ]),
    );
    expect(confident([src]).columns.Material).toBe('material_code (synonym)');
    expect(confident([src], { material: new Set(['ROH-SAND', 'ROH-KIES']) }).columns.Material).toBeUndefined();
  });

  it("codes another file of the same drop defines: a supplier product's plant column holds the plants list's codes", () => {
    const plants = csv(
      'Werke.csv',
      rowsOf(['plant_code', 'plant_id'], (i) => [`PL-${i}`, `00000000-0000-4000-8000-00000000000${i}`], 4),
    );
    const products = csv(
      'Einkauf.csv',
      rowsOf(['Materialnummer', 'Bezeichnung', 'Kennung', 'Materialart', 'ME'], (i) => [
        `RM-${i}`,
        'Sand',
        `PL-${i % 4}`,
        'ROH',
        'KG',
      ]),
    );
    expect(confident([products]).columns.Kennung).toBeUndefined();
    const { perSource } = suggestMapping([products, plants]);
    expect(perSource.map((s) => s.sheet)).toEqual(['supplier-products', 'plants']);
    expect(perSource[0].columns.find((c) => c.column === 'Kennung')).toMatchObject({
      field: 'plant_code',
      method: 'values',
    });
    expect(perSource[0].columns.find((c) => c.column === 'Kennung')!.confidence).toBeGreaterThanOrEqual(
      HIGH_CONFIDENCE,
    );
  });

  it('a source named like a sheet (Kreditoren, Vendors) is a hint for that sheet, not more', () => {
    const rows = rowsOf(['No.', 'Name', 'City'], (i) => [`V${i}`, `Firma ${i}`, 'Ulm']);
    expect(confident([csv('Vendors.csv', rows)]).sheet).toBe('supplier-companies');
    expect(confident([csv('export.csv', rows)]).sheet).toBe('supplier-plants');
  });

  it('the values compared are bounded: the first MAX_VALUE_SAMPLES filled cells of a column', () => {
    // 25 known codes first, then 100 unknown ones: the column is judged by its first 25.
    const rows = rowsOf(
      ['Nummer', 'Werk', 'Fertigungsversion', 'Gültig ab'],
      (i) => [i < 25 ? PRODUCTS[i % 4] : `UNKNOWN-${i}`, '1000', '0001', '2024'],
      125,
    );
    const long = csv('export.csv', rows);
    expect(confident([long], { product: new Set(PRODUCTS) }).columns.Nummer).toBe('product_external_id (values)');
  });
});
