/** /v2/prechain-products (preview group: parsed leniently): idempotent create, list, get, PATCH, DELETE (returns the entity). */
import { PrechainProduct, PrechainProductCreate, PrechainProductPatch } from '../../spec/schemas.js';
import type { z } from 'zod';
import { lenientParser } from '../parse.js';
import { type DeletableResource, deletableResource } from '../resource.js';
import type { LoggerLike } from '../secrets.js';
import type { Transport } from '../transport.js';

export type { PrechainProduct, PrechainProductCreate };
export type PrechainProductPatch = z.input<typeof PrechainProductPatch>;
export const PRECHAIN_PRODUCTS_PATH = '/v2/prechain-products';
const EXPECTED = ['external_id', 'product_instance_id', 'plant_id', 'transport_route'] as const;

export function prechainProductsResource(
  transport: Transport,
  manufacturerId: (signal?: AbortSignal) => Promise<string>,
  logger: () => LoggerLike,
): DeletableResource<PrechainProduct, PrechainProductCreate, PrechainProductPatch> {
  return deletableResource({
    transport,
    path: PRECHAIN_PRODUCTS_PATH,
    parse: lenientParser(PrechainProduct, EXPECTED, logger, 'Prechain Products'),
    entityType: 'prechain_product',
    serverIdempotent: true,
    createSchema: PrechainProductCreate,
    patchSchema: PrechainProductPatch,
    manufacturerId,
  });
}
