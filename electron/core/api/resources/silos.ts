/** /v2/silos: idempotent create (Idempotency-Key), list, get, PATCH (items replaced whole when sent), DELETE (returns the entity). */
import { Silo, SiloCreate, SiloPatch } from '../../spec/schemas.js';
import type { z } from 'zod';
import { strictParser } from '../parse.js';
import { type DeletableResource, deletableResource } from '../resource.js';
import type { Transport } from '../transport.js';

export type { Silo, SiloCreate };
export type SiloPatch = z.input<typeof SiloPatch>;
export const SILOS_PATH = '/v2/silos';

export function silosResource(
  transport: Transport,
  manufacturerId: (signal?: AbortSignal) => Promise<string>,
): DeletableResource<Silo, SiloCreate, SiloPatch> {
  return deletableResource({
    transport,
    path: SILOS_PATH,
    parse: strictParser(Silo),
    entityType: 'silo',
    serverIdempotent: true,
    createSchema: SiloCreate,
    patchSchema: SiloPatch,
    manufacturerId,
  });
}
