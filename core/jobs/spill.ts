/**
 * Lines put aside on disk instead of in memory, appended in blocks and synchronously: BlockWriter (the text encoded
 * into one buffer reused for every block: a fresh block per write — a joined string, its encoding — costs more
 * than the write itself) and SpillFile (a file made on its first line).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const NEWLINE = Buffer.from('\n');

/** Text appended to a descriptor (`fd()`, asked for at the first write) in blocks of `block` bytes. */
export class BlockWriter {
  private buf: Buffer | null = null;
  private used = 0;
  /** Bytes appended so far (written or in the block). */
  size = 0;

  constructor(
    private readonly fd: () => number,
    private readonly block: number,
  ) {}

  /** Append `text`, and a newline when `newline`: its bytes. */
  put(text: string, newline = false): number {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    const most = text.length * 3 + (newline ? 1 : 0);
    if (this.used + most > this.block) this.flush();
    let n: number;
    if (most > this.block) {
      const bytes = Buffer.from(newline ? `${text}\n` : text);
      this.write(bytes);
      n = bytes.length;
    } else {
      const buf = (this.buf ??= Buffer.allocUnsafe(this.block));
      n = buf.write(text, this.used);
      this.used += n;
      if (newline) {
        buf[this.used++] = 0x0a;
        n++;
      }
    }
    this.size += n;
    return n;
  }

  /** Append `bytes` (UTF-8 text), and a newline when `newline`. */
  putBytes(bytes: Uint8Array, newline = false): void {
    const n = bytes.length + (newline ? 1 : 0);
    if (this.used + n > this.block) this.flush();
    if (n > this.block) {
      this.write(bytes);
      if (newline) this.write(NEWLINE);
    } else {
      const buf = (this.buf ??= Buffer.allocUnsafe(this.block));
      buf.set(bytes, this.used);
      this.used += bytes.length;
      if (newline) buf[this.used++] = 0x0a;
    }
    this.size += n;
  }

  /** Write what the block holds. */
  flush(): void {
    if (this.used === 0) return;
    this.write(this.buf!.subarray(0, this.used));
    this.used = 0;
  }

  private write(bytes: Uint8Array): void {
    const fd = this.fd();
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
  }
}

/** Lines appended to a file in blocks of SPILL_BLOCK bytes, synchronously; the file is made on the first write. */
export class SpillFile {
  private fd: number | null = null;
  private readonly out = new BlockWriter(() => (this.fd ??= openSync(this.path, 'w')), SPILL_BLOCK);
  constructor(private readonly path: string) {}
  write(line: string): void {
    this.out.put(line);
  }
  /** Whether anything was written. */
  close(): boolean {
    this.out.flush();
    if (this.fd === null) return false;
    closeSync(this.fd);
    return true;
  }
}
const SPILL_BLOCK = 64 * 1024;
