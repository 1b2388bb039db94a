/**
 * Where each entry of a dry run's plan-entries.jsonl is in the file: its byte offset and length, two numbers per
 * entry in typed arrays (~12 bytes; 1.5 MB for 130,000 entries). What the Import screen asks of a dry run — a
 * page of rows, a filter pass, the count — needs no more: the entries are read back from the file when shown.
 * Found by looking for the line ends only (no entry parsed, no key or id kept), so that a large dry run leaves
 * neither a per-entry index nor the garbage of parsing every entry behind it at the moment its planning has
 * ended. The job that runs the plan builds its own index (jobs/entry-index.ts).
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import type { PlanEntry } from '../../jobs/types.js';

const NL = 0x0a;

/** A blank byte of a line (JSON.stringify never writes a line of only these; a torn write may). */
function isBlank(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0d;
}

export class EntryLines {
  /** the plan-entries file, open for reading entries back (synchronous reads, as jobs/entry-index.ts reads them) */
  private fd: number | null = null;

  private constructor(
    private readonly file: string,
    private readonly offset: Float64Array,
    private readonly length: Uint32Array,
  ) {}

  get size(): number {
    return this.offset.length;
  }

  /**
   * The lines of a plan-entries file that are not blank, in one pass over its bytes. `expected` entries must be
   * there (the plan's count): a file with fewer or more is refused with `incomplete(found)`.
   */
  static async ofFile(file: string, expected: number, incomplete: (found: number) => Error): Promise<EntryLines> {
    let offsets = new Float64Array(Math.max(16, expected));
    let lengths = new Uint32Array(offsets.length);
    let n = 0;
    const add = (at: number, len: number) => {
      if (n === offsets.length) {
        const o = new Float64Array(n * 2);
        o.set(offsets);
        offsets = o;
        const l = new Uint32Array(n * 2);
        l.set(lengths);
        lengths = l;
      }
      offsets[n] = at;
      lengths[n] = len;
      n++;
    };
    /** the current line: where it starts, and whether a byte of it that is not blank was seen */
    let start = 0;
    let filled = false;
    let pos = 0;
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      let from = 0;
      for (;;) {
        const nl = chunk.indexOf(NL, from);
        const end = nl === -1 ? chunk.length : nl;
        // Only the first bytes of a line are looked at: an entry's line starts with "{".
        for (let k = from; !filled && k < end; k++) if (!isBlank(chunk[k])) filled = true;
        if (nl === -1) break;
        if (filled) add(start, pos + nl - start);
        start = pos + nl + 1;
        filled = false;
        from = nl + 1;
      }
      pos += chunk.length;
    }
    if (filled) add(start, pos - start);
    if (n !== expected) throw incomplete(n);
    return new EntryLines(file, offsets.slice(0, n), lengths.slice(0, n));
  }

  /** The entry at position i, read back from the file. */
  async entry(i: number): Promise<PlanEntry> {
    if (!(i >= 0 && i < this.size)) throw new RangeError(`no entry ${i} in ${this.file} (${this.size} entries)`);
    this.fd ??= openSync(this.file, 'r');
    const buf = Buffer.allocUnsafe(this.length[i]);
    for (let done = 0; done < buf.length;) {
      const n = readSync(this.fd, buf, done, buf.length - done, this.offset[i] + done);
      if (n === 0) throw new Error(`${this.file} is shorter than its index (entry ${i + 1})`);
      done += n;
    }
    return JSON.parse(buf.toString('utf8')) as PlanEntry;
  }

  /** Every entry in plan order, the file read sequentially (one pass); `fn` must not keep the entry. */
  async forEachEntry(fn: (e: PlanEntry, i: number) => void): Promise<void> {
    let carry: Buffer[] = [];
    let i = 0;
    const line = (b: Buffer) => {
      for (let k = 0; k < b.length; k++) if (!isBlank(b[k])) return void fn(JSON.parse(b.toString('utf8')), i++);
    };
    for await (const chunk of createReadStream(this.file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      let from = 0;
      for (let nl = chunk.indexOf(NL); nl !== -1; nl = chunk.indexOf(NL, from)) {
        const part = chunk.subarray(from, nl);
        if (carry.length) {
          line(Buffer.concat([...carry, part]));
          carry = [];
        } else line(part);
        from = nl + 1;
      }
      if (from < chunk.length) carry.push(Buffer.from(chunk.subarray(from)));
    }
    if (carry.length) line(Buffer.concat(carry));
  }

  async close(): Promise<void> {
    const fd = this.fd;
    this.fd = null;
    if (fd !== null) closeSync(fd);
  }
}
