import { STEP_ROWS } from '../../throttle.js';
import { childActionColumn, decimal, reference, year } from '../columns.js';
import { checkSiloItems, type SiloItemFacts } from '../../spec/rules.js';
import { show } from '../coerce.js';
import { defineSheet } from '../sheet-def.js';
import { closestCodes } from '../similar.js';
import type { DataSheetName, ParsedRow } from '../types.js';
import type { ValidationContext } from '../validation-context.js';

export const siloItems = defineSheet({
  name: 'silo-items',
  step: 6,
  purpose:
    "What goes into each silo: one row per silo, supplier product and year with the yearly purchase amount. A silo needs at least one item; its items must share one material type and the silo's plant. The items of a silo are replaced whole on update.",
  key: ['silo_external_id', 'supplier_product_external_id', 'year'],
  columns: {
    silo_external_id: reference('silo', 'external_id of the silo.'),
    supplier_product_external_id: reference('supplier_product', 'external_id of the supplier product in the silo.'),
    year: year({ required: true, description: 'Year of the purchase volume.' }),
    amount: decimal({
      required: true,
      description: 'Purchase volume in that year (in the unit of the supplier product).',
    }),
    action: childActionColumn(),
  },
  workbookRules: checkSilos,
});

/** Silo items against the silo's plant and one material type, for silos and products defined in the workbook. */
function* checkSilos(ctx: ValidationContext): Generator<void> {
  let step = 0;
  const silos = ctx.sheets.get('silos');
  const items = ctx.sheets.get('silo-items');
  const products = ctx.sheets.get('supplier-products');
  if (!silos || !items) return;
  const plantIds = mappingIndex(ctx, 'plants', 'plant_code', 'plant_id');
  const materialIds = mappingIndex(ctx, 'materials', 'material_code', 'material_type_id');
  const plantKey = (code: unknown) => (typeof code === 'string' ? (plantIds.get(code) ?? `code:${code}`) : undefined);
  const productByCode = new Map<string, ParsedRow>();
  for (const r of products?.rows ?? []) {
    if (++step % STEP_ROWS === 0) yield;
    if (typeof r.values.external_id === 'string') productByCode.set(r.values.external_id, r);
  }
  const siloByCode = new Map<string, ParsedRow>();
  for (const r of silos.rows) {
    if (++step % STEP_ROWS === 0) yield;
    if (typeof r.values.external_id === 'string') siloByCode.set(r.values.external_id, r);
  }

  const itemsBySilo = new Map<string, Map<string, ParsedRow[]>>();
  for (const r of items.rows) {
    if (++step % STEP_ROWS === 0) yield;
    const silo = r.values.silo_external_id;
    const sp = r.values.supplier_product_external_id;
    if (typeof silo !== 'string' || typeof sp !== 'string') continue;
    let m = itemsBySilo.get(silo);
    if (!m) itemsBySilo.set(silo, (m = new Map()));
    const list = m.get(sp);
    if (list) list.push(r);
    else m.set(sp, [r]);
  }
  for (const [siloCode, byProduct] of itemsBySilo) {
    if (++step % STEP_ROWS === 0) yield;
    const silo = siloByCode.get(siloCode);
    const siloPlant = plantKey(silo?.values.plant_code);
    if (!silo || !siloPlant) continue;
    const codes = [...byProduct.keys()];
    const facts: SiloItemFacts[] = codes.map((code) => {
      const p = productByCode.get(code);
      const material = p?.values.material_code;
      return {
        supplier_product_id: code,
        product:
          p && typeof p.values.plant_code === 'string' && typeof material === 'string'
            ? {
                plant_id: plantKey(p.values.plant_code)!,
                material_key: materialIds.get(material) ?? `code:${material}`,
                supplier_plant_id:
                  typeof p.values.supplier_plant_external_id === 'string' ? p.values.supplier_plant_external_id : null,
              }
            : undefined,
      };
    });
    for (const v of checkSiloItems(siloPlant, facts)) {
      if (v.err_code === 'err_not_found') continue; // not in the workbook: the service checks it
      const i = Number(/\[(\d+)\]/.exec(v.path)?.[1] ?? -1);
      const code = codes[i];
      const row = code !== undefined ? byProduct.get(code)?.[0] : undefined;
      if (!row) continue;
      const p = productByCode.get(code)!;
      if (v.err_code === 'err_supplier_product_missing_supplier_plant')
        ctx.error(
          items,
          row.row,
          'supplier_product_external_id',
          'silo_item_no_supplier_plant',
          `Supplier product ${show(code)} (supplier-products row ${p.row}) has no supplier_plant_external_id: the service refuses a silo item without a supplier plant; fill it in`,
          { product: show(code), productRow: p.row },
        );
      else if (/plant/.test(v.msg))
        ctx.error(
          items,
          row.row,
          'supplier_product_external_id',
          'silo_item_plant',
          `Supplier product ${show(code)} is at plant ${show(p.values.plant_code)}, silo ${show(siloCode)} at plant ${show(silo.values.plant_code)}: a silo holds supplier products of its own plant only`,
          {
            product: show(code),
            productPlant: show(p.values.plant_code),
            silo: show(siloCode),
            siloPlant: show(silo.values.plant_code),
          },
        );
      else if (/material/.test(v.msg) && typoOfSiblingMaterial(code, byProduct, productByCode, materialIds)) {
        // Most likely a typo of the material code: said at its cause (the supplier product's material_code).
        const [typo, meant] = typoOfSiblingMaterial(code, byProduct, productByCode, materialIds)!;
        const cause = [...productByCode.values()].find((r) => r.values.material_code === typo) ?? p;
        const prodSheet = ctx.sheets.get('supplier-products')!;
        ctx.error(
          prodSheet,
          cause.row,
          'material_code',
          'silo_item_material',
          `material_code ${show(typo)} differs from the other supplier products of silo ${show(siloCode)} (${show(meant)}): did you mean ${meant}?`,
          { product: show(code), material: show(typo), hint: meant, variant: 'hint' },
        );
        ctx.block(items.name, row.row);
      } else if (/material/.test(v.msg))
        ctx.error(
          items,
          row.row,
          'supplier_product_external_id',
          'silo_item_material',
          `Supplier product ${show(code)} has material ${show(p.values.material_code)}, unlike the silo's other items: all supplier products of a silo must have the same material type`,
          { product: show(code), material: show(p.values.material_code) },
        );
      else
        ctx.error(items, row.row, 'supplier_product_external_id', 'rule', `silo ${show(siloCode)}: ${v.msg}`, {
          rule: v.msg,
          errCode: v.err_code,
          ruleField: 'items',
          silo: show(siloCode),
        });
    }
  }
}

/**
 * When the odd material code of a silo's items is a near miss of the code its other items share (`MAT-SNAD`
 * next to `MAT-SAND`, neither mapped to an id in the workbook): [typo, meant].
 */
function typoOfSiblingMaterial(
  code: string,
  byProduct: Map<string, ParsedRow[]>,
  productByCode: Map<string, ParsedRow>,
  materialIds: Map<string, string>,
): [string, string] | undefined {
  const mine = productByCode.get(code)?.values.material_code;
  if (typeof mine !== 'string' || materialIds.has(mine)) return undefined;
  const others = new Set<string>();
  for (const c of byProduct.keys()) {
    const m = productByCode.get(c)?.values.material_code;
    if (c !== code && typeof m === 'string' && m !== mine) others.add(m);
  }
  // The odd one out is the one the others do not share; check both directions.
  for (const o of others) {
    if (closestCodes(mine, [o]).length) {
      const countMine = [...byProduct.keys()].filter((c) => productByCode.get(c)?.values.material_code === mine).length;
      const countOther = [...byProduct.keys()].filter((c) => productByCode.get(c)?.values.material_code === o).length;
      return countMine <= countOther ? [mine, o] : [o, mine];
    }
  }
  return undefined;
}

function mappingIndex(
  ctx: ValidationContext,
  sheet: DataSheetName,
  codeField: string,
  idField: string,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of ctx.sheets.get(sheet)?.rows ?? []) {
    const code = r.values[codeField];
    const id = r.values[idField];
    if (typeof code === 'string' && typeof id === 'string') out.set(code, id.toLowerCase());
  }
  return out;
}
