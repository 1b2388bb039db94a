/**
 * Where each entry of a dry run's plan-entries.jsonl is in the file: its byte offset and length, two numbers per
 * entry in typed arrays (~12 bytes; 1.5 MB for 130,000 entries). What the Import screen asks of a dry run — a
 * page of rows, a filter pass, the count — needs no more: the entries are read back from the file when shown.
 * Found by looking for the line ends only (no entry parsed, no key or id kept), so that a large dry run leaves
 * neither a per-entry index nor the garbage of parsing every entry behind it at the moment its planning has
 * ended. The job that runs the plan builds its own index (jobs/entry-index.ts).
 */
import { closeSync, openSync } from 'node:fs';
import { entryAt, f64, forEachEntryOf, forEachLine, isBlankLine, u32 } from '../../jobs/entry-index.js';
import type { PlanEntry } from '../../jobs/types.js';

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
    const offsets = f64();
    const lengths = u32();
    await forEachLine(file, (line, offset, length) => {
      if (isBlankLine(line)) return;
      offsets.push(offset);
      lengths.push(length);
    });
    if (offsets.n !== expected) throw incomplete(offsets.n);
    return new EntryLines(file, offsets.done(), lengths.done());
  }

  /** The entry at position i, read back from the file. */
  async entry(i: number): Promise<PlanEntry> {
    if (!(i >= 0 && i < this.size)) throw new RangeError(`no entry ${i} in ${this.file} (${this.size} entries)`);
    this.fd ??= openSync(this.file, 'r');
    return entryAt(this.fd, this.file, i, this.offset[i], this.length[i]);
  }

  /** Every entry in plan order, the file read sequentially (one pass); `fn` must not keep the entry. */
  async forEachEntry(fn: (e: PlanEntry, i: number) => void): Promise<void> {
    await forEachEntryOf(this.file, fn);
  }

  async close(): Promise<void> {
    const fd = this.fd;
    this.fd = null;
    if (fd !== null) closeSync(fd);
  }
}
