/** Prechain products (preview): idempotent create (201), list, get, PATCH, DELETE (refused while in a BOM). */
import type { FastifyInstance } from 'fastify';
import { PrechainProductCreate } from '../../core/spec/schemas.js';
import { ApiFailure, externalIdExists, notFound } from '../errors.js';
import { v2Route, validate } from '../http.js';
import type { PrechainProductRecord } from '../model.js';
import type { Store } from '../store.js';
import { idempotentCreate } from './idempotent.js';
import { byPlant, created, entityRoutes } from './entity.js';
import { applyPatch } from './patch.js';
import { closesPrechainLoop } from './product-instances.js';
import { requireKnownPlant } from './supplier-products.js';

function findSamePair(
  store: Store,
  instanceId: string,
  plantId: string,
  exceptId?: string,
): PrechainProductRecord | undefined {
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
      return created(store, coll, rec);
    }),
  );

  entityRoutes(app, store, 'prechainProducts', coll, {
    plantOf: byPlant,
    update: (call, current, p, id) => {
      if (p.product_instance_id !== undefined) requireInstance(p.product_instance_id);
      if (p.plant_id !== undefined) requireKnownPlant(call, p.plant_id);
      const next = applyPatch(current, p);
      const same = findSamePair(store, next.product_instance_id, next.plant_id, id);
      if (same) throw exists(same);
      if (coll.externalIdTaken(next.external_id, id)) throw externalIdExists('prechain product', next.external_id!);
      if (
        next.product_instance_id !== current.product_instance_id ||
        JSON.stringify(next.transport_route) !== JSON.stringify(current.transport_route)
      ) {
        next.impacts_per_kg = null;
        next.transport_impacts_per_kg = null;
      }
      // Stored now: the loop check reads the store (the old entity is put back on refusal).
      coll.replace(next);
      if (next.product_instance_id !== current.product_instance_id) {
        // The new input may close a loop through a BOM that uses this prechain product.
        for (const [instanceId, bom] of store.boms) {
          if (
            bom.some((c) => c.type === 'prechain_product' && c.ref === id) &&
            closesPrechainLoop(store, instanceId, bom)
          ) {
            coll.replace(current);
            throw new ApiFailure(
              422,
              'err_prechain_circular_reference',
              `product instance ${next.product_instance_id} leads back to product instance ${instanceId}, whose BOM uses this prechain product`,
            );
          }
        }
      }
      return next;
    },
  });
}
