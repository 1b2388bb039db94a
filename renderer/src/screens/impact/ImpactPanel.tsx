/**
 * A finished job's "LCA impact" (in the import's results and on the Jobs screen): the instances the job affects,
 * the recompute of their LCA (request count and the daily limit said before it starts, progress while it runs),
 * then the before → after table of one indicator and the waterfall of one instance's change by source. Before a
 * recompute, the dry run's estimates are shown as estimates.
 */
import { useCallback, useEffect, useState } from 'react';
import type { LcaImpactView } from '../../../../core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { DataTable } from '../../components/DataTable.js';
import { formatNumber, formatPercent } from '../../components/format.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { indicatorName } from '../../i18n/core-text.js';
import { useI18n } from '../../i18n/index.js';
import { useRpc } from '../../useRpc.js';
import { AffectedInstances, AttributionChart, EstimatesList } from './ImpactParts.js';
import { blockerText, impactText, instanceName, lcaValue, signedChange, unitText } from './impactLogic.js';

interface Query {
  indicator?: string;
  instanceId?: string;
  year?: number;
  module?: string;
}

/** How often the panel reads the recompute's state while it runs. */
const POLL_MS = 1000;

export function ImpactPanel({ jobId }: { jobId: string }) {
  const api = useApi();
  const { t, locale } = useI18n();
  const [q, setQ] = useState<Query>({});
  const [v, setV] = useState<LcaImpactView | null>(null);
  const rpc = useRpc<'load' | 'start' | 'stop'>();
  const { run } = rpc;

  const load = useCallback(
    () => run(() => api.call('lca.impact', { jobId, ...q }), 'load').then((r) => r && setV(r)),
    [api, jobId, q, run],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const running = v?.recompute.state === 'running';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [running, load]);

  const start = async () => {
    const ok = await rpc.run(() => api.call('lca.impactRecompute', { jobId }), 'start');
    if (ok) await load();
  };
  const stop = async () => {
    await rpc.run(() => api.call('lca.impactCancel', { jobId }), 'stop');
  };

  const id = `impact-${jobId}`;
  const rc = v?.recompute;
  const report = v?.report ?? null;
  const label = (x: { instanceId: string; year: number; module: string }) => {
    const i = report?.instances.find((r) => r.instanceId === x.instanceId);
    return `${i ? instanceName(i) : x.instanceId} · ${x.year} · ${x.module}`;
  };
  const a = report?.attribution ?? null;
  return (
    <section className="card impact-panel impact-card" aria-labelledby={id}>
      <div className="card-head">
        <h2 id={id}>{t('impact.title')}</h2>
      </div>
      {rpc.notice}
      {!v ? (
        <p aria-busy="true">{t('impact.finding')}</p>
      ) : (
        <>
          {v.affectedError && <p>{t('impact.notFound', { reason: v.affectedError })}</p>}
          {v.affected && <AffectedInstances affected={v.affected} idPrefix={id} />}

          {v.recomputes > 0 && (
            <div className="impact-recompute">
              <div className="impact-actions">
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={() => void start()}
                  disabled={running || rpc.busy === 'start'}
                >
                  {t('impact.recompute', {
                    n: v.recomputes,
                    requests: formatNumber(v.requestsAbout, locale),
                  })}
                </button>
                {running && (
                  <button type="button" className="btn" onClick={() => void stop()} disabled={rpc.busy === 'stop'}>
                    {t('impact.stop')}
                  </button>
                )}
              </div>
              <p className="field-hint">{t('impact.limitNote')}</p>
              {running && rc && (
                <div aria-live="polite">
                  <ProgressBar
                    value={rc.finished}
                    max={rc.total || null}
                    label={t('impact.progressLabel')}
                    valueText={
                      rc.total
                        ? t('impact.progress', {
                            done: formatNumber(rc.finished, locale),
                            total: formatNumber(rc.total, locale),
                          })
                        : undefined
                    }
                  />
                  <p>
                    {rc.total
                      ? t('impact.progress', {
                          done: formatNumber(rc.finished, locale),
                          total: formatNumber(rc.total, locale),
                        })
                      : t('impact.starting')}
                  </p>
                </div>
              )}
              {rc?.state === 'failed' && rc.error && <p role="alert">{t('impact.failed', { reason: rc.error })}</p>}
            </div>
          )}

          {!report && v.estimates && <EstimatesList estimates={v.estimates} idPrefix={id} />}
          {!report && v.recomputes > 0 && !running && <p className="muted">{t('impact.notYet')}</p>}

          {report && (
            <>
              {report.aborted && <p role="alert">{t('impact.stopped', { reason: report.aborted.message })}</p>}
              {report.instances.some((i) => i.problem || i.yearsNeedingData.length > 0) && (
                <ul className="impact-list">
                  {report.instances.flatMap((i) => [
                    ...(i.problem
                      ? [
                          <li key={`p-${i.instanceId}`}>
                            {instanceName(i)}:{' '}
                            {i.problemCodes
                              ? i.problemCodes.map((c) => impactText(t, locale, c, '')).join('; ')
                              : i.problem}
                          </li>,
                        ]
                      : []),
                    ...(i.yearsNeedingData.length
                      ? [
                          <li key={`y-${i.instanceId}`}>
                            {t('impact.needsData', { instance: instanceName(i), years: i.yearsNeedingData.join(', ') })}
                          </li>,
                        ]
                      : []),
                  ])}
                </ul>
              )}
              <h3 id={`${id}-table`}>{t('impact.tableTitle')}</h3>
              {report.indicators.length > 0 && (
                <div className="lca-controls impact-actions">
                  <label className="field-inline">
                    {t('impact.indicator')}{' '}
                    <select value={report.indicator ?? ''} onChange={(e) => setQ({ indicator: e.target.value })}>
                      {report.indicators.map((i) => (
                        <option key={i.code} value={i.code}>
                          {i.code} – {indicatorName(i.code, locale) ?? i.code}
                        </option>
                      ))}
                    </select>
                  </label>
                </div>
              )}
              {report.rows.length === 0 ? (
                <p className="muted">{t('impact.noRows')}</p>
              ) : (
                <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-table`}>
                  <DataTable
                    columns={[
                      t('impact.instance'),
                      t('impact.col.year'),
                      t('impact.col.module'),
                      { head: t('impact.col.before'), num: true },
                      { head: t('impact.col.after'), num: true },
                      { head: t('impact.col.change'), num: true },
                      { head: t('impact.col.pct'), num: true },
                    ]}
                  >
                    {report.rows.map((r, k) => (
                      <tr key={k}>
                        <td className="nowrap">{instanceName(r)}</td>
                        <td>{r.year}</td>
                        <td className="nowrap">{r.module}</td>
                        <td className="num">
                          {r.blockedBefore && r.before === null
                            ? t('impact.blocked', { why: blockerText(t, r.blockedBefore, r.year) })
                            : lcaValue(r.before, locale)}
                        </td>
                        <td className="num">
                          {r.blockedAfter && r.after === null
                            ? t('impact.blocked', { why: blockerText(t, r.blockedAfter, r.year) })
                            : lcaValue(r.after, locale)}
                        </td>
                        <td className="num nowrap">
                          {signedChange(r.change, locale)} {r.change !== null && unitText(r.unit, locale)}
                        </td>
                        <td className="num nowrap">
                          {r.changePct === null ? '—' : formatPercent(r.changePct, locale)}
                        </td>
                      </tr>
                    ))}
                  </DataTable>
                </div>
              )}
              {report.moreRows > 0 && <p className="field-hint">{t('impact.moreRows', { n: report.moreRows })}</p>}
              {report.blocked.length > 0 && (
                <>
                  <h4>{t('impact.blockedTitle')}</h4>
                  <ul className="impact-list">
                    {report.blocked.map((b, k) => (
                      <li key={k}>
                        {instanceName(b)} · {b.year}: {blockerText(t, b.why, b.year)}
                      </li>
                    ))}
                  </ul>
                </>
              )}

              <h3>{t('impact.attributionTitle')}</h3>
              {!a ? (
                <p className="muted">{t('impact.attributionNone')}</p>
              ) : (
                <>
                  <label className="field-inline">
                    {t('impact.attributionFor')}{' '}
                    <select
                      value={`${a.instanceId}|${a.year}|${a.module}`}
                      onChange={(e) => {
                        const [instanceId, year, module] = e.target.value.split('|');
                        setQ({ ...q, instanceId, year: Number(year), module });
                      }}
                    >
                      {report.choices.map((c) => (
                        <option
                          key={`${c.instanceId}|${c.year}|${c.module}`}
                          value={`${c.instanceId}|${c.year}|${c.module}`}
                        >
                          {label(c)}
                        </option>
                      ))}
                    </select>
                  </label>
                  <AttributionChart
                    a={a}
                    label={t('impact.attributionLabel', { what: `${label(a)} · ${report.indicator ?? ''}` })}
                  />
                </>
              )}
              {report.notes.length > 0 && (
                <>
                  <h4>{t('impact.notesTitle')}</h4>
                  <ul className="impact-list small">
                    {report.notes.map((n, k) => (
                      <li key={k}>{impactText(t, locale, report.noteCodes?.[k], n)}</li>
                    ))}
                  </ul>
                </>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
