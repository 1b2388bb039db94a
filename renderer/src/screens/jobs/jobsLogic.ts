/**
 * What the Jobs list offers per job, decided from its list item: Undo only for a completed job of the active
 * connection's service that no undo has taken back (nor is taking back); Resume only for a job of that service;
 * which jobs are shown (the active service's, and the others' when asked for).
 */
import type { JobListItem } from '../../../../core/ipc/contract.js';
import type { MessageKey } from '../../i18n/index.js';

type Item = Pick<JobListItem, 'status' | 'running' | 'resumable' | 'undoneBy' | 'otherService'>;

export interface JobOffers {
  undo: boolean;
  resume: boolean;
  /** why the job is not offered for undo, when it says more than its status */
  note: { key: MessageKey; params: Record<string, string> } | null;
}

export function jobOffers(j: Item): JobOffers {
  const note: JobOffers['note'] = j.undoneBy
    ? j.undoneBy.status === 'completed'
      ? { key: 'jobs.undoneBy', params: { job: j.undoneBy.jobId } }
      : { key: 'jobs.undoPending', params: { job: j.undoneBy.jobId } }
    : j.otherService
      ? { key: 'jobs.otherService', params: {} }
      : null;
  return {
    undo: j.status === 'completed' && !j.running && !j.undoneBy && !j.otherService,
    resume: j.resumable && !j.otherService,
    note,
  };
}

/** The jobs shown: those of the active service, and the others' too when `showOther`; how many are hidden. */
export function shownJobs<J extends Pick<JobListItem, 'otherService'>>(
  jobs: readonly J[],
  showOther: boolean,
): { shown: J[]; other: number } {
  const other = jobs.filter((j) => j.otherService).length;
  return { shown: showOther ? [...jobs] : jobs.filter((j) => !j.otherService), other };
}
