import { decimal, reference, year } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const production = defineSheet({
  name: 'production',
  step: 10,
  purpose:
    "Production figures of your product instances: the quantity produced per year, in the product's unit (t, m³ …). The LCA of a past or current year needs its figure; a future year's figure is stored, and the year stays blocked until it arrives. Written through the API (scope edit:processes); a recompute of the LCA uses them.",
  key: ['product_instance_external_id', 'year'],
  columns: {
    product_instance_external_id: reference('product_instance', 'external_id of the product instance.'),
    year: year({ required: true, description: 'Production year (within the instance’s produced_from … produced_to).' }),
    quantity: decimal({
      required: true,
      min: 0,
      description: "Quantity produced in that year, in the product's unit (0 or more).",
    }),
  },
});
