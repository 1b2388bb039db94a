/**
 * Rows of a long list fetched from the main side page by page as the user scrolls (a dry run of 100,000 rows is
 * never sent whole). Pure bookkeeping: which pages are loaded, which are asked for, which a visible range needs.
 */
export class PageCache<T> {
  private readonly pages = new Map<number, T[]>();
  private readonly pending = new Set<number>();
  total: number | null = null;

  constructor(readonly pageSize: number) {
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error('pageSize must be a positive integer');
  }

  get(index: number): T | undefined {
    const p = this.pages.get(Math.floor(index / this.pageSize));
    return p?.[index % this.pageSize];
  }

  /** Pages a range of row indices (inclusive) needs that are neither loaded nor asked for. */
  missing(start: number, end: number): number[] {
    if (end < start) return [];
    const last = this.total === null ? end : Math.min(end, this.total - 1);
    const out: number[] = [];
    for (let p = Math.floor(Math.max(0, start) / this.pageSize); p * this.pageSize <= last; p++) {
      if (!this.pages.has(p) && !this.pending.has(p)) out.push(p);
    }
    return out;
  }

  markPending(page: number): void {
    this.pending.add(page);
  }

  /** A page arrived (with the total as the main side counted it for this filter). */
  put(page: number, rows: T[], total: number): void {
    this.pending.delete(page);
    this.pages.set(page, rows);
    this.total = total;
  }

  fail(page: number): void {
    this.pending.delete(page);
  }

  get loadedPages(): number {
    return this.pages.size;
  }
}
