/**
 * Which product instances an LCA run is about: by instance external_ids, by product article numbers
 * (GET /v2/products?external_id= → product_instance_ids), by plant code (one walk of the instances, filtered by
 * plant), from the `product-instances` sheet of a workbook, or all (one paginated walk).
 *
 * Codes are resolved to ids by cost (the client's resolveExternalIds: per-code GETs for a few, one walk for
 * many). Codes that match nothing are reported, never silently skipped: the CLI stops with exit 2 before
 * anything is written. Only GET requests are sent here.
 */
import {
  ApiError,
  type ApiClient,
  type Plant,
  type Product,
  type ProductInstance,
  type ReadResource,
} from '../api/index.js';
import type { LcaCodeKind } from '../names.js';
import type { DataSheetName, Issue, ParsedSheet, ParsedWorkbook } from '../workbook/types.js';
import type { SelectedInstance } from './model.js';

export type InstanceSelector =
  | { by: 'instances'; externalIds: readonly string[] }
  | { by: 'products'; articles: readonly string[] }
  | { by: 'plant'; plantCodes: readonly string[] }
  | { by: 'all' };

export interface UnknownCodes {
  kind: LcaCodeKind;
  codes: string[];
}

export interface Selection {
  instances: SelectedInstance[];
  /** Codes that matched no active entity (empty when all were found). */
  unknown: UnknownCodes[];
  /** The selection in words, for reports ("products CEM-I, C30/37"). */
  description: string;
  /** Requests sent to select (GETs only). */
  requests: number;
}

export interface SelectOptions {
  signal?: AbortSignal;
  /** Parallel item GETs when a few instances are fetched one by one. Default 8. */
  concurrency?: number;
}

/** When fewer instance ids than this are wanted, GET them one by one instead of walking the collection. */
const ITEM_GETS_MAX = 20;
/** When fewer instances than this need their product, ask per instance instead of walking all products. */
const PRODUCT_FILTER_MAX = 5;

/** Trim, drop empties and duplicates, keep the order given. */
export function cleanCodes(codes: Iterable<string>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of codes) {
    const c = String(raw).trim();
    if (c === '' || seen.has(c)) continue;
    seen.add(c);
    out.push(c);
  }
  return out;
}

export function describeSelector(s: InstanceSelector): string {
  const list = (xs: readonly string[]) =>
    xs.length <= 10 ? xs.join(', ') : `${xs.slice(0, 10).join(', ')} and ${xs.length - 10} more`;
  switch (s.by) {
    case 'instances':
      return `product instances ${list(s.externalIds)}`;
    case 'products':
      return `instances of products ${list(s.articles)}`;
    case 'plant':
      return `instances at plant${s.plantCodes.length > 1 ? 's' : ''} ${list(s.plantCodes)}`;
    case 'all':
      return 'all product instances';
  }
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

function byExternalId(a: ProductInstance, b: ProductInstance): number {
  const ea = a.external_id ?? '';
  const eb = b.external_id ?? '';
  return ea < eb ? -1 : ea > eb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export async function selectInstances(
  client: ApiClient,
  selector: InstanceSelector,
  o: SelectOptions = {},
): Promise<Selection> {
  const { signal } = o;
  const concurrency = o.concurrency ?? 8;
  const before = client.stats().requests;
  const unknown: UnknownCodes[] = [];
  let instances: ProductInstance[] = [];
  /** Products already known from the selection (by id). */
  const productsById = new Map<string, Product>();

  /** The instances with these ids: item GETs for a few, else one walk of the collection. */
  const instancesByIds = async (ids: readonly string[]): Promise<ProductInstance[]> => {
    if (ids.length === 0) return [];
    if (ids.length <= ITEM_GETS_MAX)
      return mapLimited(ids, concurrency, (id) => client.productInstances.get(id, { signal }));
    const wanted = new Set(ids);
    const found = new Map<string, ProductInstance>();
    for await (const pi of client.productInstances.walk({}, { signal })) {
      if (wanted.has(pi.id)) found.set(pi.id, pi);
      if (found.size === wanted.size) break;
    }
    return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
  };

  /** The entities with these codes; the codes not found are listed as unknown. */
  const resolveCodes = async <T>(
    resource: Pick<ReadResource<T>, 'resolveExternalIds'>,
    codes: readonly string[],
    kind: LcaCodeKind,
  ): Promise<Map<string, T>> => {
    const found = await resource.resolveExternalIds(codes, { signal });
    const missing = codes.filter((c) => !found.has(c));
    if (missing.length) unknown.push({ kind, codes: missing });
    return found;
  };

  switch (selector.by) {
    case 'instances': {
      const codes = cleanCodes(selector.externalIds);
      const found = await resolveCodes(client.productInstances, codes, 'instance');
      instances = codes.flatMap((c) => (found.has(c) ? [found.get(c)!] : []));
      break;
    }
    case 'products': {
      const articles = cleanCodes(selector.articles);
      const found = await resolveCodes(client.products, articles, 'product');
      const ids: string[] = [];
      for (const a of articles) {
        const p = found.get(a);
        if (!p) continue;
        productsById.set(p.id, p);
        ids.push(...p.product_instance_ids);
      }
      const got = await instancesByIds(cleanCodes(ids));
      // Per product in the order given, its instances by external_id.
      const order = new Map(articles.map((a, i) => [found.get(a)?.id ?? '', i]));
      instances = got.sort(
        (a, b) => (order.get(a.product_id ?? '') ?? 0) - (order.get(b.product_id ?? '') ?? 0) || byExternalId(a, b),
      );
      break;
    }
    case 'plant': {
      const codes = cleanCodes(selector.plantCodes);
      const found = await resolveCodes(client.plants, codes, 'plant');
      const plantIds = new Set([...found.values()].map((p) => p.id));
      if (plantIds.size > 0) {
        // The spec gives product instances no plant filter: one walk, filtered here.
        for await (const pi of client.productInstances.walk({}, { signal }))
          if (pi.plant_id && plantIds.has(pi.plant_id)) instances.push(pi);
      }
      instances.sort(byExternalId);
      break;
    }
    case 'all': {
      instances = (await collect(client.productInstances.walk({}, { signal }))).sort(byExternalId);
      break;
    }
  }

  // de-duplicate (an instance reached twice keeps its first place)
  const seen = new Set<string>();
  instances = instances.filter((i) => (seen.has(i.id) ? false : (seen.add(i.id), true)));

  const selected = await enrich(client, instances, productsById, { signal, concurrency });
  return {
    instances: selected,
    unknown,
    description: describeSelector(selector),
    requests: client.stats().requests - before,
  };
}

/** Add plant codes and product article numbers/names (what the sheets show) to the instances. */
async function enrich(
  client: ApiClient,
  instances: readonly ProductInstance[],
  productsById: Map<string, Product>,
  o: { signal?: AbortSignal; concurrency: number },
): Promise<SelectedInstance[]> {
  const { signal } = o;
  if (instances.length === 0) return [];
  // Plant codes are for display: a key without view:plants still gets its LCA, with the codes left empty.
  const plants = new Map<string, Plant>();
  try {
    for await (const p of client.plants.walk({}, { signal })) plants.set(p.id, p);
  } catch (e) {
    if (!(e instanceof ApiError && e.classification === 'permission')) throw e;
  }

  const missingProducts = new Set(
    instances.map((i) => i.product_id).filter((id): id is string => !!id && !productsById.has(id)),
  );
  if (missingProducts.size > 0) {
    if (instances.length <= PRODUCT_FILTER_MAX) {
      await mapLimited(instances, o.concurrency, async (pi) => {
        if (!pi.product_id || productsById.has(pi.product_id)) return;
        const page = await client.products.list({ product_instance_id: pi.id, limit: 1 }, { signal });
        for (const p of page.data) productsById.set(p.id, p);
      });
    } else {
      for await (const p of client.products.walk({}, { signal })) {
        if (missingProducts.has(p.id)) productsById.set(p.id, p);
      }
    }
  }

  return instances.map((pi): SelectedInstance => {
    const product = pi.product_id ? productsById.get(pi.product_id) : undefined;
    const plant = pi.plant_id ? plants.get(pi.plant_id) : undefined;
    const name = (pi as { name?: unknown }).name;
    return {
      id: pi.id,
      external_id: pi.external_id ?? null,
      name: typeof name === 'string' ? name : null,
      plant_id: pi.plant_id ?? null,
      plant_code: plant?.external_id ?? null,
      product_id: pi.product_id ?? null,
      product_article: product?.external_id ?? null,
      product_name: product?.name ?? null,
      product_unit: product?.unit ?? null,
      produced_from: typeof pi.produced_from === 'number' ? pi.produced_from : null,
      produced_to: typeof pi.produced_to === 'number' ? pi.produced_to : null,
    };
  });
}

/**
 * The sheet of a workbook an LCA step reads, or the problems in words that stop it: the file could not be read
 * (its file-level errors), or it has no such sheet.
 */
export function sheetToRead(
  parsed: ParsedWorkbook,
  name: DataSheetName,
): { sheet: ParsedSheet } | { problems: string[] } {
  if (!parsed.readable) {
    const fileIssues = parsed.issues.filter((i) => i.severity === 'error');
    return { problems: fileIssues.length ? fileIssues.map((i) => i.message) : [`${parsed.file} could not be read`] };
  }
  const sheet = parsed.sheets.find((s) => s.name === name);
  return sheet ? { sheet } : { problems: [`${parsed.file} has no ${name} sheet`] };
}

/** An issue at its place, in words: `sheet!cell: message`. */
export const issueInWords = (i: Issue): string => `${i.sheet}${i.cell ? `!${i.cell}` : ''}: ${i.message}`;

/**
 * The instance codes of a workbook's `product-instances` sheet (read with core/workbook). Errors at
 * the external_id cells of that sheet, or no such sheet, are reported as problems in words.
 */
export function instanceCodesFromWorkbook(parsed: ParsedWorkbook): { codes: string[]; problems: string[] } {
  const found = sheetToRead(parsed, 'product-instances');
  if ('problems' in found) return { codes: [], problems: found.problems };
  const { sheet } = found;
  const problems: string[] = [];
  const col = sheet.columns.external_id;
  if (!col) problems.push(`${sheet.sheetName} has no external_id column`);
  for (const i of parsed.issues) {
    if (i.severity === 'error' && i.sheet === sheet.sheetName && (i.field === 'external_id' || i.field === null)) {
      problems.push(issueInWords(i));
    }
  }
  const codes: string[] = [];
  for (const r of sheet.rows) {
    const v = r.values.external_id;
    if (typeof v === 'string' || typeof v === 'number') codes.push(String(v));
  }
  if (problems.length === 0 && codes.length === 0)
    problems.push(`${sheet.sheetName} lists no product instance (external_id column empty)`);
  return { codes: cleanCodes(codes), problems };
}
