/** Silos: idempotent create, list, get, PATCH (items replaced whole), DELETE (refused while in a BOM). */
import type { FastifyInstance } from 'fastify';
import { checkSiloItems } from '../../electron/core/spec/rules.js';
import { SiloCreate, SiloPatch, type SiloItem } from '../../electron/core/spec/schemas.js';
import { canReachPlant } from '../auth.js';
import { externalIdExists, fromViolations, notFound } from '../errors.js';
import { idParam, requirePlant, v2Route, validate, type V2Call } from '../http.js';
import type { SiloRecord } from '../model.js';
import type { Store } from '../store.js';
import { deleteRoute } from './delete.js';
import { idempotentCreate } from './idempotent.js';
import { listPage } from './list.js';
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
          product: sp && { plant_id: sp.plant_id, material_key: materialKey(sp.material_type), supplier_plant_id: sp.supplier_plant_id },
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
      coll.insert(rec);
      store.changed();
      return { status: 201, body: coll.json(rec.id) };
    }),
  );

  v2Route(app, store, 'GET', '/v2/silos', 'silos.list', (call) =>
    listPage(call, coll, { visible: (e) => canReachPlant(call.access, e.plant_id) }),
  );

  const reachable = (call: V2Call, id: string): SiloRecord => {
    const silo = coll.get(id);
    if (!silo) throw notFound('silo', id);
    requirePlant(call.access, silo.plant_id);
    return silo;
  };

  v2Route(app, store, 'GET', '/v2/silos/:id', 'silos.get', (call) => {
    const id = idParam(call.params);
    reachable(call, id);
    return { status: 200, body: coll.json(id) };
  });

  v2Route(app, store, 'PATCH', '/v2/silos/:id', 'silos.update', (call) => {
    const id = idParam(call.params);
    const current = reachable(call, id);
    const p = validate(SiloPatch, call.body);
    const patch: Partial<SiloRecord> = {};
    if (p.external_id !== undefined) patch.external_id = p.external_id;
    if (p.name !== undefined) patch.name = p.name;
    if (p.plant_id !== undefined) {
      patch.plant_id = p.plant_id.toLowerCase();
      requireKnownPlant(call, patch.plant_id);
    }
    if (p.items !== undefined) patch.items = normalizeItems(p.items);
    const next = applyPatch(current, patch);
    if (patch.plant_id !== undefined || patch.items !== undefined) checkItems(store, next.plant_id, next.items);
    if (coll.externalIdTaken(next.external_id, id)) throw externalIdExists('silo', next.external_id!);
    coll.replace(next);
    store.changed();
    return { status: 200, body: coll.json(id) };
  });

  deleteRoute(app, store, { url: '/v2/silos/:id', op: 'silos.delete', noun: 'silo', coll, reachable });
}
