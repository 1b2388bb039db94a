/** Supplier plants: one entry per row, referring to their supplier company (in the workbook or on the service). */
import type { PlanState } from './context.js';
import { decide } from './decide.js';
import { draft, opt } from './draft.js';

export function planSupplierPlants(ctx: PlanState): void {
  for (const r of ctx.wb.rows('supplier-plants')) {
    const d = draft(ctx, 'supplier_plant', r);
    const t = r.typed;
    if (t) {
      d.desired = {
        external_id: t.external_id,
        name: t.name,
        supplier_company_id: ctx.refValue(
          d,
          r,
          'supplier_company_external_id',
          'supplier_company',
          t.supplier_company_external_id,
        ),
        country: opt(t.country),
        city: opt(t.city),
      };
    }
    decide(ctx, d);
  }
}
