/**
 * The six entity collections the import writes, in one table: each has create, list, get, PATCH and DELETE
 * (DELETE returns the entity). What differs between them is here: the path; whether the service itself makes a
 * create idempotent (Idempotency-Key) or the client checks by external_id first; and, for the preview group,
 * the fields expected in answers (parsed leniently, a missing one logged once).
 */
import type { z } from 'zod';
import {
  PrechainProduct,
  PrechainProductCreate,
  PrechainProductPatch,
  ProductInstance,
  ProductInstanceCreate,
  ProductInstancePatch,
  Silo,
  SiloCreate,
  SiloPatch,
  SupplierCompany,
  SupplierCompanyCreate,
  SupplierCompanyPatch,
  SupplierPlant,
  SupplierPlantCreate,
  SupplierPlantPatch,
  SupplierProduct,
  SupplierProductCreate,
  SupplierProductPatch,
} from '../../spec/schemas.js';
import { lenientParser, strictParser } from '../parse.js';
import { type DeletableResource, deletableResource } from '../resource.js';
import type { LoggerLike } from '../secrets.js';
import type { Transport } from '../transport.js';

interface EntityCollection {
  path: string;
  entity: z.ZodType<{ id: string; external_id?: string | null }>;
  create: z.ZodType;
  patch: z.ZodType;
  entityType: string;
  /** true: the service dedupes creates by Idempotency-Key; false: the client checks by external_id first. */
  serverIdempotent: boolean;
  /** Preview group: parsed leniently; these fields are expected in an answer (a missing one is logged once). */
  preview?: { group: string; expected: readonly string[] };
}

export const ENTITY_COLLECTIONS = {
  supplierCompanies: {
    path: '/v2/supplier-companies',
    entity: SupplierCompany,
    create: SupplierCompanyCreate,
    patch: SupplierCompanyPatch,
    entityType: 'supplier_company',
    serverIdempotent: false,
  },
  supplierPlants: {
    path: '/v2/supplier-plants',
    entity: SupplierPlant,
    create: SupplierPlantCreate,
    patch: SupplierPlantPatch,
    entityType: 'supplier_plant',
    serverIdempotent: false,
  },
  supplierProducts: {
    path: '/v2/supplier-products',
    entity: SupplierProduct,
    create: SupplierProductCreate,
    patch: SupplierProductPatch,
    entityType: 'supplier_product',
    serverIdempotent: false,
  },
  silos: {
    path: '/v2/silos',
    entity: Silo,
    create: SiloCreate,
    patch: SiloPatch,
    entityType: 'silo',
    serverIdempotent: true,
  },
  productInstances: {
    path: '/v2/product-instances',
    entity: ProductInstance,
    create: ProductInstanceCreate,
    patch: ProductInstancePatch,
    entityType: 'product_instance',
    serverIdempotent: false,
    preview: {
      group: 'Product Instances',
      expected: ['external_id', 'product_id', 'plant_id', 'produced_from', 'produced_to'],
    },
  },
  prechainProducts: {
    path: '/v2/prechain-products',
    entity: PrechainProduct,
    create: PrechainProductCreate,
    patch: PrechainProductPatch,
    entityType: 'prechain_product',
    serverIdempotent: true,
    preview: {
      group: 'Prechain Products',
      expected: ['external_id', 'product_instance_id', 'plant_id', 'transport_route'],
    },
  },
} as const satisfies Record<string, EntityCollection>;

type Collections = typeof ENTITY_COLLECTIONS;
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
  const make = (c: EntityCollection) =>
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
    Object.entries(ENTITY_COLLECTIONS).map(([name, c]) => [name, make(c)]),
  ) as unknown as EntityResources;
}
