/**
 * One entity type of the sandbox: rows by id, active ids kept sorted (the page order: stable, by id, so not
 * creation order), an index of external_id among active rows, and a cache of each row's JSON so a page is
 * built by joining strings instead of serializing objects on every request.
 */
export interface Entity {
  id: string;
  external_id: string | null;
}

interface Row<T> {
  data: T;
  deleted: boolean;
  json: string | null;
}

export interface StoredRow<T> {
  data: T;
  deleted: boolean;
}

/** Index of the first element of `sorted` strictly greater than `value`. */
export function upperBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class Collection<T extends Entity> {
  private rows = new Map<string, Row<T>>();
  private sorted: string[] = [];
  private byExternalId = new Map<string, string>();
  private deletedCount = 0;

  constructor(
    readonly name: string,
    private readonly serialize: (e: T) => unknown = (e) => e,
  ) {}

  /** An active row. */
  get(id: string): T | undefined {
    const r = this.rows.get(id);
    return r && !r.deleted ? r.data : undefined;
  }

  /** A row whether active or deleted. */
  getRow(id: string): StoredRow<T> | undefined {
    const r = this.rows.get(id);
    return r ? { data: r.data, deleted: r.deleted } : undefined;
  }

  findByExternalId(externalId: string): T | undefined {
    const id = this.byExternalId.get(externalId);
    return id === undefined ? undefined : this.get(id);
  }

  /** True when an active row other than `exceptId` carries the code. */
  externalIdTaken(externalId: string | null | undefined, exceptId?: string): boolean {
    if (externalId === null || externalId === undefined) return false;
    const id = this.byExternalId.get(externalId);
    return id !== undefined && id !== exceptId;
  }

  insert(e: T): void {
    if (this.rows.has(e.id)) throw new Error(`${this.name}: duplicate id ${e.id}`);
    this.rows.set(e.id, { data: e, deleted: false, json: null });
    if (e.external_id !== null) this.byExternalId.set(e.external_id, e.id);
    const at = lowerBound(this.sorted, e.id);
    this.sorted.splice(at, 0, e.id);
  }

  /** Many inserts at once: one sort instead of one splice each (bulk seeding of 100,000 rows). */
  insertMany(items: readonly T[]): void {
    for (const e of items) {
      if (this.rows.has(e.id)) throw new Error(`${this.name}: duplicate id ${e.id}`);
      this.rows.set(e.id, { data: e, deleted: false, json: null });
      if (e.external_id !== null) this.byExternalId.set(e.external_id, e.id);
      this.sorted.push(e.id);
    }
    this.sorted.sort();
  }

  /** Replace the data of an active row (external_id re-indexed, JSON cache dropped). */
  replace(e: T): void {
    const r = this.rows.get(e.id);
    if (!r || r.deleted) throw new Error(`${this.name}: no active row ${e.id}`);
    if (r.data.external_id !== e.external_id) {
      if (r.data.external_id !== null && this.byExternalId.get(r.data.external_id) === e.id)
        this.byExternalId.delete(r.data.external_id);
      if (e.external_id !== null) this.byExternalId.set(e.external_id, e.id);
    }
    r.data = e;
    r.json = null;
  }

  /** Mark deleted: kept, but out of lists and indexes, and its external_id is free again. */
  markDeleted(id: string): T {
    const r = this.rows.get(id);
    if (!r || r.deleted) throw new Error(`${this.name}: no active row ${id}`);
    r.deleted = true;
    r.json = null;
    if (r.data.external_id !== null && this.byExternalId.get(r.data.external_id) === id)
      this.byExternalId.delete(r.data.external_id);
    const at = lowerBound(this.sorted, id);
    if (this.sorted[at] === id) this.sorted.splice(at, 1);
    this.deletedCount++;
    return r.data;
  }

  /** Drop the cached JSON of a row whose serialized form depends on other data (derived fields). */
  invalidate(id: string): void {
    const r = this.rows.get(id);
    if (r) r.json = null;
  }

  json(id: string): string {
    const r = this.rows.get(id);
    if (!r) throw new Error(`${this.name}: no row ${id}`);
    if (r.json === null) r.json = JSON.stringify(this.serialize(r.data));
    return r.json;
  }

  view(e: T): unknown {
    return this.serialize(e);
  }

  /** Active ids in page order. */
  activeIds(): readonly string[] {
    return this.sorted;
  }

  *active(): IterableIterator<T> {
    for (const id of this.sorted) yield this.rows.get(id)!.data;
  }

  counts(): { active: number; deleted: number } {
    return { active: this.sorted.length, deleted: this.deletedCount };
  }

  dump(): StoredRow<T>[] {
    return [...this.rows.values()].map((r) => ({ data: r.data, deleted: r.deleted }));
  }

  load(rows: readonly StoredRow<T>[]): void {
    this.clear();
    for (const r of rows) {
      this.rows.set(r.data.id, { data: r.data, deleted: r.deleted, json: null });
      if (r.deleted) this.deletedCount++;
      else {
        this.sorted.push(r.data.id);
        if (r.data.external_id !== null) this.byExternalId.set(r.data.external_id, r.data.id);
      }
    }
    this.sorted.sort();
  }

  clear(): void {
    this.rows.clear();
    this.sorted = [];
    this.byExternalId.clear();
    this.deletedCount = 0;
  }
}
