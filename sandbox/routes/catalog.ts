/**
 * Read-only parts of the account: GET /v2/me, products, plants, elementaries (material types), composites.
 */
import type { FastifyInstance } from 'fastify';
import { canReachPlant } from '../auth.js';
import { notFound, plantNotFound } from '../errors.js';
import { idParam, requirePlant, v2Route } from '../http.js';
import type { Store } from '../store.js';
import { listPage } from './list.js';

export function catalogRoutes(app: FastifyInstance, store: Store): void {
  v2Route(app, store, 'GET', '/v2/me', 'me.get', ({ access }) => {
    const plantIds =
      access.plants === null ? store.allPlantIds() : store.allPlantIds().filter((id) => access.plants!.has(id));
    return {
      status: 200,
      body: {
        manufacturer_id: store.manufacturerId,
        api_key_id: access.key.key_id,
        owner_profile_id: access.key.owner_profile_id,
        scopes: [...access.scopes].sort(),
        plant_ids: plantIds,
        expires_at: access.key.expires_at,
      },
    };
  });

  // The key's plant restriction does not narrow the products list (spec).
  v2Route(app, store, 'GET', '/v2/products', 'products.list', (call) =>
    listPage(call, store.products, {
      filters: [{ name: 'product_instance_id', uuid: true }],
      candidates: (q) => {
        const instanceId = q.filters.product_instance_id;
        if (instanceId === undefined) return undefined;
        const inst = store.productInstances.get(instanceId);
        return inst ? [inst.product_id] : [];
      },
    }),
  );

  v2Route(app, store, 'GET', '/v2/plants', 'plants.list', (call) =>
    listPage(call, store.plants, { visible: (p) => canReachPlant(call.access, p.id) }),
  );

  v2Route(app, store, 'GET', '/v2/plants/:id', 'plants.get', (call) => {
    const id = idParam(call.params);
    if (!store.plants.get(id)) throw plantNotFound(id);
    requirePlant(call.access, id);
    return { status: 200, body: store.plants.json(id) };
  });

  v2Route(app, store, 'GET', '/v2/elementaries', 'elementaries.list', (call) => listPage(call, store.elementaries));

  v2Route(app, store, 'GET', '/v2/composites', 'composites.list', (call) => listPage(call, store.composites));

  v2Route(app, store, 'GET', '/v2/composites/:id', 'composites.get', (call) => {
    const id = idParam(call.params);
    if (!store.composites.get(id)) throw notFound('composite', id);
    return { status: 200, body: store.composites.json(id) };
  });
}
