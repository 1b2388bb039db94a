/** GET /v2/products (read only; filters external_id, product_instance_id). No item path in the spec. */
import { Product } from '../../spec/schemas.js';
import { strictParser } from '../parse.js';
import { type ReadResource, readResource } from '../resource.js';
import type { Transport } from '../transport.js';

export type { Product };
export const PRODUCTS_PATH = '/v2/products';

export function productsResource(transport: Transport): ReadResource<Product> {
  return readResource<Product>({ transport, path: PRODUCTS_PATH, parse: strictParser(Product) });
}
