import { checkMaterialProperties } from '../../spec/rules.js';
import { UNITS } from '../../spec/constants.js';
import {
  actionColumn,
  code,
  decimal,
  enumeration,
  externalIdColumn,
  nameColumn,
  reference,
  transportColumns,
  uuid,
} from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const supplierProducts = defineSheet({
  name: 'supplier-products',
  step: 5,
  purpose:
    'Materials you buy: one row per material, supplier plant and your plant. A BOM or a silo refers to them by external_id.',
  key: ['external_id'],
  columns: {
    external_id: externalIdColumn('supplier product'),
    name: nameColumn('supplier product'),
    plant_code: reference(
      'plant',
      'Your code of the plant that buys the material (mapped in the plants sheet or on the service).',
      14,
    ),
    material_code: reference(
      'material',
      'Your material code: the material type (mapped in the materials sheet or on the service).',
      16,
    ),
    supplier_plant_external_id: code({
      required: false,
      refersTo: 'supplier_plant',
      description: 'external_id of the supplier plant the material comes from. Needed if the product goes into a silo.',
    }),
    unit: enumeration({
      required: true,
      allowed: UNITS,
      list: 'unit',
      width: 16,
      description: 'Unit the material is bought in.',
    }),
    ...transportColumns('from the supplier plant to your gate'),
    epd_id: uuid({ required: false, description: 'Service id of the EPD of the material, if any.' }),
    lifetime_years: decimal({
      required: false,
      unit: 'years',
      min: 0,
      minExclusive: true,
      rangeFromRule: true,
      description: 'Lifetime of the material in years (only for materials with a limited lifetime).',
    }),
    secondary_percentage: decimal({
      required: false,
      unit: '%',
      min: 0,
      max: 100,
      rangeFromRule: true,
      width: 22,
      description: 'Share of secondary (recycled) material, 0–100. Type 30 for 30 %, not 0.3.',
    }),
    moisture_content_percentage: decimal({
      required: false,
      unit: '%',
      min: 0,
      max: 100,
      rangeFromRule: true,
      width: 28,
      description: 'Moisture content (bio-based materials only), 0–100. Type 12 for 12 %, not 0.12.',
    }),
    action: actionColumn(),
  },
  ruleFields: ['secondary_percentage', 'moisture_content_percentage', 'lifetime_years'],
  rowRules: (r) => checkMaterialProperties(r),
});
