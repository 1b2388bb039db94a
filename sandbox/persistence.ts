/**
 * --data FILE: the store is written as JSON, atomically (write a temporary file, then rename over the old
 * one), debounced after changes and flushed on close; loaded on start.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Snapshot, Store } from './store.js';
import { writeTextAtomic } from '../core/fs/atomic.js';

export function loadDataFile(path: string): Snapshot | null {
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  try {
    return JSON.parse(text) as Snapshot;
  } catch (e) {
    throw new Error(`the data file ${path} is not a sandbox data file (${(e as Error).message})`);
  }
}

export class DataFile {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    readonly path: string,
    private readonly store: Store,
    private readonly debounceMs = 250,
  ) {}

  /** Note a change; a write follows within the debounce time. */
  touch(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save();
    }, this.debounceMs);
    this.timer.unref();
  }

  private save(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      await writeTextAtomic(this.path, JSON.stringify(this.store.snapshot()));
    });
    return this.writing.catch((e: Error) => {
      console.error(`[sandbox] could not write ${this.path}: ${e.message}`);
    });
  }

  /** Write now whatever is pending (on close). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.save();
  }
}
