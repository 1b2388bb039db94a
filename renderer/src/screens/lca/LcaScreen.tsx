/**
 * LCA results: choose product instances (by product, by plant, by a list of codes, or all), read or recompute
 * their results with a live state per instance, see GWP-total per year per instance, what blocks a year and
 * who must act, and export it all to Excel. The state and calls are useLcaRuns.ts; the parts of the screen are
 * LcaChooser (choosing), LcaInstances (the run's table), GwpChart, LcaBlockers and LcaAnalysis.
 */
import type { LcaRunView } from '../../../../core/ipc/contract.js';
import { formatMs } from '../../components/format.js';
import { lcaOutcomeWords } from '../../components/status.js';
import { Notice } from '../../components/Notice.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { useI18n } from '../../i18n/index.js';
import type { T } from '../../i18n/index.js';
import { LCA_ABORT_MESSAGE } from '../../i18n/names.js';
import { blockerLines } from './chartData.js';
import { GwpChart } from './GwpChart.js';
import { LcaAnalysis } from './LcaAnalysis.js';
import { LcaBlockers } from './LcaBlockers.js';
import { LcaChooser } from './LcaChooser.js';
import { LcaInstances } from './LcaInstances.js';
import { useLcaRuns } from './useLcaRuns.js';

/** "4 of 4 instances completed", and how many of them computed no year (they are not a success). */
function lcaSummaryText(t: T, run: LcaRunView): string {
  const none = run.instances.filter((i) => lcaOutcomeWords(i)?.label === 'lca.out.completedNoYears').length;
  const base = { completed: run.summary.completed, total: run.total };
  return none > 0 ? t('lca.summaryNoYears', { ...base, none }) : t('lca.summary', base);
}

export function LcaScreen({ active }: { active: boolean }) {
  const { t } = useI18n();
  const lca = useLcaRuns(active);
  const { run, selection, rpc, exported, transport, start, exportIt, cancel, enterProduction } = lca;
  const { busy, fail } = rpc;
  const running = run?.state === 'running';
  const blockers = run ? blockerLines(run.instances) : [];
  return (
    <div className="stack stack-wide">
      <p className="lead">{t('lca.intro')}</p>
      {rpc.notice}

      <LcaChooser
        options={lca.options}
        optionsFailed={lca.optionsFailed}
        selection={selection}
        busy={busy}
        onReload={() => void lca.loadOptions()}
        onFind={(by, codes) => void lca.find(by, codes)}
        onByChange={lca.clearSelection}
      />

      {selection && selection.instances.length > 0 && (
        <section className="card" aria-labelledby="lca-run-heading">
          <div className="card-head">
            <h2 id="lca-run-heading">{t('lca.runTitle')}</h2>
            {run && run.state !== 'running' && (
              <span className="muted">{t('lca.took', { time: formatMs(run.durationMs) })}</span>
            )}
          </div>
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void start(true)}
              disabled={busy !== null || running}
            >
              {t('lca.recompute')}
            </button>
            <button type="button" className="btn" onClick={() => void start(false)} disabled={busy !== null || running}>
              {t('lca.readStored')}
            </button>
            {running && run && (
              <button type="button" className="btn btn-danger" onClick={cancel}>
                {t('common.cancel')}
              </button>
            )}
            {run?.state === 'done' && (
              <>
                <button type="button" className="btn" onClick={() => void exportIt(false)} disabled={busy !== null}>
                  {busy === 'export' ? t('common.preparing') : t('lca.export')}
                </button>
                {transport === 'electron' && (
                  <button type="button" className="btn" onClick={() => void exportIt(true)} disabled={busy !== null}>
                    {t('results.openResults')}
                  </button>
                )}
              </>
            )}
          </div>
          <p className="field-hint">{t('lca.recomputeHint')}</p>
          {exported && <Notice kind="success">{t('lca.exported', { file: exported })}</Notice>}
          {run && (
            <>
              <ProgressBar
                value={run.finished}
                max={run.total}
                label={t('lca.progressLabel')}
                valueText={t('lca.finishedOf', { done: run.finished, total: run.total })}
              />
              <p className="status-line" aria-live="polite">
                {running
                  ? t('lca.finishedOf', { done: run.finished, total: run.total })
                  : run.state === 'failed'
                    ? t('lca.runFailed', { error: run.error ?? '' })
                    : lcaSummaryText(t, run)}
              </p>
              {run.aborted && (
                <Notice kind="warning">
                  {t(LCA_ABORT_MESSAGE[run.aborted.reason])} {run.aborted.errCode && <code>{run.aborted.errCode}</code>}
                </Notice>
              )}
            </>
          )}
          <LcaInstances run={run} selection={selection} />
        </section>
      )}

      {run && run.state !== 'running' && (
        <section className="card" aria-labelledby="lca-chart-heading">
          <h2 id="lca-chart-heading">{t('lca.chartTitle')}</h2>
          <GwpChart chart={run.chart} />
        </section>
      )}

      {run && run.state !== 'running' && blockers.length > 0 && (
        <LcaBlockers blockers={blockers} onEnter={enterProduction} />
      )}

      {run && run.state === 'done' && <LcaAnalysis runId={run.runId} instances={run.instances} onError={fail} />}
    </div>
  );
}
