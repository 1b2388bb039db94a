/**
 * The in-use diagnosis of a refused DELETE: which of the service's err_codes are in-use refusals, and what still
 * references the entity (read-only, after the refusal), named in words for the entry's failure message. Not the
 * dry run's in-use check (`plan/in-use.ts`), whose user kinds and words it shares.
 */
import type { ApiClient } from '../api/index.js';
import { userKindsOf, userWords, type UserKind } from './plan/in-use.js';
import type { IdentifiedKind } from './types.js';

/** The spec's in-use refusals of a DELETE. */
export const IN_USE_CODES = new Set([
  'err_supplier_in_use',
  'err_supplier_plant_in_use',
  'err_supplier_product_in_recipe',
  'err_supplier_product_in_silo',
  'err_silo_in_use',
  'err_product_instance_in_recipe',
  'err_product_instance_has_declarations',
  'err_prechain_product_in_recipe',
]);

/** At most this many users are named (and BOMs read) after an in-use refusal. */
const USERS_NAMED = 5;
const BOMS_READ = 200;

/** Which users an in-use refusal is about (the service's err_code), by the kind of user. */
const USERS_OF_REFUSAL: Record<string, UserKind[]> = {
  err_supplier_in_use: ['supplier_plant'],
  err_supplier_plant_in_use: ['supplier_product'],
  err_supplier_product_in_recipe: ['bom'],
  err_supplier_product_in_silo: ['silo'],
  err_silo_in_use: ['bom'],
  err_product_instance_in_recipe: ['prechain_product'],
  err_product_instance_has_declarations: [],
  err_prechain_product_in_recipe: ['bom'],
};

/**
 * What still references an entity, read after an in-use refusal (read-only): the users the refusal's err_code
 * is about (any user of the kind without one) — the supplier plants of a company, the supplier products of a
 * plant, the silos or the BOMs holding a supplier product, the BOMs holding a silo or prechain product, the
 * prechain products of an instance. Words like `silo SILO-1, the BOM of product instance PI-2`; null if none
 * found.
 */
export async function whatUses(
  client: ApiClient,
  kind: IdentifiedKind,
  id: string,
  signal?: AbortSignal,
  errCode?: string,
): Promise<string | null> {
  const names: string[] = [];
  const same = (v: unknown) => typeof v === 'string' && v.toLowerCase() === id.toLowerCase();
  const label = (x: { id: string; external_id?: string | null; name?: string | null }) =>
    x.name ? `"${x.name}" (${x.id})` : x.id;
  const collect = async <T extends { id: string; external_id?: string | null; name?: string | null }>(
    items: AsyncIterable<T>,
    user: UserKind,
    hit: (x: T) => boolean,
  ) => {
    for await (const x of items) {
      if (names.length >= USERS_NAMED) break;
      if (hit(x)) names.push(userWords(user, x.external_id, label(x)));
    }
  };
  const o = { signal };
  const about = new Set<UserKind>((errCode !== undefined && USERS_OF_REFUSAL[errCode]) || userKindsOf(kind));
  if (about.has('supplier_plant'))
    await collect(client.supplierPlants.walk({}, o), 'supplier_plant', (p) => same(p.supplier_company_id));
  if (about.has('supplier_product'))
    await collect(client.supplierProducts.walk({}, o), 'supplier_product', (p) => same(p.supplier_plant_id));
  if (about.has('silo'))
    await collect(client.silos.walk({}, o), 'silo', (s) => (s.items ?? []).some((it) => same(it.supplier_product_id)));
  if (about.has('prechain_product'))
    await collect(client.prechainProducts.walk({}, o), 'prechain_product', (p) => same(p.product_instance_id));
  if (about.has('bom')) {
    let read = 0;
    for await (const inst of client.productInstances.walk({}, o)) {
      if (names.length >= USERS_NAMED || read++ >= BOMS_READ) break;
      const bom = await client.bom.get(inst.id, o);
      if (bom.some((c) => same(c.ref))) names.push(userWords('bom', inst.external_id, label(inst)));
    }
  }
  return names.length ? names.join(', ') : null;
}
