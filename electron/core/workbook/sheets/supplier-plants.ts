import { code, enumeration, text, actionColumn } from '../columns.js';
import { ISO_COUNTRY_CODES } from '../countries.js';
import { defineSheet } from '../sheet-def.js';

export const supplierPlants = defineSheet({
  name: 'supplier-plants',
  step: 4,
  purpose: 'The plants (sites) of your suppliers that materials come from.',
  key: ['external_id'],
  columns: {
    external_id: code({ required: true, description: 'Your code for the supplier plant (unique in this sheet).' }),
    name: text({ required: true, maxLength: 255, description: 'Name of the supplier plant.' }),
    supplier_company_external_id: code({
      required: true,
      refersTo: 'supplier_company',
      description: 'external_id of the supplier company the plant belongs to (in supplier-companies or already on the service).',
    }),
    country: enumeration({
      required: false,
      allowed: ISO_COUNTRY_CODES,
      list: 'country',
      width: 10,
      description: 'Country of the plant, ISO 3166 alpha-2 code.',
    }),
    city: text({ required: false, maxLength: 255, width: 20, description: 'City of the plant.' }),
    action: actionColumn(),
  },
});
