/**
 * One generic resource over a collection path: list (one page), walk (all pages), get, findByExternalId,
 * resolveExternalIds (by cost), create, update (PATCH on the item path), delete. The per-resource modules in
 * resources/ configure it.
 */
import type { z } from 'zod';
import { ApiError } from './errors.js';
import { type CreateOptions, type CreateResult, createEntity, invalidRequest } from './create.js';
import { type Page, WALK_LIMIT, checkLimit, walkItems, walkItemsAhead } from './pagination.js';
import { type Parser, pageParser } from './parse.js';
import type { QueryValue, Transport } from './transport.js';

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface WalkOptions extends CallOptions {
  /**
   * Ask each next page as soon as its cursor is read, before this page is parsed and its items used: for a walk
   * read to its end (pagination.ts walkItemsAhead). Without it the next page is asked once this one is used.
   */
  ahead?: boolean;
}

export interface ListQuery {
  external_id?: string;
  limit?: number;
  cursor?: string;
  [filter: string]: QueryValue;
}
export interface WalkQuery {
  external_id?: string;
  limit?: number;
  [filter: string]: QueryValue;
}

export interface ResolveOptions<T = unknown> extends CallOptions {
  /** 'auto' (default) chooses by cost; 'walk' or 'per-code' force one way. */
  strategy?: 'auto' | 'walk' | 'per-code';
  /** Known or estimated collection size: lets 'auto' prefer per-code lookups when they are cheaper. */
  collectionSizeHint?: number;
  /** Told every entity a walk reads, asked for or not (what the collection holds, for "did you mean …?"). */
  onItem?: (e: T) => void;
}

/** Few codes are looked up one by one (cost N ≤ this); more are resolved by one walk (cost ⌈collection/200⌉). */
export const PER_CODE_MAX = 5;

export interface ReadResource<T> {
  readonly path: string;
  /** One page. */
  list(query?: ListQuery, o?: CallOptions): Promise<Page<T>>;
  /** Every item of the query, page after page (limit 200 unless given). */
  walk(query?: WalkQuery, o?: WalkOptions): AsyncIterable<T>;
  findByExternalId(code: string, o?: CallOptions): Promise<T | null>;
  /** Codes → entities; codes with no active entity are absent from the map. */
  resolveExternalIds(codes: Iterable<string>, o?: ResolveOptions<T>): Promise<Map<string, T>>;
}

export interface GettableResource<T> extends ReadResource<T> {
  get(id: string, o?: CallOptions): Promise<T>;
}

export interface Resource<T, Create, Patch> extends GettableResource<T> {
  create(body: Create, o?: CreateOptions): Promise<CreateResult<T>>;
  /** PATCH on the item path: a partial update of the create fields. */
  update(id: string, patch: Patch, o?: CallOptions): Promise<T>;
}

export interface DeletableResource<T, Create, Patch> extends Resource<T, Create, Patch> {
  /** Returns the deleted entity (or only `{id}` when the service answers a 2xx without a body). */
  delete(id: string, o?: CallOptions): Promise<T>;
}

export interface ResourceConfig<T> {
  transport: Transport;
  path: string;
  parse: Parser<T>;
}

export interface WritableConfig<T> extends ResourceConfig<T> {
  entityType: string;
  serverIdempotent: boolean;
  createSchema: z.ZodType;
  patchSchema: z.ZodType;
  manufacturerId: (signal?: AbortSignal) => Promise<string>;
}

function itemPath(base: string, id: string): string {
  if (typeof id !== 'string' || id.trim() === '') throw new TypeError(`an id is required for ${base}/{id}`);
  return `${base}/${encodeURIComponent(id)}`;
}

export function readResource<T extends { external_id?: string | null }>(cfg: ResourceConfig<T>): ReadResource<T> {
  const { transport, path } = cfg;
  const parsePage = pageParser(cfg.parse);

  const list = async (query: ListQuery = {}, o: CallOptions = {}): Promise<Page<T>> => {
    checkLimit(query.limit);
    const res = await transport.callSafe({ method: 'GET', path, query, signal: o.signal, timeoutMs: o.timeoutMs });
    return parsePage(res.body, `GET ${path}`);
  };

  const walk = (query: WalkQuery = {}, o: WalkOptions = {}): AsyncIterable<T> => {
    const fixed: WalkQuery = { ...query, limit: query.limit ?? WALK_LIMIT };
    checkLimit(fixed.limit);
    const call = { signal: o.signal, timeoutMs: o.timeoutMs };
    if (!o.ahead) return walkItems<T>((cursor) => list({ ...fixed, cursor }, call), o.signal);
    return walkItemsAhead<T>(
      async (cursor) => (await transport.callSafe({ method: 'GET', path, query: { ...fixed, cursor }, ...call })).body,
      (raw) => parsePage(raw, `GET ${path}`),
      o.signal,
    );
  };

  /**
   * Only an item whose `external_id` equals the code matches. Anything else in the answer means the service
   * ignored the filter: that is logged (never resolved to a wrong entity) and the code counts as not found.
   */
  const findByExternalId = async (code: string, o: CallOptions = {}): Promise<T | null> => {
    const page = await list({ external_id: code, limit: 1 }, o);
    const match = page.data.find((e) => e.external_id === code);
    if (match) return match;
    if (page.data.length > 0) {
      transport.logger.warn(
        {
          endpoint: `GET ${path}`,
          filter: 'external_id',
          code,
          returned: page.data.length,
          returned_external_ids: page.data.slice(0, 5).map((e) => e.external_id ?? null),
        },
        'the service appears to have ignored the external_id filter: no returned item carries the code, so it is treated as not found',
      );
    }
    return null;
  };

  const resolveExternalIds = async (codes: Iterable<string>, o: ResolveOptions<T> = {}): Promise<Map<string, T>> => {
    const wanted = new Set<string>();
    for (const c of codes) if (typeof c === 'string' && c !== '') wanted.add(c);
    const out = new Map<string, T>();
    if (wanted.size === 0) return out;
    let strategy = o.strategy ?? 'auto';
    if (strategy === 'auto') {
      // Per-code costs N requests; a walk costs ⌈collection/200⌉ (+1 when the last page is full).
      strategy =
        o.collectionSizeHint !== undefined
          ? wanted.size <= Math.ceil(o.collectionSizeHint / WALK_LIMIT) + 1
            ? 'per-code'
            : 'walk'
          : wanted.size <= PER_CODE_MAX
            ? 'per-code'
            : 'walk';
    }
    if (strategy === 'per-code') {
      await Promise.all(
        [...wanted].map(async (code) => {
          const e = await findByExternalId(code, o);
          if (e) out.set(code, e);
        }),
      );
      return out;
    }
    // One walk, indexed by external_id; it stops as soon as every code is found.
    for await (const e of walk({ limit: WALK_LIMIT }, { signal: o.signal, timeoutMs: o.timeoutMs })) {
      o.onItem?.(e);
      const code = e.external_id;
      if (typeof code === 'string' && wanted.has(code) && !out.has(code)) {
        out.set(code, e);
        if (out.size === wanted.size) break;
      }
    }
    return out;
  };

  return { path, list, walk, findByExternalId, resolveExternalIds };
}

export function gettableResource<T extends { external_id?: string | null }>(
  cfg: ResourceConfig<T>,
): GettableResource<T> {
  const base = readResource(cfg);
  const get = async (id: string, o: CallOptions = {}): Promise<T> => {
    const p = itemPath(cfg.path, id);
    const res = await cfg.transport.callSafe({ method: 'GET', path: p, signal: o.signal, timeoutMs: o.timeoutMs });
    return cfg.parse(res.body, `GET ${cfg.path}/{id}`);
  };
  return { ...base, get };
}

export function writableResource<T extends { external_id?: string | null }, Create, Patch>(
  cfg: WritableConfig<T>,
): Resource<T, Create, Patch> {
  const base = gettableResource(cfg);
  const create = (body: Create, o: CreateOptions = {}) =>
    createEntity<T>(
      {
        transport: cfg.transport,
        path: cfg.path,
        entityType: cfg.entityType,
        serverIdempotent: cfg.serverIdempotent,
        createSchema: cfg.createSchema,
        parse: cfg.parse,
        manufacturerId: cfg.manufacturerId,
        findByExternalId: base.findByExternalId,
      },
      body,
      o,
    );
  const update = async (id: string, patch: Patch, o: CallOptions = {}): Promise<T> => {
    const endpoint = `PATCH ${cfg.path}/{id}`;
    const parsed = cfg.patchSchema.safeParse(patch);
    if (!parsed.success) throw invalidRequest(endpoint, parsed.error.issues);
    const res = await cfg.transport.callSafe({
      method: 'PATCH',
      path: itemPath(cfg.path, id),
      body: parsed.data,
      signal: o.signal,
      timeoutMs: o.timeoutMs,
    });
    return cfg.parse(res.body, endpoint);
  };
  return { ...base, create, update };
}

/**
 * DELETE is retried after a transient failure. If an earlier attempt's answer was lost and the retry finds the
 * entity gone, the earlier attempt deleted it: the entity as last read is returned (read first for that).
 */
export function deletableResource<T extends { external_id?: string | null }, Create, Patch>(
  cfg: WritableConfig<T>,
): DeletableResource<T, Create, Patch> {
  const base = writableResource<T, Create, Patch>(cfg);
  /**
   * "Not found" from a DELETE means the entity is already gone — unless it can still be read: then the service
   * has no DELETE for this type (a real service may lack what the sandbox offers). Says so, per row.
   */
  const unsupportedOr = async (e: ApiError, id: string, o: CallOptions): Promise<ApiError> => {
    try {
      await base.get(id, o);
    } catch {
      return e;
    }
    return new ApiError({
      status: e.status,
      err_code: 'client_endpoint_unavailable',
      msg: `the service does not allow deleting a ${cfg.entityType.replace(/_/g, ' ')} through the API (DELETE answered ${e.status} ${e.err_code} while the entity can be read)`,
      endpoint: e.endpoint,
      attempts: e.attempts,
      retryable: false,
    });
  };
  const del = async (id: string, o: CallOptions = {}): Promise<T> => {
    const endpoint = `DELETE ${cfg.path}/{id}`;
    const p = itemPath(cfg.path, id);
    let lastSeen: T | undefined;
    let lostAnswer = false;
    return cfg.transport.retryLoop(
      async (attemptNo) => {
        try {
          const res = await cfg.transport.attempt(
            { method: 'DELETE', path: p, signal: o.signal, timeoutMs: o.timeoutMs },
            attemptNo,
          );
          // A 2xx without a body (docs/api-assumptions.md row 21): deleted. Return what was last read, or the id.
          if (res.body === undefined) return lastSeen ?? ({ id } as unknown as T);
          return cfg.parse(res.body, endpoint);
        } catch (e) {
          if (lostAnswer && lastSeen && e instanceof ApiError && e.err_code === 'err_not_found') return lastSeen;
          if (
            e instanceof ApiError &&
            !lostAnswer &&
            (e.err_code === 'err_not_found' || e.status === 404 || e.status === 405)
          )
            throw await unsupportedOr(e, id, o);
          throw e;
        }
      },
      async (e) => {
        if (!e.retryable) return false;
        if (e.ambiguous && !lostAnswer) {
          lostAnswer = true;
          try {
            lastSeen = await base.get(id, o);
          } catch (ge) {
            // Gone already (or unreadable): the lost attempt most likely deleted it.
            if (ge instanceof ApiError && ge.err_code === 'err_not_found') {
              throw new ApiError({
                status: e.status,
                err_code: 'err_not_found',
                msg: "the delete's answer was lost and the entity is gone: it was most likely deleted by that attempt",
                endpoint,
                attempts: e.attempts,
                ambiguous: true,
                retryable: false,
              });
            }
            throw ge;
          }
        }
        return true;
      },
      o.signal,
    );
  };
  return { ...base, delete: del };
}
