import { MATERIAL_CATEGORIES } from '../../spec/constants.js';
import { code, enumeration, uuid } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const materials = defineSheet({
  name: 'materials',
  step: 2,
  purpose:
    'Mapping of your material codes to material types (elementaries or composites). A code not listed here is looked up on the service (elementaries by code).',
  key: ['material_code'],
  columns: {
    material_code: code({ required: true, width: 16, description: 'Your material code.' }),
    category: enumeration({
      required: false,
      allowed: MATERIAL_CATEGORIES,
      list: 'category',
      width: 14,
      description: 'Kind of material type. Required when material_type_id is given.',
    }),
    material_type_id: uuid({
      required: false,
      description: 'Service id of the elementary or composite; blank = look the code up on the service.',
    }),
  },
  rowRules: (r) =>
    r.material_type_id && !r.category
      ? [
          {
            path: 'category',
            err_code: 'err_not_valid',
            msg: 'category (elementary or composite) is required when material_type_id is given',
          },
        ]
      : [],
});
