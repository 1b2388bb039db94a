import { code, text, actionColumn } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const silos = defineSheet({
  name: 'silos',
  step: 6,
  purpose:
    'Silos merge supplier products of one material type from several suppliers at one of your plants. Their items are in silo-items.',
  key: ['external_id'],
  columns: {
    external_id: code({ required: true, description: 'Your code for the silo (unique in this sheet).' }),
    name: text({ required: true, maxLength: 255, description: 'Name of the silo.' }),
    plant_code: code({ required: true, refersTo: 'plant', width: 14, description: 'Your code of the plant of the silo.' }),
    action: actionColumn(),
  },
});
