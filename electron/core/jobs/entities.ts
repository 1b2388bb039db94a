/**
 * One table of the kinds a plan entry writes: its level (dependency order of creates and updates), the level of
 * its delete (reverse dependency order, after every create and update), the client resource it is written
 * through and the schema of its create, the sheet its rows are in, and its name in words (one, several). Every
 * per-kind map of the engine is read from here.
 */
import type { ApiClient } from '../api/index.js';
import {
  PrechainProductCreate,
  ProductInstanceCreate,
  SiloCreate,
  SupplierCompanyCreate,
  SupplierPlantCreate,
  SupplierProductCreate,
} from '../spec/schemas.js';
import type { Operation } from '../spec/scopes.js';
import type { DataSheetName, EntitySheetName } from '../workbook/types.js';
import type { EntityKind, IdentifiedKind } from './types.js';

/** The client's resources of the identified kinds (each has list/get/create/update/delete). */
type ResourceName = Extract<
  keyof ApiClient,
  'supplierCompanies' | 'supplierPlants' | 'supplierProducts' | 'silos' | 'productInstances' | 'prechainProducts'
>;

interface KindInfo {
  level: number;
  sheet: DataSheetName;
  noun: string;
  nouns: string;
}

interface IdentifiedInfo extends KindInfo {
  sheet: EntitySheetName;
  deleteLevel: number;
  resource: ResourceName;
  /** The schema of a create's body (its fields are what a re-create sends). */
  create: { shape: object };
}

export const ENTITIES = {
  supplier_company: {
    level: 0,
    deleteLevel: 12,
    resource: 'supplierCompanies',
    create: SupplierCompanyCreate,
    sheet: 'supplier-companies',
    noun: 'supplier company',
    nouns: 'supplier companies',
  },
  supplier_plant: {
    level: 1,
    deleteLevel: 11,
    resource: 'supplierPlants',
    create: SupplierPlantCreate,
    sheet: 'supplier-plants',
    noun: 'supplier plant',
    nouns: 'supplier plants',
  },
  supplier_product: {
    level: 2,
    deleteLevel: 10,
    resource: 'supplierProducts',
    create: SupplierProductCreate,
    sheet: 'supplier-products',
    noun: 'supplier product',
    nouns: 'supplier products',
  },
  silo: {
    level: 3,
    deleteLevel: 9,
    resource: 'silos',
    create: SiloCreate,
    sheet: 'silos',
    noun: 'silo',
    nouns: 'silos',
  },
  product_instance: {
    level: 4,
    deleteLevel: 8,
    resource: 'productInstances',
    create: ProductInstanceCreate,
    sheet: 'product-instances',
    noun: 'product instance',
    nouns: 'product instances',
  },
  prechain_product: {
    level: 5,
    deleteLevel: 7,
    resource: 'prechainProducts',
    create: PrechainProductCreate,
    sheet: 'prechain-products',
    noun: 'prechain product',
    nouns: 'prechain products',
  },
  bom: { level: 6, sheet: 'bom', noun: 'BOM', nouns: 'BOMs' },
  production: { level: 6, sheet: 'production', noun: 'production figures', nouns: 'production figures' },
} as const satisfies { [K in EntityKind]: K extends IdentifiedKind ? IdentifiedInfo : KindInfo };

/** A kind that is an entity of its own (a service id and an external_id): not a BOM, not production figures. */
export const isIdentifiedKind = (k: EntityKind): k is IdentifiedKind => 'resource' in ENTITIES[k];

/** The identified kinds in dependency order (the order of the table). */
export const IDENTIFIED_KINDS = (Object.keys(ENTITIES) as EntityKind[]).filter(isIdentifiedKind);

function mapKinds<K extends EntityKind, V>(kinds: readonly K[], f: (k: K) => V): Record<K, V> {
  return Object.fromEntries(kinds.map((k) => [k, f(k)])) as Record<K, V>;
}

/** Level of a create or update of each kind (BOMs and production figures last). */
export const LEVEL: Record<EntityKind, number> = mapKinds(
  Object.keys(ENTITIES) as EntityKind[],
  (k) => ENTITIES[k].level,
);

/**
 * Levels of deletes: after every create and update (BOM changes are level 6), in reverse dependency order, so
 * a delete whose references this import removes runs once they are gone.
 */
export const DELETE_LEVEL: Record<IdentifiedKind, number> = mapKinds(IDENTIFIED_KINDS, (k) => ENTITIES[k].deleteLevel);

/** The client resource of each identified kind (`client[RESOURCE[kind]]`). */
export const RESOURCE: Record<IdentifiedKind, ResourceName> = mapKinds(IDENTIFIED_KINDS, (k) => ENTITIES[k].resource);

/** The entity sheets (the sheets whose rows are entities with an external_id: they take every row action). */
export const ENTITY_SHEETS: Partial<Record<DataSheetName, IdentifiedKind>> & Record<EntitySheetName, IdentifiedKind> =
  Object.fromEntries(IDENTIFIED_KINDS.map((k) => [ENTITIES[k].sheet, k])) as Record<EntitySheetName, IdentifiedKind>;

/** `supplier company` */
export const nounOf = (kind: EntityKind): string => ENTITIES[kind].noun;
/** `supplier companies` */
export const nounsOf = (kind: EntityKind): string => ENTITIES[kind].nouns;

/** The scope-table operation of a write of an identified kind, e.g. `supplierCompanies.create`. */
export function operationOf(kind: IdentifiedKind, verb: 'create' | 'update' | 'delete'): Operation {
  return `${ENTITIES[kind].resource}.${verb}`;
}

/** The fields a create of a kind takes. */
export const createFieldsOf = (kind: IdentifiedKind): string[] => Object.keys(ENTITIES[kind].create.shape);
