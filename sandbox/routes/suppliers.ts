/** Supplier companies and supplier plants: create, list, get, PATCH, DELETE (refused while referenced). */
import type { FastifyInstance } from 'fastify';
import {
  SupplierCompanyCreate,
  SupplierCompanyPatch,
  SupplierPlantCreate,
  SupplierPlantPatch,
} from '../../electron/core/spec/schemas.js';
import { externalIdExists, notFound } from '../errors.js';
import { idParam, v2Route, validate, type V2Call } from '../http.js';
import type { SupplierCompanyRecord, SupplierPlantRecord } from '../model.js';
import type { Store } from '../store.js';
import { listPage } from './list.js';
import { deleteRoute } from './delete.js';
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
    companies.insert(rec);
    store.changed();
    return { status: 201, body: companies.json(rec.id) };
  });

  v2Route(app, store, 'GET', '/v2/supplier-companies', 'supplierCompanies.list', (call) => listPage(call, companies));

  v2Route(app, store, 'GET', '/v2/supplier-companies/:id', 'supplierCompanies.get', ({ params }) => {
    const id = idParam(params);
    if (!companies.get(id)) throw notFound('supplier company', id);
    return { status: 200, body: companies.json(id) };
  });

  v2Route(app, store, 'PATCH', '/v2/supplier-companies/:id', 'supplierCompanies.update', ({ params, body }) => {
    const id = idParam(params);
    const current = companies.get(id);
    if (!current) throw notFound('supplier company', id);
    const p = validate(SupplierCompanyPatch, body);
    if (companies.externalIdTaken(p.external_id, id)) throw externalIdExists('supplier company', p.external_id!);
    companies.replace(applyPatch(current, p));
    store.changed();
    return { status: 200, body: companies.json(id) };
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
    plants.insert(rec);
    store.changed();
    return { status: 201, body: plants.json(rec.id) };
  });

  v2Route(app, store, 'GET', '/v2/supplier-plants', 'supplierPlants.list', (call) => listPage(call, plants));

  v2Route(app, store, 'GET', '/v2/supplier-plants/:id', 'supplierPlants.get', ({ params }) => {
    const id = idParam(params);
    if (!plants.get(id)) throw notFound('supplier plant', id);
    return { status: 200, body: plants.json(id) };
  });

  v2Route(app, store, 'PATCH', '/v2/supplier-plants/:id', 'supplierPlants.update', ({ params, body }) => {
    const id = idParam(params);
    const current = plants.get(id);
    if (!current) throw notFound('supplier plant', id);
    const p = validate(SupplierPlantPatch, body);
    if (p.supplier_company_id !== undefined) {
      p.supplier_company_id = p.supplier_company_id.toLowerCase();
      requireCompany(p.supplier_company_id);
    }
    if (plants.externalIdTaken(p.external_id, id)) throw externalIdExists('supplier plant', p.external_id!);
    plants.replace(applyPatch(current, p));
    store.changed();
    return { status: 200, body: plants.json(id) };
  });

  const existing = <T extends { id: string }>(get: (id: string) => T | undefined, noun: string) => (_call: V2Call, id: string): T => {
    const rec = get(id);
    if (!rec) throw notFound(noun, id);
    return rec;
  };

  deleteRoute(app, store, {
    url: '/v2/supplier-companies/:id',
    op: 'supplierCompanies.delete',
    noun: 'supplier company',
    coll: companies,
    reachable: existing((id) => companies.get(id), 'supplier company'),
  });

  deleteRoute(app, store, {
    url: '/v2/supplier-plants/:id',
    op: 'supplierPlants.delete',
    noun: 'supplier plant',
    coll: plants,
    reachable: existing((id) => plants.get(id), 'supplier plant'),
  });
}
