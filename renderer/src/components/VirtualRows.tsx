/**
 * A long table whose rows come page by page from the main side and are rendered only while visible
 * (@tanstack/react-virtual, rows measured so multi-line details fit). 100,000 rows scroll like 100: the DOM holds
 * only the visible rows plus a small overscan, and only the pages the viewport touches are fetched.
 * A table for assistive technology (role=table, aria-rowcount, aria-rowindex); the scroll area takes focus so
 * it scrolls with the keyboard.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useI18n } from '../i18n/index.js';
import { PageCache } from './pageCache.js';

export interface PagedSource<T> {
  /** Changes whenever the rows change (another filter, another plan): the cache starts over. */
  key: string;
  fetch(offset: number, limit: number): Promise<{ total: number; rows: T[] }>;
}

export interface VirtualRowsProps<T> {
  source: PagedSource<T>;
  label: string;
  className: string;
  /** the columns' headings */
  columns: readonly string[];
  renderRow(row: T, index: number): ReactNode;
  /** An extra class for a row (e.g. a group header). */
  rowClass?(row: T): string | undefined;
  estimateSize?: number;
  pageSize?: number;
  /** Height of the scroll area at most (px); shorter lists take only the room they need. */
  maxHeight?: number;
  /** Shown when the list is empty. */
  empty: ReactNode;
  /** what a row not loaded yet says (default: "Loading…") */
  loadingText?: string;
  onTotal?(total: number): void;
  onError?(e: unknown): void;
}

export function VirtualRows<T>(props: VirtualRowsProps<T>) {
  const { source, pageSize = 200, estimateSize = 44, maxHeight = 480 } = props;
  const { t } = useI18n();
  const loadingText = props.loadingText ?? t('common.loading');
  const parentRef = useRef<HTMLDivElement>(null);
  const cacheRef = useRef<PageCache<T>>(new PageCache<T>(pageSize));
  const [, bump] = useReducer((x: number) => x + 1, 0);
  const [total, setTotal] = useState<number | null>(null);
  const onTotal = useRef(props.onTotal);
  const onError = useRef(props.onError);
  onTotal.current = props.onTotal;
  onError.current = props.onError;

  const load = useCallback(
    (pages: number[], cache: PageCache<T>) => {
      for (const p of pages) {
        cache.markPending(p);
        source.fetch(p * pageSize, pageSize).then(
          (r) => {
            if (cacheRef.current !== cache) return; // another filter meanwhile
            cache.put(p, r.rows, r.total);
            setTotal(r.total);
            onTotal.current?.(r.total);
            bump();
          },
          (e: unknown) => {
            if (cacheRef.current !== cache) return;
            cache.fail(p);
            onError.current?.(e);
          },
        );
      }
    },
    [source, pageSize],
  );

  useEffect(() => {
    const cache = new PageCache<T>(pageSize);
    cacheRef.current = cache;
    setTotal(null);
    parentRef.current?.scrollTo({ top: 0 });
    load([0], cache);
  }, [source.key, load, pageSize]);

  // Stable callbacks: the virtualizer recomputes every row's offset when one of them changes (O(rows)).
  const sourceKey = source.key;
  const getItemKey = useCallback((i: number) => `${sourceKey}:${i}`, [sourceKey]);
  const estimate = useCallback(() => estimateSize, [estimateSize]);
  const getScrollElement = useCallback(() => parentRef.current, []);
  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement,
    estimateSize: estimate,
    overscan: 8,
    getItemKey,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    const cache = cacheRef.current;
    const missing = cache.missing(first, last);
    if (missing.length) load(missing, cache);
  }, [first, last, load, total]);

  const cache = cacheRef.current;
  return (
    <div
      className={`vtable ${props.className}`}
      role="table"
      aria-label={props.label}
      aria-rowcount={total ?? undefined}
      aria-busy={total === null}
    >
      <div className="vrow vhead" role="row" aria-rowindex={1}>
        {props.columns.map((c, i) => (
          <div role="columnheader" key={i}>
            {c}
          </div>
        ))}
      </div>
      {total === 0 ? (
        <div className="vempty">{props.empty}</div>
      ) : (
        <div
          ref={parentRef}
          className="vscroll"
          tabIndex={0}
          role="rowgroup"
          aria-label={props.label}
          style={{
            height:
              total === null
                ? estimateSize * 2
                : Math.min(maxHeight, Math.max(virtualizer.getTotalSize(), estimateSize) + 2),
          }}
        >
          <div className="vspace" style={{ height: virtualizer.getTotalSize() }}>
            {total === null && <p className="vloading">{loadingText}</p>}
            {items.map((vi) => {
              const row = cache.get(vi.index);
              return (
                <div
                  key={vi.key}
                  data-index={vi.index}
                  ref={virtualizer.measureElement}
                  className={row !== undefined && props.rowClass?.(row) ? `vrow ${props.rowClass(row)}` : 'vrow'}
                  role="row"
                  aria-rowindex={vi.index + 2}
                  style={{ transform: `translateY(${vi.start}px)` }}
                >
                  {row === undefined ? (
                    <div role="cell" className="vplaceholder">
                      {loadingText}
                    </div>
                  ) : (
                    props.renderRow(row, vi.index)
                  )}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
