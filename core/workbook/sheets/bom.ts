import { STEP_ROWS } from '../../throttle.js';
import { checkBomMasses, findDuplicateBomComponents } from '../../spec/rules.js';
import { BOM_COMPONENT_TYPES } from '../../spec/constants.js';
import { childActionColumn, decimal, enumeration, reference } from '../columns.js';
import { show } from '../coerce.js';
import { defineSheet } from '../sheet-def.js';
import type { ParsedRow } from '../types.js';
import { rowActionOf } from '../validate-row.js';
import type { ValidationContext } from '../validation-context.js';

export const bom = defineSheet({
  name: 'bom',
  step: 9,
  purpose:
    'The bill of materials of each product instance: one row per component. The rows of an instance are its whole BOM: it replaces the BOM on the service.',
  columns: {
    product_instance_external_id: reference(
      'product_instance',
      'external_id of the product instance whose BOM this row belongs to.',
    ),
    component_type: enumeration({
      required: true,
      allowed: BOM_COMPONENT_TYPES,
      list: 'component_type',
      width: 18,
      description: 'What the component is.',
    }),
    component_external_id: reference(
      'by_component_type',
      'external_id of the supplier product, silo or prechain product (as component_type says).',
    ),
    mass_kg: decimal({
      required: true,
      unit: 'kg',
      min: 0,
      minExclusive: true,
      rangeFromRule: true,
      description: 'Mass of the component in the product, kg (greater than 0).',
    }),
    action: childActionColumn(),
  },
  rowRules: (r) => checkBomMasses([r]),
  workbookRules: checkBomDuplicates,
});

/** The spec's BOM rule per instance: each (component_type, component) at most once. */
function* checkBomDuplicates(ctx: ValidationContext): Generator<void> {
  let step = 0;
  const sheet = ctx.sheets.get('bom');
  if (!sheet) return;
  const byInstance = new Map<string, ParsedRow[]>();
  for (const row of sheet.rows) {
    if (++step % STEP_ROWS === 0) yield;
    if (rowActionOf(row) === 'ignore') continue;
    const inst = row.values.product_instance_external_id;
    if (
      typeof inst !== 'string' ||
      typeof row.values.component_type !== 'string' ||
      typeof row.values.component_external_id !== 'string'
    )
      continue;
    const g = byInstance.get(inst);
    if (g) g.push(row);
    else byInstance.set(inst, [row]);
  }
  // Codes are compared exactly: each distinct code gets its own token (the rule's key folds case for uuids).
  const tokens = new Map<string, string>();
  const token = (code: string) => {
    let t = tokens.get(code);
    if (!t) tokens.set(code, (t = String(tokens.size)));
    return t;
  };
  for (const [inst, rows] of byInstance) {
    if (++step % STEP_ROWS === 0) yield;
    const comps = rows.map((r) => ({
      type: r.values.component_type as 'supplier_product',
      ref: token(r.values.component_external_id as string),
    }));
    for (const v of findDuplicateBomComponents(comps)) {
      const i = Number(/\[(\d+)\]/.exec(v.path)?.[1] ?? -1);
      const r = rows[i];
      if (!r) continue;
      const first = rows.find(
        (x) =>
          x.values.component_type === r.values.component_type &&
          x.values.component_external_id === r.values.component_external_id,
      )!;
      ctx.error(
        sheet,
        r.row,
        'component_external_id',
        'duplicate_bom_component',
        `${String(r.values.component_type)} ${show(r.values.component_external_id)} appears twice in the BOM of ${show(inst)} (first in row ${first.row}); a BOM holds each component once — add the masses into one row`,
        {
          componentType: String(r.values.component_type),
          component: show(r.values.component_external_id),
          instance: show(inst),
          firstRow: first.row,
        },
      );
      ctx.block(sheet.name, first.row);
    }
  }
}
