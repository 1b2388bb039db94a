/** Supplier companies: one entry per row of the supplier-companies sheet. */
import type { PlanState } from './context.js';
import { decide } from './decide.js';
import { draft, opt } from './draft.js';

export function planCompanies(ctx: PlanState): void {
  for (const r of ctx.wb.rows('supplier-companies')) {
    const d = draft(ctx, 'supplier_company', r);
    const t = r.typed;
    if (t) d.desired = { external_id: t.external_id, name: t.name, country: opt(t.country) };
    decide(ctx, d);
  }
}
