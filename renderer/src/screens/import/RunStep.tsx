/** Step 4 of the import: the job running on the main side — progress bar, rows/s, ETA, pause and cancel. */
import { useEffect, useState } from 'react';
import type { JobProgressView, RpcError } from '../../../../core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { etaSeconds, formatDuration, formatNumber, formatRate, percent } from '../../components/format.js';
import { OutcomeChips } from '../../components/JobResults.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { useI18n } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/index.js';
import { useRpc } from '../../useRpc.js';

/** The dependency levels of a run (0 = supplier companies … 6 = BOMs), in words. */
export const RUN_LEVEL_MESSAGE = [
  'run.level.0',
  'run.level.1',
  'run.level.2',
  'run.level.3',
  'run.level.4',
  'run.level.5',
  'run.level.6',
] as const satisfies readonly MessageKey[];

export function RunStep({ jobId, file, onError }: { jobId: string; file: string; onError(e: RpcError): void }) {
  const api = useApi();
  const { t, locale } = useI18n();
  const [progress, setProgress] = useState<JobProgressView | null>(null);
  /** the stop asked for: shown from the call until the job stops (the step then changes) */
  const [asked, setAsked] = useState<'pause' | 'cancel' | null>(null);
  const rpc = useRpc<'pause' | 'cancel'>(onError);
  const stopping = rpc.busy ?? asked;

  useEffect(() => {
    let live = true;
    const off = api.on('jobs.progress', (p) => {
      if (p.jobId === jobId) setProgress(p);
    });
    void api.call('jobs.get', { jobId }).then(
      (v) => live && v.progress && setProgress((cur) => cur ?? v.progress),
      () => {},
    );
    return () => {
      live = false;
      off();
    };
  }, [api, jobId]);

  const stop = async (how: 'pause' | 'cancel') => {
    const ok = await rpc.run(() => api.call(how === 'pause' ? 'jobs.pause' : 'jobs.cancel', { jobId }), how);
    if (ok) setAsked(how);
  };

  const done = progress?.done ?? 0;
  const total = progress?.total ?? null;
  const eta = progress ? etaSeconds(progress.done, progress.total, progress.rowsPerS, progress.etaS) : null;
  return (
    <section className="card" aria-labelledby="run-heading">
      <div className="card-head">
        <h2 id="run-heading">{t('run.title', { file })}</h2>
        <code>{jobId}</code>
      </div>
      <ProgressBar
        value={done}
        max={total}
        label={t('run.progressLabel')}
        valueText={
          total ? t('run.rowsOf', { done: formatNumber(done, locale), total: formatNumber(total, locale) }) : undefined
        }
      />
      <dl className="run-stats" aria-live="polite">
        <div>
          <dt>{t('run.rows')}</dt>
          <dd>
            {total
              ? t('run.rowsOfPct', {
                  done: formatNumber(done, locale),
                  total: formatNumber(total, locale),
                  pct: percent(done, total),
                })
              : t('run.starting')}
          </dd>
        </div>
        <div>
          <dt>{t('run.rate')}</dt>
          <dd>
            {progress && progress.rowsPerS > 0
              ? t('run.rowsPerS', { rate: formatRate(progress.rowsPerS, locale) })
              : '—'}
          </dd>
        </div>
        <div>
          <dt>{t('run.eta')}</dt>
          <dd>{eta === null ? t('run.etaUnknown') : t('run.etaLeft', { time: formatDuration(eta) })}</dd>
        </div>
        <div>
          <dt>{t('run.level')}</dt>
          <dd>
            {progress ? t(RUN_LEVEL_MESSAGE[Math.max(0, Math.min(RUN_LEVEL_MESSAGE.length - 1, progress.level))]) : '—'}
          </dd>
        </div>
      </dl>
      {progress && <OutcomeChips counts={progress.byOutcome} />}
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => void stop('pause')} disabled={stopping !== null}>
          {stopping === 'pause' ? t('run.pausing') : t('run.pause')}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => void stop('cancel')}
          disabled={stopping !== null}
        >
          {stopping === 'cancel' ? t('run.cancelling') : t('run.cancel')}
        </button>
      </div>
      <p className="field-hint">{t('run.hint')}</p>
    </section>
  );
}
