/**
 * The sandbox control API under /__sandbox (loopback only, no API key, never subject to faults): reset,
 * keys, members, faults, clock, entitlements, daily limit, production figures, LCA timing, state, request log,
 * catalog, and a bulk path for seeding large collections quickly.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ENTITLEMENT_DIMENSIONS } from '../../core/spec/constants.js';
import { SCOPES } from '../../core/spec/scopes.js';
import { Uuid, Year } from '../../core/spec/schemas.js';
import { ApiFailure, notFound, notValid } from '../errors.js';
import { JSON_TYPE, validate } from '../http.js';
import { completeDueJobs } from '../lca-jobs.js';
import type { SupplierCompanyRecord, SupplierPlantRecord, SupplierProductRecord } from '../model.js';
import type { Store } from '../store.js';

const Scopes = z.array(z.enum(SCOPES));
const PlantIds = z.array(Uuid).nullable();
const IsoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an RFC 3339 date-time');
const NonNegative = z.number().finite().min(0);
const Rate = z.number().min(0).max(1);
const ErrCode = z.string().regex(/^err_[a-z0-9_]+$/, 'must be an err_code such as err_lca_mass_balance');

const ResetBody = z.object({ seed: z.enum(['demo', 'empty']).optional() }).strict();
const KeyBody = z
  .object({
    scopes: Scopes,
    plant_ids: PlantIds.optional(),
    expires_at: IsoDate.nullable().optional(),
    legacy: z.boolean().optional(),
    owner_profile_id: Uuid.optional(),
  })
  .strict();
const MemberBody = z.object({ scopes: Scopes.optional(), plant_ids: PlantIds.optional() }).strict();
const FaultsBody = z
  .object({
    error_rate: Rate.optional(),
    reset_after_commit_rate: Rate.optional(),
    stall_after_commit_rate: Rate.optional(),
    latency_ms: NonNegative.optional(),
    jitter_ms: NonNegative.optional(),
    seed: z.number().int().optional(),
    only: z
      .object({
        method: z.string().min(1).max(10).optional(),
        writes: z.boolean().optional(),
        path_suffix: z.string().min(1).max(200).optional(),
      })
      .strict()
      .nullable()
      .optional(),
  })
  .strict();
const ClockBody = z
  .object({ now: IsoDate.optional(), advance_ms: z.number().finite().optional() })
  .strict()
  .refine((b) => (b.now === undefined) !== (b.advance_ms === undefined), 'give exactly one of now, advance_ms');
const EntitlementsBody = z
  .object(Object.fromEntries(ENTITLEMENT_DIMENSIONS.map((d) => [d, z.number().int().min(0).nullable().optional()])))
  .strict();
const DailyLimitBody = z.object({ requests: z.number().int().min(0).nullable() }).strict();
const ProductionBody = z
  .object({ product_instance_id: Uuid, year: Year, quantity: z.number().finite().min(0).nullable() })
  .strict();
const LcaBody = z
  .object({
    queued_ms: NonNegative.optional(),
    processing_ms: NonNegative.optional(),
    fail_next: ErrCode.nullable().optional(),
  })
  .strict();
const BulkSupplierProductsBody = z
  .object({
    count: z.number().int().min(1).max(1_000_000),
    external_id_prefix: z.string().min(1).max(100).optional(),
    plant_id: Uuid.optional(),
    with_supplier_plant: z.boolean().optional(),
  })
  .strict();

export function controlRoutes(app: FastifyInstance, store: Store): void {
  const ok = (body: unknown) => JSON.stringify(body);
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.url.startsWith('/__sandbox')) void reply.header('content-type', JSON_TYPE);
    done(null, payload);
  });

  app.post('/__sandbox/reset', (req) => {
    const b = validate(ResetBody, req.body ?? {});
    store.reset(b.seed ?? 'demo');
    return ok({ manufacturer_id: store.manufacturerId, owner_key: store.ownerKey });
  });

  app.post('/__sandbox/keys', (req) => {
    const b = validate(KeyBody, req.body);
    const profileId = (b.owner_profile_id ?? store.newId()).toLowerCase();
    if (!store.members.has(profileId))
      store.members.set(profileId, { profile_id: profileId, scopes: [...SCOPES], plant_ids: null });
    const { key, record } = store.newKey({
      owner_profile_id: profileId,
      scopes: b.scopes,
      plant_ids: b.plant_ids ? b.plant_ids.map((p) => p.toLowerCase()) : null,
      expires_at: b.expires_at ? new Date(b.expires_at).toISOString() : null,
      legacy: b.legacy ?? false,
    });
    store.keys.set(record.key_id, record);
    store.changed();
    return ok({ key, api_key_id: record.key_id, owner_profile_id: profileId });
  });

  app.delete('/__sandbox/keys/:api_key_id', (req) => {
    const id = (req.params as { api_key_id: string }).api_key_id;
    const k = store.keys.get(id);
    if (!k) throw notFound('API key', id);
    k.revoked_at = store.clock.iso();
    store.changed();
    return ok({ api_key_id: id, revoked_at: k.revoked_at });
  });

  app.put('/__sandbox/members/:owner_profile_id', (req) => {
    const id = (req.params as { owner_profile_id: string }).owner_profile_id.toLowerCase();
    const m = store.members.get(id);
    if (!m) throw notFound('member', id);
    const b = validate(MemberBody, req.body);
    if (b.scopes !== undefined) m.scopes = [...b.scopes];
    if (b.plant_ids !== undefined) m.plant_ids = b.plant_ids === null ? null : b.plant_ids.map((p) => p.toLowerCase());
    store.changed();
    return ok(m);
  });

  app.put('/__sandbox/faults', (req) => {
    const b = validate(FaultsBody, req.body);
    store.faults.configure({
      error_rate: b.error_rate ?? 0,
      reset_after_commit_rate: b.reset_after_commit_rate ?? 0,
      stall_after_commit_rate: b.stall_after_commit_rate ?? 0,
      latency_ms: b.latency_ms ?? 0,
      jitter_ms: b.jitter_ms ?? 0,
      seed: b.seed ?? 1,
      only: b.only ?? null,
    });
    return ok(store.faults.config);
  });

  app.get('/__sandbox/clock', () => ok({ now: store.clock.iso() }));
  app.put('/__sandbox/clock', (req) => {
    const b = validate(ClockBody, req.body);
    if (b.now !== undefined) store.clock.set(Date.parse(b.now));
    else store.clock.advance(b.advance_ms!);
    completeDueJobs(store);
    store.changed();
    return ok({ now: store.clock.iso() });
  });

  app.put('/__sandbox/entitlements', (req) => {
    const b = validate(EntitlementsBody, req.body) as Record<string, number | null | undefined>;
    for (const d of ENTITLEMENT_DIMENSIONS) if (b[d] !== undefined) store.entitlements[d] = b[d] ?? null;
    store.changed();
    return ok(store.entitlements);
  });

  app.put('/__sandbox/daily-limit', (req) => {
    const b = validate(DailyLimitBody, req.body);
    store.dailyLimit = b.requests;
    store.dailyCount = { day: '', count: 0 };
    store.changed();
    return ok({ requests: store.dailyLimit });
  });

  app.put('/__sandbox/production', (req) => {
    const b = validate(ProductionBody, req.body);
    const id = b.product_instance_id.toLowerCase();
    if (!store.productInstances.get(id)) throw notFound('product instance', id);
    store.setProduction(id, b.year, b.quantity);
    store.changed();
    const years = [...(store.production.get(id)?.entries() ?? [])].sort((a, c) => a[0] - c[0]);
    return ok({ product_instance_id: id, production: years.map(([year, quantity]) => ({ year, quantity })) });
  });

  app.put('/__sandbox/lca', (req) => {
    const b = validate(LcaBody, req.body);
    if (b.queued_ms !== undefined) store.lcaSettings.queued_ms = b.queued_ms;
    if (b.processing_ms !== undefined) store.lcaSettings.processing_ms = b.processing_ms;
    if (b.fail_next !== undefined) store.lcaSettings.fail_next = b.fail_next;
    store.changed();
    return ok(store.lcaSettings);
  });

  app.get('/__sandbox/state', () => ok(store.state()));

  app.get('/__sandbox/requests', (req) => {
    const q = req.query as Record<string, unknown>;
    let since = 0;
    if (q.since !== undefined) {
      if (typeof q.since !== 'string' || !/^\d+$/.test(q.since)) throw notValid('since must be a non-negative integer');
      since = Number(q.since);
    }
    const log = store.requestLog;
    // Entries are in seq order: binary search the first one after `since`.
    let lo = 0;
    let hi = log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (log[mid].seq <= since) lo = mid + 1;
      else hi = mid;
    }
    const entries = log.slice(lo).map(({ at_ms, ...e }) => ({ ...e, at: new Date(at_ms).toISOString() }));
    return ok({ entries, last_seq: store.requestSeq });
  });

  app.delete('/__sandbox/requests', () => {
    store.requestLog.length = 0;
    return ok({ last_seq: store.requestSeq });
  });

  app.get('/__sandbox/catalog', () => {
    const c = store.catalog;
    return ok({
      manufacturer_id: c.manufacturer_id,
      owner_profile_id: c.owner_profile_id,
      plants: c.plants,
      elementaries: c.elementaries,
      composites: c.composites,
      products: c.products,
    });
  });

  app.post('/__sandbox/bulk/supplier-products', (req) => {
    const b = validate(BulkSupplierProductsBody, req.body);
    const prefix = b.external_id_prefix ?? 'BULK-';
    const plantId = (b.plant_id ?? store.allPlantIds()[0] ?? '').toLowerCase();
    if (!store.plants.get(plantId)) throw new ApiFailure(422, 'err_plant_not_found', `plant ${plantId} not found`);
    const elementary = store.elementaries.activeIds()[0];
    if (!elementary) throw notValid('the catalog has no elementary material type');
    const width = String(b.count).length;
    const codes = Array.from({ length: b.count }, (_, i) => `${prefix}${String(i + 1).padStart(width, '0')}`);
    const taken = codes.find((c) => store.supplierProducts.externalIdTaken(c));
    if (taken)
      throw new ApiFailure(
        409,
        'err_external_id_exists',
        `an active supplier product already has external_id "${taken}"`,
      );
    const now = store.clock.iso();
    let supplierPlantId: string | null = null;
    let companyId: string | null = null;
    if (b.with_supplier_plant ?? true) {
      const company: SupplierCompanyRecord = {
        id: store.newId(),
        external_id: null,
        name: `${prefix}company`,
        country: 'DE',
        created_at: now,
      };
      store.supplierCompanies.insert(company);
      const plant: SupplierPlantRecord = {
        id: store.newId(),
        external_id: null,
        name: `${prefix}plant`,
        supplier_company_id: company.id,
        country: 'DE',
        city: null,
        created_at: now,
      };
      store.supplierPlants.insert(plant);
      companyId = company.id;
      supplierPlantId = plant.id;
    }
    const rows: SupplierProductRecord[] = codes.map((code) => ({
      id: store.newId(),
      external_id: code,
      name: `Bulk supplier product ${code}`,
      material_type: { category: 'elementary', elementary_id: elementary },
      plant_id: plantId,
      supplier_plant_id: supplierPlantId,
      transport_route: { truck_km: 42 },
      epd_id: null,
      hazardous_substances: [],
      lifetime_years: null,
      secondary_percentage: null,
      moisture_content_percentage: null,
      unit: 'KG',
      impacts_per_kg: null,
      transport_impacts_per_kg: null,
      secondary_datasets: null,
      created_at: now,
    }));
    store.supplierProducts.insertMany(rows);
    store.changed();
    return ok({
      created: rows.length,
      plant_id: plantId,
      supplier_company_id: companyId,
      supplier_plant_id: supplierPlantId,
      first_external_id: codes[0],
      last_external_id: codes[codes.length - 1],
    });
  });
}
