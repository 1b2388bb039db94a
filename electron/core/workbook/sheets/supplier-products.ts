import { checkMaterialProperties } from '../../spec/rules.js';
import { UNITS } from '../../spec/constants.js';
import { code, decimal, enumeration, km, text, uuid, actionColumn } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const supplierProducts = defineSheet({
  name: 'supplier-products',
  step: 5,
  purpose:
    'Materials you buy: one row per material, supplier plant and your plant. A BOM or a silo refers to them by external_id.',
  key: ['external_id'],
  columns: {
    external_id: code({ required: true, description: 'Your code for the supplier product (unique in this sheet).' }),
    name: text({ required: true, maxLength: 255, description: 'Name of the supplier product.' }),
    plant_code: code({
      required: true,
      refersTo: 'plant',
      width: 14,
      description: 'Your code of the plant that buys the material (mapped in the plants sheet or on the service).',
    }),
    material_code: code({
      required: true,
      refersTo: 'material',
      width: 16,
      description: 'Your material code: the material type (mapped in the materials sheet or on the service).',
    }),
    supplier_plant_external_id: code({
      required: false,
      refersTo: 'supplier_plant',
      description: 'external_id of the supplier plant the material comes from. Needed if the product goes into a silo.',
    }),
    unit: enumeration({ required: true, allowed: UNITS, list: 'unit', width: 16, description: 'Unit the material is bought in.' }),
    truck_km: km({ required: false, description: 'Transport distance by truck from the supplier plant to your gate.' }),
    train_km: km({ required: false, description: 'Transport distance by train from the supplier plant to your gate.' }),
    ship_km: km({ required: false, description: 'Transport distance by ship from the supplier plant to your gate.' }),
    barge_km: km({ required: false, description: 'Transport distance by barge from the supplier plant to your gate.' }),
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
