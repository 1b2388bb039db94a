/**
 * The codes the service knows, for mapping suggestions by values (workbook/column-mapping/suggest.ts): plants,
 * material types (elementaries and composites), products' article numbers, supplier companies, plants and
 * products, silos, product instances and prechain products, each by its `external_id`. Bounded: at most
 * MAX_CODES_PER_KIND codes of a kind (one walk per collection, pages of 200), a collection the key may not read
 * or the service does not have is left out (and named), and the whole fetch stops after FETCH_MS (what arrived
 * is used).
 */
import type { ApiClient } from '../api/index.js';
import type { KnownCodes } from '../workbook/column-mapping/suggest.js';
import type { EntityType } from '../workbook/types.js';

export const MAX_CODES_PER_KIND = 20_000;
export const FETCH_MS = 8_000;

type Walkable = { walk(q: { limit?: number }, o: { signal?: AbortSignal }): AsyncIterable<unknown> };

/** Which collections hold the codes of each kind. */
function collections(client: ApiClient): [EntityType, string, Walkable][] {
  return [
    ['plant', 'plants', client.plants],
    ['material', 'elementaries', client.elementaries],
    ['material', 'composites', client.composites],
    ['product', 'products', client.products],
    ['supplier_company', 'supplier companies', client.supplierCompanies],
    ['supplier_plant', 'supplier plants', client.supplierPlants],
    ['supplier_product', 'supplier products', client.supplierProducts],
    ['silo', 'silos', client.silos],
    ['product_instance', 'product instances', client.productInstances],
    ['prechain_product', 'prechain products', client.prechainProducts],
  ];
}

export interface ServiceCodes {
  codes: KnownCodes;
  /** the collections that could not be read (not readable with the key, not offered, out of time), with why */
  unread: { collection: string; message: string }[];
}

export async function serviceCodes(
  client: ApiClient,
  o: { signal?: AbortSignal; maxPerKind?: number; fetchMs?: number } = {},
): Promise<ServiceCodes> {
  const max = o.maxPerKind ?? MAX_CODES_PER_KIND;
  const timeout = AbortSignal.timeout(o.fetchMs ?? FETCH_MS);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  const out = new Map<EntityType, Set<string>>();
  const unread: ServiceCodes['unread'] = [];
  await Promise.all(
    collections(client).map(async ([kind, collection, resource]) => {
      const set = out.get(kind) ?? new Set<string>();
      out.set(kind, set);
      try {
        for await (const item of resource.walk({ limit: 200 }, { signal })) {
          const code = (item as { external_id?: unknown }).external_id;
          if (typeof code === 'string' && code !== '') set.add(code);
          if (set.size >= max) break;
        }
      } catch (e) {
        // Suggested without them (what arrived of it is used).
        unread.push({ collection, message: e instanceof Error ? e.message : String(e) });
      }
    }),
  );
  o.signal?.throwIfAborted();
  return { codes: Object.fromEntries([...out].filter(([, s]) => s.size > 0)), unread };
}
