/**
 * Field-level comparison of what a row wants with what the service holds. Only fields the row sets take
 * part (blank = not set, never erases); `#CLEAR` (null) asks for a value to be removed. Values that take the
 * id of an entity created earlier in the same job are `Pending` markers: they always differ.
 */
import { TRANSPORT_MODALITIES } from '../spec/constants.js';
import { bomKey } from '../spec/rules.js';
import type { BomDiff, FieldChange, RefSlot } from './types.js';

/** Stand-in for the id of an entity created earlier in this job. */
export interface Pending {
  $pending: string;
  code: string;
}
export const pending = (key: string, code: string): Pending => ({ $pending: key, code });
export const isPending = (v: unknown): v is Pending => v !== null && typeof v === 'object' && '$pending' in v;

type Obj = Record<string, unknown>;

/** The spec's BOM identity (rules.ts bomKey) for components read back as plain strings. */
export const componentKey = (c: { type: string; ref: string }): string => bomKey(c as Parameters<typeof bomKey>[0]);
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function sameScalar(a: unknown, b: unknown): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (isPending(a) || isPending(b)) return false;
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (typeof a === 'string' && typeof b === 'string') {
    const x = a.trim();
    const y = b.trim();
    return UUID.test(x) && UUID.test(y) ? x.toLowerCase() === y.toLowerCase() : x === y;
  }
  if (isObj(a) && isObj(b)) return sameKeyed(a, b);
  return a === b;
}

/** Replace Pending markers by null and list where they were. */
export function extractRefs(body: Obj): { body: Obj; refs: RefSlot[] } {
  const refs: RefSlot[] = [];
  const walk = (v: unknown, path: (string | number)[]): unknown => {
    if (isPending(v)) {
      refs.push({ path, key: v.$pending, code: v.code });
      return null;
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
    return v;
  };
  return { body: walk(body, []) as Obj, refs };
}

/** Put ids into the places listed by refs (a copy; `$id` slots are not part of the body). */
export function fillRefs(body: Obj, refs: readonly RefSlot[], idOf: (key: string) => string | undefined): Obj {
  const out = structuredClone(body);
  for (const r of refs) {
    if (r.path[0] === '$id') continue;
    const id = idOf(r.key);
    if (id === undefined) throw new Error(`no id for ${r.key} (${r.code})`);
    let cur: unknown = out;
    for (let i = 0; i < r.path.length - 1; i++) cur = (cur as Record<string | number, unknown>)[r.path[i]];
    (cur as Record<string | number, unknown>)[r.path[r.path.length - 1]] = id;
  }
  return out;
}

/** A value as people should see it: codes instead of ids where known, "(after create of X)" for pending. */
export function display(v: unknown, codeOfId: (id: string) => string | undefined): unknown {
  if (isPending(v)) return `(after create of ${v.code})`;
  if (typeof v === 'string' && UUID.test(v)) return codeOfId(v.toLowerCase()) ?? v;
  if (Array.isArray(v)) return v.map((x) => display(x, codeOfId));
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, display(x, codeOfId)]));
  return v;
}

/** The route a row asks for: the service's route with the row's modalities applied (null = removed). */
export function mergeRoute(current: unknown, wanted: Partial<Record<string, number | null>>): Obj | null {
  const out: Obj = {};
  if (isObj(current))
    for (const k in current) {
      const v = current[k];
      if (v !== null && v !== undefined && Object.hasOwn(current, k)) out[k] = v;
    }
  for (const m of TRANSPORT_MODALITIES) {
    const w = wanted[m];
    if (w === undefined) continue;
    if (w === null) delete out[m];
    else out[m] = w;
  }
  return hasKeys(out) ? out : null;
}

/** Whether an object has an own enumerable key (without listing them). */
export function hasKeys(o: object): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return true;
  return false;
}

/** No change: one list for every comparison that finds none (never added to). */
const NO_CHANGES: FieldChange[] = Object.freeze([]) as unknown as FieldChange[];

export function routeChanges(current: unknown, next: Obj | null): FieldChange[] {
  const cur = isObj(current) ? current : {};
  const nxt = next ?? {};
  // Nearly every route of a re-sync is unchanged: that is found without listing and sorting the keys.
  if (sameKeyed(cur, nxt)) return NO_CHANGES;
  const keys = new Set([...Object.keys(cur), ...Object.keys(nxt)]);
  const out: FieldChange[] = [];
  for (const k of [...keys].sort()) {
    if (!sameScalar(cur[k], nxt[k]))
      out.push({ field: `transport_route.${k}`, before: cur[k] ?? null, after: nxt[k] ?? null });
  }
  return out;
}

/** Whether every key of either object holds the same scalar in both (sameScalar). */
function sameKeyed(a: Obj, b: Obj): boolean {
  for (const k in a) if (Object.hasOwn(a, k) && !sameScalar(a[k], b[k])) return false;
  for (const k in b) if (Object.hasOwn(b, k) && !Object.hasOwn(a, k) && !sameScalar(undefined, b[k])) return false;
  return true;
}

export interface Hazard {
  cas_number: string;
  mass_share: number;
}
export function hazardChanges(current: unknown, next: readonly Hazard[]): FieldChange[] {
  const cur = new Map<string, unknown>();
  if (Array.isArray(current)) for (const h of current as Obj[]) cur.set(String(h.cas_number), h.mass_share);
  const nxt = new Map(next.map((h) => [h.cas_number, h.mass_share]));
  const out: FieldChange[] = [];
  for (const cas of [...new Set([...cur.keys(), ...nxt.keys()])].sort()) {
    if (!sameScalar(cur.get(cas), nxt.get(cas)))
      out.push({
        field: `hazardous_substances[${cas}].mass_share`,
        before: cur.get(cas) ?? null,
        after: nxt.get(cas) ?? null,
      });
  }
  return out;
}

export interface SiloItemWanted {
  /** Id, or Pending for a supplier product created in this job. */
  supplier_product_id: string | Pending;
  code: string;
  annual_items: { year: number; amount: number }[];
}
/** Per supplier product and year: `items[SP-1][2025]` amount before → after. */
export function siloItemChanges(
  current: unknown,
  next: readonly SiloItemWanted[],
  codeOfId: (id: string) => string | undefined,
): FieldChange[] {
  const out: FieldChange[] = [];
  const cur = new Map<string, Map<number, number>>();
  if (Array.isArray(current)) {
    for (const it of current as Obj[]) {
      const years = new Map<number, number>();
      for (const a of (Array.isArray(it.annual_items) ? it.annual_items : []) as Obj[])
        years.set(Number(a.year), Number(a.amount));
      cur.set(String(it.supplier_product_id).toLowerCase(), years);
    }
  }
  const seen = new Set<string>();
  for (const it of next) {
    const id = isPending(it.supplier_product_id) ? null : it.supplier_product_id.toLowerCase();
    if (id) seen.add(id);
    const before = id ? cur.get(id) : undefined;
    const years = new Set([...(before?.keys() ?? []), ...it.annual_items.map((a) => a.year)]);
    const after = new Map(it.annual_items.map((a) => [a.year, a.amount]));
    for (const y of [...years].sort((a, b) => a - b)) {
      const b = before?.get(y);
      const a = after.get(y);
      if (!sameScalar(b, a)) out.push({ field: `items[${it.code}][${y}]`, before: b ?? null, after: a ?? null });
    }
  }
  for (const [id, years] of cur) {
    if (seen.has(id)) continue;
    const code = codeOfId(id) ?? id;
    for (const [y, amount] of [...years].sort((a, b) => a[0] - b[0]))
      out.push({ field: `items[${code}][${y}]`, before: amount, after: null });
  }
  return out;
}

export interface BomWanted {
  type: string;
  ref: string | Pending;
  code: string;
  mass_kg: number;
}
export function bomDiff(
  current: readonly { type: string; ref: string; mass_kg: number }[],
  next: readonly BomWanted[],
  codeOfId: (id: string) => string | undefined,
): BomDiff {
  const cur = new Map(current.map((c) => [componentKey(c), c]));
  const diff: BomDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  const kept = new Set<string>();
  for (const c of next) {
    if (isPending(c.ref)) {
      diff.added.push({ type: c.type, code: c.code, mass_kg: c.mass_kg });
      continue;
    }
    const k = componentKey({ type: c.type, ref: c.ref });
    const was = cur.get(k);
    if (!was) diff.added.push({ type: c.type, code: c.code, mass_kg: c.mass_kg });
    else {
      kept.add(k);
      if (sameScalar(was.mass_kg, c.mass_kg)) diff.unchanged++;
      else diff.changed.push({ type: c.type, code: c.code, before: was.mass_kg, after: c.mass_kg });
    }
  }
  for (const [k, c] of cur) {
    if (!kept.has(k))
      diff.removed.push({ type: c.type, code: codeOfId(c.ref.toLowerCase()) ?? c.ref, mass_kg: c.mass_kg });
  }
  return diff;
}
