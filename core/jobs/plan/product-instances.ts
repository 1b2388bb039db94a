/** Product instances: one entry per row; the product (article number) must be on the service. */
import type { PlanState } from './context.js';
import { decide } from './decide.js';
import { draft, opt } from './draft.js';

export function planProductInstances(ctx: PlanState): void {
  for (const r of ctx.wb.rows('product-instances')) {
    const d = draft(ctx, 'product_instance', r);
    const t = r.typed;
    if (t) {
      const product = ctx.lookup(d, r, 'product_external_id', 'product', t.product_external_id, () => ({
        detail: `no product with article number "${t.product_external_id}" on the service (products are created in the web interface)`,
        code: 'product_unknown',
        params: { value: t.product_external_id },
      }));
      d.desired = {
        external_id: t.external_id,
        product_id: product?.id.toLowerCase(),
        plant_id: ctx.plantValue(d, r, 'plant_code', t.plant_code),
        produced_from: t.produced_from,
        produced_to: opt(t.produced_to),
        name: opt(t.name),
      };
    }
    decide(ctx, d);
  }
}
