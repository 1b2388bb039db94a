import { checkBomMasses } from '../../spec/rules.js';
import { BOM_COMPONENT_TYPES } from '../../spec/constants.js';
import { childActionColumn, decimal, enumeration, reference } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const bom = defineSheet({
  name: 'bom',
  step: 9,
  purpose:
    'The bill of materials of each product instance: one row per component. The rows of an instance are its whole BOM: it replaces the BOM on the service.',
  // (component_type, component) uniqueness per instance is the spec's BOM rule: checked with findDuplicateBomComponents.
  columns: {
    product_instance_external_id: reference(
      'product_instance',
      'external_id of the product instance whose BOM this row belongs to.',
    ),
    component_type: enumeration({
      required: true,
      allowed: BOM_COMPONENT_TYPES,
      list: 'component_type',
      width: 18,
      description: 'What the component is.',
    }),
    component_external_id: reference(
      'by_component_type',
      'external_id of the supplier product, silo or prechain product (as component_type says).',
    ),
    mass_kg: decimal({
      required: true,
      unit: 'kg',
      min: 0,
      minExclusive: true,
      rangeFromRule: true,
      description: 'Mass of the component in the product, kg (greater than 0).',
    }),
    action: childActionColumn(),
  },
  rowRules: (r) => checkBomMasses([r]),
});
