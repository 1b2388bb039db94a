/**
 * Pagination as the spec says: a walk starts without a cursor and feeds `next_cursor` back until it is null.
 * A short page does not end the walk and a full page can be the last; `limit` and filters stay fixed for the
 * whole walk; the cursor is opaque (never built, never parsed).
 */
import { PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../spec/constants.js';

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** Fetch one page; `cursor` is undefined for the first page. */
export type PageFetcher<T> = (cursor: string | undefined) => Promise<Page<T>>;

/** Limit used for bulk walks. */
export const WALK_LIMIT = PAGE_LIMIT_MAX;

export function checkLimit(limit: number | undefined): void {
  if (limit === undefined) return;
  if (!Number.isInteger(limit) || limit < PAGE_LIMIT_MIN || limit > PAGE_LIMIT_MAX) {
    throw new RangeError(`limit must be an integer from ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX} (got ${limit})`);
  }
}

/** All pages of one query, in order. Stops when next_cursor is null — nothing else ends the walk. */
export async function* walkPages<T>(fetchPage: PageFetcher<T>, signal?: AbortSignal): AsyncGenerator<Page<T>> {
  let cursor: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    const page = await fetchPage(cursor);
    yield page;
    if (page.next_cursor === null) return;
    if (page.next_cursor === cursor) {
      throw new Error('The service returned the same cursor twice; the walk would never end');
    }
    cursor = page.next_cursor;
  }
}

/** All items of one query, page after page. */
export async function* walkItems<T>(fetchPage: PageFetcher<T>, signal?: AbortSignal): AsyncGenerator<T> {
  for await (const page of walkPages(fetchPage, signal)) yield* page.data;
}
