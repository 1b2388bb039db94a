/** GET /v2/composites, GET /v2/composites/{id} (read only). */
import { Composite } from '../../spec/schemas.js';
import { strictParser } from '../parse.js';
import { type GettableResource, gettableResource } from '../resource.js';
import type { Transport } from '../transport.js';

export type { Composite };
export const COMPOSITES_PATH = '/v2/composites';

export function compositesResource(transport: Transport): GettableResource<Composite> {
  return gettableResource<Composite>({ transport, path: COMPOSITES_PATH, parse: strictParser(Composite) });
}
