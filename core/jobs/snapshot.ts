/**
 * The hidden `_snapshot` column of exported rows: a hash of the service entity as it was at export. On
 * re-import, a row whose entity hashes differently now (or is gone) is a `conflict` instead of being diffed
 * silently against data the user never saw. The export (CLI/UI) and the planner call the same function.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../api/idempotency.js';
import { componentKey } from './diff.js';
import { CONTENT_FIELDS } from './entities.js';
import type { EntityKind } from './types.js';

/** The content fields of each kind are a column of the entity table (jobs/entities.ts). */
export { CONTENT_FIELDS };

/** Header of the hidden snapshot column in exported sheets. */
export const SNAPSHOT_COLUMN = '_snapshot';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : String(v));

/** Content of an entity in a stable form: only content fields, arrays in a canonical order, ids lower-case. */
export function entityContent(kind: EntityKind, entity: unknown): unknown {
  if (kind === 'production') {
    const figs = isObj(entity) && Array.isArray(entity.production_figures) ? entity.production_figures : [];
    return (figs as Obj[])
      .map((f) => ({ year: f.year, quantity: f.quantity }))
      .sort((a, b) => Number(a.year) - Number(b.year));
  }
  if (kind === 'bom') {
    const comps = Array.isArray(entity) ? entity : isObj(entity) && Array.isArray(entity.bom) ? entity.bom : [];
    return (comps as Obj[])
      .map((c) => ({ type: c.type, ref: str(c.ref), mass_kg: c.mass_kg }))
      .sort((a, b) =>
        componentKey(a as { type: string; ref: string }) < componentKey(b as { type: string; ref: string }) ? -1 : 1,
      );
  }
  const e = isObj(entity) ? entity : {};
  const out: Obj = {};
  for (const f of CONTENT_FIELDS[kind]) {
    let v = e[f] ?? null;
    if (f === 'hazardous_substances' && Array.isArray(v)) {
      v = (v as Obj[])
        .map((h) => ({ cas_number: h.cas_number, mass_share: h.mass_share }))
        .sort((a, b) => (String(a.cas_number) < String(b.cas_number) ? -1 : 1));
      if ((v as unknown[]).length === 0) v = null;
    } else if (f === 'items' && Array.isArray(v)) {
      v = (v as Obj[])
        .map((it) => ({
          supplier_product_id: str(it.supplier_product_id),
          annual_items: (Array.isArray(it.annual_items) ? (it.annual_items as Obj[]) : [])
            .map((a) => ({ year: a.year, amount: a.amount }))
            .sort((a, b) => Number(a.year) - Number(b.year)),
        }))
        .sort((a, b) => (a.supplier_product_id < b.supplier_product_id ? -1 : 1));
    } else if (f === 'transport_route' && isObj(v)) {
      const route: Obj = {};
      for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) route[k] = x;
      v = Object.keys(route).length ? route : null;
    } else if (f === 'material_type' && isObj(v)) {
      v = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k.endsWith('_id') ? str(x) : x]));
    } else if (typeof v === 'string' && f.endsWith('_id') && f !== 'external_id') {
      v = v.toLowerCase();
    }
    out[f] = v;
  }
  return out;
}

/** `s1-` + 20 hex digits of SHA-256 over the canonical content. Equal content → equal snapshot. */
export function snapshotOf(kind: EntityKind, entity: unknown): string {
  const h = createHash('sha256')
    .update(`${kind}\n${canonicalJson(entityContent(kind, entity))}`)
    .digest('hex');
  return `s1-${h.slice(0, 20)}`;
}
