/** A small JSON document on disk, written atomically (write-then-rename) with owner-only permissions. */
import fs from 'node:fs';
import path from 'node:path';
import { writeTextAtomicSync } from '../fs/atomic.js';

export interface JsonDocument {
  /** The stored value, or undefined when the file does not exist yet. */
  load(): unknown;
  save(value: unknown): void;
  readonly location: string;
}

export class JsonFile implements JsonDocument {
  constructor(
    readonly location: string,
    private readonly mode = 0o600,
  ) {}

  load(): unknown {
    let text: string;
    try {
      text = fs.readFileSync(this.location, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`The file ${this.location} is not valid JSON. Move it away to start with defaults.`);
    }
  }

  save(value: unknown): void {
    fs.mkdirSync(path.dirname(this.location), { recursive: true, mode: 0o700 });
    writeTextAtomicSync(this.location, JSON.stringify(value, null, 2) + '\n', this.mode);
  }
}

/** In-memory document, for a store that must not touch the disk. */
export class MemoryDocument implements JsonDocument {
  readonly location = '(memory)';
  private value: unknown;
  load(): unknown {
    return this.value === undefined ? undefined : structuredClone(this.value);
  }
  save(value: unknown): void {
    this.value = structuredClone(value);
  }
}
