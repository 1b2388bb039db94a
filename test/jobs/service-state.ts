/**
 * The whole service state of the manufacturer as a test compares it: every entity of every kind, every BOM and
 * the production figures of every instance. Ids are replaced by the external_id of the entity they name (a
 * re-created entity has a new id), timestamps and computed impacts left out, lists in code order.
 */
import type { ApiClient } from '../../core/api/index.js';
import { fullWorkbook, type Catalog, type SheetData } from './helpers.js';

type Obj = Record<string, unknown>;
const KINDS = [
  'supplierCompanies',
  'supplierPlants',
  'supplierProducts',
  'silos',
  'productInstances',
  'prechainProducts',
] as const;

export async function serviceState(client: ApiClient): Promise<Record<string, Obj[]>> {
  const lists: Record<string, Obj[]> = {};
  const codeOf = new Map<string, string>();
  for (const k of KINDS) {
    const all: Obj[] = [];
    for await (const x of (client[k] as unknown as { walk(): AsyncIterable<Obj> }).walk()) all.push(x);
    lists[k] = all;
    for (const x of all) codeOf.set(String(x.id).toLowerCase(), `#${String(x.external_id)}`);
  }
  const boms: Obj[] = [];
  const production: Obj[] = [];
  for (const inst of lists.productInstances) {
    boms.push({ instance: inst.external_id, bom: await client.bom.get(String(inst.id)) });
    production.push({ instance: inst.external_id, figures: await client.productionFigures.get(String(inst.id)) });
  }
  const norm = (v: unknown): unknown => {
    if (typeof v === 'string') return codeOf.get(v.toLowerCase()) ?? v;
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => k !== 'id' && !k.endsWith('_at') && !k.includes('impacts_per_kg'))
          .map(([k, x]) => [k, norm(x)]),
      );
    return v;
  };
  const key = (o: Obj) => JSON.stringify(o.external_id ?? o.instance ?? o);
  const out: Record<string, Obj[]> = {};
  for (const [k, all] of Object.entries({ ...lists, boms, production })) {
    const rows = all.map(norm) as Obj[];
    for (const r of rows)
      if (Array.isArray(r.bom))
        r.bom = (r.bom as Obj[]).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    out[k] = rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  return out;
}

/**
 * The full workbook (fullWorkbook) with every code prefixed, and production figures for both
 * instances: a base state with every kind, BOMs of every component type and production figures.
 */
export function seedData(cat: Catalog, prefix: string): SheetData {
  const rename = (v: unknown) => (typeof v === 'string' && /^(SC|SPL|SP|SILO|PI|PC)-\d$/.test(v) ? `${prefix}${v}` : v);
  const data: SheetData = {};
  for (const [sheet, rows] of Object.entries(fullWorkbook(cat)))
    data[sheet as keyof SheetData] = rows.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, rename(v)])),
    );
  data.production = [
    { product_instance_external_id: `${prefix}PI-2`, year: 2023, quantity: 1000 },
    { product_instance_external_id: `${prefix}PI-2`, year: 2024, quantity: 1250.5 },
    { product_instance_external_id: `${prefix}PI-1`, year: 2024, quantity: 400 },
  ];
  return data;
}
