/**
 * What blocks a year of the run and who must act: a missing production figure of a past year can be entered
 * here ("Enter it here": the figure written, then a new run), in the product's declared unit the input names; a
 * future year waits; others in the service's words.
 */
import { useState } from 'react';
import { readQuantity } from '../../components/number-input.js';
import { Tag } from '../../components/Tag.js';
import { useI18n } from '../../i18n/index.js';
import { quantityLabel, type BlockerLine } from './chartData.js';

export function LcaBlockers({
  blockers,
  onEnter,
}: {
  blockers: readonly BlockerLine[];
  /** write the figure; `written` once the service took it, `failed` if not */
  onEnter(instanceId: string, year: number, quantity: number, on: { written(): void; failed(): void }): Promise<void>;
}) {
  const { t, locale } = useI18n();
  /** "Enter it here": the blocker being filled in (instanceId|year) and the quantity typed. */
  const [entering, setEntering] = useState<{
    key: string;
    quantity: string;
    busy: boolean;
    /** why the typed quantity was refused (read in the UI's language, never reinterpreted) */
    problem?: string | null;
  } | null>(null);
  // its own busy state (the form of one blocker), so the screen's actions stay usable meanwhile
  const enterProduction = (instanceId: string, year: number, quantity: number) => {
    setEntering((cur) => (cur ? { ...cur, busy: true } : cur));
    return onEnter(instanceId, year, quantity, {
      written: () => setEntering(null),
      failed: () => setEntering((cur) => (cur ? { ...cur, busy: false } : cur)),
    });
  };
  return (
    <section className="card" aria-labelledby="lca-blockers-heading">
      <h2 id="lca-blockers-heading">{t('lca.blockersTitle', { count: blockers.length })}</h2>
      <p className="field-hint">{t('lca.blockersIntro')}</p>
      <ul className="blockers">
        {blockers.map((b, i) => (
          <li key={i} className={b.needsAction ? 'needs-action' : 'waiting'}>
            <Tag tone={b.needsAction ? 'warn' : 'neutral'}>{t(b.needsAction ? 'lca.actNow' : 'lca.nothingYet')}</Tag>{' '}
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
                      const read = readQuantity(entering.quantity, locale, t);
                      setEntering({ ...entering, problem: 'problem' in read ? read.problem : null });
                      if ('value' in read) void enterProduction(b.instanceId, b.year!, read.value);
                    }}
                  >
                    <label>
                      {quantityLabel(b, t)}{' '}
                      <input
                        type="text"
                        inputMode="decimal"
                        autoComplete="off"
                        required
                        aria-invalid={entering.problem ? true : undefined}
                        aria-describedby={entering.problem ? 'lca-quantity-problem' : undefined}
                        value={entering.quantity}
                        onChange={(e) => setEntering({ ...entering, quantity: e.target.value, problem: null })}
                      />
                    </label>{' '}
                    <button type="submit" className="btn btn-primary" disabled={entering.busy}>
                      {entering.busy ? t('lca.enterWriting') : t('lca.enterWrite')}
                    </button>
                    {entering.problem && (
                      <span className="field-error" id="lca-quantity-problem" role="alert">
                        {entering.problem}
                      </span>
                    )}
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
  );
}
