/**
 * A spill file: lines put aside on disk instead of in memory, appended in blocks and synchronously (SpillFile).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

/** Lines appended to a file in blocks of SPILL_BLOCK characters, synchronously; the file is made on the first line. */
export class SpillFile {
  private fd: number | null = null;
  private held = '';
  constructor(private readonly path: string) {}
  write(line: string): void {
    this.held += line;
    if (this.held.length >= SPILL_BLOCK) this.flush();
  }
  private flush(): void {
    this.fd ??= openSync(this.path, 'w');
    writeSync(this.fd, this.held);
    this.held = '';
  }
  /** Whether anything was written. */
  close(): boolean {
    if (this.held) this.flush();
    if (this.fd === null) return false;
    closeSync(this.fd);
    return true;
  }
}
const SPILL_BLOCK = 64 * 1024;
