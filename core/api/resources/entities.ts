/**
 * The six entity collections the import writes: each has create, list, get, PATCH and DELETE (DELETE returns the
 * entity). What differs between them — the path; whether the service itself makes a create idempotent
 * (Idempotency-Key) or the client checks by external_id first; and, for the preview group, the fields expected
 * in answers (parsed leniently, a missing one logged once) — is the spec's entity table (spec/entities.ts),
 * here keyed by the client's resource name.
 */
import type { z } from 'zod';
import { ENTITY_COLLECTIONS_SPEC, type EntityCollectionSpec, type IdentifiedKind } from '../../spec/entities.js';
import { lenientParser, strictParser } from '../parse.js';
import { type DeletableResource, deletableResource } from '../resource.js';
import type { LoggerLike } from '../secrets.js';
import type { Transport } from '../transport.js';

type Spec = typeof ENTITY_COLLECTIONS_SPEC;
/** The spec's collections by resource name (`supplierCompanies` … `prechainProducts`). */
type Collections = { [K in IdentifiedKind as Spec[K]['resource']]: Spec[K] };
export type EntityCollectionName = keyof Collections;

/** The resource of one collection: entities as parsed, creates as sent, patches as written (all fields optional). */
export type EntityResource<K extends EntityCollectionName> = DeletableResource<
  z.infer<Collections[K]['entity']>,
  z.infer<Collections[K]['create']>,
  z.input<Collections[K]['patch']>
>;

export type EntityResources = { readonly [K in EntityCollectionName]: EntityResource<K> };

export function entityResources(
  transport: Transport,
  manufacturerId: (signal?: AbortSignal) => Promise<string>,
  logger: () => LoggerLike,
): EntityResources {
  const make = (c: EntityCollectionSpec) =>
    deletableResource({
      transport,
      path: c.path,
      parse: c.preview ? lenientParser(c.entity, c.preview.expected, logger, c.preview.group) : strictParser(c.entity),
      entityType: c.entityType,
      serverIdempotent: c.serverIdempotent,
      createSchema: c.create,
      patchSchema: c.patch,
      manufacturerId,
    });
  return Object.fromEntries(
    Object.values(ENTITY_COLLECTIONS_SPEC).map((c) => [c.resource, make(c)]),
  ) as unknown as EntityResources;
}
