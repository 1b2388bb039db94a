/** /v2/product-instances (preview group: parsed leniently): create (checked by external_id), list, get, PATCH, DELETE (returns the entity). */
import { ProductInstance, ProductInstanceCreate, ProductInstancePatch } from '../../spec/schemas.js';
import type { z } from 'zod';
import { lenientParser } from '../parse.js';
import { type DeletableResource, deletableResource } from '../resource.js';
import type { LoggerLike } from '../secrets.js';
import type { Transport } from '../transport.js';

export type { ProductInstance, ProductInstanceCreate };
export type ProductInstancePatch = z.input<typeof ProductInstancePatch>;
export const PRODUCT_INSTANCES_PATH = '/v2/product-instances';
const EXPECTED = ['external_id', 'product_id', 'plant_id', 'produced_from', 'produced_to'] as const;

export function productInstancesResource(
  transport: Transport,
  manufacturerId: (signal?: AbortSignal) => Promise<string>,
  logger: () => LoggerLike,
): DeletableResource<ProductInstance, ProductInstanceCreate, ProductInstancePatch> {
  return deletableResource({
    transport,
    path: PRODUCT_INSTANCES_PATH,
    parse: lenientParser(ProductInstance, EXPECTED, logger, 'Product Instances'),
    entityType: 'product_instance',
    serverIdempotent: false,
    createSchema: ProductInstanceCreate,
    patchSchema: ProductInstancePatch,
    manufacturerId,
  });
}
