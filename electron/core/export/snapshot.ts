/**
 * The hidden `_snapshot` column of exported rows: a hash of the server entity at export time, so that on
 * re-import a row whose server state changed since the export is reported as a conflict instead of being
 * silently diffed against newer data.
 *
 * What is hashed: the entity's writable fields only (the keys of its create payload, ids as the service holds
 * them) — never derived fields (impacts, created_at, product_instance_ids …) that change without anyone
 * editing the entity. Arrays whose order carries no meaning (silo items and their yearly amounts, hazardous
 * substances, BOM components) are sorted; null, absent and [] are the same; strings are trimmed, UUIDs
 * lower-cased. The export and the planner (electron/core/jobs) call the same functions on the entity as read
 * from the service, so the two can never disagree on the recipe.
 *
 * Which rows carry it: supplier-companies, supplier-plants, supplier-products (covering its hazardous
 * substances), silos (covering its items), product-instances, prechain-products, and every bom row (the hash of
 * the instance's whole BOM, the same value on each row of that instance).
 */
import { createHash } from 'node:crypto';
import {
  PrechainProductCreate,
  ProductInstanceCreate,
  SiloCreate,
  SupplierCompanyCreate,
  SupplierPlantCreate,
  SupplierProductCreate,
} from '../spec/schemas.js';

export const SNAPSHOT_COLUMN = '_snapshot';
const VERSION = 'v1';

export type SnapshotEntityType =
  | 'supplier_company'
  | 'supplier_plant'
  | 'supplier_product'
  | 'silo'
  | 'product_instance'
  | 'prechain_product';

/** Writable fields per entity type: the create payload's keys (so a new writable field is covered at once). */
export const SNAPSHOT_FIELDS: Record<SnapshotEntityType, readonly string[]> = {
  supplier_company: Object.keys(SupplierCompanyCreate.shape),
  supplier_plant: Object.keys(SupplierPlantCreate.shape),
  supplier_product: Object.keys(SupplierProductCreate.shape),
  silo: Object.keys(SiloCreate.shape),
  product_instance: Object.keys(ProductInstanceCreate.shape),
  prechain_product: Object.keys(PrechainProductCreate.shape),
};

/** Data sheet → entity type whose snapshot its rows carry (bom: bomSnapshot). */
export const SNAPSHOT_SHEETS = {
  'supplier-companies': 'supplier_company',
  'supplier-plants': 'supplier_plant',
  'supplier-products': 'supplier_product',
  silos: 'silo',
  'product-instances': 'product_instance',
  'prechain-products': 'prechain_product',
} as const satisfies Record<string, SnapshotEntityType>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The normal form that is hashed (exported for tests and for explaining a conflict). */
export function normalise(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') {
    const t = v.trim();
    return UUID_RE.test(t) ? t.toLowerCase() : t;
  }
  if (typeof v === 'number') return Object.is(v, -0) ? 0 : v;
  if (Array.isArray(v)) {
    if (v.length === 0) return null;
    const items = v.map(normalise);
    // Order carries no meaning in any array of a writable field: sort by canonical text.
    return items.map((x) => [JSON.stringify(x), x] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, x]) => x);
  }
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o).sort()) {
      const n = normalise(o[k]);
      if (n !== null) out[k] = n;
    }
    return Object.keys(out).length === 0 ? null : out;
  }
  return v;
}

function digest(kind: string, value: unknown): string {
  const h = createHash('sha256').update(`supply-loader/snapshot/${VERSION}\n${kind}\n${JSON.stringify(value)}`).digest('hex');
  return `${VERSION}:${h.slice(0, 32)}`;
}

/** Snapshot of one entity as the service returns it (unknown and derived fields are ignored). */
export function entitySnapshot(type: SnapshotEntityType, entity: Record<string, unknown>): string {
  const picked: Record<string, unknown> = {};
  for (const f of SNAPSHOT_FIELDS[type]) picked[f] = normalise(entity[f]);
  return digest(type, picked);
}

/** Snapshot of an instance's whole BOM (components compared as a set of {type, ref, mass_kg}). */
export function bomSnapshot(components: readonly { type: string; ref: string; mass_kg: number }[]): string {
  return digest(
    'bom',
    normalise(components.map((c) => ({ type: c.type, ref: c.ref, mass_kg: c.mass_kg }))) ?? [],
  );
}

/** True when a cell value looks like a snapshot this version wrote. */
export function isSnapshot(value: unknown): value is string {
  return typeof value === 'string' && /^v1:[0-9a-f]{32}$/.test(value);
}
