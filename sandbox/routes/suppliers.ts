/** Supplier companies and supplier plants: create, list, get, PATCH, DELETE (refused while referenced). */
import type { FastifyInstance } from 'fastify';
import { SupplierCompanyCreate, SupplierPlantCreate } from '../../core/spec/schemas.js';
import { externalIdExists, notFound } from '../errors.js';
import { v2Route, validate } from '../http.js';
import type { SupplierCompanyRecord, SupplierPlantRecord } from '../model.js';
import type { Store } from '../store.js';
import { created, entityRoutes } from './entity.js';
import { applyPatch } from './patch.js';

export function supplierRoutes(app: FastifyInstance, store: Store): void {
  const companies = store.supplierCompanies;
  const plants = store.supplierPlants;

  v2Route(app, store, 'POST', '/v2/supplier-companies', 'supplierCompanies.create', ({ body }) => {
    const b = validate(SupplierCompanyCreate, body);
    if (companies.externalIdTaken(b.external_id)) throw externalIdExists('supplier company', b.external_id!);
    const rec: SupplierCompanyRecord = {
      id: store.newId(),
      external_id: b.external_id ?? null,
      name: b.name,
      country: b.country ?? null,
      created_at: store.clock.iso(),
    };
    return created(store, companies, rec);
  });

  entityRoutes(app, store, 'supplierCompanies', companies, {
    update: (call, current, p, id) => {
      if (companies.externalIdTaken(p.external_id, id)) throw externalIdExists('supplier company', p.external_id!);
      return applyPatch(current, p);
    },
  });

  const requireCompany = (companyId: string) => {
    if (!companies.get(companyId)) throw notFound('supplier company', companyId);
  };

  v2Route(app, store, 'POST', '/v2/supplier-plants', 'supplierPlants.create', ({ body }) => {
    const b = validate(SupplierPlantCreate, body);
    const companyId = b.supplier_company_id.toLowerCase();
    requireCompany(companyId);
    if (plants.externalIdTaken(b.external_id)) throw externalIdExists('supplier plant', b.external_id!);
    const rec: SupplierPlantRecord = {
      id: store.newId(),
      external_id: b.external_id ?? null,
      name: b.name,
      supplier_company_id: companyId,
      country: b.country ?? null,
      city: b.city ?? null,
      created_at: store.clock.iso(),
    };
    return created(store, plants, rec);
  });

  entityRoutes(app, store, 'supplierPlants', plants, {
    update: (call, current, p, id) => {
      if (p.supplier_company_id !== undefined) requireCompany(p.supplier_company_id);
      if (plants.externalIdTaken(p.external_id, id)) throw externalIdExists('supplier plant', p.external_id!);
      return applyPatch(current, p);
    },
  });
}
