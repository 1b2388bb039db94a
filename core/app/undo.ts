/**
 * The undo of a stored job, the operation the CLI's `undo` adapts (the core: jobs/undo.ts undoJob): the undo's
 * own dry run always first; nothing sent for a dry run, nor while entries are conflicts unless skipBlocked; else
 * the undo plan runs as a journaled, resumable job of its own whose meta names the job it undoes. Refused in
 * words (a plain Error naming the job) for a job that is not completed, was made for another manufacturer or
 * against another service, or that an undo took back already.
 */
import { undoJob, type UndoJobOptions, type UndoJobResult } from '../jobs/undo.js';

export function undoStoredJob(jobId: string, o: UndoJobOptions): Promise<UndoJobResult> {
  return undoJob(jobId, o);
}
