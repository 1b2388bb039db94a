/**
 * The watch folder's inbox: which files are complete (size and time unchanged for a while, or a `.ready` marker)
 * and which of them form one drop (a mapping's source globs).
 */
import fs from 'node:fs';
import path from 'node:path';

export const READY_SUFFIX = '.ready';

// ---------------------------------------------------------------------------------------------------------
// Drop grouping

/** A glob of a mapping's `sources` (`*`, `?`, case-insensitive, matched against the file name) as a RegExp. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (const ch of glob) {
    if (ch === '*') re += '[^/\\\\]*';
    else if (ch === '?') re += '[^/\\\\]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}

/**
 * Drops from the ready files (names in the inbox), in name order. Without source globs every file is its own
 * drop. With globs (a mapping's `sources`): the files matching any glob form one drop, every other file is its
 * own drop.
 */
export function groupDrops(files: readonly string[], sourceGlobs?: readonly string[]): string[][] {
  const sorted = [...files].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (!sourceGlobs || sourceGlobs.length === 0) return sorted.map((f) => [f]);
  const res = sourceGlobs.map(globToRegExp);
  const grouped = sorted.filter((f) => res.some((r) => r.test(f)));
  const rest = sorted.filter((f) => !grouped.includes(f));
  return [...(grouped.length ? [grouped] : []), ...rest.map((f) => [f])];
}

// ---------------------------------------------------------------------------------------------------------
// Stability: a file still being written is not taken

interface Seen {
  size: number;
  mtimeMs: number;
  since: number;
}

/** Tracks inbox files; `ready` once size and mtime were unchanged for stableMs, or at once with a .ready marker. */
export class StabilityTracker {
  private readonly seen = new Map<string, Seen>();
  constructor(private readonly stableMs: number) {}

  /** Call with a fresh listing; returns the names ready to take and those still settling. */
  update(inbox: string, names: readonly string[], now: number): { ready: string[]; settling: string[] } {
    const all = new Set(names);
    const ready: string[] = [];
    const settling: string[] = [];
    for (const k of [...this.seen.keys()]) if (!all.has(k)) this.seen.delete(k);
    for (const name of names) {
      if (name.endsWith(READY_SUFFIX)) continue;
      let st: fs.Stats;
      try {
        st = fs.statSync(path.join(inbox, name));
      } catch {
        this.seen.delete(name);
        continue;
      }
      if (!st.isFile()) continue;
      if (all.has(`${name}${READY_SUFFIX}`)) {
        ready.push(name);
        continue;
      }
      const prev = this.seen.get(name);
      if (!prev || prev.size !== st.size || prev.mtimeMs !== st.mtimeMs) {
        this.seen.set(name, { size: st.size, mtimeMs: st.mtimeMs, since: now });
        settling.push(name);
      } else if (now - prev.since >= this.stableMs) ready.push(name);
      else settling.push(name);
    }
    return { ready, settling };
  }

  forget(name: string): void {
    this.seen.delete(name);
  }
}

/** Names in the inbox a watcher looks at: not hidden, not an Office lock file (`~$…`). */
export function listInbox(inbox: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(inbox);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names.filter((n) => !n.startsWith('.') && !n.startsWith('~$'));
}
