/**
 * What still references an entity, per entity type: the one place the sandbox decides whether a DELETE is
 * refused as "in use" (and with which err_code). Each check names the referencing entities (ids, at most a
 * few) so the refusal says what to remove first.
 */
import { ApiFailure } from '../errors.js';
import type { Store } from '../store.js';

/** At most this many referencing ids are named in a refusal's msg. */
const NAMED = 5;

export interface InUse {
  err_code: string;
  /** "supplier plant" etc.: what references the entity. */
  by: string;
  ids: string[];
}

function first<T>(items: Iterable<T>, pick: (t: T) => string | undefined): string[] {
  const out: string[] = [];
  for (const it of items) {
    const id = pick(it);
    if (id !== undefined) out.push(id);
  }
  return out;
}

/** Instance ids whose BOM has the component (type, ref). */
function bomsUsing(store: Store, type: string, ref: string): string[] {
  return first(store.boms, ([instanceId, bom]) =>
    bom.some((c) => c.type === type && c.ref === ref) ? instanceId : undefined,
  );
}

export function supplierProductInSilo(store: Store, id: string): string | undefined {
  for (const silo of store.silos.active()) if (silo.items.some((it) => it.supplier_product_id === id)) return silo.id;
  return undefined;
}

/** The entity types a DELETE exists for, each with its in-use checks in the order they are reported. */
export const IN_USE_CHECKS = {
  'supplier company': (store: Store, id: string): InUse[] => [
    {
      err_code: 'err_supplier_in_use',
      by: 'supplier plant',
      ids: first(store.supplierPlants.active(), (p) => (p.supplier_company_id === id ? p.id : undefined)),
    },
  ],
  'supplier plant': (store: Store, id: string): InUse[] => [
    {
      err_code: 'err_supplier_plant_in_use',
      by: 'supplier product',
      ids: first(store.supplierProducts.active(), (sp) => (sp.supplier_plant_id === id ? sp.id : undefined)),
    },
  ],
  'supplier product': (store: Store, id: string): InUse[] => [
    {
      err_code: 'err_supplier_product_in_recipe',
      by: 'BOM of product instance',
      ids: bomsUsing(store, 'supplier_product', id),
    },
    {
      err_code: 'err_supplier_product_in_silo',
      by: 'silo',
      ids: first(store.silos.active(), (s) => (s.items.some((it) => it.supplier_product_id === id) ? s.id : undefined)),
    },
  ],
  silo: (store: Store, id: string): InUse[] => [
    { err_code: 'err_silo_in_use', by: 'BOM of product instance', ids: bomsUsing(store, 'silo', id) },
  ],
  'product instance': (store: Store, id: string): InUse[] => [
    {
      err_code: 'err_product_instance_in_recipe',
      by: 'prechain product',
      ids: first(store.prechainProducts.active(), (pp) => (pp.product_instance_id === id ? pp.id : undefined)),
    },
  ],
  'prechain product': (store: Store, id: string): InUse[] => [
    {
      err_code: 'err_prechain_product_in_recipe',
      by: 'BOM of product instance',
      ids: bomsUsing(store, 'prechain_product', id),
    },
  ],
} as const satisfies Record<string, (store: Store, id: string) => InUse[]>;

export type DeletableNoun = keyof typeof IN_USE_CHECKS;

/** Throws the first in-use refusal (409 with its err_code) for the entity, naming what references it. */
export function refuseIfInUse(store: Store, noun: DeletableNoun, id: string): void {
  for (const use of IN_USE_CHECKS[noun](store, id)) {
    if (use.ids.length === 0) continue;
    const named = use.ids.slice(0, NAMED).join(', ');
    const more = use.ids.length > NAMED ? ` and ${use.ids.length - NAMED} more` : '';
    throw new ApiFailure(
      409,
      use.err_code,
      `${noun} ${id} is in use by ${use.by} ${named}${more}; remove that reference first`,
    );
  }
}
