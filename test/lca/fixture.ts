/**
 * Test helpers for the LCA tests: an in-process sandbox (port 0), a client, the control API, and the data an
 * LCA needs — supplier products (created through the client), product instances with BOMs, production
 * figures (through /__sandbox/production). Not a test file (vitest only runs *.test.ts).
 */
import { startSandbox } from '../../sandbox/index.js';
import { createApiClient, type ApiClient } from '../../core/api/index.js';

export interface CatalogEntry {
  id: string;
  external_id: string;
  name: string;
}

export interface LcaFixture {
  baseUrl: string;
  ownerKey: string;
  client: ApiClient;
  catalog: { plants: CatalogEntry[]; elementaries: CatalogEntry[]; products: CatalogEntry[] };
  /** Call the control API; throws on a non-2xx answer. */
  ctl<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startLcaFixture(seed: 'demo' | 'empty' = 'empty'): Promise<LcaFixture> {
  const sb = await startSandbox({ port: 0, seed });
  const ctl = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${sb.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const catalog = await ctl<LcaFixture['catalog']>('GET', '/__sandbox/catalog');
  const client = createApiClient({ baseUrl: sb.baseUrl, apiKey: sb.ownerKey, manufacturerId: sb.manufacturerId });
  return {
    baseUrl: sb.baseUrl,
    ownerKey: sb.ownerKey,
    client,
    catalog,
    ctl,
    async close() {
      await client.close();
      await sb.close();
    },
  };
}

export const byCode = (xs: CatalogEntry[], code: string): CatalogEntry => {
  const x = xs.find((e) => e.external_id === code);
  if (!x) throw new Error(`catalog has no ${code}`);
  return x;
};

export interface Materials {
  /** CEM I from a supplier 120 km away by truck (→ A4 values). */
  cement: string;
  /** Sand, no transport route (→ A1-A3 only). */
  sand: string;
  /** Water, no transport route. */
  water: string;
}

/** One supplier company + plant and three supplier products at `plantCode`, created through the client. */
export async function makeMaterials(f: LcaFixture, plantCode: string, prefix: string): Promise<Materials> {
  const plant = byCode(f.catalog.plants, plantCode);
  const company = await f.client.supplierCompanies.create({
    external_id: `${prefix}-CO`,
    name: `${prefix} Zement GmbH`,
    country: 'DE',
  });
  const sp = await f.client.supplierPlants.create({
    external_id: `${prefix}-SPL`,
    name: `${prefix} Werk`,
    supplier_company_id: company.entity.id,
    country: 'DE',
  });
  const product = async (code: string, material: string, route: Record<string, number> | null) =>
    (
      await f.client.supplierProducts.create({
        external_id: `${prefix}-${code}`,
        name: `${prefix} ${code}`,
        plant_id: plant.id,
        material_type: { category: 'elementary', elementary_id: byCode(f.catalog.elementaries, material).id },
        supplier_plant_id: sp.entity.id,
        transport_route: route,
        unit: 'KG',
      })
    ).entity.id;
  return {
    cement: await product('CEM', 'MAT-CEM1', { truck_km: 120 }),
    sand: await product('SAND', 'MAT-SAND', null),
    water: await product('WATER', 'MAT-WATER', null),
  };
}

export interface InstanceSpec {
  external_id: string;
  article: string;
  plantCode: string;
  from: number;
  to: number | null;
  bom: { ref: string; mass_kg: number }[];
  production?: Record<number, number>;
}

/** A product instance with its BOM (through the client) and production figures (control API). */
export async function makeInstance(f: LcaFixture, s: InstanceSpec): Promise<string> {
  const created = await f.client.productInstances.create({
    external_id: s.external_id,
    product_id: byCode(f.catalog.products, s.article).id,
    plant_id: byCode(f.catalog.plants, s.plantCode).id,
    produced_from: s.from,
    produced_to: s.to,
    name: `${s.external_id} test instance`,
  });
  const id = created.entity.id;
  if (s.bom.length)
    await f.client.bom.put(
      id,
      s.bom.map((c) => ({ type: 'supplier_product' as const, ref: c.ref, mass_kg: c.mass_kg })),
    );
  for (const [year, quantity] of Object.entries(s.production ?? {})) await setProduction(f, id, Number(year), quantity);
  return id;
}

export function setProduction(
  f: LcaFixture,
  instanceId: string,
  year: number,
  quantity: number | null,
): Promise<unknown> {
  return f.ctl('PUT', '/__sandbox/production', { product_instance_id: instanceId, year, quantity });
}

export function setClock(f: LcaFixture, iso: string): Promise<unknown> {
  return f.ctl('PUT', '/__sandbox/clock', { now: iso });
}

export function lcaTiming(
  f: LcaFixture,
  s: { queued_ms?: number; processing_ms?: number; fail_next?: string | null },
): Promise<unknown> {
  return f.ctl('PUT', '/__sandbox/lca', s);
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  err_code: string | null;
}

/** Request log entries after `since` (a last_seq from an earlier call). */
export async function requestsSince(
  f: LcaFixture,
  since: number,
): Promise<{ entries: LoggedRequest[]; last_seq: number }> {
  return f.ctl('GET', `/__sandbox/requests?since=${since}`);
}

/** Fast polling for tests (the sandbox's jobs take ~100 ms here). */
export const FAST_POLL = { pollBaseMs: 40, pollMaxMs: 200 } as const;
