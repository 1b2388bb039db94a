import { childActionColumn, decimal, reference, year } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

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
});
