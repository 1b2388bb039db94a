/**
 * The entity collections of API v2 the import writes, one row per entity kind: what the contract says of each —
 * its resource (the name of its operations and of the client's resource), its path, the schemas of an entity,
 * a create and a PATCH, whether the service de-duplicates a create by its Idempotency-Key, the scopes of its
 * reads and writes, and the err_codes of a refused DELETE (the entity is still in use). The client
 * (api/resources/entities.ts), the scope table (scopes.ts) and the engine's own entity table
 * (jobs/entities.ts, which adds what the workbook and the planner know of each kind) are read from here.
 */
import type { z } from 'zod';
import type { EntityKind } from '../names.js';
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
} from './schemas.js';

/** The kinds that are entities of their own: a service id and an external_id (not a BOM, not production figures). */
export type IdentifiedKind = Exclude<EntityKind, 'bom' | 'production'>;

export interface EntityCollectionSpec {
  /** The name of its operations (`silos.create`) and of the client's resource (`client.silos`). */
  resource: string;
  path: string;
  entity: z.ZodType<{ id: string; external_id?: string | null }>;
  /** The schema of a create's body (its fields are what a re-create sends). */
  create: z.ZodType & { shape: object };
  patch: z.ZodType;
  /** The service's `entity_type` of the collection (Idempotency-Keys, answers). */
  entityType: IdentifiedKind;
  /** true: the service dedupes creates by Idempotency-Key; false: the client checks by external_id first. */
  serverIdempotent: boolean;
  /** Preview group: parsed leniently; these fields are expected in an answer (a missing one is logged once). */
  preview?: { group: string; expected: readonly string[] };
  /** The scope of its list and get, and of its create, update and delete (scopes.ts checks they are scopes). */
  scopes: { view: `view:${string}`; edit: `edit:${string}` };
  /** The err_codes of a DELETE the service refuses because the entity is still in use (409). */
  inUseCodes: readonly string[];
}

export const ENTITY_COLLECTIONS_SPEC = {
  supplier_company: {
    resource: 'supplierCompanies',
    path: '/v2/supplier-companies',
    entity: SupplierCompany,
    create: SupplierCompanyCreate,
    patch: SupplierCompanyPatch,
    entityType: 'supplier_company',
    serverIdempotent: false,
    scopes: { view: 'view:materials', edit: 'edit:materials' },
    inUseCodes: ['err_supplier_in_use'],
  },
  supplier_plant: {
    resource: 'supplierPlants',
    path: '/v2/supplier-plants',
    entity: SupplierPlant,
    create: SupplierPlantCreate,
    patch: SupplierPlantPatch,
    entityType: 'supplier_plant',
    serverIdempotent: false,
    scopes: { view: 'view:materials', edit: 'edit:materials' },
    inUseCodes: ['err_supplier_plant_in_use'],
  },
  supplier_product: {
    resource: 'supplierProducts',
    path: '/v2/supplier-products',
    entity: SupplierProduct,
    create: SupplierProductCreate,
    patch: SupplierProductPatch,
    entityType: 'supplier_product',
    serverIdempotent: false,
    scopes: { view: 'view:materials', edit: 'edit:materials' },
    inUseCodes: ['err_supplier_product_in_recipe', 'err_supplier_product_in_silo'],
  },
  silo: {
    resource: 'silos',
    path: '/v2/silos',
    entity: Silo,
    create: SiloCreate,
    patch: SiloPatch,
    entityType: 'silo',
    serverIdempotent: true,
    scopes: { view: 'view:materials', edit: 'edit:materials' },
    inUseCodes: ['err_silo_in_use'],
  },
  product_instance: {
    resource: 'productInstances',
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
    scopes: { view: 'view:products', edit: 'edit:products' },
    inUseCodes: ['err_product_instance_in_recipe', 'err_product_instance_has_declarations'],
  },
  prechain_product: {
    resource: 'prechainProducts',
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
    scopes: { view: 'view:materials', edit: 'edit:materials' },
    inUseCodes: ['err_prechain_product_in_recipe'],
  },
} as const satisfies { [K in IdentifiedKind]: EntityCollectionSpec & { entityType: K } };

type Spec = typeof ENTITY_COLLECTIONS_SPEC;

/** The identified kinds in dependency order (the order of the table). */
export const IDENTIFIED_KINDS = Object.keys(ENTITY_COLLECTIONS_SPEC) as IdentifiedKind[];

/** The resource of each identified kind: `supplierCompanies` … `prechainProducts`. */
export type EntityResourceName = Spec[IdentifiedKind]['resource'];

/** The operations every entity collection has: reads need its `view` scope, writes its `edit` scope. */
export const ENTITY_VERBS = ['list', 'get', 'create', 'update', 'delete'] as const;
