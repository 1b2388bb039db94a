/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies under test are plain JSON */
/** Test helpers for the sandbox conformance suite: a started sandbox and small HTTP wrappers (undici). */
import { request } from 'undici';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/index.js';

export const ALLOWED_STATUSES = new Set([200, 201, 401, 403, 409, 422, 500]);

export interface Res<T = any> {
  status: number;
  body: T;
  text: string;
}

export interface Sandbox extends RunningSandbox {
  /** Call /v2 with the owner key unless `key` is given (null = no key header). */
  api<T = any>(
    method: string,
    path: string,
    o?: { key?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Res<T>>;
  control<T = any>(method: string, path: string, body?: unknown): Promise<Res<T>>;
  /** A new key (its own member unless owner_profile_id is given). */
  key(o: {
    scopes: string[];
    plant_ids?: string[] | null;
    expires_at?: string;
    legacy?: boolean;
    owner_profile_id?: string;
  }): Promise<{
    key: string;
    api_key_id: string;
    owner_profile_id: string;
  }>;
  catalog(): Promise<Catalog>;
}

export interface Catalog {
  manufacturer_id: string;
  owner_profile_id: string;
  plants: { id: string; external_id: string; name: string }[];
  elementaries: { id: string; external_id: string; name: string; unit: string }[];
  composites: { id: string; external_id: string; name: string; parts: { elementary_id: string; share: number }[] }[];
  products: { id: string; external_id: string; name: string; unit: string }[];
}

async function call(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Res> {
  const hasBody = body !== undefined;
  const r = await request(baseUrl + path, {
    method: method as 'GET',
    headers: hasBody ? { 'content-type': 'application/json', ...headers } : headers,
    body: hasBody ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined,
  });
  const text = await r.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: r.statusCode, body: parsed, text };
}

export async function sandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox({ port: 0, ...opts });
  return wrap(sb);
}

export function wrap(sb: RunningSandbox): Sandbox {
  return {
    ...sb,
    api(method, path, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      const key = o.key === undefined ? sb.ownerKey : o.key;
      if (key !== null) headers['x-api-key'] = key;
      return call(sb.baseUrl, method, path, headers, o.body);
    },
    control(method, path, body) {
      return call(sb.baseUrl, method, path, {}, body);
    },
    async key(o) {
      const r = await call(sb.baseUrl, 'POST', '/__sandbox/keys', {}, o);
      if (r.status !== 200) throw new Error(`key creation failed: ${r.text}`);
      return r.body;
    },
    async catalog() {
      return (await call(sb.baseUrl, 'GET', '/__sandbox/catalog', {})).body as Catalog;
    },
  };
}

/** Every item of a collection, walking next_cursor; also returns the pages seen. */
export async function walk(sb: Sandbox, path: string, key?: string): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let pages = 0;
  let cursor: string | null = null;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const r: Res = await sb.api('GET', cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path, { key });
    if (r.status !== 200) throw new Error(`walk of ${path} failed: ${r.status} ${r.text}`);
    pages++;
    items.push(...r.body.data);
    cursor = r.body.next_cursor;
  } while (cursor !== null);
  return { items, pages };
}

/** A supplier company + plant and N supplier products at a plant, created through the API. */
export async function supplierSetup(sb: Sandbox, prefix: string) {
  const cat = await sb.catalog();
  const company = await sb.api('POST', '/v2/supplier-companies', {
    body: { external_id: `${prefix}-SC`, name: `${prefix} company`, country: 'DE' },
  });
  const plant = await sb.api('POST', '/v2/supplier-plants', {
    body: {
      external_id: `${prefix}-SPL`,
      name: `${prefix} plant`,
      supplier_company_id: company.body.id,
      country: 'DE',
      city: 'Köln',
    },
  });
  return { cat, companyId: company.body.id as string, supplierPlantId: plant.body.id as string };
}

export function supplierProductBody(o: {
  external_id: string;
  plant_id: string;
  elementary_id: string;
  supplier_plant_id?: string | null;
  [k: string]: unknown;
}): Record<string, unknown> {
  const { elementary_id, ...rest } = o;
  return {
    name: `Product ${o.external_id}`,
    material_type: { category: 'elementary', elementary_id },
    unit: 'KG',
    ...rest,
  };
}
