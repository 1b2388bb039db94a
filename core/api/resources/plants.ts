/** GET /v2/plants, GET /v2/plants/{id} (read only; external_id = the plant code). */
import { Plant } from '../../spec/schemas.js';
import { strictParser } from '../parse.js';
import { type GettableResource, gettableResource } from '../resource.js';
import type { Transport } from '../transport.js';

export type { Plant };
export const PLANTS_PATH = '/v2/plants';

export function plantsResource(transport: Transport): GettableResource<Plant> {
  return gettableResource<Plant>({ transport, path: PLANTS_PATH, parse: strictParser(Plant) });
}
