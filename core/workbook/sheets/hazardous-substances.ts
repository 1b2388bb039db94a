import { checkMaterialProperties } from '../../spec/rules.js';
import { childActionColumn, decimal, reference, text } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const hazardousSubstances = defineSheet({
  name: 'hazardous-substances',
  step: 5,
  purpose:
    'Hazardous substances of a supplier product, one row per substance. They are sent with the supplier product.',
  key: ['supplier_product_external_id', 'cas_number'],
  columns: {
    supplier_product_external_id: reference(
      'supplier_product',
      'external_id of the supplier product that contains the substance.',
    ),
    cas_number: text({
      required: true,
      maxLength: 12,
      width: 14,
      description: 'CAS number of the substance, e.g. 7732-18-5.',
    }),
    mass_share: decimal({
      required: true,
      min: 0,
      max: 1,
      minExclusive: true,
      rangeFromRule: true,
      width: 12,
      description: 'Mass share of the substance as a fraction: greater than 0, at most 1 (0.05 = 5 %).',
    }),
    action: childActionColumn(),
  },
  rowRules: (r) =>
    checkMaterialProperties({ hazardous_substances: [{ cas_number: r.cas_number, mass_share: r.mass_share }] }),
});
