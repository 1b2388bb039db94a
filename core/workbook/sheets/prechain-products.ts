import { actionColumn, externalIdColumn, reference, transportColumns } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const prechainProducts = defineSheet({
  name: 'prechain-products',
  step: 8,
  purpose: 'One of your product instances used as an input at one of your plants, with its transport route.',
  key: ['external_id'],
  columns: {
    external_id: externalIdColumn('prechain product'),
    product_instance_external_id: reference(
      'product_instance',
      'external_id of the product instance used as the input.',
    ),
    plant_code: reference('plant', 'Your code of the plant that consumes it.', 14),
    ...transportColumns('to the consuming plant'),
    action: actionColumn(),
  },
});
