/** Silos: idempotent create, list, get, PATCH (items replaced whole), DELETE (refused while in a BOM). */
import type { FastifyInstance } from 'fastify';
import { checkSiloItems } from '../../core/spec/rules.js';
import { SiloCreate, type SiloItem } from '../../core/spec/schemas.js';
import { externalIdExists, fromViolations } from '../errors.js';
import { v2Route, validate } from '../http.js';
import type { SiloRecord } from '../model.js';
import type { Store } from '../store.js';
import { byPlant, created, entityRoutes } from './entity.js';
import { idempotentCreate } from './idempotent.js';
import { applyPatch } from './patch.js';
import { materialKey, requireKnownPlant } from './supplier-products.js';

function normalizeItems(items: readonly SiloItem[]): SiloItem[] {
  return items.map((it) => ({
    supplier_product_id: it.supplier_product_id.toLowerCase(),
    annual_items: it.annual_items.map((a) => ({ year: a.year, amount: a.amount })),
  }));
}

function checkItems(store: Store, plantId: string, items: readonly SiloItem[]): void {
  const bad = fromViolations(
    checkSiloItems(
      plantId,
      items.map((it) => {
        const sp = store.supplierProducts.get(it.supplier_product_id);
        return {
          supplier_product_id: it.supplier_product_id,
          product: sp && {
            plant_id: sp.plant_id,
            material_key: materialKey(sp.material_type),
            supplier_plant_id: sp.supplier_plant_id,
          },
        };
      }),
    ),
  );
  if (bad) throw bad;
}

export function siloRoutes(app: FastifyInstance, store: Store): void {
  const coll = store.silos;

  v2Route(app, store, 'POST', '/v2/silos', 'silos.create', (call) =>
    idempotentCreate(call, 'POST /v2/silos', () => {
      const b = validate(SiloCreate, call.body);
      const plantId = b.plant_id.toLowerCase();
      requireKnownPlant(call, plantId);
      const items = normalizeItems(b.items);
      checkItems(store, plantId, items);
      if (coll.externalIdTaken(b.external_id)) throw externalIdExists('silo', b.external_id!);
      const rec: SiloRecord = {
        id: store.newId(),
        external_id: b.external_id ?? null,
        plant_id: plantId,
        name: b.name,
        items,
        created_at: store.clock.iso(),
      };
      return created(store, coll, rec);
    }),
  );

  entityRoutes(app, store, 'silos', coll, {
    plantOf: byPlant,
    update: (call, current, p, id) => {
      if (p.plant_id !== undefined) requireKnownPlant(call, p.plant_id);
      const next = applyPatch(current, { ...p, items: p.items && normalizeItems(p.items) });
      if (p.plant_id !== undefined || p.items !== undefined) checkItems(store, next.plant_id, next.items);
      if (coll.externalIdTaken(next.external_id, id)) throw externalIdExists('silo', next.external_id!);
      return next;
    },
  });
}
