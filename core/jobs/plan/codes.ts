/**
 * What the planner asks the service to resolve: every code the workbook's rows define or refer to, per kind
 * (one walk per collection, or a few `?external_id=` lookups), and the plants and materials the workbook maps
 * itself.
 */
import type { DataSheetName } from '../../workbook/types.js';
import { ENTITY_SHEETS } from '../entities.js';
import { emptyCodeRequests, type CodeRequests, type WorkbookMappings } from '../resolve.js';
import type { IdentifiedKind } from '../types.js';
import { rawCode, rowAction, type WbRow, type WorkbookRows } from '../workbook-rows.js';
import { COMPONENT_KIND } from './boms.js';

type CodeKind = keyof CodeRequests;

/** The cells of each sheet that hold a code, and the kind of code (a BOM row's component: by its type). */
export const CODE_CELLS: Partial<
  Record<
    DataSheetName,
    [field: string, kind: CodeKind | ((r: Pick<WbRow<unknown>, 'values'>) => CodeKind | undefined)][]
  >
> = {
  'supplier-companies': [['external_id', 'supplier_company']],
  'supplier-plants': [
    ['external_id', 'supplier_plant'],
    ['supplier_company_external_id', 'supplier_company'],
  ],
  'supplier-products': [
    ['external_id', 'supplier_product'],
    ['supplier_plant_external_id', 'supplier_plant'],
    ['plant_code', 'plant'],
    ['material_code', 'material'],
  ],
  'hazardous-substances': [['supplier_product_external_id', 'supplier_product']],
  silos: [
    ['external_id', 'silo'],
    ['plant_code', 'plant'],
  ],
  'silo-items': [
    ['silo_external_id', 'silo'],
    ['supplier_product_external_id', 'supplier_product'],
  ],
  'product-instances': [
    ['external_id', 'product_instance'],
    ['product_external_id', 'product'],
    ['plant_code', 'plant'],
  ],
  'prechain-products': [
    ['external_id', 'prechain_product'],
    ['product_instance_external_id', 'product_instance'],
    ['plant_code', 'plant'],
  ],
  production: [['product_instance_external_id', 'product_instance']],
  bom: [
    ['product_instance_external_id', 'product_instance'],
    ['component_external_id', (r): IdentifiedKind | undefined => COMPONENT_KIND[String(r.values.component_type ?? '')]],
  ],
};

/**
 * The codes the rows define or refer to, per kind: those of the rows to write (wb.rows) and of the delete rows
 * (wb.actionRows). Read from the rows' cells and action alone, not from the indexed rows, so that the service
 * reads that resolve them go out before the rows are indexed (WorkbookRows.prepare) and do not wait for it.
 */
export function collectCodes(wb: Pick<WorkbookRows, 'sheets'>): CodeRequests {
  const c = emptyCodeRequests();
  const add = (kind: CodeKind | undefined, v: string | null) => {
    if (kind && v) c[kind].add(v);
  };
  const rowsOf = (sheet: DataSheetName, keep: (a: WbRow<unknown>['action']) => boolean) => {
    const rows = wb.sheets.get(sheet)?.rows ?? [];
    const actionOf = rowAction(sheet);
    return rows.filter((r) => keep(actionOf(r)));
  };
  const collect = (sheet: DataSheetName) => {
    for (const r of rowsOf(sheet, (a) => a !== 'delete' && a !== 'ignore'))
      for (const [field, kind] of CODE_CELLS[sheet] ?? [])
        add(typeof kind === 'function' ? kind(r) : kind, rawCode(r, field));
  };
  // The order codes are asked in: the companies, the codes of delete rows, then every other sheet.
  collect('supplier-companies');
  for (const [sheet, kind] of Object.entries(ENTITY_SHEETS) as [DataSheetName, IdentifiedKind][])
    for (const r of rowsOf(sheet, (a) => a === 'delete')) add(kind, rawCode(r, 'external_id'));
  for (const sheet of Object.keys(CODE_CELLS) as DataSheetName[]) if (sheet !== 'supplier-companies') collect(sheet);
  return c;
}

export function workbookMappings(wb: WorkbookRows): WorkbookMappings {
  const m: WorkbookMappings = { plants: new Map(), materials: new Map() };
  for (const r of wb.rows('plants')) if (r.typed?.plant_id) m.plants.set(r.typed.plant_code, r.typed.plant_id);
  for (const r of wb.rows('materials')) {
    if (!r.typed) continue;
    const v: { category?: 'elementary' | 'composite'; id?: string } = {};
    if (r.typed.category) v.category = r.typed.category;
    if (r.typed.material_type_id) v.id = r.typed.material_type_id;
    m.materials.set(r.typed.material_code, v);
  }
  return m;
}
