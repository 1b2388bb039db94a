/** /v2/supplier-companies: create (checked by external_id), list, get, PATCH, DELETE (returns the entity). */
import { SupplierCompany, SupplierCompanyCreate, SupplierCompanyPatch } from '../../spec/schemas.js';
import type { z } from 'zod';
import { strictParser } from '../parse.js';
import { type DeletableResource, deletableResource } from '../resource.js';
import type { Transport } from '../transport.js';

export type { SupplierCompany, SupplierCompanyCreate };
export type SupplierCompanyPatch = z.input<typeof SupplierCompanyPatch>;
export const SUPPLIER_COMPANIES_PATH = '/v2/supplier-companies';

export function supplierCompaniesResource(
  transport: Transport,
  manufacturerId: (signal?: AbortSignal) => Promise<string>,
): DeletableResource<SupplierCompany, SupplierCompanyCreate, SupplierCompanyPatch> {
  return deletableResource({
    transport,
    path: SUPPLIER_COMPANIES_PATH,
    parse: strictParser(SupplierCompany),
    entityType: 'supplier_company',
    serverIdempotent: false,
    createSchema: SupplierCompanyCreate,
    patchSchema: SupplierCompanyPatch,
    manufacturerId,
  });
}
