/**
 * All state of one sandbox: the seeded catalog, the entities written through the API, keys and members,
 * idempotency records, production figures, LCA jobs, limits, the request log and the clock. In memory;
 * `snapshot()` / `restore()` give the persisted form (no raw secret ever).
 */
import { randomUUID } from 'node:crypto';
import { SCOPES } from '../core/spec/scopes.js';
import { ENTITLEMENT_DIMENSIONS, type EntitlementDimension } from '../core/spec/constants.js';
import { Collection, type StoredRow } from './collection.js';
import { SandboxClock } from './clock.js';
import { Faults } from './faults.js';
import { formatKey, newKeyMaterial, sha256, type ApiKeyRecord, type MemberRecord } from './auth.js';
import { IdempotencyStore, type IdempotencyRecord } from './idempotency.js';
import { currentYearOf, type ImpactFactors, type LcaResultElement } from './lca.js';
import { completeDueJobs, componentInputs, referencedSupplierProducts } from './lca-jobs.js';
import { seedData, type SeedData } from './seed.js';
import type {
  BomComponentRecord,
  CompositeRecord,
  ElementaryRecord,
  PlantRecord,
  PrechainProductRecord,
  ProductInstanceRecord,
  ProductRecord,
  RequestLogEntry,
  SiloRecord,
  SupplierCompanyRecord,
  SupplierPlantRecord,
  SupplierProductRecord,
} from './model.js';
import { sortBom } from './model.js';
import type { LcaJobRecord, LcaSettings } from './lca-jobs.js';

export type SeedKind = 'demo' | 'empty';

export type Entitlements = Record<EntitlementDimension, number | null>;

const REQUEST_LOG_MAX = 250_000;

export const SNAPSHOT_VERSION = 1;

export interface Snapshot {
  version: number;
  saved_at: string;
  seed: SeedKind;
  clock_offset_ms: number;
  catalog: SeedData;
  collections: {
    supplier_companies: StoredRow<SupplierCompanyRecord>[];
    supplier_plants: StoredRow<SupplierPlantRecord>[];
    supplier_products: StoredRow<SupplierProductRecord>[];
    silos: StoredRow<SiloRecord>[];
    product_instances: StoredRow<ProductInstanceRecord>[];
    prechain_products: StoredRow<PrechainProductRecord>[];
  };
  boms: [string, BomComponentRecord[]][];
  keys: ApiKeyRecord[];
  members: MemberRecord[];
  idempotency: [string, IdempotencyRecord][];
  production: [string, [number, number][]][];
  lca: { settings: LcaSettings; jobs: LcaJobRecord[]; results: [string, LcaResultElement[]][] };
  entitlements: Entitlements;
  daily_limit: number | null;
}

export const DEFAULT_LCA_SETTINGS: LcaSettings = { queued_ms: 100, processing_ms: 400, fail_next: null };

function noEntitlements(): Entitlements {
  return Object.fromEntries(ENTITLEMENT_DIMENSIONS.map((d) => [d, null])) as Entitlements;
}

export class Store {
  readonly clock = new SandboxClock();
  readonly faults = new Faults();

  seedKind: SeedKind = 'demo';
  catalog!: SeedData;
  /** Material factors by elementary id (from the seed). */
  elementaryFactors = new Map<string, ImpactFactors>();

  readonly plants = new Collection<PlantRecord>('plants');
  readonly elementaries = new Collection<ElementaryRecord>('elementaries');
  readonly composites = new Collection<CompositeRecord>('composites');
  readonly products = new Collection<ProductRecord>('products', (p) => this.productView(p));
  readonly supplierCompanies = new Collection<SupplierCompanyRecord>('supplier_companies');
  readonly supplierPlants = new Collection<SupplierPlantRecord>('supplier_plants');
  readonly supplierProducts = new Collection<SupplierProductRecord>('supplier_products');
  readonly silos = new Collection<SiloRecord>('silos');
  readonly productInstances = new Collection<ProductInstanceRecord>('product_instances');
  readonly prechainProducts = new Collection<PrechainProductRecord>('prechain_products');

  /** BOM of each product instance, kept in read order (sorted by type, ref). */
  readonly boms = new Map<string, BomComponentRecord[]>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly members = new Map<string, MemberRecord>();
  readonly idempotency = new IdempotencyStore();
  /** instance id → year → quantity. */
  readonly production = new Map<string, Map<number, number>>();

  lcaSettings: LcaSettings = { ...DEFAULT_LCA_SETTINGS };
  readonly lcaJobs = new Map<string, LcaJobRecord>();
  readonly lcaResults = new Map<string, LcaResultElement[]>();
  /** Earliest finish time of a job in flight (Infinity when none): the cheap test of `tick()`. */
  nextJobFinishMs = Infinity;

  entitlements: Entitlements = noEntitlements();
  dailyLimit: number | null = null;
  dailyCount = { day: '', count: 0 };

  readonly requestLog: RequestLogEntry[] = [];
  requestSeq = 0;

  /** The raw owner key issued by this process (memory only, never persisted). */
  ownerKey = '';
  ownerKeyId = '';

  /** Called after every committed change (persistence hooks here). */
  onChange: () => void = () => {};

  get manufacturerId(): string {
    return this.catalog.manufacturer_id;
  }

  get ownerProfileId(): string {
    return this.catalog.owner_profile_id;
  }

  changed(): void {
    this.onChange();
  }

  private entityCollections() {
    return [
      this.supplierCompanies,
      this.supplierPlants,
      this.supplierProducts,
      this.silos,
      this.productInstances,
      this.prechainProducts,
    ] as const;
  }

  private loadCatalog(catalog: SeedData): void {
    this.catalog = catalog;
    this.plants.load(
      catalog.plants.map((p) => ({
        data: { id: p.id, external_id: p.external_id, name: p.name, country: p.country },
        deleted: false,
      })),
    );
    this.elementaries.load(
      catalog.elementaries.map((e) => ({
        data: { id: e.id, external_id: e.external_id, name: e.name, unit: e.unit },
        deleted: false,
      })),
    );
    this.elementaryFactors = new Map(catalog.elementaries.map((e) => [e.id, e.factors]));
    this.composites.load(
      catalog.composites.map((c) => ({
        data: { id: c.id, external_id: c.external_id, name: c.name, parts: c.parts.map((p) => ({ ...p })) },
        deleted: false,
      })),
    );
    this.products.load(
      catalog.products.map((p) => ({
        data: {
          id: p.id,
          external_id: p.external_id,
          name: p.name,
          description: p.description,
          use_case: p.use_case,
          elementary_id: p.elementary_id,
          unit: p.unit,
          is_published_on_emidat: p.is_published_on_emidat,
          created_at: p.created_at,
        },
        deleted: false,
      })),
    );
  }

  private clearState(): void {
    for (const c of this.entityCollections()) c.clear();
    this.boms.clear();
    this.members.clear();
    this.idempotency.clear();
    this.production.clear();
    this.lcaJobs.clear();
    this.lcaResults.clear();
    this.nextJobFinishMs = Infinity;
    this.lcaSettings = { ...DEFAULT_LCA_SETTINGS };
    this.entitlements = noEntitlements();
    this.dailyLimit = null;
    this.dailyCount = { day: '', count: 0 };
  }

  /**
   * Wipe everything and load a seed. Every key is revoked except the owner key this process issued, which
   * stays valid (same string) so a "reset demo" does not break a running app or test.
   */
  reset(kind: SeedKind): void {
    const ownerKeyRecord = this.ownerKeyId ? this.keys.get(this.ownerKeyId) : undefined;
    this.clearState();
    this.keys.clear();
    this.seedKind = kind;
    const seed = seedData(kind, this.clock.date());
    this.loadCatalog(seed);
    this.members.set(seed.owner_profile_id, {
      profile_id: seed.owner_profile_id,
      scopes: [...SCOPES],
      plant_ids: null,
    });
    this.productInstances.load(
      seed.product_instances.map((i) => ({
        data: {
          id: i.id,
          external_id: i.external_id,
          product_id: i.product_id,
          plant_id: i.plant_id,
          produced_from: i.produced_from,
          produced_to: i.produced_to,
          name: i.name,
          created_at: i.created_at,
        },
        deleted: false,
      })),
    );
    for (const p of seed.production) this.setProduction(p.product_instance_id, p.year, p.quantity);
    this.loadSupplySide(seed);
    if (ownerKeyRecord) {
      this.keys.set(ownerKeyRecord.key_id, {
        ...ownerKeyRecord,
        owner_profile_id: seed.owner_profile_id,
        revoked_at: null,
        expires_at: null,
        scopes: [...SCOPES],
        plant_ids: null,
      });
    } else {
      this.issueOwnerKey();
    }
    this.changed();
  }

  /**
   * The demo's supply side, into the same collections and maps the API writes: supplier companies, plants and
   * products, silos, BOMs; then its completed LCA jobs, finished through the same path as an API recompute
   * (results stored, per-kg impacts of the supplier products used filled in).
   */
  private loadSupplySide(seed: SeedData): void {
    this.supplierCompanies.load(seed.supplier_companies.map((c) => ({ data: { ...c }, deleted: false })));
    this.supplierPlants.load(seed.supplier_plants.map((p) => ({ data: { ...p }, deleted: false })));
    this.supplierProducts.load(
      seed.supplier_products.map((p) => ({
        data: {
          id: p.id,
          external_id: p.external_id,
          name: p.name,
          material_type: { ...p.material_type },
          plant_id: p.plant_id,
          supplier_plant_id: p.supplier_plant_id,
          transport_route: p.transport_route === null ? null : { ...p.transport_route },
          epd_id: null,
          hazardous_substances: [],
          lifetime_years: null,
          secondary_percentage: p.secondary_percentage,
          moisture_content_percentage: p.moisture_content_percentage,
          unit: p.unit,
          impacts_per_kg: null,
          transport_impacts_per_kg: null,
          secondary_datasets: null,
          created_at: p.created_at,
        },
        deleted: false,
      })),
    );
    this.silos.load(
      seed.silos.map((s) => ({
        data: {
          ...s,
          items: s.items.map((it) => ({
            supplier_product_id: it.supplier_product_id,
            annual_items: it.annual_items.map((a) => ({ ...a })),
          })),
        },
        deleted: false,
      })),
    );
    for (const b of seed.boms) this.boms.set(b.product_instance_id, sortBom(b.components.map((c) => ({ ...c }))));
    if (seed.lca_jobs.length === 0) return;
    for (const j of seed.lca_jobs) {
      const inst = this.productInstances.get(j.product_instance_id);
      if (!inst) throw new Error(`seed: LCA job ${j.id} names no product instance`);
      const bom = this.boms.get(inst.id) ?? [];
      const queued = Date.parse(j.queued_at);
      this.lcaJobs.set(inst.id, {
        id: j.id,
        product_instance_id: inst.id,
        queued_at_ms: queued,
        started_ms: Date.parse(j.started_at),
        finish_ms: Date.parse(j.finished_at),
        outcome: 'completed',
        err_code: null,
        msg: null,
        done: false,
        inputs: {
          instance: { id: inst.id, produced_from: inst.produced_from, produced_to: inst.produced_to },
          components: componentInputs(this, bom, currentYearOf(new Date(queued))),
          production: [...(this.production.get(inst.id)?.entries() ?? [])],
          supplier_product_ids: referencedSupplierProducts(this, bom),
        },
      });
      this.nextJobFinishMs = Math.min(this.nextJobFinishMs, Date.parse(j.finished_at));
    }
    completeDueJobs(this, this.clock.now());
  }

  /** A fresh full-scope key for the owner; kept in memory as `ownerKey`. */
  issueOwnerKey(): string {
    const { key, record } = this.newKey({
      owner_profile_id: this.ownerProfileId,
      scopes: [...SCOPES],
      plant_ids: null,
      expires_at: null,
      legacy: false,
    });
    this.keys.set(record.key_id, record);
    this.ownerKey = key;
    this.ownerKeyId = record.key_id;
    this.changed();
    return key;
  }

  newKey(o: Pick<ApiKeyRecord, 'owner_profile_id' | 'scopes' | 'plant_ids' | 'expires_at' | 'legacy'>): {
    key: string;
    record: ApiKeyRecord;
  } {
    const { keyId, secret } = newKeyMaterial();
    const record: ApiKeyRecord = {
      key_id: keyId,
      secret_sha256: sha256(secret),
      owner_profile_id: o.owner_profile_id,
      scopes: [...o.scopes],
      plant_ids: o.plant_ids === null ? null : [...o.plant_ids],
      expires_at: o.expires_at,
      legacy: o.legacy,
      revoked_at: null,
      created_at: this.clock.iso(),
    };
    return { key: formatKey(keyId, secret), record };
  }

  newId(): string {
    return randomUUID();
  }

  /** Every plant id of the catalog (the meaning of "all plants"). */
  allPlantIds(): string[] {
    return [...this.plants.activeIds()];
  }

  setProduction(instanceId: string, year: number, quantity: number | null): void {
    let m = this.production.get(instanceId);
    if (quantity === null) {
      m?.delete(year);
      return;
    }
    if (!m) this.production.set(instanceId, (m = new Map()));
    m.set(year, quantity);
  }

  /** Product with its derived fields, from the active instances linked to it. */
  private productView(p: ProductRecord): unknown {
    const instanceIds: string[] = [];
    const plantIds = new Set<string>();
    for (const inst of this.productInstances.active()) {
      if (inst.product_id === p.id) {
        instanceIds.push(inst.id);
        plantIds.add(inst.plant_id);
      }
    }
    return { ...p, product_instance_ids: instanceIds, plant_ids: [...plantIds].sort() };
  }

  /** Derived product fields change with instances: drop the cached JSON of the products involved. */
  invalidateProducts(...productIds: string[]): void {
    for (const id of productIds) this.products.invalidate(id);
  }

  logRequest(e: Omit<RequestLogEntry, 'seq'>): void {
    this.requestSeq++;
    this.requestLog.push({ seq: this.requestSeq, ...e });
    if (this.requestLog.length > REQUEST_LOG_MAX)
      this.requestLog.splice(0, this.requestLog.length - REQUEST_LOG_MAX * 0.8);
  }

  state(): Record<string, { active: number; deleted: number }> {
    const out: Record<string, { active: number; deleted: number }> = {};
    for (const c of [this.plants, this.elementaries, this.composites, this.products, ...this.entityCollections()])
      out[c.name] = c.counts();
    return out;
  }

  snapshot(): Snapshot {
    return {
      version: SNAPSHOT_VERSION,
      saved_at: new Date().toISOString(),
      seed: this.seedKind,
      clock_offset_ms: this.clock.offset,
      catalog: this.catalog,
      collections: {
        supplier_companies: this.supplierCompanies.dump(),
        supplier_plants: this.supplierPlants.dump(),
        supplier_products: this.supplierProducts.dump(),
        silos: this.silos.dump(),
        product_instances: this.productInstances.dump(),
        prechain_products: this.prechainProducts.dump(),
      },
      boms: [...this.boms.entries()],
      keys: [...this.keys.values()],
      members: [...this.members.values()],
      idempotency: this.idempotency.dump(),
      production: [...this.production.entries()].map(([id, m]) => [id, [...m.entries()]]),
      lca: { settings: this.lcaSettings, jobs: [...this.lcaJobs.values()], results: [...this.lcaResults.entries()] },
      entitlements: this.entitlements,
      daily_limit: this.dailyLimit,
    };
  }

  restore(s: Snapshot): void {
    if (s.version !== SNAPSHOT_VERSION)
      throw new Error(`data file version ${s.version} is not supported (expected ${SNAPSHOT_VERSION})`);
    this.clearState();
    this.keys.clear();
    this.seedKind = s.seed;
    this.clock.restoreOffset(s.clock_offset_ms);
    this.loadCatalog(s.catalog);
    this.supplierCompanies.load(s.collections.supplier_companies);
    this.supplierPlants.load(s.collections.supplier_plants);
    this.supplierProducts.load(s.collections.supplier_products);
    this.silos.load(s.collections.silos);
    this.productInstances.load(s.collections.product_instances);
    this.prechainProducts.load(s.collections.prechain_products);
    for (const [id, bom] of s.boms) this.boms.set(id, bom);
    for (const k of s.keys) this.keys.set(k.key_id, k);
    for (const m of s.members) this.members.set(m.profile_id, m);
    this.idempotency.load(s.idempotency);
    for (const [id, years] of s.production) this.production.set(id, new Map(years));
    this.lcaSettings = { ...DEFAULT_LCA_SETTINGS, ...s.lca.settings };
    for (const j of s.lca.jobs) this.lcaJobs.set(j.product_instance_id, j);
    for (const [id, r] of s.lca.results) this.lcaResults.set(id, r);
    this.nextJobFinishMs = [...this.lcaJobs.values()].reduce(
      (m, j) => (j.done ? m : Math.min(m, j.finish_ms)),
      Infinity,
    );
    this.entitlements = { ...noEntitlements(), ...s.entitlements };
    this.dailyLimit = s.daily_limit;
  }
}
