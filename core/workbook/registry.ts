/**
 * The sheet registry: every sheet of the workbook format, in onboarding (dependency) order. Templates, the
 * reader, validation, the writer and docs/workbook-format.md all come from here.
 */
import type { Column, RowOf } from './columns.js';
import type { SheetDef } from './sheet-def.js';
import { bom } from './sheets/bom.js';
import { hazardousSubstances } from './sheets/hazardous-substances.js';
import { materials } from './sheets/materials.js';
import { plants } from './sheets/plants.js';
import { prechainProducts } from './sheets/prechain-products.js';
import { productInstances } from './sheets/product-instances.js';
import { production } from './sheets/production.js';
import { products } from './sheets/products.js';
import { siloItems } from './sheets/silo-items.js';
import { silos } from './sheets/silos.js';
import { supplierCompanies } from './sheets/supplier-companies.js';
import { supplierPlants } from './sheets/supplier-plants.js';
import { supplierProducts } from './sheets/supplier-products.js';
import { DATA_SHEET_NAMES, type DataSheetName, type SheetName } from './types.js';

export {
  bom,
  hazardousSubstances,
  materials,
  plants,
  prechainProducts,
  productInstances,
  production,
  products,
  siloItems,
  silos,
  supplierCompanies,
  supplierPlants,
  supplierProducts,
};

/** Typed rows of each data sheet after validation. */
export interface SheetRows {
  'supplier-companies': RowOf<typeof supplierCompanies.columns>;
  'supplier-plants': RowOf<typeof supplierPlants.columns>;
  'supplier-products': RowOf<typeof supplierProducts.columns>;
  'hazardous-substances': RowOf<typeof hazardousSubstances.columns>;
  silos: RowOf<typeof silos.columns>;
  'silo-items': RowOf<typeof siloItems.columns>;
  'product-instances': RowOf<typeof productInstances.columns>;
  'prechain-products': RowOf<typeof prechainProducts.columns>;
  bom: RowOf<typeof bom.columns>;
  plants: RowOf<typeof plants.columns>;
  materials: RowOf<typeof materials.columns>;
  production: RowOf<typeof production.columns>;
}
export type ProductsReferenceRow = RowOf<typeof products.columns>;

const BY_NAME: { [K in DataSheetName]: SheetDef } = {
  'supplier-companies': supplierCompanies as unknown as SheetDef,
  'supplier-plants': supplierPlants as unknown as SheetDef,
  'supplier-products': supplierProducts as unknown as SheetDef,
  'hazardous-substances': hazardousSubstances as unknown as SheetDef,
  silos: silos as unknown as SheetDef,
  'silo-items': siloItems as unknown as SheetDef,
  'product-instances': productInstances as unknown as SheetDef,
  'prechain-products': prechainProducts as unknown as SheetDef,
  bom: bom as unknown as SheetDef,
  plants: plants as unknown as SheetDef,
  materials: materials as unknown as SheetDef,
  production: production as unknown as SheetDef,
};

/** Data sheets in onboarding order (mapping sheets first, BOM last); the order of the combined template. */
export const DATA_SHEETS: readonly SheetDef[] = [...DATA_SHEET_NAMES]
  .map((n) => BY_NAME[n])
  .sort(
    (a, b) =>
      a.step - b.step ||
      DATA_SHEET_NAMES.indexOf(a.name as DataSheetName) - DATA_SHEET_NAMES.indexOf(b.name as DataSheetName),
  );

export const PRODUCTS_REFERENCE_SHEET: SheetDef = products as unknown as SheetDef;

export function getSheet(name: DataSheetName): SheetDef {
  return BY_NAME[name];
}

export function getAnySheet(name: SheetName): SheetDef {
  return name === 'products' ? PRODUCTS_REFERENCE_SHEET : BY_NAME[name];
}

export function isDataSheetName(name: string): name is DataSheetName {
  return (DATA_SHEET_NAMES as readonly string[]).includes(name);
}

/** Column entries of a sheet in their order. */
export function columnsOf(def: SheetDef): [string, Column][] {
  return Object.entries(def.columns);
}

/** Lenient sheet-name match: case, spaces and underscores do not matter ('Supplier Products' → supplier-products). */
export function normaliseSheetName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

/** Lenient header match: case, spaces, hyphens and a trailing `*` do not matter ('External ID*' → external_id). */
export function normaliseHeader(name: string): string {
  return name
    .trim()
    .replace(/\*+$/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}
