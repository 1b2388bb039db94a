/** Prechain products (preview): idempotent create (201), list, get, PATCH, DELETE (refused while in a BOM). */
import type { FastifyInstance } from 'fastify';
import { PrechainProductCreate, PrechainProductPatch } from '../../electron/core/spec/schemas.js';
import { canReachPlant } from '../auth.js';
import { ApiFailure, externalIdExists, notFound } from '../errors.js';
import { idParam, requirePlant, v2Route, validate, type V2Call } from '../http.js';
import type { PrechainProductRecord } from '../model.js';
import type { Store } from '../store.js';
import { idempotentCreate } from './idempotent.js';
import { deleteRoute } from './delete.js';
import { listPage } from './list.js';
import { applyPatch } from './patch.js';
import { closesPrechainLoop } from './product-instances.js';
import { requireKnownPlant } from './supplier-products.js';

function findSamePair(store: Store, instanceId: string, plantId: string, exceptId?: string): PrechainProductRecord | undefined {
  for (const pp of store.prechainProducts.active())
    if (pp.product_instance_id === instanceId && pp.plant_id === plantId && pp.id !== exceptId) return pp;
  return undefined;
}

const exists = (pp: PrechainProductRecord) =>
  new ApiFailure(
    409,
    'err_prechain_product_exists',
    `prechain product ${pp.id} already uses product instance ${pp.product_instance_id} at plant ${pp.plant_id}`,
  );

export function prechainProductRoutes(app: FastifyInstance, store: Store): void {
  const coll = store.prechainProducts;

  const requireInstance = (id: string) => {
    if (!store.productInstances.get(id)) throw notFound('product instance', id);
  };

  v2Route(app, store, 'POST', '/v2/prechain-products', 'prechainProducts.create', (call) =>
    idempotentCreate(call, 'POST /v2/prechain-products', () => {
      const b = validate(PrechainProductCreate, call.body);
      const instanceId = b.product_instance_id.toLowerCase();
      const plantId = b.plant_id.toLowerCase();
      requireInstance(instanceId);
      requireKnownPlant(call, plantId);
      const same = findSamePair(store, instanceId, plantId);
      if (same) throw exists(same);
      if (coll.externalIdTaken(b.external_id)) throw externalIdExists('prechain product', b.external_id!);
      const rec: PrechainProductRecord = {
        id: store.newId(),
        external_id: b.external_id ?? null,
        product_instance_id: instanceId,
        plant_id: plantId,
        transport_route: b.transport_route ?? null,
        impacts_per_kg: null,
        transport_impacts_per_kg: null,
        created_at: store.clock.iso(),
      };
      coll.insert(rec);
      store.changed();
      return { status: 201, body: coll.json(rec.id) };
    }),
  );

  v2Route(app, store, 'GET', '/v2/prechain-products', 'prechainProducts.list', (call) =>
    listPage(call, coll, { visible: (e) => canReachPlant(call.access, e.plant_id) }),
  );

  const reachable = (call: V2Call, id: string): PrechainProductRecord => {
    const pp = coll.get(id);
    if (!pp) throw notFound('prechain product', id);
    requirePlant(call.access, pp.plant_id);
    return pp;
  };

  v2Route(app, store, 'GET', '/v2/prechain-products/:id', 'prechainProducts.get', (call) => {
    const id = idParam(call.params);
    reachable(call, id);
    return { status: 200, body: coll.json(id) };
  });

  v2Route(app, store, 'PATCH', '/v2/prechain-products/:id', 'prechainProducts.update', (call) => {
    const id = idParam(call.params);
    const current = reachable(call, id);
    const p = validate(PrechainProductPatch, call.body);
    const patch: Partial<PrechainProductRecord> = {};
    if (p.external_id !== undefined) patch.external_id = p.external_id;
    if (p.product_instance_id !== undefined) {
      patch.product_instance_id = p.product_instance_id.toLowerCase();
      requireInstance(patch.product_instance_id);
    }
    if (p.plant_id !== undefined) {
      patch.plant_id = p.plant_id.toLowerCase();
      requireKnownPlant(call, patch.plant_id);
    }
    if (p.transport_route !== undefined) patch.transport_route = p.transport_route;
    const next = applyPatch(current, patch);
    const same = findSamePair(store, next.product_instance_id, next.plant_id, id);
    if (same) throw exists(same);
    if (coll.externalIdTaken(next.external_id, id)) throw externalIdExists('prechain product', next.external_id!);
    if (next.product_instance_id !== current.product_instance_id || JSON.stringify(next.transport_route) !== JSON.stringify(current.transport_route)) {
      next.impacts_per_kg = null;
      next.transport_impacts_per_kg = null;
    }
    coll.replace(next);
    if (next.product_instance_id !== current.product_instance_id) {
      // The new input may close a loop through a BOM that uses this prechain product.
      for (const [instanceId, bom] of store.boms) {
        if (bom.some((c) => c.type === 'prechain_product' && c.ref === id) && closesPrechainLoop(store, instanceId, bom)) {
          coll.replace(current);
          throw new ApiFailure(
            422,
            'err_prechain_circular_reference',
            `product instance ${next.product_instance_id} leads back to product instance ${instanceId}, whose BOM uses this prechain product`,
          );
        }
      }
    }
    store.changed();
    return { status: 200, body: coll.json(id) };
  });

  deleteRoute(app, store, {
    url: '/v2/prechain-products/:id',
    op: 'prechainProducts.delete',
    noun: 'prechain product',
    coll,
    reachable,
  });
}
