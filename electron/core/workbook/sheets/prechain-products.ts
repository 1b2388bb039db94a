import { code, km, actionColumn } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const prechainProducts = defineSheet({
  name: 'prechain-products',
  step: 8,
  purpose: 'One of your product instances used as an input at one of your plants, with its transport route.',
  key: ['external_id'],
  columns: {
    external_id: code({ required: true, description: 'Your code for the prechain product (unique in this sheet).' }),
    product_instance_external_id: code({
      required: true,
      refersTo: 'product_instance',
      description: 'external_id of the product instance used as the input.',
    }),
    plant_code: code({ required: true, refersTo: 'plant', width: 14, description: 'Your code of the plant that consumes it.' }),
    truck_km: km({ required: false, description: 'Transport distance by truck to the consuming plant.' }),
    train_km: km({ required: false, description: 'Transport distance by train to the consuming plant.' }),
    ship_km: km({ required: false, description: 'Transport distance by ship to the consuming plant.' }),
    barge_km: km({ required: false, description: 'Transport distance by barge to the consuming plant.' }),
    action: actionColumn(),
  },
});
