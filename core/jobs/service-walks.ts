/**
 * The service reads of a plan started before its workbook's rows are read: /v2/me and one walk per collection
 * whose codes the fed sheets will ask for, the plant and material-type catalogs among them (materials: the
 * elementaries; the composites are asked after, for the codes that are not elementaries). Which collections
 * those are depends only on the connection and on which sheets are fed (known from the workbook's sheet list),
 * not on the rows, so the walks run while the rows are read and validated; the planner then picks its codes out
 * of them (resolveCodes) instead of walking after the read. Collections are walked side by side (the client's
 * read cap limits them); the pages of one walk follow each other, as the spec's opaque cursor forces.
 *
 * Memory: until the codes are known a walk keeps every entity it met by external_id (a re-sync wants nearly all
 * of them anyway); once they are known it keeps only those and stops as soon as every one is found, as a walk
 * started after the read does.
 */
import { PER_CODE_MAX, type ApiClient, type ReadResource } from '../api/index.js';
import type { Me } from '../spec/schemas.js';
import type { DataSheetName } from '../workbook/types.js';
import { ENTITIES } from './entities.js';
import { CODE_CELLS } from './plan/codes.js';
import { COMPONENT_KIND } from './plan/boms.js';
import { CATALOG_RESOURCES, type CatalogKind } from './resolve.js';
import type { IdentifiedKind } from './types.js';

/** The collections a plan may walk ahead: the identified kinds, products and the catalogs (CATALOG_RESOURCES). */
export type WalkedKind = IdentifiedKind | 'product' | CatalogKind;

interface Coded {
  id: string;
  external_id?: string | null;
}

/** Distinct ids a walk shares (SharedIds); past it, ids are kept as each entity has them. */
const MAX_SHARED_IDS = 50_000;

/**
 * One copy of each id the entities of a walk refer to: each entity parsed from a page holds its own copy of the
 * same few ids (its plant, supplier plant, material, company: 56 bytes each), and a re-sync keeps 100,000 and more
 * entities until they are planned. An id is a string field named `*_id` (not the entity's own `id`), at the top
 * level or in an object field (`material_type`); ids in lists are left as they are.
 */
export class SharedIds {
  private readonly ids = new Map<string, string>();

  /** Replace the entity's ids by the shared copies (the same text: only memory changes). */
  share(e: Record<string, unknown>): void {
    for (const k in e) {
      const v = e[k];
      if (typeof v === 'string') {
        if (k !== 'id' && k.endsWith('_id')) e[k] = this.copy(v);
      } else if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const o = v as Record<string, unknown>;
        for (const j in o) if (typeof o[j] === 'string' && j.endsWith('_id')) o[j] = this.copy(o[j] as string);
      }
    }
  }

  private copy(id: string): string {
    const had = this.ids.get(id);
    if (had !== undefined) return had;
    if (this.ids.size < MAX_SHARED_IDS) this.ids.set(id, id);
    return id;
  }
}

/** What a walk picked from holds once it has ended (the codes asked are not needed any more). */
const PICKED: ReadonlySet<string> = new Set();

/**
 * One collection's walk, started at once. `pick(codes)` answers the entities of those codes (absent: no active
 * entity carries the code): from what was met so far, then from the rest of the walk until every code is found.
 */
export class CollectionWalk<T extends Coded = Coded> {
  private readonly met = new Map<string, T>();
  private readonly ids = new SharedIds();
  private wanted: ReadonlySet<string> | null = null;
  private found = 0;
  private finished = false;
  private readonly stop = new AbortController();
  private readonly done: Promise<void>;
  private wake: (() => void) | null = null;
  /** told of every entity the walk meets once picked from (the names a suggestion for an unknown code draws on) */
  private onItem: ((e: T) => void) | undefined;
  /** told of each wanted entity as it is found */
  private onFound: ((code: string, e: T) => void) | undefined;

  constructor(walk: (signal: AbortSignal) => AsyncIterable<T>, signal?: AbortSignal) {
    const onAbort = () => this.stop.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    this.done = (async () => {
      try {
        for await (const e of walk(this.stop.signal)) {
          const code = e.external_id;
          if (typeof code !== 'string' || this.met.has(code)) continue;
          this.onItem?.(e);
          if (this.wanted && !this.wanted.has(code)) continue;
          this.ids.share(e as unknown as Record<string, unknown>);
          this.met.set(code, e);
          if (this.wanted) this.onFound?.(code, e);
          if (this.wanted && ++this.found === this.wanted.size) break;
        }
      } catch (e) {
        // Stopped because every wanted code was found (or nothing is wanted any more): not an error.
        if (!(this.stop.signal.aborted && this.wanted && !signal?.aborted)) throw e;
      } finally {
        this.finished = true;
        signal?.removeEventListener('abort', onAbort);
      }
    })();
    this.done.catch(() => {}); // told by pick; a walk nobody picks from fails silently
  }

  /**
   * The entities of `codes` (each code at most once); rejects with the walk's error. `onItem` is told of every
   * entity the walk met (wanted or not), as a read after the codes were known would tell it; `onFound` of each
   * wanted one as it is found (those met already at once), before the walk has ended.
   */
  async pick(
    codes: ReadonlySet<string>,
    onItem?: (e: T) => void,
    onFound?: (code: string, e: T) => void,
  ): Promise<Map<string, T>> {
    if (this.wanted) throw new Error('internal: a walk ahead is picked from once');
    this.wanted = codes;
    this.onItem = onItem;
    this.onFound = onFound;
    if (onItem) for (const e of this.met.values()) onItem(e);
    for (const code of [...this.met.keys()]) if (!codes.has(code)) this.met.delete(code);
    if (onFound) for (const [code, e] of this.met) onFound(code, e);
    this.found = this.met.size;
    if (!this.finished && this.found === codes.size) this.stop.abort();
    try {
      await this.done;
    } finally {
      // The walk has ended: what was asked of it goes (the codes of a large workbook, the callbacks' closures).
      this.wanted = PICKED;
      this.onItem = this.onFound = undefined;
    }
    return this.met;
  }

  /** Stop the walk (nothing will be picked from it). */
  cancel(): void {
    this.wanted ??= new Set();
    this.stop.abort();
  }

  /** Whether the walk has ended (all pages read, stopped or failed). */
  get ended(): boolean {
    return this.finished;
  }
}

/** The reads a plan started ahead: /v2/me, the walks, and the request count when they started. */
export interface ServiceWalks {
  me: Promise<Me>;
  walks: Partial<Record<WalkedKind, CollectionWalk>>;
  /** client.stats().requests before the first of them (the plan counts its requests from here) */
  startRequests: number;
  /** Stop every walk not picked from (planning is over, or will not happen). */
  cancel(): void;
}

/**
 * The collections to walk ahead for the fed sheets: each kind of code the sheet's cells hold (a BOM's components:
 * every component kind), for sheets that declare more data rows than per-code lookups would cost (PER_CODE_MAX).
 * A sheet without a declared size (the dimension Excel and LibreOffice write) is left to the plan after the read.
 */
export function kindsToWalk(fed: ReadonlyMap<DataSheetName, number | null>): WalkedKind[] {
  const kinds = new Set<WalkedKind>();
  for (const [sheet, rows] of fed) {
    if (rows === null || rows <= PER_CODE_MAX) continue;
    for (const [, kind] of CODE_CELLS[sheet] ?? [])
      for (const k of typeof kind === 'function' ? Object.values(COMPONENT_KIND) : [kind]) kinds.add(k);
  }
  return [...kinds];
}

/** The resource a kind's walk reads: its collection, or a catalog kind's first catalog (CATALOG_RESOURCES). */
function walkedResource(client: ApiClient, kind: WalkedKind): Pick<ReadResource<Coded>, 'walk'> {
  if (kind === 'product') return client.products;
  if (kind in CATALOG_RESOURCES) return client[CATALOG_RESOURCES[kind as CatalogKind]];
  return client[ENTITIES[kind as IdentifiedKind].resource];
}

/** Start /v2/me and the walks of `kinds` at once (each kind's collection, 200 per page). */
export function startServiceWalks(client: ApiClient, kinds: readonly WalkedKind[], signal?: AbortSignal): ServiceWalks {
  const startRequests = client.stats().requests;
  const me = client.me({ signal });
  me.catch(() => {}); // awaited by the plan
  const walks: ServiceWalks['walks'] = {};
  for (const kind of kinds) {
    const resource = walkedResource(client, kind);
    walks[kind] = new CollectionWalk<Coded>((s) => resource.walk({}, { signal: s, ahead: true }), signal);
  }
  return {
    me,
    walks,
    startRequests,
    cancel: () => {
      for (const w of Object.values(walks)) if (!w.ended) w.cancel();
    },
  };
}
