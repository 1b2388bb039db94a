/** /v2/supplier-products: create (checked by external_id), list, get, PATCH, DELETE (returns the entity). */
import { SupplierProduct, SupplierProductCreate, SupplierProductPatch } from '../../spec/schemas.js';
import type { z } from 'zod';
import { strictParser } from '../parse.js';
import { type DeletableResource, deletableResource } from '../resource.js';
import type { Transport } from '../transport.js';

export type { SupplierProduct, SupplierProductCreate };
export type SupplierProductPatch = z.input<typeof SupplierProductPatch>;
export const SUPPLIER_PRODUCTS_PATH = '/v2/supplier-products';

export function supplierProductsResource(
  transport: Transport,
  manufacturerId: (signal?: AbortSignal) => Promise<string>,
): DeletableResource<SupplierProduct, SupplierProductCreate, SupplierProductPatch> {
  return deletableResource({
    transport,
    path: SUPPLIER_PRODUCTS_PATH,
    parse: strictParser(SupplierProduct),
    entityType: 'supplier_product',
    serverIdempotent: false,
    createSchema: SupplierProductCreate,
    patchSchema: SupplierProductPatch,
    manufacturerId,
  });
}
