/**
 * Rows decided ahead of their turn: while the longest walk of a large workbook (supplier products) still runs,
 * each row whose entity the walk has found is decided as soon as it is found, instead of all of them after the
 * walk. Only what cannot depend on the order is kept: an `unchanged` decision of a row whose code no other row
 * of the sheet has, with no problems and nothing for the preflight to say. At the row's turn its entry enters
 * the plan (`take`) as deciding it then would have made it (its JSON line, made when it was decided, and its
 * compact ref); every other row is decided at its turn.
 *
 * The work runs in slices between the walk's pages (the event loop turns between slices), so the walk is not
 * held back. Memory: the entries kept until their turn are on disk (their JSON lines, in files unlinked once
 * opened, one per bucket of rows: LinesOnDisk), not in memory; held per row are where its line is and the compact
 * ref the planner keeps of every entry anyway.
 */
import { closeSync, openSync, readSync, unlinkSync } from 'node:fs';
import { Slicer } from '../../throttle.js';
import { BlockWriter } from '../spill.js';
import type { EntryRef } from '../plan-sink.js';
import { rawCode, type WbRow } from '../workbook-rows.js';
import type { PlanState } from './context.js';
import { draftRow, type EntitySheet, type RowsAhead } from './draft.js';

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
    this.ctx.emitUnchanged(rows.lines.get(position, rows.offsets[position], length), ref, rows.rowCounts[position]);
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
    const slice = new Slicer();
    while (!this.stopped && this.queue.length > 0) {
      this.decide(this.queue.pop()!);
      if (this.queue.length > 0 && slice.due()) {
        this.scheduled = true;
        setImmediate(() => this.work());
        break;
      }
    }
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
      const [offset, length] = rows.lines.put(at, JSON.stringify(e));
      rows.offsets[at] = offset;
      rows.lengths[at] = length;
      rows.rowCounts[at] = e.rows.length;
      rows.refs[at] = tried.refs[0];
      this.decided++;
    }
  }
}

/** Per row of the sheet: which may be decided ahead, and where each decided one waits. */
interface PerRow {
  /** Code → the position of its row: −1 for a code of several rows or of a row with problems. */
  positions: Map<string, number>;
  /** Where each decided row's entry is in `lines` (byte offset in its bucket, length; 0: not decided ahead). */
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
    lines: new LinesOnDisk(path, rows.length),
  };
}

/** Rows of one bucket at least; a sheet has at most MAX_BUCKETS buckets (so as many files). */
const BUCKET_ROWS = 4096;
const MAX_BUCKETS = 64;
/** Bytes of a bucket's lines gathered before they are written (encoded at once: no string waits in the heap). */
const BLOCK = 64 * 1024;

/**
 * Lines on disk, each read back by the row it was put for. The rows are decided in the walk's order but taken in
 * row order: each bucket of consecutive rows has its own file (removed once opened), read whole when its first
 * row is taken, so the lines are read back with one read per bucket, not one per row; one bucket is in memory
 * at a time.
 */
export class LinesOnDisk {
  private readonly bucketRows: number;
  private readonly fds: (number | null)[];
  /** per bucket: its lines, appended in blocks (made on its first line) */
  private readonly out: (BlockWriter | null)[];
  /** the bucket read last, in a buffer reused for every bucket */
  private loaded: number | null = null;
  private bytes = Buffer.alloc(0);
  private serial = 0;
  /** reads from disk so far */
  reads = 0;

  constructor(
    private readonly path: string,
    rows: number,
  ) {
    this.bucketRows = Math.max(BUCKET_ROWS, Math.ceil(rows / MAX_BUCKETS));
    const buckets = Math.max(1, Math.ceil(rows / this.bucketRows));
    this.fds = new Array<number | null>(buckets).fill(null);
    this.out = new Array<BlockWriter | null>(buckets).fill(null);
  }

  /** Append the line of row `position`: where it is in its bucket (byte offset, length). */
  put(position: number, line: string): [number, number] {
    const b = this.bucketOf(position);
    const out = (this.out[b] ??= new BlockWriter(() => this.fdOf(b), BLOCK));
    const at = out.size;
    return [at, out.put(line)];
  }

  /** The line of row `position`, put at (`at`, `bytes`) of its bucket, as UTF-8: valid until the next `get`. */
  get(position: number, at: number, bytes: number): Uint8Array {
    const b = this.bucketOf(position);
    if (this.loaded !== b) {
      this.loaded = null;
      const out = this.out[b];
      out?.flush();
      const size = out?.size ?? 0;
      if (size > this.bytes.length) this.bytes = Buffer.allocUnsafe(size);
      let got = 0;
      while (got < size) {
        const n = readSync(this.fds[b]!, this.bytes, got, size - got, got);
        if (n === 0) throw new Error('internal: the lines decided ahead were cut short');
        got += n;
      }
      this.reads++;
      this.loaded = b;
    }
    return this.bytes.subarray(at, at + bytes);
  }

  close(): void {
    this.loaded = null;
    this.bytes = Buffer.alloc(0);
    this.out.fill(null);
    for (let b = 0; b < this.fds.length; b++) {
      const fd = this.fds[b];
      if (fd !== null) closeSync(fd);
      this.fds[b] = null;
    }
  }

  private bucketOf(position: number): number {
    return Math.floor(position / this.bucketRows);
  }

  private fdOf(b: number): number {
    let fd = this.fds[b];
    if (fd === null) {
      const path = `${this.path}.${this.serial++}`;
      fd = this.fds[b] = openSync(path, 'w+');
      unlinkSync(path);
    }
    return fd;
  }
}
