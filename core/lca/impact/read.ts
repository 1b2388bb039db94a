/**
 * The service reads the affected set needs (GETs only): the product instances of the key's plants with their
 * BOMs (8 at a time, as the dry run's in-use check reads them), the silos and the prechain products, and the
 * plants' codes. Read only when the plan changes a component a BOM can use; a plan that only replaces BOMs or
 * changes production figures needs none of it.
 */
import { ApiError, type ApiClient } from '../../api/index.js';
import { forEachPooled } from '../../jobs/pool.js';
import type { PlanEntry } from '../../jobs/types.js';
import { changesComponent } from './affected.js';
import type { InstanceBom, ServiceComponents } from './types.js';

const BOM_READS_AT_ONCE = 8;

/** Authentication and the daily limit stop the reads; any other refusal leaves that part unchecked. */
function tolerated(e: unknown): e is ApiError {
  return e instanceof ApiError && e.classification !== 'auth' && e.classification !== 'daily_limit';
}
const words = (e: ApiError) => `${e.err_code}${e.msg ? `: ${e.msg}` : ''}`;

export interface ServiceUses extends ServiceComponents {
  instances: InstanceBom[];
  /** What could not be read, in words. */
  unchecked: string[];
}

/**
 * What the BOMs of the key's plants use, when the plan changes a component or a BOM replace adds one (its
 * contribution per kg is then looked for in other instances' breakdown); else null: nothing is read.
 * The instances' plant codes come with them (unknown when the plants cannot be read).
 */
export async function readServiceUses(
  client: ApiClient,
  entries: Iterable<PlanEntry>,
  o: { signal?: AbortSignal } = {},
): Promise<ServiceUses | null> {
  let needed = false;
  for (const e of entries) if (changesComponent(e) || (e.bomDiff?.added.length ?? 0) > 0) needed = true;
  if (!needed) return null;
  const signal = o.signal;
  const unchecked: string[] = [];
  const plantCodes = new Map<string, string | null>();
  const instances: InstanceBom[] = [];
  const silos: ServiceComponents['silos'] = [];
  const prechainProducts: ServiceComponents['prechainProducts'] = [];
  const guard = async (what: string, read: () => Promise<void>) => {
    try {
      await read();
    } catch (e) {
      if (!tolerated(e)) throw e;
      unchecked.push(`Could not read ${what} (${words(e)}): instances using them may be affected too.`);
    }
  };
  await Promise.all([
    guard('the plants', async () => {
      for await (const p of client.plants.walk({}, { signal }))
        plantCodes.set(p.id.toLowerCase(), p.external_id ?? null);
    }),
    guard('the silos', async () => {
      for await (const s of client.silos.walk({}, { signal }))
        silos.push({
          id: s.id,
          external_id: s.external_id ?? null,
          items: s.items.map((it) => it.supplier_product_id),
        });
    }),
    guard('the prechain products', async () => {
      for await (const p of client.prechainProducts.walk({}, { signal }))
        prechainProducts.push({
          id: p.id,
          external_id: p.external_id ?? null,
          product_instance_id: typeof p.product_instance_id === 'string' ? p.product_instance_id : null,
        });
    }),
    guard('the product instances', async () => {
      for await (const i of client.productInstances.walk({}, { signal }))
        instances.push({ id: i.id, external_id: i.external_id ?? null, plant_id: i.plant_id ?? null, bom: null });
    }),
  ]);
  await forEachPooled(
    instances,
    BOM_READS_AT_ONCE,
    async (i) => {
      try {
        i.bom = (await client.bom.get(i.id, { signal })).map((c) => ({
          type: c.type,
          ref: c.ref.toLowerCase(),
          mass_kg: c.mass_kg,
        }));
      } catch (e) {
        if (!tolerated(e)) throw e;
      }
    },
    () => signal?.aborted === true,
  );
  signal?.throwIfAborted();
  for (const i of instances) i.plant_code = i.plant_id ? (plantCodes.get(i.plant_id.toLowerCase()) ?? null) : null;
  return { instances, silos, prechainProducts, unchecked };
}
