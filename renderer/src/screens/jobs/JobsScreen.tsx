/**
 * The history of import jobs on this computer (the app's and the command line's), newest first, each with
 * its report; a job that stopped — paused, cancelled, refused key, or interrupted by a crash — offers Resume.
 */
import { useCallback, useEffect, useState } from 'react';
import type { JobListItem, JobView } from '../../../../core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { formatDateTime, formatNumber, outcomeTone, safeKeyText } from '../../components/format.js';
import { JobResults } from '../../components/JobResults.js';
import { jobStatusWords } from '../../components/status.js';
import { Notice } from '../../components/Notice.js';
import { Tag } from '../../components/Tag.js';
import { useI18n } from '../../i18n/index.js';
import { OUTCOME_MESSAGE } from '../../i18n/names.js';
import { OUTCOME_ORDER } from '../import/planView.js';
import { requestRerun } from '../import/rerunRequest.js';
import { RunStep } from '../import/RunStep.js';
import { useReveal } from '../../components/reveal.js';
import { UndoPanel } from './UndoPanel.js';
import { ImpactPanel } from '../impact/ImpactPanel.js';
import { useRpc } from '../../useRpc.js';
import { DataTable } from '../../components/DataTable.js';
import { Checkbox } from '../../components/Checkbox.js';
import { jobOffers, shownJobs } from './jobsLogic.js';

/** A job's status badge: "Completed, 1 failed" is not green. */
function StatusTag({ item }: { item: JobListItem }) {
  const { t } = useI18n();
  const words = jobStatusWords(item);
  return <Tag tone={words.tone}>{t(words.label, words.params)}</Tag>;
}

export function JobsScreen({ active }: { active: boolean }) {
  const api = useApi();
  const { t, locale } = useI18n();
  const [jobs, setJobs] = useState<JobListItem[] | null>(null);
  const [serviceUrl, setServiceUrl] = useState<string | null>(null);
  const [showOther, setShowOther] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [view, setView] = useState<JobView | null>(null);
  const rpc = useRpc();
  const { fail } = rpc;
  /** the job whose undo dry run is shown */
  const [undoing, setUndoing] = useState<string | null>(null);

  // refresh and open follow events too: a failure is shown, but they do not clear the error of an action
  const refresh = useCallback(
    () =>
      api.call('jobs.list', {}).then((r) => {
        setJobs(r.jobs);
        setServiceUrl(r.serviceUrl);
      }, fail),
    [api, fail],
  );

  const open = useCallback(
    async (jobId: string) => {
      setSelected(jobId);
      await api.call('jobs.get', { jobId }).then(setView, fail);
    },
    [api, fail],
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
                j.jobId === p.jobId
                  ? { ...j, status: 'running', running: true, resumable: false, counts: p.byOutcome }
                  : j,
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

  const resume = (jobId: string) =>
    rpc.run(async () => {
      await api.call('jobs.resume', { jobId });
      await refresh();
      await open(jobId);
      show(jobId, 'resume');
    });

  const undoStarted = async (undoJobId: string) => {
    setUndoing(null);
    await refresh();
    await open(undoJobId);
    show(undoJobId, 'resume');
  };

  const interrupted = jobs?.filter((j) => j.status === 'interrupted' && !j.otherService) ?? [];
  const { shown, other } = shownJobs(jobs ?? [], showOther);
  return (
    <div className="stack stack-wide">
      <p className="lead">{t('jobs.intro')}</p>
      {rpc.notice}
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
        {serviceUrl && <p className="status-line">{t('jobs.ofService', { url: serviceUrl })}</p>}
        {other > 0 && (
          <Checkbox checked={showOther} onChange={setShowOther}>
            {t('jobs.showOther', { count: formatNumber(other, locale) })}
          </Checkbox>
        )}
        {jobs === null ? (
          <p aria-busy="true">{t('common.loading')}</p>
        ) : shown.length === 0 ? (
          <p className="muted">{t('jobs.none')}</p>
        ) : (
          <DataTable
            className="jobs-table"
            columns={[
              t('jobs.started'),
              t('jobs.file'),
              { head: t('jobs.rows'), num: true },
              t('jobs.status'),
              { head: t('jobs.actions'), hidden: true },
            ]}
          >
            {shown.map((j) => {
              const offers = jobOffers(j);
              return (
                <tr key={j.jobId} className={j.jobId === selected ? 'is-selected' : undefined}>
                  <td>{formatDateTime(j.createdAt, locale)}</td>
                  <td>
                    <span className="entity">{j.file}</span>
                    <br />
                    <code className="muted job-id">{j.jobId}</code>
                    {/* the key that ran it; the service only when it is not the active connection's */}
                    <span className="job-conn small muted">
                      {(j.otherService || !serviceUrl) && <span>{j.baseUrl} </span>}
                      <code>{safeKeyText(j.maskedKey)}</code>
                    </span>
                    {j.undoes && (
                      <>
                        <br />
                        <Tag tone="change">{t('jobs.undoOf', { job: j.undoes })}</Tag>
                      </>
                    )}
                    {offers.note && (
                      <>
                        <br />
                        <Tag tone={j.undoneBy ? 'neutral' : 'warn'}>{t(offers.note.key, offers.note.params)}</Tag>
                      </>
                    )}
                  </td>
                  <td className="num">{formatNumber(j.rows, locale)}</td>
                  <td>
                    {/* the status, then what happened to the rows */}
                    <StatusTag item={j} />
                    <span className="chips-inline job-outcomes">
                      {OUTCOME_ORDER.filter((o) => (j.counts[o] ?? 0) > 0).map((o) => (
                        <Tag key={o} tone={outcomeTone(o)}>
                          {t(OUTCOME_MESSAGE[o])} {formatNumber(j.counts[o] ?? 0, locale)}
                        </Tag>
                      ))}
                    </span>
                  </td>
                  <td className="actions">
                    <div className="row-actions">
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
                      {offers.resume && (
                        <button
                          type="button"
                          className="btn btn-primary"
                          onClick={() => void resume(j.jobId)}
                          aria-label={t('jobs.resumeJob', { job: j.jobId })}
                        >
                          {t('results.resume')}
                        </button>
                      )}
                      {offers.undo && (
                        <button
                          type="button"
                          className="btn"
                          onClick={() => {
                            rpc.dismiss();
                            setSelected(j.jobId);
                            setUndoing(j.jobId);
                            show(j.jobId, 'undo');
                          }}
                          aria-label={t('jobs.undoJob', { job: j.jobId })}
                        >
                          {t('jobs.undo')}
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
        {shown.some((j) => j.resumable) && <p className="field-hint">{t('jobs.resumeHint')}</p>}
        {showOther && other > 0 && <p className="field-hint">{t('jobs.otherHint')}</p>}
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
          <RunStep jobId={view.jobId} file={view.file} onError={fail} />
        )}
        {!undoing && view && selected === view.jobId && !view.running && (
          <JobResults
            key={view.jobId}
            view={view}
            onResume={() => void resume(view.jobId)}
            onRerun={(file) => requestRerun({ file, jobId: view.jobId })}
          />
        )}
        {!undoing && view && selected === view.jobId && !view.running && view.undoes === null && (
          <ImpactPanel key={`impact-${view.jobId}`} jobId={view.jobId} />
        )}
      </div>
    </div>
  );
}
