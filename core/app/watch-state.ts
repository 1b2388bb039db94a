/**
 * The watcher's own files in `DIR/.supply-loader-watch/`: the lock (one watcher per folder) and state.json (the
 * drops in progress, with the job id given to each).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from '../jobs/job-store.js';

/** Refused: another watcher holds DIR's lock. */
export class WatchLockedError extends Error {
  override readonly name = 'WatchLockedError';
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      pid > 0
        ? `another watcher (pid ${pid}) is running on this folder (lock ${lockFile}); one watcher per folder`
        : `another watcher is starting on this folder (lock ${lockFile} is being written); one watcher per folder`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------
// Lock and state

interface LockFile {
  pid: number;
  startedAt: string;
}

/** An unreadable lock younger than this is taken as held (a watcher of an older version may be writing it). */
export const LOCK_UNREADABLE_GRACE_MS = 5000;

/**
 * Take DIR's lock, or throw WatchLockedError. The lock appears whole or not at all: its content is written to a
 * private file first and then hard-linked into place (link fails when the name exists, as an exclusive create
 * does), so a reader never sees it empty. A lock of a dead pid is taken over (onTakeOver says so); an unreadable
 * one only once it is older than LOCK_UNREADABLE_GRACE_MS.
 */
export function acquireLock(stateDir: string, onTakeOver?: (pid: number) => void, now = Date.now()): () => void {
  fs.mkdirSync(stateDir, { recursive: true });
  const file = path.join(stateDir, 'lock');
  const body = JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() } satisfies LockFile);
  const tmp = `${file}.new-${process.pid}-${randomBytes(3).toString('hex')}`;
  fs.writeFileSync(tmp, body);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.linkSync(tmp, file);
        return () => {
          try {
            const cur = JSON.parse(fs.readFileSync(file, 'utf8')) as LockFile;
            if (cur.pid === process.pid) fs.rmSync(file, { force: true });
          } catch {
            // already gone
          }
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      let pid = 0;
      let readable = false;
      try {
        pid = Number((JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockFile>).pid);
        readable = true;
      } catch {
        // unreadable: damaged, or being written by a watcher that does not link
      }
      if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) throw new WatchLockedError(file, pid);
      if (!readable) {
        let age = Infinity;
        try {
          age = now - fs.statSync(file).mtimeMs;
        } catch {
          // gone meanwhile: try again
        }
        if (age < LOCK_UNREADABLE_GRACE_MS) throw new WatchLockedError(file, 0);
      }
      // Stale: the watcher that held it is gone. Take it over (rename is atomic; a racing watcher retries).
      const stale = `${file}.stale-${process.pid}-${randomBytes(3).toString('hex')}`;
      try {
        fs.renameSync(file, stale);
        fs.rmSync(stale, { force: true });
        onTakeOver?.(pid);
      } catch {
        // another watcher took it over first; try again
      }
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  throw new Error(`the lock ${file} could not be taken`);
}

export interface DropState {
  /** The stamp: the drop's folder name under work/, done/ or failed/. */
  drop: string;
  /** File names of the drop (markers included). */
  files: string[];
  /** The job id given to the import (resumed when its folder exists). */
  jobId: string;
  takenAt: string;
}

interface WatchState {
  format: 'supply-loader/watch@1';
  drops: DropState[];
}

export function readState(file: string): WatchState {
  try {
    const s = JSON.parse(fs.readFileSync(file, 'utf8')) as WatchState;
    if (s.format === 'supply-loader/watch@1' && Array.isArray(s.drops)) return s;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`the watch state ${file} cannot be read`);
  }
  return { format: 'supply-loader/watch@1', drops: [] };
}

/** A folder name for a drop: UTC time to the millisecond (sortable) plus a short random part. */
export function dropStamp(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace('T', '-').replace('.', '-').replace('Z', '')}-${randomBytes(2).toString('hex')}`;
}
