import { UNITS } from '../../spec/constants.js';
import { code, enumeration, text, uuid } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

/** Reference sheet: the products on the service (read only there), so users can look up article numbers. */
export const products = defineSheet({
  name: 'products',
  step: 0,
  referenceOnly: true,
  purpose:
    'Reference only (ignored on import): the products on the service, so you can look up the article number for product-instances.',
  columns: {
    external_id: code({ required: false, width: 20, description: 'Article number: use it as product_external_id.' }),
    name: text({ required: true, maxLength: 1000, description: 'Name of the product.' }),
    unit: enumeration({
      required: true,
      allowed: UNITS,
      list: 'unit',
      width: 16,
      description: 'Unit the product is sold in.',
    }),
    description: text({ required: false, maxLength: 32767, width: 40, description: 'Description.' }),
    id: uuid({ required: true, description: 'Service id of the product.' }),
  },
});
