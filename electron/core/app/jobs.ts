/**
 * The rules on stored jobs that the CLI's `resume`/`undo`/`jobs` and the app's Jobs screen share: which job an
 * id names (it must be a job id and have a folder with meta.json in the jobs directory), and which jobs can be
 * resumed (paused, aborted, cancelled or interrupted; a completed job has nothing left to resume), which undo
 * took a job back, and which jobs may be undone with a connection (its service, not undone yet).
 */
import { effectiveStatus, isJobId, listJobs, readMeta } from '../jobs/job-store.js';
import { RESUMABLE_STATUSES, type JobMeta, type JobStatus, type JobSummary } from '../jobs/types.js';
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

/** The job's status, when it can be resumed; a refusal in words otherwise. */
export async function resumableJob(jobsDir: string, jobId: string): Promise<JobStatus> {
  const status = effectiveStatus(await findJob(jobsDir, jobId));
  if (!RESUMABLE_STATUSES.includes(status)) {
    throw new AppError(
      'invalid_input',
      status === 'completed'
        ? `Job ${jobId} is complete: there is nothing to resume.`
        : `Job ${jobId} cannot be resumed (${status}).`,
    );
  }
  return status;
}

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

/** What the Jobs list needs of a stored job to find its undo. */
type UndoSummary = Pick<JobSummary, 'jobId' | 'status' | 'undoes'>;

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

/**
 * A job that may be undone with a connection to `baseUrl`: it exists, was made against that service, and no undo
 * has taken it back yet (nor is one under way); a refusal in words otherwise. The core's planUndo checks the
 * manufacturer and the status.
 */
export async function undoableJob(jobsDir: string, jobId: string, baseUrl: string): Promise<JobMeta> {
  const meta = await findJob(jobsDir, jobId);
  if (!sameService(meta.baseUrl, baseUrl))
    throw new AppError(
      'invalid_input',
      `Job ${jobId} was made against another service (${meta.baseUrl}) than the active connection (${baseUrl}): undo it with a connection to that service.`,
    );
  const undo = undoneByOf(await listJobs(jobsDir)).get(jobId);
  if (undo?.status === 'completed')
    throw new AppError('invalid_input', `Job ${jobId} was already undone by job ${undo.jobId}.`);
  if (undo)
    throw new AppError(
      'invalid_input',
      `Job ${jobId} is being undone by job ${undo.jobId} (${undo.status}): resume that job instead of starting another undo.`,
    );
  return meta;
}
