/**
 * The watch folder for unattended runs: files dropped into `DIR/inbox` are imported one drop at a
 * time and the drop moves to `DIR/done/<stamp>/` or `DIR/failed/<stamp>/` with its outputs beside it.
 *
 * Layout of DIR:
 * - `inbox/`                        where files are dropped (`.xlsx`, `.xls`, `.ods`, `.csv`; `<file>.ready` marks a file complete)
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
 * No electron import here. The inbox (which files form a drop, when a file is complete): watch-inbox.ts; the
 * watcher's lock and state file: watch-state.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeTextAtomicSync } from '../fs/atomic.js';
import { newJobId, writeJsonAtomic } from '../jobs/job-store.js';
import { groupDrops, listInbox, READY_SUFFIX, StabilityTracker } from './watch-inbox.js';
import { acquireLock, dropStamp, readState, type DropState } from './watch-state.js';

/** Exit codes as the CLI has them (0 < 1 < 2 < 3); the worst drop is the watcher's. */
export type DropCode = 0 | 1 | 2 | 3;

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
