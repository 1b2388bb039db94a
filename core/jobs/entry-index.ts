/**
 * The compact in-memory state of a job (memory bounded at 200,000 rows): per plan entry a few numbers in typed arrays — its level,
 * action, where its JSON line is in `plan-entries.jsonl`, the entries it depends on, the worksheet rows it
 * covers, its outcome — plus its key and service id as strings. The entries themselves (bodies, changes,
 * notes, problems) stay on disk and are read back one at a time when an entry runs (`entry(i)`).
 *
 * Outcomes: a code per entry; the full outcome object is kept only for the entries that did not simply succeed
 * (failed, skipped, or with a message), so a 200,000-row job that succeeds keeps no object per row.
 *
 * An index can also sit on entries held in memory (`fromEntries`: the desktop app's runJob(plan), which holds
 * the plan anyway, and job folders of the previous format).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { DATA_SHEET_NAMES, type DataSheetName } from '../workbook/types.js';
import {
  PLAN_ACTIONS,
  ROW_OUTCOMES,
  SUCCESS_OUTCOMES,
  type EntryOutcome,
  type EntryState,
  type OutcomeCounts,
  type PlanAction,
  type PlanEntry,
  type RowOutcome,
} from './types.js';
import type { JobRowOutcome } from '../names.js';

const NO_OUTCOME = 0;
const ACTION_CODE = new Map<PlanAction, number>(PLAN_ACTIONS.map((a, i) => [a, i]));
const OUTCOME_CODE = new Map<RowOutcome, number>(ROW_OUTCOMES.map((o, i) => [o, i + 1]));
const SHEET_CODE = new Map<DataSheetName, number>(DATA_SHEET_NAMES.map((s, i) => [s, i]));
const SUCCESS_CODES = new Set(SUCCESS_OUTCOMES.map((o) => OUTCOME_CODE.get(o)!));

/** A growable typed array (doubling), trimmed once the index is built. */
class Growable<A extends Uint32Array | Float64Array> {
  n = 0;
  constructor(
    private a: A,
    private readonly make: (length: number) => A,
  ) {}
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = this.make(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): A {
    return this.a.slice(0, this.n) as A;
  }
}
type U32 = Growable<Uint32Array>;
type F64 = Growable<Float64Array>;
export const u32 = (): U32 => new Growable(new Uint32Array(1024), (n) => new Uint32Array(n));
export const f64 = (): F64 => new Growable(new Float64Array(1024), (n) => new Float64Array(n));

interface Building {
  keys: string[];
  level: U32;
  action: U32;
  depStart: U32;
  depKeys: string[];
  rowStart: U32;
  rowSheet: U32;
  rowNum: U32;
  ids: (string | undefined)[];
  offset: F64;
  length: U32;
}

function building(): Building {
  return {
    keys: [],
    level: u32(),
    action: u32(),
    depStart: u32(),
    depKeys: [],
    rowStart: u32(),
    rowSheet: u32(),
    rowNum: u32(),
    ids: [],
    offset: f64(),
    length: u32(),
  };
}

function addEntry(b: Building, e: PlanEntry): void {
  b.keys.push(e.key);
  b.level.push(e.level);
  b.action.push(ACTION_CODE.get(e.action) ?? 0);
  b.depStart.push(b.depKeys.length);
  for (const d of e.dependsOn ?? []) b.depKeys.push(d);
  b.rowStart.push(b.rowNum.n);
  for (const r of e.rows) {
    b.rowSheet.push(SHEET_CODE.get(r.sheet) ?? 0);
    b.rowNum.push(r.row);
  }
  b.ids.push(e.id ?? undefined);
}

/** Whether a line holds nothing but blanks (JSON.stringify never writes such a line; a torn write may). */
export function isBlankLine(line: Uint8Array): boolean {
  for (const b of line) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

/** Bytes read at a time by forEachLine, into one buffer. */
const LINE_BLOCK = 1 << 20;

/**
 * Each line of a file as its bytes (valid during the call: the buffer they are in is read into again) with its byte
 * offset and length (without the newline); blank lines are passed too. One buffer for the whole file: a stream's
 * chunks would be a new megabyte each, held outside the heap until the next collection (a 130,000-entry plan is
 * ~40 MB of them at the moment its planning ends).
 */
export async function forEachLine(
  path: string,
  fn: (line: Buffer, offset: number, length: number) => void,
): Promise<void> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(LINE_BLOCK);
    let carry: Buffer | null = null;
    let carryAt = 0;
    let pos = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        const part = chunk.subarray(start, nl);
        if (carry) {
          const whole = Buffer.concat([carry, part]);
          fn(whole, carryAt, whole.length);
          carry = null;
        } else fn(part, pos + start, part.length);
        start = nl + 1;
      }
      // The rest of the block is the start of a line the next read ends: copied, the buffer is read into again.
      if (start < chunk.length) {
        const rest = chunk.subarray(start);
        if (carry) carry = Buffer.concat([carry, rest]);
        else {
          carry = Buffer.from(rest);
          carryAt = pos + start;
        }
      }
      pos += bytesRead;
    }
    if (carry && carry.length) fn(carry, carryAt, carry.length);
  } finally {
    await fh.close();
  }
}

/** Entry i of a plan-entries file open as `fd`: its line, at `offset` and `length` bytes, read and parsed. */
export function entryAt(fd: number, file: string, i: number, offset: number, length: number): PlanEntry {
  const buf = Buffer.allocUnsafe(length);
  for (let done = 0; done < buf.length;) {
    const n = readSync(fd, buf, done, buf.length - done, offset + done);
    if (n === 0) throw new Error(`${file} is shorter than its index (entry ${i + 1})`);
    done += n;
  }
  return JSON.parse(buf.toString('utf8')) as PlanEntry;
}

/** Every entry of a plan-entries file in plan order, read sequentially (one pass); `fn` must not keep the entry. */
export async function forEachEntryOf(file: string, fn: (e: PlanEntry, i: number) => void): Promise<void> {
  let i = 0;
  await forEachLine(file, (line) => {
    if (!isBlankLine(line)) fn(JSON.parse(line.toString('utf8')) as PlanEntry, i++);
  });
}

export class EntryIndex {
  readonly size: number;
  private readonly keys: string[];
  private readonly pos = new Map<string, number>();
  readonly level: Uint32Array;
  private readonly action: Uint32Array;
  private readonly depStart: Uint32Array;
  /** Index of each dependency in the plan; -1 when the key is not an entry of the plan. */
  private readonly deps: Int32Array;
  private readonly rowStart: Uint32Array;
  private readonly rowSheet: Uint32Array;
  private readonly rowNum: Uint32Array;
  private readonly offset: Float64Array;
  private readonly length: Uint32Array;
  /** Service id per entry: planned (an existing entity) or from its outcome. */
  private readonly ids: (string | undefined)[];
  private readonly outcome: Uint8Array;
  private readonly status: Uint16Array;
  /** Full outcomes of the entries that did not simply succeed (failed, skipped, with a message). */
  private readonly details = new Map<number, EntryOutcome>();
  /** Worksheet rows settled, kept as outcomes are set (progress). */
  private rowsSettled = 0;
  private readonly counts = new Uint32Array(ROW_OUTCOMES.length + 1);
  /** The plan-entries file, open for reading entries back (synchronous reads: see entry()). */
  private fd: number | null = null;

  private constructor(
    b: Building,
    /** The plan-entries file the offsets point into, or the entries in memory. */
    private readonly source: { file: string } | { entries: readonly PlanEntry[] },
  ) {
    this.keys = b.keys;
    this.size = b.keys.length;
    for (let i = 0; i < this.size; i++) this.pos.set(b.keys[i], i);
    this.level = b.level.done();
    this.action = b.action.done();
    b.depStart.push(b.depKeys.length);
    this.depStart = b.depStart.done();
    this.deps = Int32Array.from(b.depKeys, (k) => this.pos.get(k) ?? -1);
    b.rowStart.push(b.rowNum.n);
    this.rowStart = b.rowStart.done();
    this.rowSheet = b.rowSheet.done();
    this.rowNum = b.rowNum.done();
    this.offset = b.offset.done();
    this.length = b.length.done();
    this.ids = b.ids;
    this.outcome = new Uint8Array(this.size);
    this.status = new Uint16Array(this.size);
  }

  static fromEntries(entries: readonly PlanEntry[]): EntryIndex {
    const b = building();
    for (const e of entries) addEntry(b, e);
    return new EntryIndex(b, { entries });
  }

  /**
   * One pass over a plan-entries file. `each` sees every entry as it passes (e.g. its static outcome, or what a
   * results workbook needs of it) — it must not keep the entry.
   */
  static async fromFile(
    path: string,
    each?: (e: PlanEntry, i: number) => void,
    damaged: (line: number) => Error = (n) => new Error(`${path} is damaged: line ${n} is not JSON`),
  ): Promise<EntryIndex> {
    const b = building();
    let n = 0;
    await forEachLine(path, (line, offset, length) => {
      n++;
      if (isBlankLine(line)) return;
      let e: PlanEntry;
      try {
        e = JSON.parse(line.toString('utf8')) as PlanEntry;
      } catch {
        throw damaged(n);
      }
      const i = b.keys.length;
      addEntry(b, e);
      b.offset.push(offset);
      b.length.push(length);
      each?.(e, i);
    });
    return new EntryIndex(b, { file: path });
  }

  /**
   * The entry, read back from the file (or the array). The read is synchronous: one line of a file the job wrote
   * moments ago comes from the page cache in microseconds, where an asynchronous read costs a trip through libuv's
   * thread pool and ~0.1 ms of the main thread per entry (a profile of a 494-write import: 51 ms of the job's CPU).
   */
  async entry(i: number): Promise<PlanEntry> {
    if ('entries' in this.source) return this.source.entries[i];
    this.fd ??= openSync(this.source.file, 'r');
    return entryAt(this.fd, this.source.file, i, this.offset[i], this.length[i]);
  }

  /** Every entry in plan order, read as a stream (or from the array). */
  async *entries(): AsyncGenerator<PlanEntry> {
    if ('entries' in this.source) {
      yield* this.source.entries;
      return;
    }
    for (let i = 0; i < this.size; i++) yield await this.entry(i);
  }

  /** Every entry in plan order, the file read sequentially (one pass); `fn` must not keep the entry. */
  async forEachEntry(fn: (e: PlanEntry, i: number) => void): Promise<void> {
    if ('entries' in this.source) {
      this.source.entries.forEach(fn);
      return;
    }
    await forEachEntryOf(this.source.file, fn);
  }

  async close(): Promise<void> {
    const fd = this.fd;
    this.fd = null;
    if (fd !== null) closeSync(fd);
  }

  indexOf(key: string): number | undefined {
    return this.pos.get(key);
  }
  key(i: number): string {
    return this.keys[i];
  }
  actionOf(i: number): PlanAction {
    return PLAN_ACTIONS[this.action[i]];
  }
  /** Dependencies of entry i that are entries of the plan (indices). */
  dependencies(i: number): Int32Array {
    return this.deps.subarray(this.depStart[i], this.depStart[i + 1]);
  }
  rowCount(i: number): number {
    return this.rowStart[i + 1] - this.rowStart[i];
  }
  /** Worksheet rows of entry i: (sheet, row) pairs. */
  forEachRow(i: number, fn: (sheet: DataSheetName, row: number) => void): void {
    for (let r = this.rowStart[i]; r < this.rowStart[i + 1]; r++)
      fn(DATA_SHEET_NAMES[this.rowSheet[r]], this.rowNum[r]);
  }
  /** Worksheet rows of every entry. */
  get totalRows(): number {
    return this.rowNum.length;
  }

  id(i: number): string | undefined {
    return this.ids[i];
  }

  hasOutcome(i: number): boolean {
    return this.outcome[i] !== NO_OUTCOME;
  }
  outcomeName(i: number): JobRowOutcome {
    const c = this.outcome[i];
    return c === NO_OUTCOME ? 'pending' : ROW_OUTCOMES[c - 1];
  }
  succeeded(i: number): boolean {
    return SUCCESS_CODES.has(this.outcome[i]);
  }

  /** Record entry i's outcome (a later one replaces an earlier one, as in the journal). */
  setOutcome(i: number, o: EntryOutcome): void {
    const prev = this.outcome[i];
    if (prev !== NO_OUTCOME) this.counts[prev]--;
    else this.rowsSettled += this.rowCount(i);
    const code = OUTCOME_CODE.get(o.outcome) ?? OUTCOME_CODE.get('failed')!;
    this.outcome[i] = code;
    this.counts[code]++;
    this.status[i] = o.status ?? 0;
    if (o.id) this.ids[i] = o.id;
    const plain =
      SUCCESS_CODES.has(code) &&
      o.msg === undefined &&
      o.err_code === undefined &&
      o.reason === undefined &&
      o.entitlement_limit === undefined;
    if (plain) this.details.delete(i);
    else {
      const { at: _at, existed_before: _existed, ...rest } = o; // existed_before: the plan's action says it
      this.details.set(i, rest);
    }
  }

  /** Entry i's outcome as an object (rebuilt for plain successes; no `at`). */
  outcomeOf(i: number): EntryState {
    const c = this.outcome[i];
    if (c === NO_OUTCOME) return { key: this.keys[i], outcome: 'pending' };
    const d = this.details.get(i);
    if (d) return d;
    const o: EntryOutcome = { key: this.keys[i], outcome: ROW_OUTCOMES[c - 1] };
    const id = this.ids[i];
    if (id) o.id = id;
    if (this.status[i]) o.status = this.status[i];
    return o;
  }

  /** Outcomes that are not plain successes (failed, skipped, with a message), in plan order. */
  *notPlain(): Generator<[number, EntryOutcome]> {
    for (const i of [...this.details.keys()].sort((a, b) => a - b)) yield [i, this.details.get(i)!];
  }

  /** Entries per outcome (`pending`: no outcome yet). */
  outcomeCounts(): OutcomeCounts {
    const c: OutcomeCounts = {};
    let settled = 0;
    for (let k = 1; k < this.counts.length; k++) {
      if (this.counts[k] === 0) continue;
      c[ROW_OUTCOMES[k - 1]] = this.counts[k];
      settled += this.counts[k];
    }
    if (this.size > settled) c.pending = this.size - settled;
    return c;
  }

  /** Worksheet rows with an outcome. */
  get settledRows(): number {
    return this.rowsSettled;
  }

  /** Worksheet rows per sheet and outcome. */
  rowsBySheet(): Partial<Record<DataSheetName, OutcomeCounts>> {
    const out: Partial<Record<DataSheetName, OutcomeCounts>> = {};
    for (let i = 0; i < this.size; i++) {
      const name = this.outcomeName(i);
      this.forEachRow(i, (sheet) => {
        const s = (out[sheet] ??= {});
        s[name] = (s[name] ?? 0) + 1;
      });
    }
    return out;
  }
}
