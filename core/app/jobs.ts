/**
 * The rules on stored jobs that the CLI's `resume`/`undo`/`jobs` and the app's Jobs screen share: which job an
 * id names (it must be a job id and have a folder with meta.json in the jobs directory), and which jobs can be
 * resumed (paused, aborted, cancelled or interrupted; a completed job has nothing left to resume), which undo
 * took a job back, and which jobs may be undone with a connection (its service, not undone yet).
 */
import { effectiveStatus, isJobId, listJobs, readMeta } from '../jobs/job-store.js';
import { RESUMABLE_STATUSES, type JobMeta, type JobSummary } from '../jobs/types.js';
import { sameService, undoRefusal } from '../jobs/undo-refusal.js';
import { AppError } from './errors.js';

/** The meta of a stored job; a refusal in words when the id is no job id or names no job in `jobsDir`. */
export async function findJob(jobsDir: string, jobId: string): Promise<JobMeta> {
  if (!isJobId(jobId)) throw new AppError('not_found', `"${jobId}" is not a job id (like 20260101-120000-a1b2c3).`);
  try {
    return await readMeta(jobsDir, jobId);
  } catch {
    throw new AppError('not_found', `There is no job ${jobId} in ${jobsDir}.`);
  }
}

/** The jobs stored in `jobsDir`, newest first (unreadable folders left out), each with status, file and outcomes. */
export function storedJobs(jobsDir: string): Promise<JobSummary[]> {
  return listJobs(jobsDir);
}

/**
 * A job that may be resumed with a connection to `baseUrl`: it exists and was made against that service (its
 * entries name that service's ids and external ids); with `completed: 'refuse'` it must also have something left
 * to resume (paused, aborted, cancelled or interrupted). Its meta; a refusal in words otherwise.
 */
export async function resumableJob(
  jobsDir: string,
  jobId: string,
  baseUrl: string,
  completed: 'refuse' | 'answer' = 'refuse',
): Promise<JobMeta> {
  const meta = await findJob(jobsDir, jobId);
  if (!sameService(meta.baseUrl, baseUrl))
    throw new AppError(
      'invalid_input',
      `Job ${jobId} was made against another service (${meta.baseUrl}) than the connection (${baseUrl}): resume it with a connection to that service.`,
    );
  if (completed === 'answer') return meta;
  const status = effectiveStatus(meta);
  if (!RESUMABLE_STATUSES.includes(status)) {
    throw new AppError(
      'invalid_input',
      status === 'completed'
        ? `Job ${jobId} is complete: there is nothing to resume.`
        : `Job ${jobId} cannot be resumed (${status}).`,
    );
  }
  return meta;
}

/**
 * A job that may be undone with a connection to `baseUrl`: it exists, was made against that service, and no undo
 * has taken it back yet (nor is one under way); a refusal in words otherwise. The core's planUndo checks the
 * manufacturer and the status.
 */
export async function undoableJob(jobsDir: string, jobId: string, baseUrl: string): Promise<JobMeta> {
  const meta = await findJob(jobsDir, jobId);
  const refused = undoRefusal(jobId, meta.baseUrl, baseUrl, await listJobs(jobsDir));
  if (refused) throw new AppError('invalid_input', refused);
  return meta;
}
