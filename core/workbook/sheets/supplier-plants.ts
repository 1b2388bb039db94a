import { actionColumn, countryColumn, externalIdColumn, nameColumn, reference, text } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const supplierPlants = defineSheet({
  name: 'supplier-plants',
  step: 4,
  purpose: 'The plants (sites) of your suppliers that materials come from.',
  key: ['external_id'],
  columns: {
    external_id: externalIdColumn('supplier plant'),
    name: nameColumn('supplier plant'),
    supplier_company_external_id: reference(
      'supplier_company',
      'external_id of the supplier company the plant belongs to (in supplier-companies or already on the service).',
    ),
    country: countryColumn('Country of the plant, ISO 3166 alpha-2 code.'),
    city: text({ required: false, maxLength: 255, width: 20, description: 'City of the plant.' }),
    action: actionColumn(),
  },
});
