/**
 * The two imports the LCA impact tests run on the sandbox: the full workbook with a third instance (PI-3, SP-2
 * directly) and production figures; then PI-1's silo mass 950 → 1000, PI-2's SP-3 swapped for SP-2, SP-1 farther
 * away (an item of SILO-1) and PI-2's 2024 production figure. Not a test file.
 */
import type { SheetData } from '../jobs/helpers.js';

/** The first import: the full workbook, a third instance using SP-2 directly, production figures. */
export function firstImport(data: SheetData): SheetData {
  return {
    ...data,
    'product-instances': [
      ...(data['product-instances'] ?? []),
      { external_id: 'PI-3', product_external_id: 'ART-10011', plant_code: 'HEID', produced_from: 2025 },
    ],
    bom: [
      ...(data.bom ?? []),
      {
        product_instance_external_id: 'PI-3',
        component_type: 'supplier_product',
        component_external_id: 'SP-2',
        mass_kg: 200,
      },
    ],
    production: [
      ...[2023, 2024, 2025, 2026].map((year, k) => ({
        product_instance_external_id: 'PI-1',
        year,
        quantity: 1000 + 100 * k,
      })),
      { product_instance_external_id: 'PI-2', year: 2022, quantity: 500 },
      { product_instance_external_id: 'PI-2', year: 2023, quantity: 600 },
      { product_instance_external_id: 'PI-3', year: 2025, quantity: 50 },
      { product_instance_external_id: 'PI-3', year: 2026, quantity: 60 },
    ],
  };
}

/** The second import: PI-1's silo mass 950 → 1000, PI-2's SP-3 swapped for SP-2, SP-1 farther, PI-2's 2024 figure. */
export function secondImport(first: SheetData): SheetData {
  return {
    ...first,
    'supplier-products': first['supplier-products']!.map((r) =>
      r.external_id === 'SP-1' ? { ...r, truck_km: 200 } : r,
    ),
    bom: first.bom!.map((r) =>
      r.product_instance_external_id === 'PI-1'
        ? { ...r, mass_kg: 1000 }
        : r.product_instance_external_id === 'PI-2' && r.component_external_id === 'SP-3'
          ? { ...r, component_external_id: 'SP-2' }
          : r,
    ),
    production: [...first.production!, { product_instance_external_id: 'PI-2', year: 2024, quantity: 700 }],
  };
}
