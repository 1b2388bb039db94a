/** Supplier products: create, list, get, PATCH, DELETE (200 with the deleted entity; refused while in a BOM or silo). */
import type { FastifyInstance } from 'fastify';
import { checkMaterialProperties } from '../../core/spec/rules.js';
import { SupplierProductCreate, type MaterialTypeRef } from '../../core/spec/schemas.js';
import { ApiFailure, externalIdExists, fromViolations, notFound, plantNotFound } from '../errors.js';
import { requirePlant, v2Route, validate, type V2Call } from '../http.js';
import type { SupplierProductRecord } from '../model.js';
import type { Store } from '../store.js';
import { applyPatch } from './patch.js';
import { byPlant, created, entityRoutes } from './entity.js';
import { supplierProductInSilo } from './in-use.js';

export function normalizeMaterialType(mt: MaterialTypeRef): MaterialTypeRef {
  return mt.category === 'elementary'
    ? { category: 'elementary', elementary_id: mt.elementary_id.toLowerCase() }
    : { category: 'composite', composite_id: mt.composite_id.toLowerCase() };
}

/** Key of a material type: silo items must all share one. */
export function materialKey(mt: MaterialTypeRef): string {
  return mt.category === 'elementary' ? `elementary:${mt.elementary_id}` : `composite:${mt.composite_id}`;
}

function requireMaterialType(store: Store, mt: MaterialTypeRef): void {
  const found =
    mt.category === 'elementary' ? store.elementaries.get(mt.elementary_id) : store.composites.get(mt.composite_id);
  if (!found) {
    const id = mt.category === 'elementary' ? mt.elementary_id : mt.composite_id;
    throw new ApiFailure(422, 'err_material_type_not_found', `${mt.category} material type ${id} not found`);
  }
}

/** A plant of the catalog the key reaches. */
export function requireKnownPlant(call: V2Call, plantId: string): void {
  if (!call.store.plants.get(plantId)) throw plantNotFound(plantId);
  requirePlant(call.access, plantId);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function supplierProductRoutes(app: FastifyInstance, store: Store): void {
  const coll = store.supplierProducts;

  const checkRefs = (
    call: V2Call,
    p: { plant_id?: string; material_type?: MaterialTypeRef; supplier_plant_id?: string | null },
  ) => {
    if (p.plant_id !== undefined) requireKnownPlant(call, p.plant_id);
    if (p.material_type !== undefined) requireMaterialType(store, p.material_type);
    if (p.supplier_plant_id && !store.supplierPlants.get(p.supplier_plant_id))
      throw notFound('supplier plant', p.supplier_plant_id);
  };

  v2Route(app, store, 'POST', '/v2/supplier-products', 'supplierProducts.create', (call) => {
    const b = validate(SupplierProductCreate, call.body);
    const plantId = b.plant_id.toLowerCase();
    const materialType = normalizeMaterialType(b.material_type);
    const supplierPlantId = b.supplier_plant_id ? b.supplier_plant_id.toLowerCase() : null;
    checkRefs(call, { plant_id: plantId, material_type: materialType, supplier_plant_id: supplierPlantId });
    const bad = fromViolations(checkMaterialProperties(b));
    if (bad) throw bad;
    if (coll.externalIdTaken(b.external_id)) throw externalIdExists('supplier product', b.external_id!);
    const rec: SupplierProductRecord = {
      id: store.newId(),
      external_id: b.external_id ?? null,
      name: b.name,
      material_type: materialType,
      plant_id: plantId,
      supplier_plant_id: supplierPlantId,
      transport_route: b.transport_route ?? null,
      epd_id: b.epd_id ? b.epd_id.toLowerCase() : null,
      hazardous_substances: b.hazardous_substances ?? [],
      lifetime_years: b.lifetime_years ?? null,
      secondary_percentage: b.secondary_percentage ?? null,
      moisture_content_percentage: b.moisture_content_percentage ?? null,
      unit: b.unit,
      impacts_per_kg: null,
      transport_impacts_per_kg: null,
      secondary_datasets: null,
      created_at: store.clock.iso(),
    };
    return created(store, coll, rec);
  });

  entityRoutes(app, store, 'supplierProducts', coll, {
    plantOf: byPlant,
    update: (call, current, p, id) => {
      const patch = { ...p, material_type: p.material_type && normalizeMaterialType(p.material_type) };
      checkRefs(call, patch);
      const next = applyPatch(current, patch);
      const bad = fromViolations(checkMaterialProperties(next));
      if (bad) throw bad;
      if (coll.externalIdTaken(next.external_id, id)) throw externalIdExists('supplier product', next.external_id!);
      const siloId = supplierProductInSilo(store, id);
      if (
        siloId &&
        (next.plant_id !== current.plant_id ||
          materialKey(next.material_type) !== materialKey(current.material_type) ||
          next.supplier_plant_id === null)
      )
        throw new ApiFailure(
          409,
          'err_supplier_product_in_silo',
          `supplier product ${id} is in silo ${siloId}: its plant, material type and supplier plant cannot change`,
        );
      if (
        !sameJson(next.material_type, current.material_type) ||
        !sameJson(next.transport_route, current.transport_route)
      ) {
        // Inputs of the impacts changed: they are computed again by the next LCA recompute that uses them.
        next.impacts_per_kg = null;
        next.transport_impacts_per_kg = null;
        next.secondary_datasets = null;
      }
      return next;
    },
  });
}
