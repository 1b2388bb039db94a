/**
 * Silos: one entry per row with the silo items of its code (summed per supplier product and year), checked
 * against the spec's silo rules; silo items of a silo that is not in the sheet update its items.
 */
import { checkSiloItems, type SiloItemFacts } from '../../spec/rules.js';
import { isPending, type Pending, type SiloItemWanted } from '../diff.js';
import { materialKey } from '../resolve.js';
import type { WbRow } from '../workbook-rows.js';
import type { PlanState, ProductFacts } from './context.js';
import { decide } from './decide.js';
import { childProblems, groupByOwner, withChildRows, type Draft } from './draft.js';

/** Steps for a Slicer (withChildRows). */
export function planSilos(ctx: PlanState): Generator<void, void> {
  return withChildRows(ctx, {
    kind: 'silo',
    rows: ctx.wb.rows('silos'),
    children: {
      groups: groupByOwner(ctx.wb.rows('silo-items'), 'silo_external_id'),
      attach: (d, rows) => attachItems(ctx, d, rows),
    },
    fill: (d, r) => {
      const t = r.typed;
      if (t)
        d.desired = {
          external_id: t.external_id,
          name: t.name,
          plant_id: ctx.plantValue(d, r, 'plant_code', t.plant_code),
        };
    },
    settle: (d, o) => {
      checkSilo(ctx, d);
      decide(ctx, d, o);
    },
  });
}

function attachItems(ctx: PlanState, d: Draft, rows: WbRow<unknown>[]): void {
  d.rows.push(...rows.map((h) => ({ sheet: h.sheet, row: h.row })));
  const byProduct = new Map<string, { item: SiloItemWanted; row: WbRow<unknown> }>();
  for (const ir of rows) {
    const it = ir.typed as { supplier_product_external_id: string; year: number; amount: number } | null;
    if (!it) {
      childProblems(d, ir);
      continue;
    }
    let entry = byProduct.get(it.supplier_product_external_id);
    if (!entry) {
      const id = ctx.refValue(
        d,
        ir,
        'supplier_product_external_id',
        'supplier_product',
        it.supplier_product_external_id,
      );
      if (id === undefined) continue;
      entry = {
        item: { supplier_product_id: id, code: it.supplier_product_external_id, annual_items: [] },
        row: ir,
      };
      byProduct.set(it.supplier_product_external_id, entry);
    }
    entry.item.annual_items.push({ year: it.year, amount: it.amount });
  }
  const items = [...byProduct.values()];
  for (const { item } of items) item.annual_items.sort((a, b) => a.year - b.year);
  d.items = items.map((x) => x.item);
  d.itemRows = items.map((x) => x.row);
}

/** The spec's silo rules on the items this import leaves the silo with (facts from the workbook or the service). */
function checkSilo(ctx: PlanState, d: Draft): void {
  if (!d.items || d.problems.length > 0) return;
  const existing = d.externalId ? ctx.svc.silo.get(d.externalId) : undefined;
  const plantId = (typeof d.desired.plant_id === 'string' ? d.desired.plant_id : existing?.plant_id)?.toLowerCase();
  if (!plantId) return;
  const facts: SiloItemFacts[] = [];
  for (const it of d.items) {
    const f = factsOf(ctx, it.supplier_product_id, it.code);
    if (!f || f.plant_id === null || f.material_key === null) return;
    facts.push({
      supplier_product_id: isPending(it.supplier_product_id)
        ? `00000000-0000-0000-0000-${facts.length.toString().padStart(12, '0')}`
        : it.supplier_product_id,
      product: { plant_id: f.plant_id, material_key: f.material_key, supplier_plant_id: f.supplier_plant_id },
    });
  }
  for (const v of checkSiloItems(plantId, facts)) {
    const m = /^items\[(\d+)\]/.exec(v.path);
    const row = m ? d.itemRows?.[Number(m[1])] : undefined;
    const code = m ? d.items[Number(m[1])]?.code : undefined;
    d.problems.push({
      kind: 'rule',
      sheet: row?.sheetName ?? ctx.wb.sheetName(d.sheet),
      cell: row ? ctx.wb.cell(row.sheet, 'supplier_product_external_id', row.row) : null,
      row: row?.row ?? d.row,
      field: 'supplier_product_external_id',
      message: `${v.msg.replace(/supplier product [0-9a-f-]{36}/i, `supplier product ${code ?? ''}`)} (${v.err_code})`,
      code: 'silo_rule',
      params: { errCode: v.err_code, value: code ?? '', variant: siloRuleVariant(v.msg) },
    });
  }
}

/** A supplier product's facts: from its row in this import, else from the service. */
function factsOf(ctx: PlanState, id: string | Pending, code: string): ProductFacts | undefined {
  const ref = ctx.definingEntry('supplier_product', code);
  if (ref?.materialKey !== undefined)
    return {
      plant_id: ref.plant ?? null,
      material_key: ref.materialKey,
      supplier_plant_id: ref.supplierPlantId ?? null,
    };
  if (isPending(id)) return undefined;
  const e = ctx.svc.supplier_product.get(code);
  // Facts the service left out (optional in responses) are unknown: no check is made on them.
  return e?.plant_id
    ? {
        plant_id: e.plant_id.toLowerCase(),
        material_key: materialKey(e.material_type),
        supplier_plant_id: e.supplier_plant_id ?? null,
      }
    : undefined;
}

/** Which silo rule of checkSiloItems a message is (the variant of `silo_rule`). */
function siloRuleVariant(msg: string): string {
  if (msg.includes('at least 1 item')) return 'no_items';
  if (msg.includes('more than once')) return 'twice';
  if (msg.includes('not found')) return 'not_found';
  if (msg.includes("silo's plant")) return 'other_plant';
  if (msg.includes('no supplier plant')) return 'no_supplier_plant';
  if (msg.includes('same material type')) return 'material';
  return 'other';
}
