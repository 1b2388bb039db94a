/** GET /v2/elementaries: material types (external_id = material code). List only. */
import { Elementary } from '../../spec/schemas.js';
import { strictParser } from '../parse.js';
import { type ReadResource, readResource } from '../resource.js';
import type { Transport } from '../transport.js';

export type { Elementary };
export const ELEMENTARIES_PATH = '/v2/elementaries';

export function elementariesResource(transport: Transport): ReadResource<Elementary> {
  return readResource<Elementary>({ transport, path: ELEMENTARIES_PATH, parse: strictParser(Elementary) });
}
