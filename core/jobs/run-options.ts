/**
 * What a job run is given: its options (client, jobs folder, cancel signal, concurrency, the callbacks that
 * tell its progress) and the control that pauses it from outside.
 */
import type { ApiClient } from '../api/index.js';
import type { EntryIndex } from './entry-index.js';
import type { JobProgress } from './types.js';

/** Pause a running job from outside (the UI's Pause button). Resume with resumeJob. */
export class JobControl {
  private requested = false;
  private readonly listeners = new Set<() => void>();
  pause(): void {
    if (this.requested) return;
    this.requested = true;
    for (const l of this.listeners) l();
  }
  get pauseRequested(): boolean {
    return this.requested;
  }
  /** @internal */
  onPause(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

export interface RunOptions {
  client: ApiClient;
  jobsDir: string;
  /** Cancels the job (status `cancelled`, resumable). */
  signal?: AbortSignal;
  control?: JobControl;
  /** Throttled to at most 10 events per second, plus a last one when the job stops. */
  onProgress?: (p: JobProgress) => void;
  /** Writes in flight at most (default 16); the client's adaptive limiter may run fewer requests. */
  concurrency?: number;
  /** Full path of the workbook, kept in meta.json for results workbooks later. */
  inputPath?: string;
  /** Told the job id as soon as the job folder exists. */
  onStart?: (jobId: string) => void;
  /** Told the job's index before the first write, and each entry once its outcome is durable. */
  onIndex?: (index: EntryIndex) => void;
  onSettled?: (i: number) => void;
  /**
   * Told once, when the job's first writes are on their way (as many as it may have in flight, or fewer if that
   * is all it has), or when its first entry settled or it stopped, whichever comes first: work started beside
   * the job then runs while the job waits for the service, instead of holding up its first requests.
   */
  onWritesUnderway?: () => void;
}

export type ResumeOptions = Omit<RunOptions, 'inputPath'>;
