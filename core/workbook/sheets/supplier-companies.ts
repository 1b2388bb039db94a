import { actionColumn, countryColumn, externalIdColumn, nameColumn } from '../columns.js';
import { defineSheet } from '../sheet-def.js';

export const supplierCompanies = defineSheet({
  name: 'supplier-companies',
  step: 3,
  purpose: 'Your suppliers. Every supplier plant belongs to one supplier company.',
  key: ['external_id'],
  columns: {
    external_id: externalIdColumn('supplier company'),
    name: nameColumn('supplier company'),
    country: countryColumn('Country of the company, ISO 3166 alpha-2 code (DE, AT, FR …).'),
    action: actionColumn(),
  },
});
