import { code, enumeration, text, actionColumn } from '../columns.js';
import { ISO_COUNTRY_CODES } from '../countries.js';
import { defineSheet } from '../sheet-def.js';

export const supplierCompanies = defineSheet({
  name: 'supplier-companies',
  step: 3,
  purpose: 'Your suppliers. Every supplier plant belongs to one supplier company.',
  key: ['external_id'],
  columns: {
    external_id: code({ required: true, description: 'Your code for the supplier company (unique in this sheet).' }),
    name: text({ required: true, maxLength: 255, description: 'Name of the supplier company.' }),
    country: enumeration({
      required: false,
      allowed: ISO_COUNTRY_CODES,
      list: 'country',
      width: 10,
      description: 'Country of the company, ISO 3166 alpha-2 code (DE, AT, FR …).',
    }),
    action: actionColumn(),
  },
});
