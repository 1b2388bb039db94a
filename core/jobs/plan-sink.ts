/**
 * Where the planner puts its entries as it decides them (a 200,000-row plan is ~200 MB of entries: too much to hold).
 *
 * `JsonlPlanSink`: each entry one JSON line of a file (a job folder's `plan-entries.jsonl`), written as it is
 * added (buffered, synchronous writes of ~1 MB); nothing of the entry stays in memory. The job runs from that
 * folder (the one form of a plan).
 *
 * It keeps the plan's order: entries in the order they are added (by level, then sheet row), except deletes,
 * which are held back and come last, by level (reverse dependency order) then row. It counts the summary as the
 * entries pass, so the plan's summary needs no second pass over the entries.
 *
 * What the planner itself needs of an entry after adding it (its action, id, label, where it is) is the compact
 * `EntryRef` (see `entryRef`), not the entry with its body, changes and notes.
 */
import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { nounOf } from './entities.js';
import { BlockWriter } from './spill.js';
import type { Plan, PlanCounts, PlanEntry } from './types.js';

/** What a sink counts of an entry it is given as its JSON line (`addLine`). */
export type LineFacts = Pick<PlanEntry, 'sheet' | 'action' | 'level'> & { rowCount: number };

export interface PlanSink {
  add(e: PlanEntry): void;
  /**
   * An entry as its JSON line (`JSON.stringify(entry)`, made when it was decided; as text or its UTF-8 bytes, used
   * before the call returns) with what the summary counts of it: never a delete, never an entry with problems
   * (sinks that word problems pass it on as it is).
   */
  addLine(line: string | Uint8Array, facts: LineFacts): void;
  /** Every entry added: the held-back deletes go out, the file is synced and closed. */
  finish(): Plan['summary'];
  /** Entries added so far. */
  readonly count: number;
}

/** What the planner keeps of an entry once it is added: enough to refer to it, name it and see its action. */
export type EntryRef = Pick<PlanEntry, 'key' | 'kind' | 'level' | 'sheet' | 'row' | 'externalId' | 'action' | 'id'> & {
  /** The entry's label when it is not the usual `<noun> <external_id>` (refLabel makes that one when asked). */
  label?: string;
  /** Kept for product instances only (their production period is read by the production-figures entries). */
  body?: PlanEntry['body'];
} & Partial<EntryFacts>;

/**
 * What later rows ask of an entity entry (plan/decide.ts notes it): the plant the entity is at after this import
 * and, for a supplier product, its material and supplier plant (the silo rules). Kept on the entry's ref, not in
 * maps of their own: a 200,000-row plan keeps one small object per entry.
 */
export interface EntryFacts {
  plant: string | null;
  materialKey?: string | null;
  supplierPlantId?: string | null;
}

export function entryRef(e: PlanEntry, facts?: EntryFacts): EntryRef {
  // Most labels are `<noun> <external_id>`: made again when asked (a string per entry fewer).
  const label = e.externalId === null || e.label !== `${nounOf(e.kind)} ${e.externalId}` ? e.label : undefined;
  // One literal per shape, every field in it: fields added afterwards would go to a second array per ref.
  const { key, kind, level, sheet, row, externalId, action, id } = e;
  const r: EntryRef =
    facts === undefined
      ? { key, kind, level, sheet, row, externalId, action, id, label }
      : facts.materialKey === undefined && facts.supplierPlantId === undefined
        ? { key, kind, level, sheet, row, externalId, action, id, label, plant: facts.plant }
        : {
            key,
            kind,
            level,
            sheet,
            row,
            externalId,
            action,
            id,
            label,
            plant: facts.plant,
            materialKey: facts.materialKey,
            supplierPlantId: facts.supplierPlantId,
          };
  if (kind === 'product_instance' && e.body) r.body = e.body;
  return r;
}

/** An entry's label (its ref keeps only one that is not the usual `<noun> <external_id>`). */
export function refLabel(r: EntryRef): string {
  return r.label ?? `${nounOf(r.kind)} ${r.externalId}`;
}

/** Counts per sheet and action and the rows covered, added to entry by entry. */
export class SummaryCounter {
  private readonly bySheet: Plan['summary']['bySheet'] = {};
  private readonly byAction: PlanCounts = {};
  private entries = 0;
  private rows = 0;

  add(e: Pick<PlanEntry, 'sheet' | 'action' | 'rows'>): void {
    this.tally(e.sheet, e.action, e.rows.length);
  }

  tally(sheet: PlanEntry['sheet'], action: PlanEntry['action'], rows: number): void {
    const s = (this.bySheet[sheet] ??= {});
    s[action] = (s[action] ?? 0) + 1;
    this.byAction[action] = (this.byAction[action] ?? 0) + 1;
    this.rows += rows;
    this.entries++;
  }

  summary(): Plan['summary'] {
    return { bySheet: this.bySheet, byAction: this.byAction, entries: this.entries, rows: this.rows };
  }
}

/** Deletes last: by level, then sheet row (a stable sort keeps the order they were added in otherwise). */
function sortedDeletes(deletes: PlanEntry[]): PlanEntry[] {
  return deletes.sort((a, b) => a.level - b.level || a.row - b.row);
}

abstract class BaseSink implements PlanSink {
  protected readonly deletes: PlanEntry[] = [];
  private readonly counter = new SummaryCounter();
  count = 0;

  /** @param isDelete entries that run after every other one (held back, sorted, written last) */
  constructor(private readonly isDelete: (e: PlanEntry) => boolean) {}

  add(e: PlanEntry): void {
    this.count++;
    this.counter.add(e);
    if (this.isDelete(e)) this.deletes.push(e);
    else this.put(e);
  }

  addLine(line: string | Uint8Array, facts: LineFacts): void {
    this.count++;
    this.counter.tally(facts.sheet, facts.action, facts.rowCount);
    this.putLine(line);
  }

  finish(): Plan['summary'] {
    for (const e of sortedDeletes(this.deletes)) this.put(e);
    this.deletes.length = 0;
    this.close();
    return this.counter.summary();
  }

  protected abstract put(e: PlanEntry): void;
  protected abstract putLine(line: string | Uint8Array): void;
  protected abstract close(): void;
}

/** Bytes gathered before they are written. */
const FLUSH_AT = 1 << 20;

export class JsonlPlanSink extends BaseSink {
  private fd: number | null;
  private readonly out: BlockWriter;

  /** Creates (truncates) `path`. */
  constructor(
    readonly path: string,
    isDelete: (e: PlanEntry) => boolean,
  ) {
    super(isDelete);
    this.fd = openSync(path, 'w');
    this.out = new BlockWriter(() => {
      if (this.fd === null) throw new Error(`the plan entries file ${this.path} is closed`);
      return this.fd;
    }, FLUSH_AT);
  }

  protected put(e: PlanEntry): void {
    this.putLine(JSON.stringify(e));
  }

  protected putLine(line: string | Uint8Array): void {
    if (typeof line === 'string') this.out.put(line, true);
    else this.out.putBytes(line, true);
  }

  protected close(): void {
    this.out.flush();
    fdatasyncSync(this.fd!);
    closeSync(this.fd!);
    this.fd = null;
  }

  /** Close without finishing (planning failed): what was written stays, incomplete (no plan.json names it). */
  abort(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * A sink for entries decided before the plan's own sink is known (it words problems with what the whole service
 * index says: plan.ts): holds them, in order, and passes them on once `release`d; after that it passes each on.
 */
export class HeldSink implements PlanSink {
  private held: PlanEntry[] = [];
  private target: PlanSink | null = null;

  add(e: PlanEntry): void {
    if (this.target) this.target.add(e);
    else this.held.push(e);
  }

  addLine(line: string | Uint8Array, facts: LineFacts): void {
    this.released().addLine(line, facts);
  }

  release(target: PlanSink): void {
    if (this.target) throw new Error('internal: a held plan sink is released once');
    this.target = target;
    for (const e of this.held) target.add(e);
    this.held = [];
  }

  finish(): Plan['summary'] {
    return this.released().finish();
  }

  private released(): PlanSink {
    if (!this.target) throw new Error('internal: the plan sink is not known yet');
    return this.target;
  }

  get count(): number {
    return this.target ? this.target.count : this.held.length;
  }
}
