/**
 * Resolution of a workbook's codes to service entities, in bulk: per entity type one resolveExternalIds call
 * (per-code GETs for a few codes, one paginated walk for many), so N codes cost ⌈collection/200⌉ + a few
 * requests, never N. Plant and material codes are looked up in the workbook's mapping sheets first, then in
 * the profile's saved mappings, then on the service (plants, elementaries, composites by external_id). With
 * walks started before the codes were known (jobs/service-walks.ts) a kind's codes are picked out of its walk,
 * the plant and elementary catalogs' as the collections'; a walk of a kind none of whose codes needs the
 * service is stopped at once.
 */
import { ApiError, type ApiClient, type Composite, type Elementary, type Plant, type Product } from '../api/index.js';
import type { MaterialTypeRef } from '../spec/schemas.js';
import type { IssueParams } from '../workbook/types.js';
import { ENTITIES, IDENTIFIED_KINDS, type EntityOf } from './entities.js';
import type { IdentifiedKind } from './types.js';

/** A resource that finds entities by their codes. */
interface ResolvesCodes {
  resolveExternalIds(
    codes: Set<string>,
    o: { signal?: AbortSignal; onItem?: (e: Named) => void },
  ): Promise<Map<string, { id: string }>>;
}

/** What the index keeps of an entity read: its code and name. */
interface Named {
  external_id?: string | null;
  name?: string | null;
}

/**
 * Walks started before the codes were known (jobs/service-walks.ts): a kind's codes are picked out of its walk;
 * a walk nothing is picked from is cancelled.
 */
type WalksAhead = Partial<
  Record<
    ResolvedKind,
    {
      pick(
        codes: ReadonlySet<string>,
        onItem?: (e: Named) => void,
        onFound?: (code: string, e: { id: string }) => void,
      ): Promise<Map<string, { id: string }>>;
      cancel(): void;
    }
  >
>;

/**
 * One kind resolved last, while the index is used already: `ready` is given the index once every other kind is
 * resolved; from then on this kind's map fills as its walk ahead finds each code (`found` told of each, those
 * found before `ready` at once after it). The index is complete when resolveCodes settles; if this kind cannot
 * be read its map is emptied again (as if nothing was found) and the kind is unreadable.
 */
export interface ResolvedLast {
  kind: IdentifiedKind;
  ready(idx: ServiceIndex): void;
  found(code: string): void;
}

export interface CodeMappings {
  /** plant code → plant id */
  plants?: Record<string, string>;
  /** material code → material type */
  materials?: Record<string, { category: 'elementary' | 'composite'; id: string }>;
}

/** The codes to resolve: of each identified kind (the entity table), of products, plants and materials. */
export type CodeRequests = Record<IdentifiedKind | 'product' | 'plant' | 'material', Set<string>>;

export function emptyCodeRequests(): CodeRequests {
  return {
    ...(Object.fromEntries(IDENTIFIED_KINDS.map((k) => [k, new Set<string>()])) as Record<IdentifiedKind, Set<string>>),
    product: new Set(),
    plant: new Set(),
    material: new Set(),
  };
}

export type ResolvedKind = keyof CodeRequests;

/**
 * The kinds of code the account's reference catalog answers (not written by a plan), each with the client's
 * resource its codes are looked for in first: material codes among the elementaries, then those that are not
 * elementaries among the composites.
 */
export const CATALOG_RESOURCES = { plant: 'plants', material: 'elementaries' } as const satisfies Partial<
  Record<ResolvedKind, keyof ApiClient>
>;

export type CatalogKind = keyof typeof CATALOG_RESOURCES;

export interface MaterialResolution {
  ref: MaterialTypeRef;
  /** `workbook` (materials sheet), `profile` (saved mappings) or `service`. */
  source: 'workbook' | 'profile' | 'service';
}

export interface PlantResolution {
  id: string;
  source: 'workbook' | 'profile' | 'service';
}

/** The entities found per code, of each identified kind (the entity table). */
type FoundEntities = { [K in IdentifiedKind]: Map<string, EntityOf<K>> };

export interface ServiceIndex extends FoundEntities {
  product: Map<string, Product>;
  plant: Map<string, PlantResolution>;
  material: Map<string, MaterialResolution>;
  /** Why a type could not be read (e.g. the key lacks view:materials): rows needing it are blocked with this. */
  unreadable: Partial<Record<ResolvedKind, string>>;
  /** The same as `unreadable`, as params for a UI: {resource, detail} (variant `permission` when the key lacks a scope). */
  unreadableParams?: Partial<Record<ResolvedKind, IssueParams>>;
  /** Service id → external_id of every entity seen (for showing codes instead of ids). */
  codeOfId: Map<string, string>;
  /**
   * Code → name of every entity of a kind the reads saw (a walk reads the whole collection when a code is not
   * in it): the codes an unknown one may be a typo of ("did you mean MAT-SAND — Sand 0/2?").
   */
  seen?: Partial<Record<ResolvedKind, Map<string, string>>>;
}

export interface WorkbookMappings {
  plants: Map<string, string>;
  materials: Map<string, { category?: 'elementary' | 'composite'; id?: string }>;
}

/** The params of unreadableMessage(): `resource` is the slug of `what` ('supplier_companies'). */
function unreadableParams(what: string, e: unknown): IssueParams {
  const resource = what.replace(/[^a-z]+/g, '_').replace(/^_|_$/g, '');
  if (e instanceof ApiError) {
    const detail = `${e.err_code} ${e.msg}`;
    return e.classification === 'permission' ? { resource, detail, variant: 'permission' } : { resource, detail };
  }
  return { resource, detail: e instanceof Error ? e.message : String(e) };
}

function unreadableMessage(what: string, e: unknown): string {
  if (e instanceof ApiError) {
    const hint = e.classification === 'permission' ? ' (the key lacks the scope to read them)' : '';
    return `could not read ${what} from the service${hint}: ${e.err_code} ${e.msg}`;
  }
  return `could not read ${what} from the service: ${e instanceof Error ? e.message : String(e)}`;
}

/** Errors that stop planning as a whole (the key does not work, or the caller cancelled). */
function isFatal(e: unknown): boolean {
  return e instanceof ApiError ? e.classification === 'auth' || e.classification === 'daily_limit' : true;
}

export async function resolveCodes(
  client: ApiClient,
  codes: CodeRequests,
  workbook: WorkbookMappings,
  profile: CodeMappings | undefined,
  signal?: AbortSignal,
  ahead: WalksAhead = {},
  last?: ResolvedLast,
): Promise<ServiceIndex> {
  const idx: ServiceIndex = {
    ...(Object.fromEntries(IDENTIFIED_KINDS.map((k) => [k, new Map()])) as FoundEntities),
    product: new Map(),
    plant: new Map(),
    material: new Map(),
    unreadable: {},
    unreadableParams: {},
    codeOfId: new Map(),
    seen: {},
  };
  const o = { signal };
  /** The options of a kind's reads: every entity they see is noted with its name. */
  const noting = (kind: ResolvedKind) => {
    const into = ((idx.seen ??= {})[kind] ??= new Map());
    return { ...o, onItem: (e: Named) => noteName(into, e) };
  };

  const bulk = async <T extends { id: string; external_id?: string | null }>(
    kind: ResolvedKind,
    what: string,
    wanted: Set<string>,
    resolve: (c: Set<string>) => Promise<Map<string, T>>,
    into: Map<string, T>,
  ): Promise<void> => {
    if (wanted.size === 0) return;
    try {
      for (const [code, e] of await resolve(wanted)) {
        into.set(code, e);
        idx.codeOfId.set(e.id.toLowerCase(), code);
      }
    } catch (e) {
      if (isFatal(e)) throw e;
      idx.unreadable[kind] = unreadableMessage(what, e);
      (idx.unreadableParams ??= {})[kind] = unreadableParams(what, e);
    }
  };

  // Plants: workbook mapping, then profile, then the service by code.
  const plantCodes = new Set<string>();
  for (const code of codes.plant) {
    const fromSheet = workbook.plants.get(code);
    const fromProfile = profile?.plants?.[code];
    if (fromSheet) idx.plant.set(code, { id: fromSheet.toLowerCase(), source: 'workbook' });
    else if (fromProfile) idx.plant.set(code, { id: fromProfile.toLowerCase(), source: 'profile' });
    else plantCodes.add(code);
  }
  // Materials: workbook mapping (with id), then profile, then elementaries, then composites by code.
  const materialCodes = new Set<string>();
  const onlyCategory = new Map<string, 'elementary' | 'composite'>();
  for (const code of codes.material) {
    const fromSheet = workbook.materials.get(code);
    const fromProfile = profile?.materials?.[code];
    if (fromSheet?.id && fromSheet.category)
      idx.material.set(code, { ref: materialRef(fromSheet.category, fromSheet.id), source: 'workbook' });
    else if (fromProfile)
      idx.material.set(code, { ref: materialRef(fromProfile.category, fromProfile.id), source: 'profile' });
    else {
      materialCodes.add(code);
      if (fromSheet?.category) onlyCategory.set(code, fromSheet.category);
    }
  }

  const elementaryCodes = new Set([...materialCodes].filter((c) => onlyCategory.get(c) !== 'composite'));
  // The codes asked of each kind's service reads: a walk ahead of a kind with none (every plant code mapped by
  // the workbook, say) is stopped now, not read on while the other kinds resolve.
  const asked: Record<ResolvedKind, ReadonlySet<string>> = { ...codes, plant: plantCodes, material: elementaryCodes };
  for (const [kind, walk] of Object.entries(ahead) as [ResolvedKind, NonNullable<WalksAhead[ResolvedKind]>][])
    if (asked[kind].size === 0) walk.cancel();
  const plantsFound = new Map<string, Plant>();
  const elementariesFound = new Map<string, Elementary>();
  /** The last kind's codes found before `ready` (told then), or null once ready. */
  let early: string[] | null = [];
  const lastFound = (code: string, e: { id: string }) => {
    const into = idx[last!.kind] as Map<string, { id: string }>;
    into.set(code, e);
    idx.codeOfId.set(e.id.toLowerCase(), code);
    if (early) early.push(code);
    else last!.found(code);
  };
  const resolveKind = (kind: IdentifiedKind) =>
    bulk(
      kind,
      ENTITIES[kind].nouns,
      codes[kind],
      (c) =>
        ahead[kind]?.pick(c, noting(kind).onItem, kind === last?.kind ? lastFound : undefined) ??
        (client[ENTITIES[kind].resource] as ResolvesCodes).resolveExternalIds(c, noting(kind)),
      idx[kind] as Map<string, { id: string }>,
    );
  const lastKind = last ? resolveKind(last.kind) : Promise.resolve();
  lastKind.catch(() => {}); // awaited below, after the other kinds
  await Promise.all([
    // The identified kinds: through their own resource, named in words as the entity table names them.
    ...IDENTIFIED_KINDS.filter((kind) => kind !== last?.kind).map(resolveKind),
    bulk(
      'product',
      'products',
      codes.product,
      (c) =>
        (ahead.product?.pick(c, noting('product').onItem) as Promise<Map<string, Product>> | undefined) ??
        client.products.resolveExternalIds(c, noting('product')),
      idx.product,
    ),
    bulk(
      'plant',
      'plants',
      plantCodes,
      (c) =>
        (ahead.plant?.pick(c, noting('plant').onItem) as Promise<Map<string, Plant>> | undefined) ??
        client.plants.resolveExternalIds(c, catalogWalk(c, noting('plant'))),
      plantsFound,
    ),
    bulk(
      'material',
      'material types (elementaries)',
      elementaryCodes,
      (c) =>
        (ahead.material?.pick(c, noting('material').onItem) as Promise<Map<string, Elementary>> | undefined) ??
        client.elementaries.resolveExternalIds(c, catalogWalk(c, noting('material'))),
      elementariesFound,
    ),
  ]);
  for (const [code, p] of plantsFound) idx.plant.set(code, { id: p.id.toLowerCase(), source: 'service' });
  for (const [code, el] of elementariesFound)
    idx.material.set(code, { ref: materialRef('elementary', el.id), source: 'service' });
  const compositeCodes = new Set(
    [...materialCodes].filter((c) => !idx.material.has(c) && onlyCategory.get(c) !== 'elementary'),
  );
  const compositesFound = new Map<string, Composite>();
  const elementaryProblem = idx.unreadable.material;
  const elementaryParams = idx.unreadableParams?.material;
  await bulk(
    'material',
    'material types (composites)',
    compositeCodes,
    (c) => client.composites.resolveExternalIds(c, catalogWalk(c, noting('material'))),
    compositesFound,
  );
  if (elementaryProblem && !idx.unreadable.material) {
    idx.unreadable.material = elementaryProblem;
    if (elementaryParams) (idx.unreadableParams ??= {}).material = elementaryParams;
  }
  for (const [code, c] of compositesFound)
    idx.material.set(code, { ref: materialRef('composite', c.id), source: 'service' });
  if (last)
    await resolvedLast(idx, last, lastKind, () => {
      const before = early ?? [];
      early = null;
      return before;
    });
  for (const kind of Object.keys(idx.seen ?? {}) as ResolvedKind[])
    for (const e of (idx[kind] as Map<string, Named>).values()) noteName(idx.seen![kind]!, e);
  // A catalog of which two or more codes were asked was walked whole already (catalogWalk), and so was one
  // walked ahead that did not find a code asked of it.
  const unknown = (codes: ReadonlySet<string>, found: Map<string, unknown>) => [...codes].some((c) => !found.has(c));
  await catalogForHints(client, idx, signal, {
    plants: !ahead.plant && plantCodes.size === 1 && unknown(plantCodes, idx.plant),
    elementaries:
      elementaryCodes.size === 1 &&
      unknown(materialCodes, idx.material) &&
      !(ahead.material && unknown(elementaryCodes, elementariesFound)),
    composites: compositeCodes.size <= 1 && unknown(materialCodes, idx.material),
  });
  return idx;
}

/** The last kind after the others: `ready`, the codes found so far, then the rest of its resolution. */
async function resolvedLast(
  idx: ServiceIndex,
  last: ResolvedLast,
  resolving: Promise<void>,
  foundSoFar: () => string[],
): Promise<void> {
  last.ready(idx);
  for (const code of foundSoFar()) last.found(code);
  await resolving;
  if (!idx.unreadable[last.kind]) return;
  // Unreadable: nothing of it counts as found (as when its read fails before anything is used).
  const into = idx[last.kind] as Map<string, { id: string }>;
  for (const e of into.values()) idx.codeOfId.delete(e.id.toLowerCase());
  into.clear();
}

function noteName(into: Map<string, string>, e: Named): void {
  if (typeof e.external_id === 'string' && e.external_id !== '')
    into.set(e.external_id, typeof e.name === 'string' ? e.name : '');
}

/**
 * Plant and material codes the service does not know, looked up one by one (a few codes): the catalog is read
 * once (one or two pages per collection, not a request per code) so that each can name the codes it may be a
 * typo of. Only when a code is unknown; a catalog that cannot be read only leaves the hints out.
 */
async function catalogForHints(
  client: ApiClient,
  idx: ServiceIndex,
  signal: AbortSignal | undefined,
  read: { plants: boolean; elementaries: boolean; composites: boolean },
): Promise<void> {
  const seen = (idx.seen ??= {});
  const walkInto = async (kind: 'plant' | 'material', walk: AsyncIterable<Named>) => {
    const into = (seen[kind] ??= new Map());
    try {
      for await (const e of walk) noteName(into, e);
    } catch (e) {
      if (isFatal(e)) throw e;
    }
  };
  const reads: Promise<void>[] = [];
  if (read.plants && !idx.unreadable.plant) reads.push(walkInto('plant', client.plants.walk({}, { signal })));
  if (!idx.unreadable.material) {
    if (read.elementaries) reads.push(walkInto('material', client.elementaries.walk({}, { signal })));
    if (read.composites) reads.push(walkInto('material', client.composites.walk({}, { signal })));
  }
  await Promise.all(reads);
}

export function materialRef(category: 'elementary' | 'composite', id: string): MaterialTypeRef {
  return category === 'elementary'
    ? { category: 'elementary', elementary_id: id.toLowerCase() }
    : { category: 'composite', composite_id: id.toLowerCase() };
}

/** The key the sandbox and the silo rule use to say "same material type". */
export function materialKey(mt: unknown): string | null {
  const id = materialId(mt);
  return id === null ? null : `${(mt as Record<string, unknown>).category}:${id.toLowerCase()}`;
}

/** Whether two material types name the same material: `materialKey(a) === materialKey(b)`, without making either key. */
export function sameMaterial(a: unknown, b: unknown): boolean {
  const x = materialId(a);
  const y = materialId(b);
  if (x === null || y === null) return x === y;
  return (
    (a as Record<string, unknown>).category === (b as Record<string, unknown>).category &&
    (x === y || x.toLowerCase() === y.toLowerCase())
  );
}

/** The id of an elementary or composite material type, else null. */
function materialId(mt: unknown): string | null {
  if (mt === null || typeof mt !== 'object') return null;
  const m = mt as Record<string, unknown>;
  const id = m.category === 'elementary' ? m.elementary_id : m.category === 'composite' ? m.composite_id : undefined;
  return typeof id === 'string' ? id : null;
}

/**
 * Plants, elementaries and composites are the account's reference catalog: tens to a few hundred entries, one
 * or two pages. Two or more codes of them are cheaper by one walk than by one lookup each.
 */
function catalogWalk<O extends object>(codes: ReadonlySet<string>, o: O): O & { strategy?: 'walk' } {
  return codes.size > 1 ? { ...o, strategy: 'walk' as const } : o;
}
