/**
 * When a job may not be undone, in words: made against another service than the connection's, taken back by an
 * undo already (follow the chain of undos of undos to the one to undo instead), or with an undo under way (resume
 * it). One rule for the core's planUndo and the app's Jobs screen.
 */
import type { JobStatus, JobSummary } from './types.js';

/** Two base URLs name the same service: the same origin and path, whatever the case of the host or a trailing slash. */
export function sameService(a: string, b: string): boolean {
  const norm = (u: string): string => {
    try {
      const url = new URL(u);
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return u.trim().replace(/\/+$/, '');
    }
  };
  return norm(a) === norm(b);
}

/**
 * The refusals in words, written once: the CLI and the app's error show them as they are, the app words each in
 * its language by the same names (renderer/src/i18n/undo-notes.ts reads them back by their shape, so a refusal
 * changed here without its words there fails test/renderer/german.test.ts).
 */
export const UNDO_REFUSALS = {
  otherService: (jobId: string, jobBaseUrl: string, baseUrl: string) =>
    `Job ${jobId} was made against another service (${jobBaseUrl}) than the active connection (${baseUrl}): undo it with a connection to that service.`,
  underWay: (jobId: string, undoId: string, status: string) =>
    `Job ${jobId} is being undone by job ${undoId} (${status}): resume that job instead of starting another undo.`,
  alreadyUndone: (jobId: string, undoId: string, last: string) =>
    `Job ${jobId} was already undone by job ${undoId}${last !== undoId ? ` (last put back by job ${last})` : ''}: to restore what it wrote, undo job ${last}.`,
  undoTakenBack: (jobId: string, undoId: string, last: string) =>
    `Job ${jobId} was undone by job ${undoId}, and that undo was taken back by job ${last}: undo job ${last} to take the job's changes back again (its ids are not the job's any more).`,
} as const;

export type UndoRefusalName = keyof typeof UNDO_REFUSALS;

/** What the rules need of a stored job to find its undo. */
export type UndoSummary = Pick<JobSummary, 'jobId' | 'status' | 'undoes'>;

/**
 * The undo job of each job an undo names: a completed undo when there is one (the job is taken back), else the
 * newest undo that has not completed (stopped or running: resumed, not started again). `jobs` newest first.
 */
export function undoneByOf(jobs: readonly UndoSummary[]): Map<string, { jobId: string; status: JobStatus }> {
  const out = new Map<string, { jobId: string; status: JobStatus }>();
  for (const j of jobs) {
    if (!j.undoes) continue;
    const had = out.get(j.undoes);
    if (!had || (had.status !== 'completed' && j.status === 'completed'))
      out.set(j.undoes, { jobId: j.jobId, status: j.status });
  }
  return out;
}

/** Why job `jobId` (made against `jobBaseUrl`) may not be undone with a connection to `baseUrl`; null when it may. */
export function undoRefusal(
  jobId: string,
  jobBaseUrl: string,
  baseUrl: string,
  jobs: readonly UndoSummary[],
): string | null {
  if (!sameService(jobBaseUrl, baseUrl)) return UNDO_REFUSALS.otherService(jobId, jobBaseUrl, baseUrl);
  const undoneBy = undoneByOf(jobs);
  const undo = undoneBy.get(jobId);
  if (!undo) return null;
  if (undo.status !== 'completed') return UNDO_REFUSALS.underWay(jobId, undo.jobId, undo.status);
  // The chain of undos of undos: the last one decides what the service holds of the job now.
  const chain = [undo.jobId];
  for (let next = undoneBy.get(undo.jobId); next?.status === 'completed'; next = undoneBy.get(next.jobId))
    chain.push(next.jobId);
  const last = chain[chain.length - 1];
  if (chain.length % 2 === 1) return UNDO_REFUSALS.alreadyUndone(jobId, undo.jobId, last);
  return UNDO_REFUSALS.undoTakenBack(jobId, undo.jobId, last);
}
