/** The shared shape of every collection GET: parse the query, page, render from cached JSON. */
import type { Collection, Entity } from '../collection.js';
import type { V2Call, V2Result } from '../http.js';
import { pageOf, parseListQuery, renderPage, type FilterSpec, type ListQuery } from '../pagination.js';

export function listPage<T extends Entity>(
  call: V2Call,
  coll: Collection<T>,
  opts: {
    filters?: readonly FilterSpec[];
    /** Rows the key may see, and any filter beyond external_id. */
    visible?: (e: T, q: ListQuery) => boolean;
    /** Sorted candidate ids when an index narrows the scan. */
    candidates?: (q: ListQuery) => readonly string[] | undefined;
  } = {},
): V2Result {
  const q = parseListQuery(coll.name, call.query, opts.filters);
  const visible = opts.visible;
  const page = pageOf(coll, q, visible ? (e) => visible(e, q) : undefined, opts.candidates?.(q));
  return { status: 200, body: renderPage(coll, page) };
}
