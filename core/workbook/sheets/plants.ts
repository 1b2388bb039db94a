import { code, uuid } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const plants = defineSheet({
  name: 'plants',
  step: 1,
  purpose:
    'Mapping of your plant codes to the plants set up in the web interface. A code not listed here is looked up on the service (plants by code).',
  key: ['plant_code'],
  columns: {
    plant_code: code({ required: true, width: 14, description: 'Your plant code.' }),
    plant_id: uuid({
      required: false,
      description: 'Service id of the plant; blank = look the code up on the service.',
    }),
  },
});
