/** Shared setup of the client tests: an in-process sandbox (port 0) and its control API. */
import { request } from 'undici';
import { startSandbox } from '../../sandbox/index.js';
import { createApiClient, type ApiClient, type ApiClientOptions } from '../../core/api/index.js';

export interface Sandbox {
  baseUrl: string;
  ownerKey: string;
  manufacturerId: string;
  close(): Promise<void>;
}

export async function sandbox(seed: 'demo' | 'empty' = 'empty'): Promise<Sandbox> {
  return startSandbox({ port: 0, seed });
}

export async function control<T = unknown>(
  sb: Sandbox,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await request(`${sb.baseUrl}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`control ${method} ${path} → ${res.statusCode} ${text}`);
  return JSON.parse(text) as T;
}

export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  query: string;
  status: number;
  err_code: string | null;
  idempotency_key: string | null;
  reset: boolean;
}

export async function requestsSince(
  sb: Sandbox,
  since: number,
): Promise<{ entries: LoggedRequest[]; last_seq: number }> {
  return control(sb, 'GET', `/requests?since=${since}`);
}

export async function lastSeq(sb: Sandbox): Promise<number> {
  return (await requestsSince(sb, Number.MAX_SAFE_INTEGER)).last_seq;
}

export type StateCounts = Record<string, { active: number; deleted: number }>;
export const state = (sb: Sandbox) => control<StateCounts>(sb, 'GET', '/state');

export const faults = (
  sb: Sandbox,
  f: {
    error_rate?: number;
    reset_after_commit_rate?: number;
    latency_ms?: number;
    jitter_ms?: number;
    seed?: number;
    /** Limit the faults to requests with this method and/or path ending. */
    only?: { method?: string; path_suffix?: string };
  },
) => control(sb, 'PUT', '/faults', f);

export const bulkSupplierProducts = (sb: Sandbox, count: number, external_id_prefix: string) =>
  control<{ created: number; plant_id: string; supplier_plant_id: string | null }>(
    sb,
    'POST',
    '/bulk/supplier-products',
    {
      count,
      external_id_prefix,
    },
  );

export function client(sb: Sandbox, o: Partial<ApiClientOptions> = {}): ApiClient {
  return createApiClient({ baseUrl: sb.baseUrl, apiKey: sb.ownerKey, ...o });
}

export interface Catalog {
  manufacturer_id: string;
  owner_profile_id: string;
  plants: { id: string; external_id: string }[];
  elementaries: { id: string; external_id: string; unit: string }[];
  composites: { id: string; external_id: string }[];
  products: { id: string; external_id: string }[];
}
export const catalog = (sb: Sandbox) => control<Catalog>(sb, 'GET', '/catalog');

/** A supplier company and plant to hang supplier products on. */
export async function supplierBase(c: ApiClient, tag: string): Promise<{ companyId: string; supplierPlantId: string }> {
  const company = await c.supplierCompanies.create({
    external_id: `SC-${tag}`,
    name: `Supplier ${tag}`,
    country: 'DE',
  });
  const plant = await c.supplierPlants.create({
    external_id: `SPL-${tag}`,
    name: `Supplier plant ${tag}`,
    supplier_company_id: company.entity.id,
    country: 'DE',
    city: 'Ulm',
  });
  return { companyId: company.entity.id, supplierPlantId: plant.entity.id };
}

/** Run `fn` over items with at most `n` at a time. */
export async function pool<T, R>(items: readonly T[], n: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      for (;;) {
        const i = next++;
        if (i >= items.length) return;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}
