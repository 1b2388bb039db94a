/** Prechain products: one entry per row, referring to a product instance, with a transport route. */
import type { PlanState } from './context.js';
import { decide } from './decide.js';
import { draft, routeOf } from './draft.js';

export function planPrechainProducts(ctx: PlanState): void {
  for (const r of ctx.wb.rows('prechain-products')) {
    const d = draft(ctx, 'prechain_product', r);
    const t = r.typed;
    if (t) {
      const route = routeOf(t);
      d.desired = {
        external_id: t.external_id,
        product_instance_id: ctx.refValue(
          d,
          r,
          'product_instance_external_id',
          'product_instance',
          t.product_instance_external_id,
        ),
        plant_id: ctx.plantValue(d, r, 'plant_code', t.plant_code),
      };
      d.route = route;
    }
    decide(ctx, d);
  }
}
