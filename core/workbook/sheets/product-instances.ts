import { checkProductionYears } from '../../spec/rules.js';
import { actionColumn, externalIdColumn, reference, text, year } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const productInstances = defineSheet({
  name: 'product-instances',
  step: 7,
  purpose: 'A product made at one of your plants over a span of years. Its recipe is in the bom sheet.',
  key: ['external_id'],
  columns: {
    external_id: externalIdColumn('product instance'),
    product_external_id: reference(
      'product',
      'Article number of the product (external_id of a product on the service; see the products sheet).',
      20,
    ),
    plant_code: reference('plant', 'Your code of the plant that makes it.', 14),
    produced_from: year({ required: true, description: 'First year of production.' }),
    produced_to: year({ required: false, description: 'Last year of production; blank = still produced.' }),
    name: text({ required: false, maxLength: 255, description: 'Name of the instance.' }),
    action: actionColumn(),
  },
  ruleFields: ['produced_to'],
  rowRules: (r) => checkProductionYears(r.produced_from, r.produced_to),
});
