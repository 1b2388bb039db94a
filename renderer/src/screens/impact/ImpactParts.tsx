/**
 * Parts of a job's LCA impact shared by the dry run and the results' panel: the affected instances (per plant,
 * with the job rows affecting each), the estimates (labelled as estimates, with what could not be estimated)
 * and the waterfall of one change by source.
 */
import { useState } from 'react';
import type { LcaAffectedView, LcaEstimatesView, LcaImpactReportView } from '../../../../core/ipc/contract.js';
import { DataTable } from '../../components/DataTable.js';
import { formatNumber } from '../../components/format.js';
import { Tag } from '../../components/Tag.js';
import { indicatorName } from '../../i18n/core-text.js';
import { useI18n } from '../../i18n/index.js';
import { COMPONENT_TYPE_MESSAGE, wordsOf } from '../../i18n/names.js';
import {
  barPlace,
  causeText,
  impactText,
  instanceName,
  lcaValue,
  signedChange,
  unitText,
  waterfall,
} from './impactLogic.js';
import './impact.css';

/**
 * Text whose codes and cell references (`E-SILO-1`, `silo-items!2`) are never broken at their hyphens: each word
 * with a hyphen is kept on one line, the text wraps at its spaces.
 */
export function Whole({ text }: { text: string }) {
  return (
    <>
      {text.split(/(\S*-\S*)/).map((part, k) =>
        k % 2 === 1 ? (
          <span key={k} className="nowrap">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** The indicator shown first when there. */
const DEFAULT_INDICATOR = 'GWP-total';

/** The affected count, per plant, and each instance with what changes it and the job rows that do. */
export function AffectedInstances({ affected, idPrefix }: { affected: LcaAffectedView; idPrefix: string }) {
  const { t, locale } = useI18n();
  if (affected.count === 0) return <p>{t('impact.none')}</p>;
  return (
    <>
      <p className="impact-count">
        <strong>{t('impact.affected', { n: affected.count })}</strong>
      </p>
      <div className="impact-columns">
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${idPrefix}-plants`}>
          <h4 id={`${idPrefix}-plants`}>{t('impact.byPlant')}</h4>
          <DataTable columns={[t('impact.plant'), { head: t('impact.count'), num: true }]}>
            {affected.byPlant.map((p, k) => (
              <tr key={k}>
                <td>{p.plantCode ?? t('impact.noPlant')}</td>
                <td className="num">{formatNumber(p.count, locale)}</td>
              </tr>
            ))}
          </DataTable>
        </div>
        <div className="table-scroll impact-wide" tabIndex={0} role="region" aria-labelledby={`${idPrefix}-list`}>
          <h4 id={`${idPrefix}-list`}>{t('impact.instancesTitle')}</h4>
          <DataTable columns={[t('impact.instance'), t('impact.causes'), t('impact.rows')]}>
            {affected.instances.map((i, k) => (
              <tr key={k}>
                <td>
                  <span className="nowrap">{instanceName(i)}</span>
                  {i.instanceId === null && <span className="small muted"> · {t('impact.created')}</span>}
                </td>
                <td>
                  <Whole text={i.causes.map((c) => causeText(t, c)).join('; ')} />
                </td>
                <td className="impact-rows">
                  <Whole text={i.rows.join(', ')} />
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      </div>
      {affected.moreInstances > 0 && (
        <p className="field-hint">{t('impact.moreInstances', { n: affected.moreInstances })}</p>
      )}
      {affected.unchecked.length > 0 && (
        <ul className="small muted">
          {affected.unchecked.map((u, k) => (
            <li key={k}>{t('impact.unchecked', { what: u })}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The estimated change: always labelled an estimate, with what could not be estimated and why. */
export function EstimatesList({ estimates, idPrefix }: { estimates: LcaEstimatesView; idPrefix: string }) {
  const { t, locale } = useI18n();
  const e = estimates;
  const indicators = [...new Set(e.estimates.map((x) => x.indicator))];
  const [chosen, setChosen] = useState<string | null>(null);
  const indicator =
    chosen && indicators.includes(chosen)
      ? chosen
      : indicators.includes(DEFAULT_INDICATOR)
        ? DEFAULT_INDICATOR
        : (indicators[0] ?? null);
  const shown = e.estimates.filter((x) => x.indicator === indicator);
  return (
    <section className="impact-estimates" aria-labelledby={`${idPrefix}-est`}>
      <h3 id={`${idPrefix}-est`}>
        {t('impact.est.title')} <Tag tone="warn">{t('impact.est.tag')}</Tag>
      </h3>
      <p className="field-hint">{t('impact.est.explain')}</p>
      {indicators.length > 1 && (
        <label className="field-inline">
          {t('impact.indicator')}{' '}
          <select value={indicator ?? ''} onChange={(ev) => setChosen(ev.target.value)}>
            {indicators.map((code) => (
              <option key={code} value={code}>
                {code} – {indicatorName(code, locale) ?? code}
              </option>
            ))}
          </select>
        </label>
      )}
      {shown.length === 0 ? (
        <p>{t('impact.est.none')}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${idPrefix}-est`}>
          <DataTable
            columns={[
              t('impact.instance'),
              t('impact.col.year'),
              t('impact.col.module'),
              { head: t('impact.est.current'), num: true },
              { head: t('impact.est.change'), num: true },
            ]}
          >
            {shown.map((x, k) => (
              <tr key={k}>
                <td className="nowrap">{instanceName(x)}</td>
                <td>{x.year}</td>
                <td className="nowrap">{x.module}</td>
                <td className="num">
                  {lcaValue(x.current, locale)} {unitText(x.unit, locale)}
                </td>
                <td className="num">
                  <span className="nowrap">≈ {signedChange(x.change, locale)}</span> {unitText(x.unit, locale)}
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      )}
      {e.moreEstimates > 0 && <p className="field-hint">{t('impact.est.more', { n: e.moreEstimates })}</p>}
      {e.notEstimated.length > 0 && (
        <>
          <h4>{t('impact.est.notEstimated')}</h4>
          <ul className="impact-list">
            {e.notEstimated.map((n, k) => (
              <li key={k}>
                <span className="nowrap">{instanceName(n)}</span>:{' '}
                <Whole text={impactText(t, locale, n.whyCode, n.why)} />
                {n.rows.length > 0 && (
                  <span className="small muted">
                    {' '}
                    (<Whole text={n.rows.join(', ')} />)
                  </span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

type Attribution = NonNullable<LcaImpactReportView['attribution']>;

/** The change of one instance, year and module as a waterfall: before, each source's change, after. */
export function AttributionChart({ a, label }: { a: Attribution; label: string }) {
  const { t, locale } = useI18n();
  const w = waterfall(
    a.before,
    a.lines.map((l) => l.change),
    a.after,
  );
  const lineLabel = (l: Attribution['lines'][number]) =>
    l.line === 'component'
      ? [l.name ?? l.code ?? '—', l.componentType ? wordsOf(t, COMPONENT_TYPE_MESSAGE, l.componentType) : null]
          .filter(Boolean)
          .join(' · ')
      : t(l.line === 'production_figures' ? 'impact.line.production_figures' : 'impact.line.not_attributed');
  if (a.lines.length === 0) return <p className="muted">{t('impact.noBreakdown')}</p>;
  return (
    <ol className="impact-waterfall" aria-label={label}>
      {w.steps.map((s, k) => {
        const { left, width } = barPlace(s, w);
        const line = s.line === null ? null : a.lines[s.line];
        const text =
          s.kind === 'before' ? t('impact.col.before') : s.kind === 'after' ? t('impact.col.after') : lineLabel(line!);
        return (
          <li key={k} className={`is-${s.kind}`}>
            <span className="impact-wf-label">
              <Whole text={text} />
              {line && line.rows.length > 0 && (
                <span className="small muted">
                  {' '}
                  (<Whole text={line.rows.join(', ')} />)
                </span>
              )}
            </span>
            <span className="impact-wf-track" aria-hidden="true">
              <span className="impact-wf-bar" style={{ left: `${left}%`, width: `max(2px, ${width}%)` }} />
            </span>
            <span className="impact-wf-value">
              {s.kind === 'up' || s.kind === 'down' ? signedChange(s.value, locale) : lcaValue(s.value, locale)}{' '}
              {unitText(a.unit, locale)}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
