/** The LCA screen's first card: choose product instances by product, by plant, by a list of codes, or all. */
import { useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { LCA_SELECTORS } from '../../../../core/names.js';
import { Notice } from '../../components/Notice.js';
import { useI18n } from '../../i18n/index.js';
import { LCA_SELECTOR_MESSAGE, LCA_UNKNOWN_MESSAGE } from '../../i18n/names.js';
import type { LcaBy, LcaOptions, LcaSelection } from './useLcaRuns.js';

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

export function LcaChooser({
  options,
  optionsFailed,
  selection,
  busy,
  onReload,
  onFind,
  onByChange,
}: {
  options: LcaOptions | null;
  optionsFailed: boolean;
  selection: LcaSelection | null;
  /** the screen's action running, if any: the buttons wait for it */
  busy: string | null;
  onReload(): void;
  onFind(by: LcaBy, codes: string[]): void;
  /** another way of choosing: the instances found before no longer apply */
  onByChange(): void;
}) {
  const { t } = useI18n();
  const [by, setBy] = useState<LcaBy>('products');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [list, setList] = useState('');

  const codes = useMemo(() => {
    if (by === 'instances')
      return list
        .split(/[\s,;]+/)
        .map((c) => c.trim())
        .filter(Boolean);
    if (by === 'all') return [];
    return [...picked];
  }, [by, list, picked]);

  const toggle = (code: string) => {
    const next = new Set(picked);
    if (next.has(code)) next.delete(code);
    else next.add(code);
    setPicked(next);
  };

  return (
    <section className="card" aria-labelledby="lca-choose-heading">
      <div className="card-head">
        <h2 id="lca-choose-heading">{t('lca.chooseTitle')}</h2>
        <button type="button" className="btn btn-quiet" onClick={onReload} disabled={busy !== null}>
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
                onByChange();
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
          onClick={() => onFind(by, codes)}
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
  );
}
