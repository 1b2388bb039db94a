/**
 * DELETE on an entity's item path, the same for every entity type the API manages: the entity must be
 * reachable by the key (plant access where it has a plant), must not be referenced (in-use refusal, 409 with
 * the err_code of that type), and is then marked deleted — it leaves every list and frees its external_id.
 * Returns 200 with the entity as it was (as for supplier products). A second DELETE is 422 err_not_found.
 */
import type { FastifyInstance } from 'fastify';
import type { Operation } from '../../core/spec/scopes.js';
import type { Entity, Collection } from '../collection.js';
import { idParam, v2Route, type V2Call } from '../http.js';
import type { Store } from '../store.js';
import { refuseIfInUse, type DeletableNoun } from './in-use.js';

export function deleteRoute<T extends Entity>(
  app: FastifyInstance,
  store: Store,
  opts: {
    url: string;
    op: Operation;
    noun: DeletableNoun;
    coll: Collection<T>;
    /** The active entity the key may reach, or throws (404 / 403). */
    reachable: (call: V2Call, id: string) => T;
    /** What else goes with the entity (a product instance's BOM, LCA state, a product's derived fields). */
    afterDelete?: (rec: T) => void;
  },
): void {
  v2Route(app, store, 'DELETE', opts.url, opts.op, (call) => {
    const id = idParam(call.params);
    opts.reachable(call, id);
    refuseIfInUse(store, opts.noun, id);
    const body = opts.coll.json(id);
    const rec = opts.coll.markDeleted(id);
    opts.afterDelete?.(rec);
    store.changed();
    return { status: 200, body };
  });
}
