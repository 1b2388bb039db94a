/**
 * LCA recompute jobs of product instances. A job moves queued → processing → completed | failed on the sandbox
 * clock; its state is evaluated from timestamps, and `Store.tick()`-style completion (`completeDueJobs`) runs
 * at the start of every request so results and computed per-kg impacts appear exactly when the job finishes.
 * The inputs (BOM resolved to factors, production figures) are taken when the job is queued.
 */
import { isLcaJobInFlight, type LcaJobStatus } from '../core/spec/constants.js';
import type { MaterialTypeRef, TransportRoute } from '../core/spec/schemas.js';
import {
  compositeFactors,
  computeResults,
  currentYearOf,
  impactsPerKg,
  prechainFactors,
  siloFactors,
  transportImpactsPerKg,
  zeroFactors,
  type ComponentInput,
  type ImpactFactors,
  type LcaResultElement,
  type SiloItemInput,
} from './lca.js';
import type { SandboxClock } from './clock.js';
import type { Collection } from './collection.js';
import type {
  BomComponentRecord,
  CompositeRecord,
  ElementaryRecord,
  PrechainProductRecord,
  ProductInstanceRecord,
  SecondaryDataset,
  SiloRecord,
  SupplierProductRecord,
} from './model.js';

/** What the LCA jobs read and write of the sandbox's store (store.ts Store). */
export interface LcaStore {
  readonly clock: SandboxClock;
  elementaryFactors: Map<string, ImpactFactors>;
  readonly elementaries: Collection<ElementaryRecord>;
  readonly composites: Collection<CompositeRecord>;
  readonly supplierProducts: Collection<SupplierProductRecord>;
  readonly silos: Collection<SiloRecord>;
  readonly productInstances: Collection<ProductInstanceRecord>;
  readonly prechainProducts: Collection<PrechainProductRecord>;
  readonly boms: Map<string, BomComponentRecord[]>;
  readonly production: Map<string, Map<number, number>>;
  lcaSettings: LcaSettings;
  readonly lcaJobs: Map<string, LcaJobRecord>;
  readonly lcaResults: Map<string, LcaResultElement[]>;
  nextJobFinishMs: number;
  changed(): void;
  newId(): string;
}

export interface LcaSettings {
  queued_ms: number;
  processing_ms: number;
  /** err_code the next queued job fails with (then cleared). */
  fail_next: string | null;
}

export interface LcaJobRecord {
  id: string;
  product_instance_id: string;
  queued_at_ms: number;
  started_ms: number;
  finish_ms: number;
  outcome: 'completed' | 'failed';
  err_code: string | null;
  msg: string | null;
  /** Results stored (or cleared for a failure): nothing left to do at finish time. */
  done: boolean;
  inputs: JobInputs | null;
}

interface JobInputs {
  instance: { id: string; produced_from: number; produced_to: number | null };
  components: ComponentInput[];
  production: [number, number][];
  supplier_product_ids: string[];
}

export function materialFactors(store: LcaStore, mt: MaterialTypeRef): ImpactFactors {
  if (mt.category === 'elementary') return store.elementaryFactors.get(mt.elementary_id) ?? zeroFactors();
  const composite = store.composites.get(mt.composite_id);
  if (!composite) return zeroFactors();
  return compositeFactors(
    composite.parts.map((p) => ({
      share: p.share,
      factors: store.elementaryFactors.get(p.elementary_id) ?? zeroFactors(),
    })),
  );
}

function secondaryDatasets(store: LcaStore, mt: MaterialTypeRef): SecondaryDataset[] {
  const parts =
    mt.category === 'elementary'
      ? [{ elementary_id: mt.elementary_id, share: 1 }]
      : (store.composites.get(mt.composite_id)?.parts ?? []);
  return parts.map((p) => ({
    elementary_id: p.elementary_id,
    name: store.elementaries.get(p.elementary_id)?.name ?? '',
    share: p.share,
  }));
}

function siloItemInputs(store: LcaStore, siloId: string): SiloItemInput[] {
  const silo = store.silos.get(siloId);
  if (!silo) return [];
  return silo.items.flatMap((it) => {
    const sp = store.supplierProducts.get(it.supplier_product_id);
    if (!sp) return [];
    return [
      {
        supplier_product_id: sp.id,
        factors_per_kg: materialFactors(store, sp.material_type),
        transport_route: sp.transport_route,
        annual_items: it.annual_items.map((a) => ({ ...a })),
      },
    ];
  });
}

/** Resolve a BOM to LCA inputs. `visiting` guards against cycles through prechain products. */
export function componentInputs(
  store: LcaStore,
  bom: readonly BomComponentRecord[],
  year: number,
  visiting: ReadonlySet<string> = new Set(),
): ComponentInput[] {
  return bom.map((c): ComponentInput => {
    if (c.type === 'supplier_product') {
      const sp = store.supplierProducts.get(c.ref);
      return {
        type: c.type,
        ref: c.ref,
        mass_kg: c.mass_kg,
        factors_per_kg: sp ? materialFactors(store, sp.material_type) : zeroFactors(),
        transport_route: sp?.transport_route ?? null,
      };
    }
    if (c.type === 'silo') {
      const items = siloItemInputs(store, c.ref);
      const now = siloFactors(items, year);
      return { type: c.type, ref: c.ref, mass_kg: c.mass_kg, ...now, silo_items: items };
    }
    const pp = store.prechainProducts.get(c.ref);
    let factors = zeroFactors();
    if (pp && !visiting.has(pp.product_instance_id)) {
      const upstream = store.boms.get(pp.product_instance_id) ?? [];
      const inner = componentInputs(store, upstream, year, new Set([...visiting, pp.product_instance_id]));
      factors = prechainFactors(inner, year);
    }
    return {
      type: c.type,
      ref: c.ref,
      mass_kg: c.mass_kg,
      factors_per_kg: factors,
      transport_route: pp?.transport_route ?? null,
    };
  });
}

/** Supplier products a BOM uses, directly or as silo items (their per-kg impacts are filled in by the job). */
export function referencedSupplierProducts(store: LcaStore, bom: readonly BomComponentRecord[]): string[] {
  const ids = new Set<string>();
  for (const c of bom) {
    if (c.type === 'supplier_product') ids.add(c.ref);
    else if (c.type === 'silo') for (const it of store.silos.get(c.ref)?.items ?? []) ids.add(it.supplier_product_id);
  }
  return [...ids];
}

export function jobStatus(job: LcaJobRecord, nowMs: number): LcaJobStatus {
  if (nowMs < job.started_ms) return 'queued';
  if (nowMs < job.finish_ms) return 'processing';
  return job.outcome;
}

/** The `job` object of lca-update and lca-results. */
export function jobView(job: LcaJobRecord | undefined, nowMs: number): Record<string, unknown> {
  if (!job) return { status: 'idle' };
  const status = jobStatus(job, nowMs);
  const v: Record<string, unknown> = { id: job.id, status, queued_at: new Date(job.queued_at_ms).toISOString() };
  if (status !== 'queued') v.started_at = new Date(job.started_ms).toISOString();
  if (status === 'completed' || status === 'failed') v.finished_at = new Date(job.finish_ms).toISOString();
  if (status === 'failed') {
    v.err_code = job.err_code;
    v.msg = job.msg;
  }
  return v;
}

export function isInFlight(job: LcaJobRecord | undefined, nowMs: number): boolean {
  return job !== undefined && isLcaJobInFlight(jobStatus(job, nowMs));
}

/** Queue a recompute of an instance (the caller has checked that none is in flight). */
export function queueJob(store: LcaStore, instanceId: string): LcaJobRecord {
  const inst = store.productInstances.get(instanceId);
  if (!inst) throw new Error(`no product instance ${instanceId}`);
  const now = store.clock.now();
  const bom = store.boms.get(instanceId) ?? [];
  const year = currentYearOf(new Date(now));
  const s = store.lcaSettings;
  const failCode = s.fail_next;
  s.fail_next = null;
  const job: LcaJobRecord = {
    id: store.newId(),
    product_instance_id: instanceId,
    queued_at_ms: now,
    started_ms: now + s.queued_ms,
    finish_ms: now + s.queued_ms + s.processing_ms,
    outcome: failCode ? 'failed' : 'completed',
    err_code: failCode,
    msg: failCode ? `the LCA recompute failed with ${failCode} (failure injected through /__sandbox/lca)` : null,
    done: false,
    inputs: {
      instance: { id: inst.id, produced_from: inst.produced_from, produced_to: inst.produced_to },
      components: componentInputs(store, bom, year),
      production: [...(store.production.get(instanceId)?.entries() ?? [])],
      supplier_product_ids: referencedSupplierProducts(store, bom),
    },
  };
  store.lcaJobs.set(instanceId, job);
  store.lcaResults.delete(instanceId);
  store.nextJobFinishMs = Math.min(store.nextJobFinishMs, job.finish_ms);
  store.changed();
  return job;
}

function markSupplierProductComputed(store: LcaStore, sp: SupplierProductRecord): void {
  store.supplierProducts.replace({
    ...sp,
    impacts_per_kg: impactsPerKg(materialFactors(store, sp.material_type)),
    transport_impacts_per_kg: transportImpactsPerKg(sp.transport_route as TransportRoute | null),
    secondary_datasets: secondaryDatasets(store, sp.material_type),
  });
}

function finish(store: LcaStore, job: LcaJobRecord): void {
  const inputs = job.inputs;
  job.done = true;
  job.inputs = null;
  if (job.outcome === 'failed' || !inputs) {
    store.lcaResults.delete(job.product_instance_id);
    return;
  }
  const now = new Date(job.finish_ms);
  const production = new Map(inputs.production);
  const results = computeResults({
    instance: inputs.instance,
    components: inputs.components,
    production: (y) => production.get(y),
    now,
    includeBreakdown: true,
  });
  store.lcaResults.set(job.product_instance_id, results);
  // The per-kg impacts of what this recompute used are now computed.
  for (const id of inputs.supplier_product_ids) {
    const sp = store.supplierProducts.get(id);
    if (sp) markSupplierProductComputed(store, sp);
  }
  const perKg = prechainFactors(inputs.components, currentYearOf(now));
  for (const pp of store.prechainProducts.active()) {
    if (pp.product_instance_id !== job.product_instance_id) continue;
    store.prechainProducts.replace({
      ...pp,
      impacts_per_kg: impactsPerKg(perKg),
      transport_impacts_per_kg: transportImpactsPerKg(pp.transport_route),
    });
  }
}

/** Complete every job whose finish time has passed. Cheap when none is due. */
export function completeDueJobs(store: LcaStore, now: number = store.clock.now()): void {
  if (now < store.nextJobFinishMs) return;
  let next = Infinity;
  for (const job of store.lcaJobs.values()) {
    if (job.done) continue;
    if (job.finish_ms <= now) finish(store, job);
    else next = Math.min(next, job.finish_ms);
  }
  store.nextJobFinishMs = next;
  store.changed();
}

/** Results as a given key may see them: the per-source breakdown only with view:recipes. */
export function resultsFor(
  store: LcaStore,
  instanceId: string,
  includeBreakdown: boolean,
  now: number = store.clock.now(),
): LcaResultElement[] {
  const job = store.lcaJobs.get(instanceId);
  if (!job || isInFlight(job, now)) return [];
  const results = store.lcaResults.get(instanceId) ?? [];
  if (includeBreakdown) return results;
  return results.map((r) => {
    const copy = { ...r };
    delete copy.breakdown;
    return copy;
  });
}
