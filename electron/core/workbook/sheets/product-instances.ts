import { checkProductionYears } from '../../spec/rules.js';
import { code, text, year, actionColumn } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const productInstances = defineSheet({
  name: 'product-instances',
  step: 7,
  purpose: 'A product made at one of your plants over a span of years. Its recipe is in the bom sheet.',
  key: ['external_id'],
  columns: {
    external_id: code({ required: true, description: 'Your code for the product instance (unique in this sheet).' }),
    product_external_id: code({
      required: true,
      refersTo: 'product',
      width: 20,
      description: 'Article number of the product (external_id of a product on the service; see the products sheet).',
    }),
    plant_code: code({ required: true, refersTo: 'plant', width: 14, description: 'Your code of the plant that makes it.' }),
    produced_from: year({ required: true, description: 'First year of production.' }),
    produced_to: year({ required: false, description: 'Last year of production; blank = still produced.' }),
    name: text({ required: false, maxLength: 255, description: 'Name of the instance.' }),
    action: actionColumn(),
  },
  ruleFields: ['produced_to'],
  rowRules: (r) => checkProductionYears(r.produced_from, r.produced_to),
});
