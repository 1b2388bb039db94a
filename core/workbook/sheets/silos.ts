import { actionColumn, externalIdColumn, nameColumn, reference } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const silos = defineSheet({
  name: 'silos',
  step: 6,
  purpose:
    'Silos merge supplier products of one material type from several suppliers at one of your plants. Their items are in silo-items.',
  key: ['external_id'],
  columns: {
    external_id: externalIdColumn('silo'),
    name: nameColumn('silo'),
    plant_code: reference('plant', 'Your code of the plant of the silo.', 14),
    action: actionColumn(),
  },
});
