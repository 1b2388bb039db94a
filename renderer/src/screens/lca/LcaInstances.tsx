/** The LCA run's table: each chosen instance, its live state while the run goes on, then its outcome. */
import type { LcaInstanceView, LcaRunView } from '../../../../core/ipc/contract.js';
import { LCA_JOB_STATUSES } from '../../../../core/spec/constants.js';
import { DataTable } from '../../components/DataTable.js';
import { formatSignificant } from '../../components/format.js';
import { lcaOutcomeWords, lcaStateWords } from '../../components/status.js';
import { Tag } from '../../components/Tag.js';
import { errCodeText } from '../../i18n/core-text.js';
import { useI18n } from '../../i18n/index.js';
import { yearCounts } from './chartData.js';
import type { LcaSelection } from './useLcaRuns.js';

/** An instance found but not run yet. */
function waiting(i: LcaSelection['instances'][number]): LcaInstanceView {
  return {
    ...i,
    state: 'waiting',
    outcome: null,
    jobStatus: null,
    errCode: null,
    msg: null,
    recomputed: false,
    waitedForRunningJob: false,
    years: [],
  };
}

function StateTag({ i, runStarted }: { i: LcaInstanceView; runStarted: boolean }) {
  const { t } = useI18n();
  const w = lcaStateWords(i, runStarted);
  return <Tag tone={w.tone}>{t(w.label)}</Tag>;
}

function OutcomeTag({ i }: { i: LcaInstanceView }) {
  const { t } = useI18n();
  const w = lcaOutcomeWords(i);
  return w ? <Tag tone={w.tone}>{t(w.label)}</Tag> : null;
}

/** The run's instances, or (before a run) the instances found, all waiting. */
export function LcaInstances({ run, selection }: { run: LcaRunView | null; selection: LcaSelection }) {
  const { t, locale } = useI18n();
  return (
    // a table wider than its card (German words at 900 px) scrolls inside it, never the page
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t('lca.runTitle')}>
      <DataTable
        className="lca-table"
        columns={[t('lca.instance'), t('lca.product'), t('lca.plant'), t('lca.years'), t('lca.state'), t('lca.result')]}
      >
        {(run?.instances ?? selection.instances.map(waiting)).map((i) => {
          const yc = yearCounts(i);
          const info = i.errCode ? errCodeText(i.errCode, locale) : null;
          return (
            <tr key={i.id}>
              <td>
                <code>{i.externalId ?? i.id}</code>
                {i.name && <div className="small muted">{i.name}</div>}
              </td>
              <td>
                {i.productArticle && <code>{i.productArticle}</code>} {i.productName}
              </td>
              <td>{i.plantCode ? <code>{i.plantCode}</code> : '—'}</td>
              <td>
                {i.producedFrom ?? '?'}–{i.producedTo ?? t('lca.openEnded')}
              </td>
              <td>
                <StateTag i={i} runStarted={run !== null} />
                {i.jobStatus && !(LCA_JOB_STATUSES as readonly string[]).includes(i.jobStatus) && (
                  <span className="small muted"> {i.jobStatus}</span>
                )}
              </td>
              <td>
                <div className="cell-details">
                  <OutcomeTag i={i} />
                  {i.outcome === 'completed' && (
                    <span className="detail-line">
                      {t('lca.yearsSummary', { computed: yc.computed, blocked: yc.blocked })}
                      {yc.latest && (
                        <>
                          {' · '}
                          {t('lca.latest', {
                            year: yc.latest.year,
                            value: formatSignificant(yc.latest.gwp, locale),
                            unit: run?.chart.unit ?? '',
                          })}
                        </>
                      )}
                    </span>
                  )}
                  {i.errCode && (
                    <span className="detail-line">
                      <code>{i.errCode}</code> {info?.explanation}
                      {info?.action && <span className="detail-action"> {info.action}</span>}
                    </span>
                  )}
                  {i.outcome === 'idle' && <span className="detail-line">{t('lca.idleHint')}</span>}
                </div>
              </td>
            </tr>
          );
        })}
      </DataTable>
    </div>
  );
}
