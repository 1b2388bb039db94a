/**
 * Results as an EPD or sustainability manager reads them: any indicator, per declared unit (default) or as
 * annual totals, modules apart or summed; hotspots of one instance-year (top 10 + rest, with names and
 * suppliers) and the supplier products that contribute most across the selection; the trend against the
 * previous computed year. Data from `lca.analysis` (core/lca/analysis.ts).
 */
import { useEffect, useState } from 'react';
import type { LcaAnalysisView, LcaChartView, LcaInstanceView, RpcError } from '../../../../core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { formatPercent, formatSignificant } from '../../components/format.js';
import { chartNoteText, indicatorName, indicatorUnit } from '../../i18n/core-text.js';
import { useI18n } from '../../i18n/index.js';
import type { Locale } from '../../i18n/index.js';
import { COMPONENT_TYPE_MESSAGE, LCA_BASIS_MESSAGE, wordsOf } from '../../i18n/names.js';
import { LCA_BASES } from '../../../../core/names.js';
import { GwpChart } from './GwpChart.js';
import { chartText } from './chartData.js';
import { useRpc } from '../../useRpc.js';
import { DataTable } from '../../components/DataTable.js';

type Basis = LcaAnalysisView['basis'];
type Modules = LcaAnalysisView['modules'];

const fmt = (v: number | null, locale: Locale): string => (v === null ? '—' : formatSignificant(v, locale));
const pct = (v: number | null, locale: Locale): string => (v === null ? '—' : formatPercent(v * 100, locale));

export function LcaAnalysis({
  runId,
  instances,
  onError,
}: {
  runId: string;
  instances: readonly LcaInstanceView[];
  onError: (e: RpcError) => void;
}) {
  const api = useApi();
  const { t, locale } = useI18n();
  const [q, setQ] = useState<{
    indicator?: string;
    modules?: Modules;
    basis: Basis;
    declaredUnit?: string | null;
    instanceId?: string;
    year?: number;
  }>({
    basis: 'per_unit',
  });
  const [a, setA] = useState<LcaAnalysisView | null>(null);

  // the latest query's answer only: an older one that comes late does not overwrite it
  const { run } = useRpc(onError);
  useEffect(() => {
    void run(() => api.call('lca.analysis', { runId, ...q })).then((r) => r && setA(r));
  }, [api, runId, q, run]);

  if (!a) return <p aria-busy="true">{t('common.loading')}</p>;
  const label = (id: string) => {
    const i = instances.find((x) => x.id === id);
    return i ? `${i.externalId ?? i.id}${i.plantCode ? ` @ ${i.plantCode}` : ''}` : id;
  };
  // per declared unit the core hands ONE declared unit's series (chart.declaredUnit); the others are named in chart.hidden
  const unitName = (u: string | null) => u ?? '?';
  const unit = indicatorUnit(a.chart.unit ?? '', locale);
  const chart: LcaChartView = {
    unit: a.basis === 'per_unit' ? t('lca.perUnitAxis', { unit, declared: unitName(a.chart.declaredUnit) }) : unit,
    years: a.chart.years,
    modules: a.modules === 'A1-A4' ? ['A1-A3', 'A4'] : [a.modules],
    series: a.chart.series.map((s) => ({
      instanceId: s.instanceId,
      externalId: null,
      label: s.label,
      points: s.points.map((p) => ({ year: p.year, value: p.value, partial: p.partial, status: p.status })),
    })),
  };
  const hs = a.hotspots;
  const maxSlice = Math.max(1e-300, ...hs.slices.map((s) => Math.abs(s.value)));
  const choiceKey = hs.instanceId && hs.year !== null ? `${hs.instanceId}|${hs.year}` : '';

  return (
    <section className="card lca-analysis" aria-labelledby="lca-analysis-heading">
      <h2 id="lca-analysis-heading">{t('lca.analysisTitle')}</h2>
      <p className="field-hint">{t('lca.valuesAsComputed')}</p>
      <div className="form-actions lca-controls">
        <div className="segmented" role="radiogroup" aria-label={t('lca.basis.per_unit')}>
          {LCA_BASES.map((b) => (
            <label key={b} className={`segment${a.basis === b ? ' is-on' : ''}`}>
              <input
                type="radio"
                name="lca-basis"
                value={b}
                checked={a.basis === b}
                onChange={() => setQ({ ...q, basis: b })}
              />
              {t(LCA_BASIS_MESSAGE[b])}
            </label>
          ))}
        </div>
        <label className="field-inline">
          {t('lca.indicator')}{' '}
          <select value={a.indicator} onChange={(e) => setQ({ ...q, indicator: e.target.value })}>
            {a.indicators.map((i) => (
              <option key={i.code} value={i.code}>
                {i.code} – {indicatorName(i.code, locale) ?? i.code}
              </option>
            ))}
          </select>
        </label>
        {a.basis === 'per_unit' && a.chart.declaredUnits.length > 1 && (
          <label className="field-inline">
            {t('lca.declaredUnit')}{' '}
            <select
              value={a.chart.declaredUnit ?? ''}
              onChange={(e) => setQ({ ...q, declaredUnit: e.target.value === '' ? null : e.target.value })}
            >
              {a.chart.declaredUnits.map((u) => (
                <option key={u.unit ?? ''} value={u.unit ?? ''}>
                  {t('lca.declaredUnitOption', { unit: unitName(u.unit), count: u.count })}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="field-inline">
          {t('lca.modules')}{' '}
          <select value={a.modules} onChange={(e) => setQ({ ...q, modules: e.target.value as Modules })}>
            {a.moduleSelections.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted small">
        {a.indicators.some((i) => i.code === a.indicator) && indicatorName(a.indicator, locale)} [{chart.unit}]
      </p>
      <GwpChart
        chart={chart}
        boxClassName="chart-box-analysis"
        text={chartText(
          {
            indicator: a.indicator,
            indicatorName: indicatorName(a.indicator, locale) ?? null,
            modules: a.modules,
            unit: chart.unit ?? '',
          },
          t,
        )}
      />
      {a.chart.hidden.length > 0 && (
        <div className="lca-hidden-units small muted" role="note">
          <p>{t('lca.hiddenOtherUnit')}</p>
          <ul>
            {a.chart.hidden.map((h) => (
              <li key={h.instanceId}>{t('lca.hiddenItem', { label: h.label, unit: unitName(h.declaredUnit) })}</li>
            ))}
          </ul>
        </div>
      )}
      {a.chart.series.some((s) => s.points.some((p) => p.note)) && (
        <ul className="small muted">
          {a.chart.series.flatMap((s) =>
            s.points
              .filter((p) => p.note)
              .map((p) => (
                <li key={`${s.instanceId}-${p.year}`}>
                  {s.label} · {p.year}: {chartNoteText(p.note!, t)}
                </li>
              )),
          )}
        </ul>
      )}

      <h3>{t('lca.hotspotsTitle')}</h3>
      {!hs.readable ? (
        <p className="muted">{hs.reason ? t('lca.hotspotsMissing', { reason: hs.reason }) : t('lca.hotspotsNone')}</p>
      ) : (
        <>
          <label className="field-inline">
            {t('lca.hotspotsFor')}{' '}
            <select
              value={choiceKey}
              onChange={(e) => {
                const [instanceId, year] = e.target.value.split('|');
                setQ({ ...q, instanceId, year: Number(year) });
              }}
            >
              {hs.choices.map((c) => (
                <option key={`${c.instanceId}|${c.year}`} value={`${c.instanceId}|${c.year}`}>
                  {label(c.instanceId)} · {c.year} {c.partial ? t('lca.partialMark') : ''}
                </option>
              ))}
            </select>
          </label>
          <p className="field-hint">{t('lca.hs.sharesNote', { modules: a.modules })}</p>
          <ol className="hotspot-bars" aria-label={t('lca.hotspotsTitle')}>
            {hs.slices.map((s, k) => (
              <li key={k} className={s.rest ? 'is-rest' : ''}>
                <span className="hotspot-label">{s.rest ? `${t('lca.hs.rest')}: ${s.label}` : s.label}</span>
                <span className="hotspot-bar" style={{ width: `${(Math.abs(s.value) / maxSlice) * 100}%` }} />
                <span className="hotspot-value">
                  {fmt(s.value, locale)} {unit} ·{' '}
                  {t('lca.hs.sliceShare', { share: pct(s.share, locale), modules: a.modules })}
                </span>
              </li>
            ))}
          </ol>
          {/* a table wider than its card scrolls inside it (900 px), never the page */}
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t('lca.hotspotsTitle')}>
            <DataTable
              columns={[
                t('lca.hs.component'),
                t('lca.hs.type'),
                t('lca.hs.supplier'),
                t('lca.hs.mass'),
                t('lca.hs.module'),
                t('lca.hs.value'),
                t('lca.hs.perUnit'),
                t('lca.hs.shareOfModule'),
              ]}
            >
              {hs.rows.map((r, k) => (
                <tr key={k}>
                  <td>
                    {r.component.name ?? '—'} {r.component.externalId && <code>{r.component.externalId}</code>}
                  </td>
                  <td>{wordsOf(t, COMPONENT_TYPE_MESSAGE, r.component.componentType)}</td>
                  <td>{[r.component.supplierCompany, r.component.supplierPlant].filter(Boolean).join(', ') || '—'}</td>
                  <td>{fmt(r.component.massKg, locale)}</td>
                  <td>{r.module}</td>
                  <td>{fmt(r.value, locale)}</td>
                  <td title={r.perDeclaredUnit.note ? chartNoteText(r.perDeclaredUnit.note, t) : undefined}>
                    {fmt(r.perDeclaredUnit.value, locale)}
                  </td>
                  <td>{pct(r.share, locale)}</td>
                </tr>
              ))}
            </DataTable>
          </div>
          {hs.top.length > 0 && (
            <>
              <h3>{t('lca.topTitle', { year: hs.year ?? '' })}</h3>
              <ol>
                {hs.top.map((x, k) => (
                  <li key={k}>
                    {x.label}: {fmt(x.value, locale)} {unit}{' '}
                    <span className="muted">({t('lca.topInstances', { count: x.instances })})</span>
                  </li>
                ))}
              </ol>
            </>
          )}
        </>
      )}

      {a.trend.length > 0 && (
        <>
          <h3>{t('lca.trendTitle')}</h3>
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t('lca.trendTitle')}>
            <DataTable
              columns={[
                t('lca.instance'),
                t('lca.tr.year'),
                t('lca.tr.value'),
                t('lca.tr.perUnit'),
                t('lca.tr.previous'),
                t('lca.tr.change'),
                t('lca.tr.changePerUnit'),
              ]}
            >
              {a.trend.map((r) => (
                <tr key={`${r.instanceId}-${r.year}`}>
                  <td>{label(r.instanceId)}</td>
                  <td>
                    {r.year} {r.partial && <span className="muted small">{t('lca.partialMark')}</span>}
                  </td>
                  <td>{fmt(r.value, locale)}</td>
                  <td title={r.perDeclaredUnit.note ? chartNoteText(r.perDeclaredUnit.note, t) : undefined}>
                    {fmt(r.perDeclaredUnit.value, locale)}
                  </td>
                  <td>
                    {r.previousYear ?? '—'}{' '}
                    {r.previousPartial && <span className="muted small">{t('lca.partialMark')}</span>}
                  </td>
                  <td>
                    {fmt(r.changeAbs, locale)}
                    {r.changePct !== null && ` (${formatPercent(r.changePct, locale)})`}
                  </td>
                  <td>
                    {fmt(r.changePerUnitAbs, locale)}
                    {r.changePerUnitPct !== null && ` (${formatPercent(r.changePerUnitPct, locale)})`}
                  </td>
                </tr>
              ))}
            </DataTable>
          </div>
        </>
      )}
    </section>
  );
}
