/**
 * The routes every entity collection of the import has besides its create: list, get, PATCH (what it checks
 * differs per type: `update`) and DELETE. An entity with a plant is listed and reached only with access to that
 * plant (403 when out of reach); an unknown id is 404 with the entity's noun.
 */
import type { FastifyInstance } from 'fastify';
import type { Collection, Entity } from '../collection.js';
import { notFound } from '../errors.js';
import { canReachPlant } from '../auth.js';
import type { z } from 'zod';
import {
  PrechainProductPatch,
  ProductInstancePatch,
  SiloPatch,
  SupplierCompanyPatch,
  SupplierPlantPatch,
  SupplierProductPatch,
} from '../../core/spec/schemas.js';
import { idParam, requirePlant, v2Route, validate, type V2Call, type V2Result } from '../http.js';
import type { Store } from '../store.js';
import { deleteRoute } from './delete.js';
import type { DeletableNoun } from './in-use.js';
import { listPage } from './list.js';

/** Per collection: its path, the noun its errors use, and the schema of a PATCH body. */
const ENTITY_COLLECTIONS = {
  supplierCompanies: { path: '/v2/supplier-companies', noun: 'supplier company', patch: SupplierCompanyPatch },
  supplierPlants: { path: '/v2/supplier-plants', noun: 'supplier plant', patch: SupplierPlantPatch },
  supplierProducts: { path: '/v2/supplier-products', noun: 'supplier product', patch: SupplierProductPatch },
  silos: { path: '/v2/silos', noun: 'silo', patch: SiloPatch },
  productInstances: { path: '/v2/product-instances', noun: 'product instance', patch: ProductInstancePatch },
  prechainProducts: { path: '/v2/prechain-products', noun: 'prechain product', patch: PrechainProductPatch },
} as const satisfies Record<string, { path: string; noun: DeletableNoun; patch: z.ZodType }>;

type EntityResource = keyof typeof ENTITY_COLLECTIONS;
/** A PATCH body of a collection, validated. */
export type PatchOf<R extends EntityResource> = z.infer<(typeof ENTITY_COLLECTIONS)[R]['patch']>;

/**
 * A PATCH body with its service ids (`…_id` fields but external_id, which is yours) in lower case, as they are
 * stored; fields left out stay undefined, so applyPatch keeps their current value.
 */
function lowerIds<P extends object>(p: P): P {
  const out = { ...p } as Record<string, unknown>;
  for (const [k, v] of Object.entries(out))
    if (k !== 'external_id' && k.endsWith('_id') && typeof v === 'string') out[k] = v.toLowerCase();
  return out as P;
}

/** The plant of an entity that has one: it is listed and reached only with access to that plant. */
export const byPlant = (e: { plant_id: string }): string => e.plant_id;

/** A new entity stored: 201 with it. */
export function created<T extends Entity>(store: Store, coll: Collection<T>, rec: T): V2Result {
  coll.insert(rec);
  store.changed();
  return { status: 201, body: coll.json(rec.id) };
}

/** Registers list, get, PATCH (with `update`) and DELETE; returns the active entity the key may reach (or throws 404 / 403). */
export function entityRoutes<T extends Entity, R extends EntityResource>(
  app: FastifyInstance,
  store: Store,
  r: R,
  coll: Collection<T>,
  opts: {
    /** The plant an entity belongs to, when the type has one (byPlant). */
    plantOf?: (e: T) => string;
    /** What else goes with a deleted entity. */
    afterDelete?: (rec: T) => void;
    /** PATCH: the entity as it is to be stored (the validated body `p` applied to `current`, and checked). */
    update?: (call: V2Call, current: T, p: PatchOf<R>, id: string) => T;
  } = {},
): (call: V2Call, id: string) => T {
  const { path, noun, patch } = ENTITY_COLLECTIONS[r];
  const { plantOf, update } = opts;
  const reachable = (call: V2Call, id: string): T => {
    const e = coll.get(id);
    if (!e) throw notFound(noun, id);
    if (plantOf) requirePlant(call.access, plantOf(e));
    return e;
  };
  v2Route(app, store, 'GET', path, `${r}.list`, (call) =>
    listPage(call, coll, plantOf ? { visible: (e) => canReachPlant(call.access, plantOf(e)) } : {}),
  );
  v2Route(app, store, 'GET', `${path}/:id`, `${r}.get`, (call) => {
    const id = idParam(call.params);
    reachable(call, id);
    return { status: 200, body: coll.json(id) };
  });
  if (update) {
    v2Route(app, store, 'PATCH', `${path}/:id`, `${r}.update`, (call) => {
      const id = idParam(call.params);
      const current = reachable(call, id);
      coll.replace(update(call, current, lowerIds(validate(patch, call.body) as PatchOf<R>), id));
      store.changed();
      return { status: 200, body: coll.json(id) };
    });
  }
  deleteRoute(app, store, {
    url: `${path}/:id`,
    op: `${r}.delete`,
    noun,
    coll,
    reachable,
    ...(opts.afterDelete && { afterDelete: opts.afterDelete }),
  });
  return reachable;
}
