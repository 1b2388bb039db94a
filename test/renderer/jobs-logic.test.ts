/**
 * What the Jobs list offers per job (renderer/src/screens/jobs/jobsLogic.ts): Undo only for a completed job of
 * the active service that no undo took back or is taking back, the note that says why not, Resume only for a job
 * of the active service, and which jobs are shown; the notes' words exist in English and German.
 */
import { describe, expect, it } from 'vitest';
import { jobOffers, shownJobs } from '../../renderer/src/screens/jobs/jobsLogic.js';
import { translate } from '../../renderer/src/i18n/index.js';
import { undoRowAction } from '../../renderer/src/screens/jobs/UndoPanel.js';

const job = (over: Partial<Parameters<typeof jobOffers>[0]> = {}) => ({
  status: 'completed' as const,
  running: false,
  resumable: false,
  undoneBy: null,
  otherService: false,
  ...over,
});

describe('the Jobs list’s actions per job', () => {
  it('offers Undo for a completed job of the active service that no undo took back', () => {
    expect(jobOffers(job())).toEqual({ undo: true, resume: false, note: null });
    expect(jobOffers(job({ status: 'paused', resumable: true }))).toEqual({ undo: false, resume: true, note: null });
    expect(jobOffers(job({ running: true })).undo).toBe(false);
  });

  it('says "Undone by job X" and offers no Undo once an undo completed; an undo under way is to be resumed', () => {
    const done = jobOffers(job({ undoneBy: { jobId: '20260101-120000-a1b2c3', status: 'completed' } }));
    expect(done.undo).toBe(false);
    expect(done.note).toEqual({ key: 'jobs.undoneBy', params: { job: '20260101-120000-a1b2c3' } });
    expect(translate('en', done.note!.key, done.note!.params)).toBe('Undone by job 20260101-120000-a1b2c3');
    expect(translate('de', done.note!.key, done.note!.params)).toBe(
      'Zurückgenommen durch Auftrag 20260101-120000-a1b2c3',
    );

    const pending = jobOffers(job({ undoneBy: { jobId: '20260101-130000-d4e5f6', status: 'paused' } }));
    expect(pending.undo).toBe(false);
    expect(pending.note?.key).toBe('jobs.undoPending');
  });

  it('offers neither Undo nor Resume for a job made against another service, and says so', () => {
    const o = jobOffers(job({ otherService: true, status: 'paused', resumable: true }));
    expect(o).toEqual({ undo: false, resume: false, note: { key: 'jobs.otherService', params: {} } });
    expect(jobOffers(job({ otherService: true })).undo).toBe(false);
    expect(translate('de', 'jobs.otherService')).toBe('Gegen einen anderen Dienst ausgeführt');
  });

  it('shows the active service’s jobs, and the others’ only when asked for', () => {
    const jobs = [
      { id: 1, otherService: false },
      { id: 2, otherService: true },
      { id: 3, otherService: false },
    ];
    expect(shownJobs(jobs, false)).toEqual({ shown: [jobs[0], jobs[2]], other: 1 });
    expect(shownJobs(jobs, true)).toEqual({ shown: jobs, other: 1 });
  });
});

describe('an undo row’s action in words', () => {
  it('names production figures put back as such, a BOM put back as a BOM, a re-create as a re-create', () => {
    expect(undoRowAction({ kind: 'production', action: 'replace' })).toBe('undo.productionBack');
    expect(undoRowAction({ kind: 'production', action: 'update' })).toBe('undo.productionBack');
    expect(undoRowAction({ kind: 'bom', action: 'replace' })).toBe('undo.action.replace');
    expect(undoRowAction({ kind: 'product_instance', action: 'create' })).toBe('undo.action.create');
    expect(undoRowAction({ kind: 'production', action: 'blocked' })).toBe('undo.action.blocked');
    expect(translate('en', 'undo.productionBack')).toBe('Production figures put back');
    expect(translate('de', 'undo.productionBack')).toBe('Produktionszahlen wiederherstellen');
  });
});
