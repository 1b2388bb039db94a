/**
 * Read a collection from the service and turn it into rows of the workbook format: codes instead of ids
 * (plant_code, material_code, supplier_company_external_id, …), resolved from one walk per referenced
 * collection — never one request per row (the BOM export needs one GET per instance: there is no BOM list).
 */
import type { ApiClient, BomEntry, Composite, Elementary, Plant, Product } from '../api/index.js';
import { ApiError } from '../api/errors.js';
import { TRANSPORT_MODALITIES } from '../spec/constants.js';
import { EXPORT_COLLECTIONS, type ExportCollection, type ExportSelection } from '../names.js';
import { ENTITIES, ENTITY_SHEETS, RESOURCE as KIND_RESOURCE, type EntityOfSheet } from '../jobs/entities.js';
import type { IdentifiedKind } from '../jobs/types.js';
import type { DataSheetName, EntitySheetName, PRODUCTS_SHEET, RowValues } from '../workbook/types.js';
import { SNAPSHOT_COLUMN, snapshotOf } from '../jobs/snapshot.js';

/** `all` (ExportSelection): every collection in one workbook, in onboarding order. */
export { EXPORT_COLLECTIONS, type ExportCollection, type ExportSelection };

/** Sheet written for an export: a data sheet of the format (not the mapping sheets), or the `products` reference sheet. */
export type ExportSheetName = typeof PRODUCTS_SHEET | Exclude<DataSheetName, 'plants' | 'materials'>;

export interface ExportSheet {
  name: ExportSheetName;
  /** Field → value, in the template's fields; `_snapshot` where the sheet carries one. */
  rows: RowValues[];
}

export interface ExportData {
  collections: ExportCollection[];
  sheets: ExportSheet[];
  /** What could not be expressed in the format (entity without external_id, reference without code, …). */
  warnings: string[];
  /** Entities read per collection. */
  counts: Partial<Record<ExportCollection, number>>;
  requests: number;
}

export interface ExportProgress {
  collection: ExportCollection;
  /** Entities of this collection read so far. */
  done: number;
}

export interface CollectOptions {
  signal?: AbortSignal;
  onProgress?: (p: ExportProgress) => void;
  /** Parallel BOM reads (default 8; the client's limiter caps them anyway). */
  bomConcurrency?: number;
}

/** Which sheets each collection fills (silos bring their items, supplier products their hazardous substances). */
export const SHEETS_OF: Record<ExportCollection, ExportSheetName[]> = {
  products: ['products'],
  // Every other collection is a kind of the entity table, named by its sheet, with the kind's child sheets.
  ...(Object.fromEntries(Object.values(ENTITIES).map((e) => [e.sheet, [e.sheet, ...e.childSheets]])) as Record<
    Exclude<ExportCollection, 'products'>,
    ExportSheetName[]
  >),
};

export function isExportSelection(s: string): s is ExportSelection {
  return s === 'all' || (EXPORT_COLLECTIONS as readonly string[]).includes(s);
}

type Codes = Map<string, string | null>;

function setIf(row: RowValues, field: string, v: unknown): void {
  if (typeof v === 'number' && Number.isFinite(v)) row[field] = v;
  else if (typeof v === 'string' && v.trim() !== '') row[field] = v;
}

function km(route: unknown, row: RowValues): void {
  if (route === null || typeof route !== 'object') return;
  const r = route as Record<string, unknown>;
  for (const f of TRANSPORT_MODALITIES) setIf(row, f, r[f]);
}

/** Run `fn` over `items` with at most `n` in flight. */
async function pool<T>(items: readonly T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
}

/** What each walk key reads: the collections, and the catalogs their codes come from. */
type Walked = { [S in EntitySheetName]: EntityOfSheet<S> } & {
  products: Product;
  plants: Plant;
  elementaries: Elementary;
  composites: Composite;
};
type WalkKey = keyof Walked;
type Walkable<T> = { walk(q?: object, c?: { signal?: AbortSignal }): AsyncIterable<T> };

const RESOURCE: { [K in WalkKey]: (c: ApiClient) => Walkable<Walked[K]> } = {
  products: (c) => c.products,
  // The entity sheets: through their kind's client resource (the entity table).
  ...(Object.fromEntries(
    (Object.entries(ENTITY_SHEETS) as [EntitySheetName, IdentifiedKind][]).map(([sheet, kind]) => [
      sheet,
      (c: ApiClient) => c[KIND_RESOURCE[kind]],
    ]),
  ) as unknown as { [K in EntitySheetName]: (c: ApiClient) => Walkable<Walked[K]> }),
  plants: (c) => c.plants,
  elementaries: (c) => c.elementaries,
  composites: (c) => c.composites,
};

/** Where a reference's code is looked up: a walked collection, or `materials` (elementaries + composites). */
type CodeSource = Exclude<WalkKey, 'elementaries' | 'composites'> | 'materials';

interface FillContext {
  /** The code of entity `id` of `source`; undefined (counted for a warning) when it has none or is not found. */
  ref(source: CodeSource, id: unknown, what: string): string | undefined;
  /** Every code of `source` by id (e.g. to sort by them). */
  codes(source: CodeSource): Codes;
  /** Adds a row to another sheet of this collection (hazardous-substances, silo-items). */
  add(sheet: ExportSheetName, row: RowValues): void;
}

/** One collection written to its sheet: walked, sorted by external_id, one row each. */
interface SheetMapping<T> {
  /** Code sources the rows refer to, walked alongside the collection (once per export). */
  refs: readonly CodeSource[];
  /** Sets the row's fields after external_id. */
  fill(row: RowValues, e: T, x: FillContext): void;
  /** A warning about what the sheets cannot hold, from the entities written. */
  note?(written: readonly T[]): string | undefined;
}

type SheetCollection = Exclude<ExportCollection, 'bom' | 'production'>;

const MAPPINGS: { [C in SheetCollection]: SheetMapping<Walked[C]> } = {
  products: {
    refs: [],
    fill(row, p) {
      setIf(row, 'name', p.name);
      setIf(row, 'unit', p.unit);
      setIf(row, 'description', p.description);
      row.id = p.id;
    },
  },
  'supplier-companies': {
    refs: [],
    fill(row, e) {
      setIf(row, 'name', e.name);
      setIf(row, 'country', e.country);
    },
  },
  'supplier-plants': {
    refs: ['supplier-companies'],
    fill(row, e, x) {
      setIf(row, 'name', e.name);
      setIf(
        row,
        'supplier_company_external_id',
        x.ref('supplier-companies', e.supplier_company_id, 'supplier company'),
      );
      setIf(row, 'country', e.country);
      setIf(row, 'city', e.city);
    },
  },
  'supplier-products': {
    refs: ['plants', 'materials', 'supplier-plants'],
    fill(row, e, x) {
      setIf(row, 'name', e.name);
      setIf(row, 'plant_code', x.ref('plants', e.plant_id, 'plant'));
      const mt = e.material_type as Record<string, unknown>;
      setIf(
        row,
        'material_code',
        x.ref('materials', mt.category === 'composite' ? mt.composite_id : mt.elementary_id, 'material type'),
      );
      setIf(row, 'supplier_plant_external_id', x.ref('supplier-plants', e.supplier_plant_id, 'supplier plant'));
      setIf(row, 'unit', e.unit);
      km(e.transport_route, row);
      setIf(row, 'epd_id', e.epd_id);
      setIf(row, 'lifetime_years', e.lifetime_years);
      setIf(row, 'secondary_percentage', e.secondary_percentage);
      setIf(row, 'moisture_content_percentage', e.moisture_content_percentage);
      for (const h of e.hazardous_substances ?? []) {
        const hr: RowValues = { supplier_product_external_id: row.external_id };
        setIf(hr, 'cas_number', h.cas_number);
        setIf(hr, 'mass_share', h.mass_share);
        x.add('hazardous-substances', hr);
      }
    },
  },
  silos: {
    refs: ['plants', 'supplier-products'],
    fill(row, e, x) {
      setIf(row, 'name', e.name);
      setIf(row, 'plant_code', x.ref('plants', e.plant_id, 'plant'));
      const products = x.codes('supplier-products');
      const items = [...e.items].sort((a, b) =>
        cmp(products.get(a.supplier_product_id) ?? '', products.get(b.supplier_product_id) ?? ''),
      );
      for (const it of items) {
        const sp = x.ref('supplier-products', it.supplier_product_id, 'supplier product');
        for (const ai of [...it.annual_items].sort((a, b) => a.year - b.year)) {
          const ir: RowValues = { silo_external_id: row.external_id };
          setIf(ir, 'supplier_product_external_id', sp);
          setIf(ir, 'year', ai.year);
          setIf(ir, 'amount', ai.amount);
          x.add('silo-items', ir);
        }
      }
    },
    note(written) {
      const n = written.reduce((k, e) => k + e.items.filter((it) => it.annual_items.length === 0).length, 0);
      return n > 0
        ? `${n} silo item(s) have no yearly amounts: the silo-items sheet has one row per year, so they are not listed.`
        : undefined;
    },
  },
  'product-instances': {
    refs: ['plants', 'products'],
    fill(row, e, x) {
      setIf(row, 'product_external_id', x.ref('products', e.product_id, 'product (article number)'));
      setIf(row, 'plant_code', x.ref('plants', e.plant_id, 'plant'));
      setIf(row, 'produced_from', e.produced_from);
      setIf(row, 'produced_to', e.produced_to);
      setIf(row, 'name', e.name);
    },
  },
  'prechain-products': {
    refs: ['plants', 'product-instances'],
    fill(row, e, x) {
      setIf(row, 'product_instance_external_id', x.ref('product-instances', e.product_instance_id, 'product instance'));
      setIf(row, 'plant_code', x.ref('plants', e.plant_id, 'plant'));
      km(e.transport_route, row);
    },
  },
};

export async function collectExport(
  client: ApiClient,
  selection: ExportSelection,
  o: CollectOptions = {},
): Promise<ExportData> {
  const collections: ExportCollection[] = selection === 'all' ? [...EXPORT_COLLECTIONS] : [selection];
  const signal = o.signal;
  const warnings: string[] = [];
  const counts: Partial<Record<ExportCollection, number>> = {};
  const requestsBefore = client.stats().requests;

  // One walk per collection, shared by the sheets that need it.
  const walks = new Map<string, Promise<unknown[]>>();
  const walk = <K extends WalkKey>(key: K, progress?: ExportCollection): Promise<Walked[K][]> => {
    let p = walks.get(key) as Promise<Walked[K][]> | undefined;
    if (!p) {
      p = (async () => {
        const out: Walked[K][] = [];
        for await (const e of RESOURCE[key](client).walk({}, { signal })) {
          out.push(e);
          if (progress && out.length % 200 === 0) o.onProgress?.({ collection: progress, done: out.length });
        }
        if (progress) o.onProgress?.({ collection: progress, done: out.length });
        return out;
      })();
      walks.set(key, p as Promise<unknown[]>);
    }
    return p;
  };
  const codesOf = async (key: WalkKey): Promise<Codes> => {
    const m: Codes = new Map();
    for (const e of await walk(key)) m.set(e.id, e.external_id ?? null);
    return m;
  };
  const codesOfSource = async (source: CodeSource): Promise<Codes> => {
    if (source !== 'materials') return codesOf(source);
    const [el, co] = await Promise.all([codesOf('elementaries'), codesOf('composites')]);
    return new Map([...el, ...co]);
  };

  const missingRef = new Map<string, number>();
  const ref = (codes: Codes, id: unknown, what: string): string | undefined => {
    if (typeof id !== 'string' || id === '') return undefined;
    const c = codes.get(id);
    if (c) return c;
    const key = c === null ? `${what} without external_id` : `${what} not found`;
    missingRef.set(key, (missingRef.get(key) ?? 0) + 1);
    return undefined;
  };
  const skipped = new Map<ExportCollection, number>();
  const skip = (c: ExportCollection) => skipped.set(c, (skipped.get(c) ?? 0) + 1);

  const sheets = new Map<ExportSheetName, RowValues[]>();
  const sheet = (n: ExportSheetName) => {
    let rows = sheets.get(n);
    if (!rows) sheets.set(n, (rows = []));
    return rows;
  };
  for (const c of collections) for (const s of SHEETS_OF[c]) sheet(s);

  /** Walk → sort by external_id → leave out rows without one → row → snapshot, as `MAPPINGS[c]` says. */
  const collectSheet = async <C extends SheetCollection>(c: C): Promise<void> => {
    const m: SheetMapping<Walked[C]> = MAPPINGS[c];
    // The snapshot kind of the hidden `_snapshot` column; none for the `products` reference sheet, which keeps
    // rows without external_id (they carry the service id).
    const kind: IdentifiedKind | undefined = c === 'products' ? undefined : ENTITY_SHEETS[c as EntitySheetName];
    const [list, ...refCodes] = await Promise.all([walk(c, c), ...m.refs.map(codesOfSource)]);
    const bySource = new Map(m.refs.map((s, i) => [s, refCodes[i]]));
    const codes = (source: CodeSource): Codes => {
      const found = bySource.get(source);
      if (!found) throw new Error(`export of ${c}: ${source} is not among its references`);
      return found;
    };
    const x: FillContext = {
      ref: (source, id, what) => ref(codes(source), id, what),
      codes,
      add: (n, row) => sheet(n).push(row),
    };
    counts[c] = list.length;
    const written: Walked[C][] = [];
    for (const e of [...list].sort(byCode)) {
      const row: RowValues = {};
      if (kind === undefined) setIf(row, 'external_id', e.external_id);
      else if (e.external_id) row.external_id = e.external_id;
      else {
        skip(c);
        continue;
      }
      m.fill(row, e, x);
      if (kind !== undefined) row[SNAPSHOT_COLUMN] = snapshotOf(kind, e);
      sheet(c).push(row);
      written.push(e);
    }
    const note = m.note?.(written);
    if (note) warnings.push(note);
  };

  const collectBom = async (): Promise<void> => {
    const [instances, supplierProducts, silos, prechain] = await Promise.all([
      walk('product-instances'),
      codesOf('supplier-products'),
      codesOf('silos'),
      codesOf('prechain-products'),
    ]);
    const byType: Record<string, Codes> = {
      supplier_product: supplierProducts,
      silo: silos,
      prechain_product: prechain,
    };
    const withCode = instances.filter((i) => i.external_id);
    const boms = new Map<string, BomEntry[]>();
    let done = 0;
    await pool(withCode, o.bomConcurrency ?? 8, async (inst) => {
      boms.set(inst.id, await client.bom.get(inst.id, { signal }));
      done++;
      if (done % 20 === 0) o.onProgress?.({ collection: 'bom', done });
    });
    o.onProgress?.({ collection: 'bom', done });
    counts.bom = withCode.length;
    const ordered = [...withCode].sort((a, b) => cmp(a.external_id ?? '', b.external_id ?? ''));
    for (const inst of ordered) {
      const bom = boms.get(inst.id) ?? [];
      if (bom.length === 0) continue;
      const snap = snapshotOf('bom', bom);
      const rows = bom.map((b) => {
        const r: RowValues = { product_instance_external_id: inst.external_id as string, component_type: b.type };
        setIf(r, 'component_external_id', ref(byType[b.type] ?? new Map(), b.ref, b.type.replace(/_/g, ' ')));
        r.mass_kg = b.mass_kg;
        r[SNAPSHOT_COLUMN] = snap;
        return r;
      });
      rows.sort((a, b) =>
        cmp(
          `${a.component_type}\u0000${a.component_external_id ?? ''}`,
          `${b.component_type}\u0000${b.component_external_id ?? ''}`,
        ),
      );
      sheet('bom').push(...rows);
    }
    const noCode = instances.length - withCode.length;
    if (noCode > 0)
      warnings.push(
        `${noCode} product instance(s) without external_id: their BOMs cannot be named in the bom sheet and are left out.`,
      );
  };

  /** Production figures per instance (assumed endpoint; a service without it → a warning, no rows). */
  const collectProduction = async (): Promise<void> => {
    const instances = (await walk('product-instances')).filter((i) => i.external_id);
    const figures = new Map<string, { year: number; quantity: number }[]>();
    let unavailable: string | null = null;
    let done = 0;
    await pool(instances, o.bomConcurrency ?? 8, async (inst) => {
      if (unavailable) return;
      try {
        figures.set(inst.id, await client.productionFigures.get(inst.id, { signal }));
      } catch (e) {
        if (
          e instanceof ApiError &&
          (e.err_code === 'client_endpoint_unavailable' || e.classification === 'permission')
        )
          unavailable ??= e.msg;
        else throw e;
      }
      done++;
      if (done % 20 === 0) o.onProgress?.({ collection: 'production', done });
    });
    o.onProgress?.({ collection: 'production', done });
    if (unavailable) {
      warnings.push(`Production figures not exported: ${unavailable}`);
      return;
    }
    counts.production = instances.length;
    for (const inst of [...instances].sort((a, b) => cmp(a.external_id ?? '', b.external_id ?? ''))) {
      for (const f of figures.get(inst.id) ?? [])
        sheet('production').push({
          product_instance_external_id: inst.external_id as string,
          year: f.year,
          quantity: f.quantity,
        });
    }
  };

  for (const c of collections) {
    signal?.throwIfAborted();
    if (c === 'bom') await collectBom();
    else if (c === 'production') await collectProduction();
    else await collectSheet(c);
  }

  for (const [c, n] of skipped) {
    warnings.push(
      `${n} ${c.replace(/-/g, ' ')} without external_id left out: the workbook format identifies rows by external_id.`,
    );
  }
  for (const [what, n] of missingRef) {
    warnings.push(`${n} reference(s) to a ${what}: the cell is left blank (fill it in before re-importing).`);
  }

  return {
    collections,
    // The order of the format: onboarding order of the collections, each followed by its extra sheets.
    sheets: EXPORT_COLLECTIONS.flatMap((c) => SHEETS_OF[c])
      .filter((n) => sheets.has(n))
      .map((n) => ({ name: n, rows: sheets.get(n) ?? [] })),
    warnings,
    counts,
    requests: client.stats().requests - requestsBefore,
  };
}

function byCode(a: { external_id?: string | null }, b: { external_id?: string | null }): number {
  return cmp(a.external_id ?? '', b.external_id ?? '');
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
