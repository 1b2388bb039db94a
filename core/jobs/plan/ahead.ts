/**
 * Rows decided ahead of their turn: while the longest walk of a large workbook (supplier products) still runs,
 * each row whose entity the walk has found is decided as soon as it is found, instead of all of them after the
 * walk. Only what cannot depend on the order is kept: an `unchanged` decision of a row whose code no other row
 * of the sheet has, with no problems and nothing for the preflight to say. At the row's turn its entry enters
 * the plan (`take`) as deciding it then would have made it (its JSON line, made when it was decided, and its
 * compact ref); every other row is decided at its turn.
 *
 * The work runs in slices between the walk's pages (the event loop turns between slices), so the walk is not
 * held back. Memory: the entries kept until their turn are on disk (their JSON lines, in a file unlinked once
 * opened), not in memory; held per row are where its line is and the compact ref the planner keeps of every
 * entry anyway.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { entryRef, type EntryRef } from '../plan-sink.js';
import { rawCode, type WbRow } from '../workbook-rows.js';
import type { PlanState } from './context.js';
import { draftRow, type EntitySheet, type RowsAhead } from './draft.js';

/** Work done between two turns of the event loop. */
const SLICE_MS = 4;

export class DecisionsAhead<T> implements RowsAhead {
  /** What is kept per row: made when the walk finds its first entity (a plan of new entities needs none). */
  private rows: PerRow | null = null;
  private decided = 0;
  private readonly queue: number[] = [];
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly ctx: PlanState,
    private readonly sheet: EntitySheet<T>,
    /** the file the entries wait in (removed at once: only its descriptor is used) */
    private readonly path: string,
  ) {}

  /** The service has the entity of `code`: its row is decided soon (between the walk's pages). */
  found(code: string): void {
    if (this.stopped) return;
    const at = (this.rows ??= perRow(this.sheet.rows, this.path)).positions.get(code);
    if (at === undefined || at < 0) return;
    this.queue.push(at);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.work());
    }
  }

  /** No more decisions ahead (the rows' turn has come, or the planning ended): what is queued is left to it. */
  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
    this.rows?.positions.clear();
  }

  /** Drop every decision ahead (the walk could not be read after all): each row is decided at its turn. */
  drop(): void {
    this.stop();
    this.rows?.lengths.fill(0);
    this.rows?.refs.fill(undefined);
    this.decided = 0;
  }

  take(position: number): boolean {
    const rows = this.rows;
    const length = rows ? rows.lengths[position] : 0;
    if (!rows || length === 0) return false;
    rows.lengths[position] = 0;
    this.decided--;
    const ref = rows.refs[position]!;
    rows.refs[position] = undefined;
    this.ctx.emitUnchanged(rows.lines.get(rows.offsets[position], length), ref, rows.rowCounts[position]);
    return true;
  }

  /** How many rows were decided ahead and are waiting for their turn. */
  get size(): number {
    return this.decided;
  }

  /** Every decision taken or dropped: the file goes. */
  close(): void {
    this.stop();
    this.rows?.lines.close();
  }

  private work(): void {
    this.scheduled = false;
    const until = performance.now() + SLICE_MS;
    while (!this.stopped && this.queue.length > 0) {
      this.decide(this.queue.pop()!);
      if (this.queue.length > 0 && performance.now() >= until) {
        this.scheduled = true;
        setImmediate(() => this.work());
        break;
      }
    }
    // Written at the end of each slice: lines held longer outlive the young generation and fill the old one.
    this.rows?.lines.flush();
  }

  private decide(at: number): void {
    const rows = this.rows!;
    const r = this.sheet.rows[at] as WbRow<T>;
    const code = rawCode(r, 'external_id')!;
    let tried: ReturnType<PlanState['trial']>;
    try {
      tried = this.ctx.trial(() => draftRow(this.ctx, this.sheet, r, this.sheet.children.groups.byOwner.get(code)));
    } catch {
      return; // decided again at its turn, where what went wrong is told
    }
    const [e] = tried.entries;
    if (tried.entries.length === 1 && tried.preflight.length === 0 && e.action === 'unchanged' && !e.problems) {
      const [offset, length] = rows.lines.put(JSON.stringify(e));
      rows.offsets[at] = offset;
      rows.lengths[at] = length;
      rows.rowCounts[at] = e.rows.length;
      rows.refs[at] = entryRef(e);
      this.decided++;
    }
  }
}

/** Per row of the sheet: which may be decided ahead, and where each decided one waits. */
interface PerRow {
  /** Code → the position of its row: −1 for a code of several rows or of a row with problems. */
  positions: Map<string, number>;
  /** Where each decided row's entry is in `lines` (byte offset, length; length 0: not decided ahead). */
  offsets: Float64Array;
  lengths: Uint32Array;
  /** The rows each decided entry covers (its row and its child rows). */
  rowCounts: Uint32Array;
  /** The compact ref of each decided entry (what the planner keeps of every entry once it is in the plan). */
  refs: (EntryRef | undefined)[];
  lines: LinesOnDisk;
}

function perRow(rows: readonly WbRow<unknown>[], path: string): PerRow {
  const positions = new Map<string, number>();
  rows.forEach((r, i) => {
    const code = rawCode(r, 'external_id');
    if (code !== null) positions.set(code, positions.has(code) || !r.typed || r.problems.length > 0 ? -1 : i);
  });
  return {
    positions,
    offsets: new Float64Array(rows.length),
    lengths: new Uint32Array(rows.length),
    rowCounts: new Uint32Array(rows.length),
    refs: new Array<EntryRef | undefined>(rows.length),
    lines: new LinesOnDisk(path),
  };
}

/** Lines on disk, each read back by where it was put (in any order). */
class LinesOnDisk {
  private fd: number | null;
  /** bytes on disk, and the lines not written yet (with their bytes) */
  private written = 0;
  private held: string[] = [];
  private heldBytes = 0;
  private buf = Buffer.alloc(4096);

  constructor(path: string) {
    this.fd = openSync(path, 'w+');
    unlinkSync(path);
  }

  /** Append a line (written at the next `flush`): where it is (byte offset, byte length). */
  put(line: string): [number, number] {
    const bytes = Buffer.byteLength(line);
    const at = this.written + this.heldBytes;
    this.held.push(line);
    this.heldBytes += bytes;
    return [at, bytes];
  }

  get(at: number, bytes: number): string {
    if (at + bytes > this.written) this.flush();
    if (bytes > this.buf.length) this.buf = Buffer.alloc(Math.max(bytes, 2 * this.buf.length));
    let got = 0;
    while (got < bytes) got += readSync(this.fd!, this.buf, got, bytes - got, at + got);
    return this.buf.toString('utf8', 0, bytes);
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }

  flush(): void {
    if (this.heldBytes === 0) return;
    const b = Buffer.from(this.held.join(''));
    for (let off = 0; off < b.length;) off += writeSync(this.fd!, b, off, b.length - off, this.written + off);
    this.written += b.length;
    this.held = [];
    this.heldBytes = 0;
  }
}
