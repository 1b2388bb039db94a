/**
 * Supplier products: one entry per row (plant, material, supplier plant, route), with the hazardous substances
 * of its code attached; hazardous substances of a product that is not in the sheet update its list. Rows whose
 * entity the service's walk has found may be decided before the walk ends (ahead.ts).
 */
import type { Hazard } from '../diff.js';
import type { WbRow } from '../workbook-rows.js';
import type { SheetRows } from '../../workbook/registry.js';
import { didYouMean, hintParam, type PlanState } from './context.js';
import { decide } from './decide.js';
import {
  childProblems,
  groupByOwner,
  opt,
  routeOf,
  withChildRows,
  type Draft,
  type EntitySheet,
  type RowsAhead,
} from './draft.js';

export type SupplierProductsSheet = EntitySheet<SheetRows['supplier-products']>;

/** The supplier-products sheet as its planner sees it: its rows, their hazardous substances, what a row wants. */
export function supplierProductsSheet(ctx: PlanState): SupplierProductsSheet {
  return {
    kind: 'supplier_product',
    rows: ctx.wb.rows('supplier-products'),
    children: {
      groups: groupByOwner(ctx.wb.rows('hazardous-substances'), 'supplier_product_external_id'),
      attach: attachHazards,
    },
    fill: (d, r) => {
      const t = r.typed;
      if (!t) return;
      const route = routeOf(t);
      const material = ctx.lookup(d, r, 'material_code', 'material', t.material_code, () => ({
        detail: `material code "${t.material_code}" is not in the materials sheet, the profile's mappings or among the service's elementaries and composites${didYouMean(t.material_code, ctx.svc.material.keys())}`,
        code: 'material_unknown',
        params: { value: t.material_code, ...hintParam(t.material_code, ctx.svc.material.keys()) },
      }));
      d.desired = {
        external_id: t.external_id,
        name: t.name,
        plant_id: ctx.plantValue(d, r, 'plant_code', t.plant_code),
        material_type: material?.ref,
        supplier_plant_id:
          t.supplier_plant_external_id === undefined
            ? undefined
            : t.supplier_plant_external_id === null
              ? null
              : ctx.refValue(d, r, 'supplier_plant_external_id', 'supplier_plant', t.supplier_plant_external_id),
        unit: t.unit,
        epd_id: opt(t.epd_id),
        lifetime_years: opt(t.lifetime_years),
        secondary_percentage: opt(t.secondary_percentage),
        moisture_content_percentage: opt(t.moisture_content_percentage),
      };
      d.route = route;
    },
    settle: (d, o) => decide(ctx, d, o),
  };
}

/**
 * Every row of the sheet, in order; a row decided ahead (`ahead`) enters the plan at its turn as decided then.
 * Steps for a Slicer (withChildRows).
 */
export function planSupplierProducts(
  ctx: PlanState,
  sheet: SupplierProductsSheet = supplierProductsSheet(ctx),
  ahead?: RowsAhead,
): Generator<void, void> {
  return withChildRows(ctx, sheet, ahead);
}

function attachHazards(d: Draft, rows: WbRow<unknown>[]): void {
  d.rows.push(...rows.map((h) => ({ sheet: h.sheet, row: h.row })));
  const hazards: Hazard[] = [];
  for (const h of rows) {
    const ht = h.typed as { cas_number: string; mass_share: number } | null;
    if (!ht) {
      childProblems(d, h);
      continue;
    }
    hazards.push({ cas_number: ht.cas_number, mass_share: ht.mass_share });
  }
  d.hazards = hazards;
}
