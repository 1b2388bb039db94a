/** /v2/supplier-plants: create (checked by external_id; supplier_company_id required), list, get, PATCH, DELETE (returns the entity). */
import { SupplierPlant, SupplierPlantCreate, SupplierPlantPatch } from '../../spec/schemas.js';
import type { z } from 'zod';
import { strictParser } from '../parse.js';
import { type DeletableResource, deletableResource } from '../resource.js';
import type { Transport } from '../transport.js';

export type { SupplierPlant, SupplierPlantCreate };
export type SupplierPlantPatch = z.input<typeof SupplierPlantPatch>;
export const SUPPLIER_PLANTS_PATH = '/v2/supplier-plants';

export function supplierPlantsResource(
  transport: Transport,
  manufacturerId: (signal?: AbortSignal) => Promise<string>,
): DeletableResource<SupplierPlant, SupplierPlantCreate, SupplierPlantPatch> {
  return deletableResource({
    transport,
    path: SUPPLIER_PLANTS_PATH,
    parse: strictParser(SupplierPlant),
    entityType: 'supplier_plant',
    serverIdempotent: false,
    createSchema: SupplierPlantCreate,
    patchSchema: SupplierPlantPatch,
    manufacturerId,
  });
}
