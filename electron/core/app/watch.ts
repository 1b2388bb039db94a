/**
 * The watch folder for unattended runs: files dropped into `DIR/inbox` are imported one drop at a
 * time and the drop moves to `DIR/done/<stamp>/` or `DIR/failed/<stamp>/` with its outputs beside it.
 *
 * Layout of DIR:
 * - `inbox/`                        where files are dropped (`.xlsx`, `.csv`; `<file>.ready` marks a file complete)
 * - `done/<stamp>/`, `failed/<stamp>/` finished drops with their results, failed rows and messages
 * - `.supply-loader-watch/lock`     one watcher per DIR (JSON with the pid; a dead pid's lock is taken over)
 * - `.supply-loader-watch/state.json` the drops in progress: files, work folder and the job id given to the job
 * - `.supply-loader-watch/work/<stamp>/` a drop while it is imported (so the job's input path stays valid)
 * - `.supply-loader-watch/out/<stamp>/`  the outputs of the run in progress (results, failed rows, messages)
 *
 * Nothing is ever written in place in `done/`, `failed/` or the inbox: the import writes its outputs into the
 * drop's `out/` folder; once it has returned they are renamed into the work folder, and the work folder is
 * renamed into `done/` or `failed/` (renames within DIR, each atomic). A watcher killed meanwhile leaves
 * half-written files only in `.supply-loader-watch/`: `out/` is emptied at the next start and hidden temporary
 * files in a work folder are removed before its drop runs again, so a finished drop's folder holds complete files
 * only.
 *
 * A drop's job id is chosen (and saved in state.json) before the import starts, so a watcher killed mid-import
 * resumes that job at its next start instead of importing the drop again: no duplicate.
 *
 * The import itself is injected (`importDrop`): the CLI wires it to the code path of `supply-loader import`.
 * No electron import here.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeTextAtomicSync } from '../fs/atomic.js';
import { newJobId, processAlive, writeJsonAtomic } from '../jobs/job-store.js';

/** Exit codes as the CLI has them (0 < 1 < 2 < 3); the worst drop is the watcher's. */
export type DropCode = 0 | 1 | 2 | 3;

export const READY_SUFFIX = '.ready';
export const WATCH_STATE_DIR = '.supply-loader-watch';

export interface DropImportControl {
  /** The job id to give a new job, or of the job to resume. */
  jobId: string;
  /**
   * An earlier watcher took this drop and stopped before it was finished: resume job `jobId` if it exists
   * (it does not when the watcher stopped before the job started — then it is a new job with that id).
   */
  resume: boolean;
}

export interface DropImportResult {
  /** 0 done, 1 some rows failed, 2 refused before sending (validation, blocked rows), 3 aborted (resumable). */
  code: DropCode;
  /** The job, when one was started. */
  jobId?: string;
  /** True when an existing job was resumed. */
  resumed?: boolean;
  /** Outcome counts of the job (as the job reports them). */
  counts?: Record<string, number>;
  /** Files the import wrote into outDir (results, failed rows). */
  outputs: string[];
  /** Default: code 3 is resumable (the drop stays and is resumed at the next start); false moves it to failed/. */
  resumable?: boolean;
  /** What the import said, in words (written beside the drop as `<name>.messages.txt`). */
  messages: string;
  /** A machine-readable document of the import (e.g. the import command's --json output). */
  detail?: unknown;
}

/**
 * Imports the files of one drop, writing its outputs into outDir (an empty folder of its own under
 * `.supply-loader-watch/out/`; what is in it when the import returns is moved beside the drop). Must not throw
 * for bad input (code 2).
 */
export type ImportDrop = (
  files: string[],
  outDir: string,
  signal: AbortSignal,
  control: DropImportControl,
) => Promise<DropImportResult>;

export type WatchEvent =
  | { type: 'lock_taken_over'; pid: number }
  /** The lock is held: from here on a second watcher on the folder is refused. */
  | { type: 'watching'; inbox: string }
  | { type: 'drop_start'; drop: string; files: string[]; resume: boolean; jobId: string }
  | { type: 'drop_end'; report: DropReport }
  | { type: 'waiting'; files: string[] }
  | { type: 'not_taken'; files: string[] };

export interface DropReport {
  drop: string;
  files: string[];
  outcome: 'done' | 'failed' | 'interrupted';
  exitCode: DropCode;
  jobId: string | null;
  resumed: boolean;
  counts: Record<string, number> | null;
  /** Where the drop is now: done/<stamp>, failed/<stamp>, or the work folder of an interrupted drop. */
  folder: string;
  outputs: string[];
  detail?: unknown;
}

export interface WatchOptions {
  dir: string;
  importDrop: ImportDrop;
  /** --once: process the inbox, waiting up to onceWaitMs for files still being written, then return. */
  once?: boolean;
  /** A file is taken once its size and mtime have been stable this long (default 2000). */
  stableMs?: number;
  /** How often the inbox is looked at (default 1000). */
  pollMs?: number;
  /** --once: how long to wait for files still being written (default 60000). */
  onceWaitMs?: number;
  /** A mapping's `sources` globs: files matching them form one drop (see groupDrops). */
  sourceGlobs?: readonly string[];
  /** Stops the watcher: the current drop's job is cancelled (resumable) and the watcher returns. */
  signal?: AbortSignal;
  onEvent?: (e: WatchEvent) => void;
}

export interface WatchResult {
  exitCode: DropCode;
  drops: DropReport[];
  /** Files left in the inbox because they were still being written (--once). */
  notTaken: string[];
}

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
function listInbox(inbox: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(inbox);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names.filter((n) => !n.startsWith('.') && !n.startsWith('~$'));
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

interface DropState {
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

function readState(file: string): WatchState {
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

const worse = (a: DropCode, b: DropCode): DropCode => (b > a ? b : a);

// ---------------------------------------------------------------------------------------------------------
// The watcher

export async function watchFolder(o: WatchOptions): Promise<WatchResult> {
  const dir = path.resolve(o.dir);
  const inbox = path.join(dir, 'inbox');
  const stateDir = path.join(dir, WATCH_STATE_DIR);
  const workRoot = path.join(stateDir, 'work');
  const outRoot = path.join(stateDir, 'out');
  const stateFile = path.join(stateDir, 'state.json');
  const stableMs = o.stableMs ?? 2000;
  const pollMs = o.pollMs ?? 1000;
  const onceWaitMs = o.onceWaitMs ?? 60_000;
  const signal = o.signal ?? new AbortController().signal;
  const emit = (e: WatchEvent) => o.onEvent?.(e);

  for (const d of [inbox, path.join(dir, 'done'), path.join(dir, 'failed'), workRoot])
    fs.mkdirSync(d, { recursive: true });
  const release = acquireLock(stateDir, (pid) => emit({ type: 'lock_taken_over', pid }));
  // Outputs of a run that never finished (a killed watcher): possibly half-written, never moved anywhere.
  fs.rmSync(outRoot, { recursive: true, force: true });
  fs.mkdirSync(outRoot, { recursive: true });
  emit({ type: 'watching', inbox });
  const result: WatchResult = { exitCode: 0, drops: [], notTaken: [] };
  try {
    const state = readState(stateFile);
    const save = () => writeJsonAtomic(stateFile, state);
    // Drops an earlier watcher took: their job (if it was started) is resumed, never started again.
    const earlier = new Set<string>(state.drops.map((d) => d.drop));

    const forgetDrop = async (d: DropState) => {
      state.drops = state.drops.filter((x) => x.drop !== d.drop);
      await save();
    };

    /** Import one drop; null when there was nothing to do (already finished, or a file is still open). */
    const runDrop = async (d: DropState): Promise<DropReport | null> => {
      const work = path.join(workRoot, d.drop);
      if (!fs.existsSync(work) && ['done', 'failed'].some((x) => fs.existsSync(path.join(dir, x, d.drop)))) {
        // Finished and moved by a watcher that stopped before it updated the state.
        await forgetDrop(d);
        return null;
      }
      fs.mkdirSync(work, { recursive: true });
      // Temporary files an earlier watcher left in the work folder (the inbox's listing has no hidden names).
      for (const name of fs.readdirSync(work))
        if (name.startsWith('.') && !d.files.includes(name))
          fs.rmSync(path.join(work, name), { recursive: true, force: true });
      // Into the work folder (also: files a crash left in the inbox between saving the state and moving them).
      const moved: string[] = [];
      try {
        for (const f of d.files) {
          const src = path.join(inbox, f);
          if (fs.existsSync(src) && !fs.existsSync(path.join(work, f))) {
            fs.renameSync(src, path.join(work, f));
            moved.push(f);
          }
        }
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (earlier.has(d.drop) || !(code === 'EBUSY' || code === 'EPERM' || code === 'EACCES')) throw e;
        // A file another program still holds open (Windows): put back what moved, try again at a later look.
        for (const f of moved) fs.renameSync(path.join(work, f), path.join(inbox, f));
        fs.rmSync(work, { recursive: true, force: true });
        await forgetDrop(d);
        return null;
      }
      const resume = earlier.has(d.drop);
      emit({ type: 'drop_start', drop: d.drop, files: d.files, resume, jobId: d.jobId });
      const inputs = d.files.filter((f) => !f.endsWith(READY_SUFFIX)).map((f) => path.join(work, f));
      const out = path.join(outRoot, d.drop);
      fs.rmSync(out, { recursive: true, force: true });
      fs.mkdirSync(out, { recursive: true });
      let r: DropImportResult;
      try {
        r = await o.importDrop(inputs, out, signal, { jobId: d.jobId, resume });
      } catch (e) {
        // importDrop should say bad input in words; anything else stays resumable when stopped by the signal.
        r = {
          code: signal.aborted ? 3 : 2,
          outputs: [],
          messages: `the drop could not be imported: ${(e as Error).message}\n`,
        };
      }
      const first = path.basename(inputs[0] ?? d.files[0] ?? 'drop');
      const base = first.replace(/\.[^.]+$/, '');
      // Stopped (signal, key refused, daily limit, service unreachable): stays in work/ and in the state,
      // and is resumed at the next start.
      const stays = r.code === 3 && r.resumable !== false;
      const outcome = stays ? 'interrupted' : r.code === 0 ? 'done' : 'failed';
      const dest = stays ? work : path.join(dir, outcome, d.drop);
      // Where a file of the out or work folder ends up.
      const finalPath = (f: string) => {
        for (const from of [out, work]) {
          const rel = path.relative(from, f);
          if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return path.join(dest, rel);
        }
        return f;
      };
      const outputs = r.outputs.map(finalPath);
      if (r.messages) {
        // Appended: a resumed drop keeps what its first run said. Paths named as where they end up.
        const name = `${base}.messages.txt`;
        const earlierText = fs.existsSync(path.join(work, name)) ? fs.readFileSync(path.join(work, name), 'utf8') : '';
        writeTextAtomicSync(
          path.join(out, name),
          earlierText + r.messages.split(out).join(dest).split(work).join(dest),
        );
        outputs.push(path.join(dest, name));
      }
      // The import's outputs, all complete now, into the work folder (a resumed drop's replace its earlier ones).
      for (const name of fs.readdirSync(out)) {
        if (name.startsWith('.')) continue; // a writer's temporary file (removed with the out folder)
        const target = path.join(work, name);
        if (fs.existsSync(target) && fs.statSync(target).isDirectory())
          fs.rmSync(target, { recursive: true, force: true });
        fs.renameSync(path.join(out, name), target);
      }
      fs.rmSync(out, { recursive: true, force: true });
      if (!stays) {
        fs.renameSync(work, dest);
        await forgetDrop(d);
      }
      return {
        drop: d.drop,
        files: d.files,
        outcome,
        exitCode: r.code,
        jobId: r.jobId ?? null,
        resumed: r.resumed === true,
        counts: r.counts ?? null,
        folder: dest,
        outputs,
        ...(r.detail !== undefined ? { detail: r.detail } : {}),
      };
    };

    const finish = (rep: DropReport) => {
      result.drops.push(rep);
      result.exitCode = worse(result.exitCode, rep.exitCode);
      emit({ type: 'drop_end', report: rep });
    };

    // 1. Drops an earlier watcher left unfinished (killed, stopped, key refused): resumed, not imported again.
    for (const d of [...state.drops]) {
      if (signal.aborted) return result;
      const rep = await runDrop(d);
      if (!rep) continue;
      finish(rep);
      if (rep.outcome === 'interrupted') return result;
    }

    // 2. The inbox.
    const tracker = new StabilityTracker(stableMs);
    const deadline = Date.now() + onceWaitMs;
    let announced = '';
    for (;;) {
      if (signal.aborted) break;
      const names = listInbox(inbox);
      const { ready, settling } = tracker.update(inbox, names, Date.now());
      const left: string[] = [];
      let progressed = false;
      for (const group of groupDrops(ready, o.sourceGlobs)) {
        if (signal.aborted) break;
        const files = group.flatMap((f) => (names.includes(`${f}${READY_SUFFIX}`) ? [f, `${f}${READY_SUFFIX}`] : [f]));
        const d: DropState = { drop: dropStamp(), files, jobId: newJobId(), takenAt: new Date().toISOString() };
        state.drops.push(d);
        await save();
        const rep = await runDrop(d);
        for (const f of group) tracker.forget(f);
        if (!rep) {
          left.push(...group);
          continue;
        }
        progressed = true;
        finish(rep);
        if (rep.outcome === 'interrupted') return result; // stopped, or the service refused: the drop stays resumable
      }
      if (o.once) {
        if (settling.length === 0 && left.length === 0 && !progressed) break;
        if (!progressed && Date.now() >= deadline) {
          result.notTaken = [...settling, ...left].sort();
          if (result.notTaken.length) emit({ type: 'not_taken', files: result.notTaken });
          break;
        }
      }
      const key = settling.join('\n');
      if (settling.length && key !== announced) emit({ type: 'waiting', files: settling });
      announced = key;
      if (!progressed) await sleep(pollMs, signal);
    }
    return result;
  } finally {
    release();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
