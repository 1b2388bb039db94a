/**
 * LCA results: choose product instances (by product, by plant, by a list of codes, or all), read or recompute
 * their results with a live state per instance, see GWP-total per year per instance, what blocks a year and
 * who must act, and export it all to Excel.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { LcaInstanceView, LcaRunView, ProcedureOutput } from '../../../../electron/core/ipc/contract.js';
import { explainErrCode } from '../../../../electron/core/api/errors.js';
import { LCA_SELECTORS } from '../../../../electron/core/names.js';
import { LCA_JOB_STATUSES } from '../../../../electron/core/spec/constants.js';
import { useApi } from '../../ApiContext.js';
import { openDownload, saveDownload } from '../../components/downloads.js';
import { formatMs, formatNumber } from '../../components/format.js';
import { lcaOutcomeWords, lcaStateWords } from '../../components/status.js';
import { Notice } from '../../components/Notice.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { Tag } from '../../components/Tag.js';
import { useI18n } from '../../i18n/index.js';
import type { T } from '../../i18n/index.js';
import { LCA_ABORT_MESSAGE, LCA_SELECTOR_MESSAGE, LCA_UNKNOWN_MESSAGE } from '../../i18n/names.js';
import { blockerLines, yearCounts } from './chartData.js';
import { GwpChart } from './GwpChart.js';
import { LcaAnalysis } from './LcaAnalysis.js';
import { useRpc } from '../../useRpc.js';
import { DataTable } from '../../components/DataTable.js';

type By = 'products' | 'plant' | 'instances' | 'all';

/** An instance found but not run yet. */
function waiting(i: ProcedureOutput<'lca.select'>['instances'][number]): LcaInstanceView {
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
type Options = ProcedureOutput<'lca.options'>;
type Selection = ProcedureOutput<'lca.select'>;

/** "4 of 4 instances completed", and how many of them computed no year (they are not a success). */
function lcaSummaryText(t: T, run: LcaRunView): string {
  const none = run.instances.filter((i) => lcaOutcomeWords(i)?.label === 'lca.out.completedNoYears').length;
  const base = { completed: run.summary.completed, total: run.total };
  return none > 0 ? t('lca.summaryNoYears', { ...base, none }) : t('lca.summary', base);
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

/** Checkboxes of codes to compute (products, plants): each its code and words; `children` go before them. */
function PickList({
  legend,
  items,
  picked,
  toggle,
  children,
}: {
  legend: string;
  items: readonly { code: string; text: ReactNode }[];
  picked: ReadonlySet<string>;
  toggle(code: string): void;
  children?: ReactNode;
}) {
  return (
    <fieldset className="pick-list">
      <legend className="visually-hidden">{legend}</legend>
      {children}
      {items.map(({ code, text }) => (
        <label key={code} className="checkbox">
          <input type="checkbox" checked={picked.has(code)} onChange={() => toggle(code)} />
          <span>
            <code>{code}</code> {text}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

export function LcaScreen({ active }: { active: boolean }) {
  const api = useApi();
  const { t, locale } = useI18n();
  const [options, setOptions] = useState<Options | null>(null);
  /** the choices could not be read (e.g. the key was refused): no endless "Loading…" */
  const [optionsFailed, setOptionsFailed] = useState(false);
  const [by, setBy] = useState<By>('products');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [list, setList] = useState('');
  const [selection, setSelection] = useState<Selection | null>(null);
  const [run, setRun] = useState<LcaRunView | null>(null);
  const rpc = useRpc<'options' | 'select' | 'start' | 'export'>();
  const { busy, fail, run: runRpc } = rpc;
  const [exported, setExported] = useState<string | null>(null);
  /** "Enter it here": the blocker being filled in (instanceId|year) and the quantity typed. */
  const [entering, setEntering] = useState<{ key: string; quantity: string; busy: boolean } | null>(null);
  const runId = run?.runId ?? null;

  const loadOptions = useCallback(async () => {
    setOptionsFailed(false);
    const o = await runRpc(
      () =>
        api.call('lca.options', {}).catch((e: unknown) => {
          setOptionsFailed(true);
          throw e;
        }),
      'options',
    );
    if (o) setOptions(o);
  }, [api, runRpc]);

  useEffect(() => {
    if (active && options === null && !optionsFailed) void loadOptions();
  }, [active, options, optionsFailed, loadOptions]);

  // Coming back to the screen tries again (the key may have been fixed meanwhile).
  useEffect(() => {
    if (!active) setOptionsFailed(false);
  }, [active]);

  // Live state per instance while a run goes on; the full report once it is done.
  useEffect(() => {
    if (!runId) return;
    const offP = api.on('lca.progress', (p) => {
      if (p.runId !== runId) return;
      setRun((cur) =>
        cur && cur.runId === runId
          ? {
              ...cur,
              finished: p.finished,
              instances: cur.instances.map((i) =>
                i.id === p.instanceId ? { ...i, state: p.state, jobStatus: p.jobStatus, errCode: p.errCode } : i,
              ),
            }
          : cur,
      );
    });
    const offC = api.on('lca.changed', (c) => {
      if (c.runId === runId && c.state !== 'running') void api.call('lca.report', { runId }).then(setRun, fail);
    });
    // A run that ended before this subscription existed (a fast recompute) sent its lca.changed already:
    // read its state once now, so the screen never waits for an event that has gone by.
    void api.call('lca.report', { runId }).then(
      (v) => setRun((cur) => (cur && cur.runId === runId && cur.state === 'running' ? v : cur)),
      () => {},
    );
    return () => {
      offP();
      offC();
    };
  }, [api, runId, fail]);

  const codes = useMemo(() => {
    if (by === 'instances')
      return list
        .split(/[\s,;]+/)
        .map((c) => c.trim())
        .filter(Boolean);
    if (by === 'all') return [];
    return [...picked];
  }, [by, list, picked]);

  const find = async () => {
    setRun(null);
    setExported(null);
    const s = await runRpc(() => api.call('lca.select', { by, codes }), 'select');
    if (s) setSelection(s);
  };

  const start = async (recompute: boolean) => {
    if (!selection) return;
    setExported(null);
    const report = await runRpc(async () => {
      const r = await api.call('lca.run', { selectionId: selection.selectionId, recompute });
      return api.call('lca.report', { runId: r.runId });
    }, 'start');
    if (report) setRun(report);
  };

  const exportIt = (open: boolean) => {
    if (!run) return;
    return runRpc(async () => {
      const ticket = await api.call('lca.export', { runId: run.runId });
      if (open) await openDownload(api, ticket);
      else await saveDownload(api, ticket);
      setExported(ticket.fileName);
    }, 'export');
  };

  // its own busy state (the form of one blocker), so the screen's actions stay usable meanwhile
  const enterProduction = async (instanceId: string, year: number, quantity: number) => {
    if (!run) return;
    setEntering((cur) => (cur ? { ...cur, busy: true } : cur));
    rpc.dismiss();
    try {
      const r = await api.call('lca.enterProduction', { runId: run.runId, instanceId, year, quantity });
      setEntering(null);
      setRun(await api.call('lca.report', { runId: r.runId }));
    } catch (e) {
      setEntering((cur) => (cur ? { ...cur, busy: false } : cur));
      fail(e);
    }
  };

  const toggle = (code: string) => {
    const next = new Set(picked);
    if (next.has(code)) next.delete(code);
    else next.add(code);
    setPicked(next);
  };

  const running = run?.state === 'running';
  const blockers = run ? blockerLines(run.instances) : [];
  return (
    <div className="stack stack-wide">
      <p className="lead">{t('lca.intro')}</p>
      {rpc.notice}

      <section className="card" aria-labelledby="lca-choose-heading">
        <div className="card-head">
          <h2 id="lca-choose-heading">{t('lca.chooseTitle')}</h2>
          <button type="button" className="btn btn-quiet" onClick={() => void loadOptions()} disabled={busy !== null}>
            {t('jobs.refresh')}
          </button>
        </div>
        <div className="segmented" role="radiogroup" aria-label={t('lca.chooseBy')}>
          {LCA_SELECTORS.map((b) => (
            <label key={b} className={`segment${by === b ? ' is-on' : ''}`}>
              <input
                type="radio"
                name="lca-by"
                value={b}
                checked={by === b}
                onChange={() => {
                  setBy(b);
                  setPicked(new Set());
                  setSelection(null);
                }}
              />
              {t(LCA_SELECTOR_MESSAGE[b])}
            </label>
          ))}
        </div>
        {options === null && optionsFailed ? (
          <p className="muted">{t('lca.optionsFailed')}</p>
        ) : options === null ? (
          <p aria-busy="true">{t('common.loading')}</p>
        ) : by === 'products' ? (
          <PickList
            legend={t('lca.by.products')}
            picked={picked}
            toggle={toggle}
            items={options.products.map((p) => ({
              code: p.article,
              text: (
                <>
                  {p.name} <span className="muted">({t('lca.instancesN', { count: p.instances })})</span>
                </>
              ),
            }))}
          >
            {options.products.length === 0 && <p className="muted">{t('lca.noProducts')}</p>}
          </PickList>
        ) : by === 'plant' ? (
          <PickList
            legend={t('lca.by.plant')}
            picked={picked}
            toggle={toggle}
            items={options.plants.map((p) => ({ code: p.code, text: p.name ?? '' }))}
          >
            {!options.plantsReadable && <Notice kind="warning">{t('lca.plantsUnreadable')}</Notice>}
          </PickList>
        ) : by === 'instances' ? (
          <div className="field">
            <label htmlFor="lca-list">{t('lca.listLabel')}</label>
            <textarea
              id="lca-list"
              rows={4}
              value={list}
              onChange={(e) => setList(e.target.value)}
              placeholder={options.instances
                .slice(0, 3)
                .map((i) => i.externalId)
                .join('\n')}
            />
            <p className="field-hint">{t('lca.listHint', { count: options.instances.length })}</p>
          </div>
        ) : (
          <p>{t('lca.allText')}</p>
        )}
        <div className="form-actions">
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void find()}
            disabled={busy !== null || (by !== 'all' && codes.length === 0)}
          >
            {busy === 'select' ? t('lca.finding') : t('lca.find')}
          </button>
        </div>
        {selection && (
          <>
            {selection.unknown.map((u) => (
              <Notice kind="warning" key={u.kind}>
                {t(LCA_UNKNOWN_MESSAGE[u.kind], { codes: u.codes.join(', ') })}
              </Notice>
            ))}
            <p className="status-line">{t('lca.found', { count: selection.instances.length })}</p>
          </>
        )}
      </section>

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
              <button
                type="button"
                className="btn btn-danger"
                onClick={() => void api.call('lca.cancel', { runId: run.runId }).catch(fail)}
              >
                {t('common.cancel')}
              </button>
            )}
            {run?.state === 'done' && (
              <>
                <button type="button" className="btn" onClick={() => void exportIt(false)} disabled={busy !== null}>
                  {busy === 'export' ? t('common.preparing') : t('lca.export')}
                </button>
                {api.transport === 'electron' && (
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
          <DataTable
            className="lca-table"
            columns={[
              t('lca.instance'),
              t('lca.product'),
              t('lca.plant'),
              t('lca.years'),
              t('lca.state'),
              t('lca.result'),
            ]}
          >
            {(run?.instances ?? selection.instances.map(waiting)).map((i) => {
              const yc = yearCounts(i);
              const info = i.errCode ? explainErrCode(i.errCode) : null;
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
                                value: formatNumber(yc.latest.gwp, locale, 0),
                                unit: run?.chart.unit ?? '',
                              })}
                            </>
                          )}
                        </span>
                      )}
                      {i.errCode && (
                        <span className="detail-line">
                          <code>{i.errCode}</code> {info && (locale === 'de' ? info.explanation_de : info.explanation)}
                          {info && (locale === 'de' ? info.action_de : info.action) && (
                            <span className="detail-action"> {locale === 'de' ? info.action_de : info.action}</span>
                          )}
                        </span>
                      )}
                      {i.outcome === 'idle' && <span className="detail-line">{t('lca.idleHint')}</span>}
                    </div>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        </section>
      )}

      {run && run.state !== 'running' && (
        <section className="card" aria-labelledby="lca-chart-heading">
          <h2 id="lca-chart-heading">{t('lca.chartTitle')}</h2>
          <GwpChart chart={run.chart} />
        </section>
      )}

      {run && run.state !== 'running' && blockers.length > 0 && (
        <section className="card" aria-labelledby="lca-blockers-heading">
          <h2 id="lca-blockers-heading">{t('lca.blockersTitle', { count: blockers.length })}</h2>
          <p className="field-hint">{t('lca.blockersIntro')}</p>
          <ul className="blockers">
            {blockers.map((b, i) => (
              <li key={i} className={b.needsAction ? 'needs-action' : 'waiting'}>
                <Tag tone={b.needsAction ? 'warn' : 'neutral'}>
                  {t(b.needsAction ? 'lca.actNow' : 'lca.nothingYet')}
                </Tag>{' '}
                <code>{b.instance}</code> · {b.year ?? '?'}:{' '}
                {b.kind === 'production_data'
                  ? b.needsAction
                    ? t('lca.blk.productionData', { year: b.year ?? '?' })
                    : t('lca.blk.futureYear', { year: b.year ?? '?' })
                  : t('lca.blk.other', { type: b.type ?? '?', kind: b.kind ?? '?' })}
                {b.kind === 'production_data' && b.needsAction && b.year !== null && (
                  <span className="detail-line enter-here">
                    {entering?.key === `${b.instanceId}|${b.year}` ? (
                      <form
                        className="inline-form"
                        onSubmit={(e) => {
                          e.preventDefault();
                          const q = Number(entering.quantity.replace(',', '.'));
                          if (entering.quantity.trim() !== '' && Number.isFinite(q) && q >= 0)
                            void enterProduction(b.instanceId, b.year!, q);
                        }}
                      >
                        <label>
                          {t('lca.enterQuantity', { year: b.year })}{' '}
                          <input
                            type="number"
                            min={0}
                            step="any"
                            required
                            value={entering.quantity}
                            onChange={(e) => setEntering({ ...entering, quantity: e.target.value })}
                          />
                        </label>{' '}
                        <button type="submit" className="btn btn-primary" disabled={entering.busy}>
                          {entering.busy ? t('lca.enterWriting') : t('lca.enterWrite')}
                        </button>
                      </form>
                    ) : (
                      <button
                        type="button"
                        className="btn btn-quiet"
                        onClick={() => setEntering({ key: `${b.instanceId}|${b.year}`, quantity: '', busy: false })}
                      >
                        {t('lca.enterHere')}
                      </button>
                    )}{' '}
                    <span className="muted small">{t('lca.enterWebHint')}</span>
                  </span>
                )}
                {b.msg && b.kind !== 'production_data' && (
                  <span className="detail-line detail-service">
                    {t('results.serviceSaid')} {b.msg}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      {run && run.state === 'done' && <LcaAnalysis runId={run.runId} instances={run.instances} onError={fail} />}
    </div>
  );
}
