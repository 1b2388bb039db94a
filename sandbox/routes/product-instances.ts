/**
 * Product instances (create with the product_instances entitlement, list, get, PATCH, DELETE), their BOM (GET / PUT
 * replace) and their LCA (lca-update, lca-results).
 */
import type { FastifyInstance } from 'fastify';
import {
  checkBomMasses,
  checkProductionFigureYears,
  checkProductionYears,
  findDuplicateBomComponents,
  sameBom,
} from '../../core/spec/rules.js';
import { BomPut, ProductInstanceCreate, ProductionFiguresPut } from '../../core/spec/schemas.js';
import { canReachPlant } from '../auth.js';
import { ApiFailure, externalIdExists, fromViolations, notFound } from '../errors.js';
import { idParam, requireBody, v2Route, validate } from '../http.js';
import { completeDueJobs, isInFlight, jobView, queueJob, resultsFor } from '../lca-jobs.js';
import { sortBom, type BomComponentRecord, type ProductInstanceRecord } from '../model.js';
import type { Store } from '../store.js';
import { byPlant, created, entityRoutes } from './entity.js';
import { applyPatch } from './patch.js';
import { requireKnownPlant } from './supplier-products.js';

/** Plant of a BOM component's target, or undefined when the ref does not name an active entity of that type. */
function componentPlant(store: Store, c: BomComponentRecord): string | undefined {
  switch (c.type) {
    case 'supplier_product':
      return store.supplierProducts.get(c.ref)?.plant_id;
    case 'silo':
      return store.silos.get(c.ref)?.plant_id;
    case 'prechain_product':
      return store.prechainProducts.get(c.ref)?.plant_id;
  }
}

/**
 * Whether writing `bom` as the BOM of `instanceId` closes a loop: a prechain product whose instance is this
 * one, or whose instance's BOM leads (through prechain products) back to it.
 */
export function closesPrechainLoop(store: Store, instanceId: string, bom: readonly BomComponentRecord[]): boolean {
  const bomOf = (id: string) => (id === instanceId ? bom : (store.boms.get(id) ?? []));
  const seen = new Set<string>();
  const stack = [instanceId];
  let first = true;
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (!first && id === instanceId) return true;
    first = false;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const c of bomOf(id)) {
      if (c.type !== 'prechain_product') continue;
      const pp = store.prechainProducts.get(c.ref);
      if (pp) stack.push(pp.product_instance_id);
    }
  }
  return false;
}

function checkEntitlement(store: Store): void {
  const limit = store.entitlements.product_instances;
  if (limit === null) return;
  const usage = store.productInstances.counts().active;
  if (usage >= limit)
    throw new ApiFailure(
      403,
      'err_entitlement_limit_reached',
      `the licence allows ${limit} product instances and ${usage} are in use`,
      { dimension: 'product_instances', usage, limit },
    );
}

export function productInstanceRoutes(app: FastifyInstance, store: Store): void {
  const coll = store.productInstances;

  const requireProduct = (productId: string) => {
    if (!store.products.get(productId)) throw notFound('product', productId);
  };

  v2Route(app, store, 'POST', '/v2/product-instances', 'productInstances.create', (call) => {
    const b = validate(ProductInstanceCreate, call.body);
    const productId = b.product_id.toLowerCase();
    const plantId = b.plant_id.toLowerCase();
    requireProduct(productId);
    requireKnownPlant(call, plantId);
    const bad = fromViolations(checkProductionYears(b.produced_from, b.produced_to));
    if (bad) throw bad;
    if (coll.externalIdTaken(b.external_id)) throw externalIdExists('product instance', b.external_id!);
    checkEntitlement(store);
    const rec: ProductInstanceRecord = {
      id: store.newId(),
      external_id: b.external_id ?? null,
      product_id: productId,
      plant_id: plantId,
      produced_from: b.produced_from,
      produced_to: b.produced_to ?? null,
      name: b.name ?? null,
      created_at: store.clock.iso(),
    };
    store.invalidateProducts(productId);
    return created(store, coll, rec);
  });

  const reachable = entityRoutes(app, store, 'productInstances', coll, {
    plantOf: byPlant,
    update: (call, current, p, id) => {
      if (p.product_id !== undefined) requireProduct(p.product_id);
      if (p.plant_id !== undefined) requireKnownPlant(call, p.plant_id);
      const next = applyPatch(current, p);
      const bad = fromViolations(checkProductionYears(next.produced_from, next.produced_to));
      if (bad) throw bad;
      if (coll.externalIdTaken(next.external_id, id)) throw externalIdExists('product instance', next.external_id!);
      store.invalidateProducts(current.product_id, next.product_id);
      return next;
    },
    afterDelete: (rec) => {
      // Its BOM, LCA job, results and production figures go with it; its product no longer lists it.
      store.boms.delete(rec.id);
      store.lcaJobs.delete(rec.id);
      store.lcaResults.delete(rec.id);
      store.production.delete(rec.id);
      store.invalidateProducts(rec.product_id);
    },
  });

  // ---- BOM
  v2Route(app, store, 'GET', '/v2/product-instances/:id/bom', 'bom.get', (call) => {
    const id = idParam(call.params);
    reachable(call, id);
    return { status: 200, body: { bom: store.boms.get(id) ?? [] } };
  });

  v2Route(app, store, 'PUT', '/v2/product-instances/:id/bom', 'bom.put', (call) => {
    const id = idParam(call.params);
    reachable(call, id);
    const b = validate(BomPut, call.body);
    const bom: BomComponentRecord[] = b.bom.map((c) => ({
      type: c.type,
      ref: c.ref.toLowerCase(),
      mass_kg: c.mass_kg,
    }));
    const bad = fromViolations([...findDuplicateBomComponents(bom), ...checkBomMasses(bom)]);
    if (bad) throw bad;
    bom.forEach((c, i) => {
      const plantId = componentPlant(store, c);
      if (plantId === undefined) throw new ApiFailure(422, 'err_not_found', `bom[${i}]: ${c.type} ${c.ref} not found`);
      if (!canReachPlant(call.access, plantId))
        throw new ApiFailure(
          403,
          'err_plant_no_access',
          `bom[${i}]: ${c.type} ${c.ref} sits at plant ${plantId}, which this API key cannot reach`,
        );
    });
    if (closesPrechainLoop(store, id, bom))
      throw new ApiFailure(
        422,
        'err_prechain_circular_reference',
        'a prechain product in this BOM leads back to this product instance (circular reference)',
      );
    const current = store.boms.get(id) ?? [];
    if (!sameBom(current, bom)) {
      store.boms.set(id, sortBom(bom));
      store.changed();
    }
    return { status: 200, body: { bom: store.boms.get(id) ?? [] } };
  });

  // ---- production figures (assumed paths and shapes: docs/api-assumptions.md)
  const figuresBody = (id: string) => ({
    product_instance_id: id,
    production_figures: [...(store.production.get(id)?.entries() ?? [])]
      .sort((a, b) => a[0] - b[0])
      .map(([year, quantity]) => ({ year, quantity })),
  });

  v2Route(app, store, 'GET', '/v2/product-instances/:id/production-figures', 'productionFigures.get', (call) => {
    const id = idParam(call.params);
    reachable(call, id);
    return { status: 200, body: figuresBody(id) };
  });

  v2Route(app, store, 'PUT', '/v2/product-instances/:id/production-figures', 'productionFigures.put', (call) => {
    const id = idParam(call.params);
    const inst = reachable(call, id);
    const b = validate(ProductionFiguresPut, call.body);
    const bad = fromViolations(checkProductionFigureYears(inst, b.production_figures));
    if (bad) throw bad;
    // Setting the same figures again is a no-op (idempotent). The LCA uses them from the next recompute on.
    for (const f of b.production_figures) store.setProduction(id, f.year, f.quantity);
    store.changed();
    return { status: 200, body: figuresBody(id) };
  });

  // ---- LCA
  v2Route(app, store, 'POST', '/v2/product-instances/:id/lca-update', 'lca.update', (call) => {
    const id = idParam(call.params);
    reachable(call, id);
    if (call.body !== undefined && Object.keys(requireBody(call.body)).length > 0)
      throw new ApiFailure(422, 'err_not_valid', 'lca-update takes no body (send none or {})');
    if (isInFlight(store.lcaJobs.get(id), store.clock.now()))
      throw new ApiFailure(
        409,
        'err_lca_update_not_queued',
        `an LCA recompute of product instance ${id} is already queued or processing; poll lca-results until it ends`,
      );
    const job = queueJob(store, id);
    return {
      status: 200,
      body: { job: { id: job.id, status: 'queued', queued_at: new Date(job.queued_at_ms).toISOString() } },
    };
  });

  v2Route(app, store, 'GET', '/v2/product-instances/:id/lca-results', 'lca.results', (call) => {
    const id = idParam(call.params);
    reachable(call, id);
    // Read the clock, then complete what is due at that instant, so job state and stored results agree
    // (a job finishing between the pipeline's completion pass and this read would show completed + []).
    const now = store.clock.now();
    completeDueJobs(store, now);
    return {
      status: 200,
      body: {
        product_instance_id: id,
        job: jobView(store.lcaJobs.get(id), now),
        results: resultsFor(store, id, call.access.scopes.has('view:recipes'), now),
      },
    };
  });
}
