/**
 * The one table of the entity kinds, each a plan entry writes: per kind, what the API contract says of it (its
 * row of spec/entities.ts: client resource, path, schemas, whether the service de-duplicates its creates, the
 * scopes of its operations, the err_codes of a refused delete), and what the engine adds — its level
 * (dependency order of creates and updates), the level of its delete (reverse dependency order, after every
 * create and update), its sheet and the child sheets its rows bring, its name in words (one, several), the
 * fields of its `_snapshot`, what to read to name the users of an entity whose delete is refused, and how an
 * entity of the kind references the ones it uses. Every per-kind map of the engine is read from here;
 * test/jobs/entities.test.ts checks the table is complete and agrees with the workbook's registry.
 */
import type { z } from 'zod';
import type { ApiClient } from '../api/index.js';
import { ENTITY_COLLECTIONS_SPEC, IDENTIFIED_KINDS, type EntityResourceName } from '../spec/entities.js';
import type { Operation } from '../spec/scopes.js';
import type { DataSheetName, EntitySheetName } from '../workbook/types.js';
import type { EntityKind, IdentifiedKind } from './types.js';

/** The client's resources of the identified kinds (each has list/get/create/update/delete). */
type ResourceName = Extract<keyof ApiClient, EntityResourceName>;

/**
 * How an entity of a kind references the entities it uses: the id in `field` of the body, or of each element of
 * its `list`. `order`: its place among the users an in-use refusal names (as the service checks them).
 */
interface Uses {
  list?: string;
  field: string;
  order: number;
}

interface KindInfo {
  level: number;
  sheet: DataSheetName;
  /** Sheets whose rows belong to a row of `sheet` (read and exported with it). */
  childSheets: readonly DataSheetName[];
  noun: string;
  nouns: string;
  /** null: it references none of the table's kinds (no delete waits for it). */
  uses: Uses | null;
}

interface IdentifiedInfo extends KindInfo {
  sheet: EntitySheetName;
  deleteLevel: number;
  resource: ResourceName;
  /** The API fields that make up its content (what the workbook carries, the planner compares and `_snapshot` hashes). */
  snapshot: readonly string[];
  /** Per err_code of a refused delete (the spec's `inUseCodes`), the kinds of users to read to name them. */
  inUse: Readonly<Record<string, readonly EntityKind[]>>;
}

const SPEC = ENTITY_COLLECTIONS_SPEC;

export const ENTITIES = {
  supplier_company: {
    ...SPEC.supplier_company,
    level: 0,
    deleteLevel: 12,
    sheet: 'supplier-companies',
    childSheets: [],
    noun: 'supplier company',
    nouns: 'supplier companies',
    snapshot: ['external_id', 'name', 'country'],
    inUse: { err_supplier_in_use: ['supplier_plant'] },
    uses: null,
  },
  supplier_plant: {
    ...SPEC.supplier_plant,
    level: 1,
    deleteLevel: 11,
    sheet: 'supplier-plants',
    childSheets: [],
    noun: 'supplier plant',
    nouns: 'supplier plants',
    snapshot: ['external_id', 'name', 'supplier_company_id', 'country', 'city'],
    inUse: { err_supplier_plant_in_use: ['supplier_product'] },
    uses: { field: 'supplier_company_id', order: 4 },
  },
  supplier_product: {
    ...SPEC.supplier_product,
    level: 2,
    deleteLevel: 10,
    sheet: 'supplier-products',
    childSheets: ['hazardous-substances'],
    noun: 'supplier product',
    nouns: 'supplier products',
    snapshot: [
      'external_id',
      'name',
      'plant_id',
      'material_type',
      'supplier_plant_id',
      'unit',
      'transport_route',
      'epd_id',
      'hazardous_substances',
      'lifetime_years',
      'secondary_percentage',
      'moisture_content_percentage',
    ],
    inUse: { err_supplier_product_in_recipe: ['bom'], err_supplier_product_in_silo: ['silo'] },
    uses: { field: 'supplier_plant_id', order: 3 },
  },
  silo: {
    ...SPEC.silo,
    level: 3,
    deleteLevel: 9,
    sheet: 'silos',
    childSheets: ['silo-items'],
    noun: 'silo',
    nouns: 'silos',
    snapshot: ['external_id', 'name', 'plant_id', 'items'],
    inUse: { err_silo_in_use: ['bom'] },
    uses: { list: 'items', field: 'supplier_product_id', order: 1 },
  },
  product_instance: {
    ...SPEC.product_instance,
    level: 4,
    deleteLevel: 8,
    sheet: 'product-instances',
    childSheets: [],
    noun: 'product instance',
    nouns: 'product instances',
    snapshot: ['external_id', 'product_id', 'plant_id', 'produced_from', 'produced_to', 'name'],
    inUse: { err_product_instance_in_recipe: ['prechain_product'], err_product_instance_has_declarations: [] },
    uses: null,
  },
  prechain_product: {
    ...SPEC.prechain_product,
    level: 5,
    deleteLevel: 7,
    sheet: 'prechain-products',
    childSheets: [],
    noun: 'prechain product',
    nouns: 'prechain products',
    snapshot: ['external_id', 'product_instance_id', 'plant_id', 'transport_route'],
    inUse: { err_prechain_product_in_recipe: ['bom'] },
    uses: { field: 'product_instance_id', order: 2 },
  },
  bom: {
    level: 6,
    sheet: 'bom',
    childSheets: [],
    noun: 'BOM',
    nouns: 'BOMs',
    uses: { list: 'bom', field: 'ref', order: 0 },
  },
  production: {
    level: 6,
    sheet: 'production',
    childSheets: [],
    noun: 'production figures',
    nouns: 'production figures',
    uses: null,
  },
} as const satisfies { [K in EntityKind]: K extends IdentifiedKind ? IdentifiedInfo : KindInfo };

type Table = typeof ENTITIES;

/** An entity of an identified kind, as the client parses it. */
export type EntityOf<K extends IdentifiedKind> = z.infer<Table[K]['entity']>;
/** The entity of the kind whose sheet is `S` (`silos` → Silo). */
export type EntityOfSheet<S extends EntitySheetName> = EntityOf<
  { [K in IdentifiedKind]: Table[K]['sheet'] extends S ? K : never }[IdentifiedKind]
>;

/** What references an entity: an entity of a kind that `uses` others (a BOM: the BOM of a product instance). */
export type UserKind = { [K in EntityKind]: Table[K]['uses'] extends null ? never : K }[EntityKind];

/** A kind that is an entity of its own (a service id and an external_id): not a BOM, not production figures. */
export const isIdentifiedKind = (k: EntityKind): k is IdentifiedKind => 'resource' in ENTITIES[k];

/** The identified kinds in dependency order (the order of the table). */
export { IDENTIFIED_KINDS };

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

/** Kinds whose create the service de-duplicates by Idempotency-Key. */
export const isServerIdempotent = (kind: IdentifiedKind): boolean => ENTITIES[kind].serverIdempotent;

/** The API fields that make up the content of an entity of each kind (what `_snapshot` hashes). */
export const CONTENT_FIELDS: Record<IdentifiedKind, readonly string[]> = mapKinds(
  IDENTIFIED_KINDS,
  (k) => ENTITIES[k].snapshot,
);

/** Whether entities of a kind reference others (a delete of those may wait for them). */
export const isUserKind = (k: EntityKind): k is UserKind => ENTITIES[k].uses !== null;

/** The kinds of users, in the order an in-use refusal names them (as the service checks them). */
export const USER_KINDS = (Object.keys(ENTITIES) as EntityKind[])
  .filter(isUserKind)
  .sort((a, b) => ENTITIES[a].uses.order - ENTITIES[b].uses.order);

/** The kinds of the users of an entity of `kind` (in the order the service checks them). */
export const userKindsOf = (kind: IdentifiedKind): readonly UserKind[] => [
  ...new Set(Object.values(ENTITIES[kind].inUse as Record<string, readonly UserKind[]>).flat()),
];

/** The kinds of users an in-use refusal's err_code is about; undefined for an err_code that is no such refusal. */
export function usersOfRefusal(errCode: string): readonly UserKind[] | undefined {
  for (const k of IDENTIFIED_KINDS) {
    const inUse = ENTITIES[k].inUse as Record<string, readonly UserKind[]>;
    if (Object.hasOwn(inUse, errCode)) return inUse[errCode];
  }
  return undefined;
}

/** The ids an entity (or a BOM's body) of a user kind references; undefined when it does not carry them. */
export function usedIdsOf(kind: UserKind, e: Record<string, unknown>): string[] | undefined {
  const { list, field } = ENTITIES[kind].uses as Uses;
  const id = (v: unknown) => (typeof v === 'string' ? [v.toLowerCase()] : []);
  if (list === undefined) return field in e ? id(e[field]) : undefined;
  const items = e[list];
  return Array.isArray(items) ? (items as Record<string, unknown>[]).flatMap((it) => id(it[field])) : undefined;
}
