/**
 * The history of import jobs on this computer (the app's and the command line's), newest first, each with
 * its report; a job that stopped — paused, cancelled, refused key, or interrupted by a crash — offers Resume.
 */
import { useCallback, useEffect, useState } from 'react';
import type { JobListItem, JobView, RpcError } from '../../../../electron/core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { formatDateTime, formatNumber, outcomeTone, safeKeyText } from '../../components/format.js';
import { JobResults } from '../../components/JobResults.js';
import { jobStatusWords } from '../../components/status.js';
import { Notice } from '../../components/Notice.js';
import { Tag } from '../../components/Tag.js';
import { toRpcError } from '../../errors.js';
import { useI18n } from '../../i18n/index.js';
import { OUTCOME_MESSAGE } from '../../i18n/names.js';
import { OUTCOME_ORDER } from '../import/planView.js';
import { requestRerun } from '../import/rerunRequest.js';
import { RunStep } from '../import/RunStep.js';
import { useReveal } from '../../components/reveal.js';
import { UndoPanel } from './UndoPanel.js';

/** A job's status badge: "Completed, 1 failed" is not green (issue 10 §2). */
function StatusTag({ item }: { item: JobListItem }) {
  const { t } = useI18n();
  const words = jobStatusWords(item);
  return <Tag tone={words.tone}>{t(words.label, words.params)}</Tag>;
}

export function JobsScreen({ active }: { active: boolean }) {
  const api = useApi();
  const { t, locale } = useI18n();
  const [jobs, setJobs] = useState<JobListItem[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [view, setView] = useState<JobView | null>(null);
  const [error, setError] = useState<RpcError | null>(null);
  /** the job whose undo dry run is shown */
  const [undoing, setUndoing] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      const r = await api.call('jobs.list', {});
      setJobs(r.jobs);
    } catch (e) {
      setError(toRpcError(e));
    }
  }, [api]);

  const open = useCallback(
    async (jobId: string) => {
      setSelected(jobId);
      try {
        setView(await api.call('jobs.get', { jobId }));
      } catch (e) {
        setError(toRpcError(e));
      }
    },
    [api],
  );

  useEffect(() => {
    if (active) void refresh();
  }, [active, refresh]);

  useEffect(
    () =>
      api.on('jobs.changed', (c) => {
        void refresh();
        if (c.jobId === selected) void open(c.jobId);
      }),
    [api, refresh, open, selected],
  );

  // The list's counts follow a running job live (not only when it starts and stops).
  useEffect(
    () =>
      api.on('jobs.progress', (p) =>
        setJobs((cur) =>
          cur
            ? cur.map((j) =>
                j.jobId === p.jobId ? { ...j, status: 'running', running: true, resumable: false, counts: p.byOutcome } : j,
              )
            : cur,
        ),
      ),
    [api],
  );

  // What the user opened (a report, a resumed job's progress) comes into view and takes focus.
  const [revealKey, setRevealKey] = useState<string | null>(null);
  const detailRef = useReveal<HTMLDivElement>(revealKey);
  const show = (jobId: string, how: 'report' | 'resume' | 'undo') => setRevealKey(`${jobId}|${how}|${Date.now()}`);

  const resume = async (jobId: string) => {
    setError(null);
    try {
      await api.call('jobs.resume', { jobId });
      await refresh();
      await open(jobId);
      show(jobId, 'resume');
    } catch (e) {
      setError(toRpcError(e));
    }
  };

  const undoStarted = async (undoJobId: string) => {
    setUndoing(null);
    await refresh();
    await open(undoJobId);
    show(undoJobId, 'resume');
  };

  const interrupted = jobs?.filter((j) => j.status === 'interrupted') ?? [];
  return (
    <div className="stack stack-wide">
      <p className="lead">{t('jobs.intro')}</p>
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} />}
      {interrupted.length > 0 && (
        <Notice kind="warning">{t('jobs.interruptedNotice', { count: interrupted.length })}</Notice>
      )}
      <section className="card" aria-labelledby="jobs-heading">
        <div className="card-head">
          <h2 id="jobs-heading">{t('jobs.title')}</h2>
          <button type="button" className="btn" onClick={() => void refresh()}>
            {t('jobs.refresh')}
          </button>
        </div>
        {jobs === null ? (
          <p aria-busy="true">{t('common.loading')}</p>
        ) : jobs.length === 0 ? (
          <p className="muted">{t('jobs.none')}</p>
        ) : (
          <table className="data jobs-table">
            <thead>
              <tr>
                <th scope="col">{t('jobs.started')}</th>
                <th scope="col">{t('jobs.file')}</th>
                <th scope="col">{t('jobs.status')}</th>
                <th scope="col" className="num">
                  {t('jobs.rows')}
                </th>
                <th scope="col">{t('jobs.outcomes')}</th>
                <th scope="col">{t('jobs.connection')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('jobs.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((j) => (
                <tr key={j.jobId} className={j.jobId === selected ? 'is-selected' : undefined}>
                  <td>{formatDateTime(j.createdAt, locale)}</td>
                  <td>
                    <span className="entity">{j.file}</span>
                    <br />
                    <code className="muted">{j.jobId}</code>
                    {j.undoes && (
                      <>
                        <br />
                        <Tag tone="change">{t('jobs.undoOf', { job: j.undoes })}</Tag>
                      </>
                    )}
                  </td>
                  <td>
                    <StatusTag item={j} />
                  </td>
                  <td className="num">{formatNumber(j.rows, locale)}</td>
                  <td>
                    <span className="chips-inline">
                      {OUTCOME_ORDER.filter((o) => (j.counts[o] ?? 0) > 0).map((o) => (
                        <Tag key={o} tone={outcomeTone(o)}>
                          {t(OUTCOME_MESSAGE[o])} {formatNumber(j.counts[o] ?? 0, locale)}
                        </Tag>
                      ))}
                    </span>
                  </td>
                  <td className="conn">
                    <span className="small">{j.baseUrl}</span>
                    <br />
                    <code className="small">{safeKeyText(j.maskedKey)}</code>
                  </td>
                  <td className="actions">
                    <button
                      type="button"
                      className="btn"
                      onClick={() => {
                        setUndoing(null);
                        void open(j.jobId).then(() => show(j.jobId, 'report'));
                      }}
                      aria-label={t('jobs.reportOf', { job: j.jobId })}
                    >
                      {t('jobs.report')}
                    </button>
                    {j.resumable && (
                      <button
                        type="button"
                        className="btn btn-primary"
                        onClick={() => void resume(j.jobId)}
                        aria-label={t('jobs.resumeJob', { job: j.jobId })}
                      >
                        {t('results.resume')}
                      </button>
                    )}
                    {j.status === 'completed' && !j.running && (
                      <button
                        type="button"
                        className="btn"
                        onClick={() => {
                          setError(null);
                          setSelected(j.jobId);
                          setUndoing(j.jobId);
                          show(j.jobId, 'undo');
                        }}
                        aria-label={t('jobs.undoJob', { job: j.jobId })}
                      >
                        {t('jobs.undo')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {jobs !== null && jobs.some((j) => j.resumable) && <p className="field-hint">{t('jobs.resumeHint')}</p>}
      </section>
      <div ref={detailRef} tabIndex={-1} className="stack reveal-target">
        {undoing && (
          <UndoPanel
            key={undoing}
            jobId={undoing}
            onStarted={(id) => void undoStarted(id)}
            onClose={() => setUndoing(null)}
          />
        )}
        {!undoing && view && selected === view.jobId && view.running && (
          <RunStep jobId={view.jobId} file={view.file} onError={(e) => setError(toRpcError(e))} />
        )}
        {!undoing && view && selected === view.jobId && !view.running && (
          <JobResults
            key={view.jobId}
            view={view}
            onResume={() => void resume(view.jobId)}
            onRerun={(file) => requestRerun({ file, jobId: view.jobId })}
          />
        )}
      </div>
    </div>
  );
}
