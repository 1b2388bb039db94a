/**
 * Step 3 of the import: the dry run — what the import would do, compared with the live service. Counts per
 * sheet and action (a click filters the table), then every row with field-level before → after, paged from
 * the main side and virtualised.
 */
import { useMemo, useState } from 'react';
import { ENTITY_SHEET_NAMES } from '../../../../core/workbook/types.js';
import type { ImportValidation, MirrorSheet, PlanOverview, PlanRowView } from '../../../../core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { fieldLabel } from '../../i18n/field-labels.js';
import { actionTone, formatFieldValue, formatNumber, formatValue, safeKeyText } from '../../components/format.js';
import { Notice } from '../../components/Notice.js';
import { EntityName } from '../../components/JobResults.js';
import { Tag } from '../../components/Tag.js';
import { BreakableCode } from '../../components/BreakableCode.js';
import { SearchField } from '../../components/SearchField.js';
import { SelectField, SheetSelect } from '../../components/SelectField.js';
import { Checkbox } from '../../components/Checkbox.js';
import { CountsTable } from '../../components/CountsTable.js';
import { BlockedNotice } from '../../components/BlockedNotice.js';
import { VirtualRows } from '../../components/VirtualRows.js';
import type { PagedSource } from '../../components/VirtualRows.js';
import { useI18n } from '../../i18n/index.js';
import type { Locale, T } from '../../i18n/index.js';
import { COMPONENT_TYPE_MESSAGE, PLAN_ACTION_MESSAGE, wordsOf } from '../../i18n/names.js';
import { noteText } from '../../i18n/undo-notes.js';
import { IgnoredColumns } from './IgnoredColumns.js';
import { ImpactDryRun } from '../impact/ImpactDryRun.js';
import { problemText } from './issueText.js';
import {
  actionColumns,
  actionFilterChoices,
  countRows,
  mirrorChoices,
  rowLabel,
  runReadiness,
  writesCount,
} from './planView.js';
import type { ActionColumn } from './planView.js';

type ActionFilter = '' | 'writes' | ActionColumn;

export function DryRunStep({
  overview,
  createOnly,
  onCreateOnly,
  mirror = [],
  onMirror,
  onRun,
  onBack,
  busy,
  onError,
  sheets = [],
}: {
  overview: PlanOverview;
  /** the check's sheets: the columns not read are named here too */
  sheets?: ImportValidation['sheets'];
  createOnly: boolean;
  onCreateOnly(v: boolean): void;
  /** Sheets mirrored by this dry run, and a new dry run with another set. */
  mirror?: MirrorSheet[];
  onMirror?(sheets: MirrorSheet[]): void;
  onRun(skipBlocked: boolean): void;
  onBack(): void;
  busy: boolean;
  onError(e: unknown): void;
}) {
  const api = useApi();
  const { t, locale } = useI18n();
  const [filter, setFilter] = useState<{ sheet: string; action: ActionFilter; search: string }>({
    sheet: '',
    action: '',
    search: '',
  });
  const [skipBlocked, setSkipBlocked] = useState(false);
  const [shown, setShown] = useState<number | null>(null);
  const ov = overview;
  const cols = actionColumns(ov.summary.byAction);
  const table = countRows(ov.summary.bySheet);
  const readiness = runReadiness(ov, skipBlocked);
  const mirrorBox = mirrorChoices(ov, mirror);

  const source = useMemo<PagedSource<PlanRowView>>(
    () => ({
      key: `${ov.importId}|${ov.createOnly}|${ov.onlyFailedOf ?? ''}|${ov.summary.entries}|${filter.sheet}|${filter.action}|${filter.search}`,
      fetch: (offset, limit) =>
        api.call('import.planRows', {
          importId: ov.importId,
          offset,
          limit,
          filter: {
            ...(filter.sheet ? { sheet: filter.sheet } : {}),
            ...(filter.action ? { action: filter.action } : {}),
            ...(filter.search.trim() ? { search: filter.search.trim() } : {}),
          },
        }),
    }),
    [api, ov.importId, ov.createOnly, ov.onlyFailedOf, ov.summary.entries, filter.sheet, filter.action, filter.search],
  );

  return (
    <div className="stack stack-wide">
      <section className="card" aria-labelledby="plan-heading">
        <div className="card-head">
          <h2 id="plan-heading">{t('plan.title', { file: ov.file })}</h2>
          <span className="muted">{t('plan.readsOnly', { requests: formatNumber(ov.requests, locale) })}</span>
        </div>
        <p className="status-line">
          {t('plan.comparedWith', { profile: ov.profileName, url: ov.baseUrl })}{' '}
          <code>{safeKeyText(ov.maskedKey)}</code>
        </p>
        <IgnoredColumns sheets={sheets} />
        {ov.onlyFailedOf && (
          <Notice kind="info">
            {t('plan.onlyFailed', { job: ov.onlyFailedOf, excluded: formatNumber(ov.excluded, locale) })}
          </Notice>
        )}
        {ov.preflight.problems.map((p, i) => (
          <Notice kind="warning" key={`pf${i}`}>
            {problemText(p, locale)} {p.errCode && <code>{p.errCode}</code>}
          </Notice>
        ))}
        {ov.preflight.warnings.map((w, i) => (
          <Notice kind="warning" key={`pw${i}`}>
            {w}
          </Notice>
        ))}
        <CountsTable
          table={table}
          columns={cols}
          caption={t('plan.countsCaption')}
          head={(c) => t(PLAN_ACTION_MESSAGE[c])}
          count={(sheet, c, n) =>
            n ? (
              <button
                type="button"
                className={`count-link tone-text-${actionTone(c)}`}
                aria-label={t('plan.showCount', { count: n, action: t(PLAN_ACTION_MESSAGE[c]), sheet })}
                onClick={() => setFilter({ sheet, action: c, search: '' })}
              >
                {formatNumber(n, locale)}
              </button>
            ) : (
              <span className="zero">0</span>
            )
          }
        />
        <p className="field-hint">{t('plan.countsHint')}</p>

        {onMirror && (
          <section className="mirror-card" aria-labelledby="mirror-heading">
            <h3 id="mirror-heading">{t('plan.mirrorTitle')}</h3>
            <p className="field-hint">{t('plan.mirrorIntro')}</p>
            {mirrorBox.none ? (
              <p className="mirror-none">
                {mirrorBox.none === 'only_failed'
                  ? t('plan.mirrorNoneRerun')
                  : t('plan.mirrorNoneSheets', { sheets: ENTITY_SHEET_NAMES.join(', ') })}
              </p>
            ) : (
              <div className="mirror-choices">
                {mirrorBox.sheets.map((s) => (
                  <Checkbox
                    key={s}
                    checked={mirror.includes(s)}
                    disabled={busy}
                    onChange={(on) => onMirror(on ? [...mirror, s] : mirror.filter((x) => x !== s))}
                  >
                    {t('plan.mirrorSheet', { sheet: s })}
                  </Checkbox>
                ))}
              </div>
            )}
            {ov.mirror.map((m) => (
              <p key={m.sheet} className={m.overCap ? 'mirror-count tone-text-bad' : 'mirror-count'}>
                {t(m.overCap ? 'plan.mirrorOverCap' : 'plan.mirrorCount', {
                  sheet: m.sheet,
                  deletes: formatNumber(m.deletes, locale),
                  managed: formatNumber(m.managed, locale),
                  cap: formatNumber(m.cap, locale),
                })}
              </p>
            ))}
            {ov.notManaged > 0 && (
              <p className="field-hint">{t('plan.notManaged', { count: formatNumber(ov.notManaged, locale) })}</p>
            )}
          </section>
        )}

        <BlockedNotice
          blocked={ov.blocked}
          words={['plan.blockedNotice', 'plan.skipBlocked']}
          skip={skipBlocked}
          onSkip={setSkipBlocked}
        />
        {readiness === 'nothing' && <Notice kind="info">{t('plan.nothingToSend')}</Notice>}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onBack} disabled={busy}>
            {t('plan.back')}
          </button>
          <Checkbox checked={createOnly} onChange={onCreateOnly} disabled={busy}>
            {t('plan.createOnly')}
          </Checkbox>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || readiness !== 'ready'}
            onClick={() => onRun(skipBlocked)}
          >
            {t('plan.run', { count: formatNumber(ov.writes, locale) })}
          </button>
        </div>
        {ov.createOnly && <p className="field-hint">{t('plan.createOnlyOn')}</p>}
      </section>

      <ImpactDryRun overview={ov} />
      <section className="card" aria-labelledby="plan-rows-heading">
        <div className="card-head">
          <h2 id="plan-rows-heading">{t('plan.rowsTitle')}</h2>
          {shown !== null && <span className="muted">{t('plan.shown', { count: formatNumber(shown, locale) })}</span>}
        </div>
        <div className="filters">
          <SheetSelect
            value={filter.sheet}
            onChange={(sheet) => setFilter({ ...filter, sheet })}
            sheets={table.rows.map((r) => r.sheet)}
          />
          <SelectField<ActionFilter>
            label={t('plan.action')}
            value={filter.action}
            onChange={(action) => setFilter({ ...filter, action })}
            options={actionFilterChoices(ov.summary.byAction).map((c) => ({
              value: c,
              label:
                c === ''
                  ? t('plan.all')
                  : c === 'writes'
                    ? t('plan.writesN', { count: formatNumber(writesCount(ov.summary.byAction), locale) })
                    : t(PLAN_ACTION_MESSAGE[c]),
            }))}
          />
          <SearchField
            value={filter.search}
            onChange={(v) => setFilter({ ...filter, search: v })}
            placeholder={t('plan.searchHint')}
          />
          {(filter.sheet || filter.action || filter.search) && (
            <button
              type="button"
              className="btn btn-quiet"
              onClick={() => setFilter({ sheet: '', action: '', search: '' })}
            >
              {t('plan.clearFilter')}
            </button>
          )}
        </div>
        <VirtualRows
          source={source}
          label={t('plan.rowsTitle')}
          className="plan-grid"
          estimateSize={64}
          empty={<p className="muted">{t('plan.noRows')}</p>}
          onTotal={setShown}
          onError={onError}
          columns={[t('plan.row'), t('plan.entity'), t('plan.action'), t('plan.beforeAfter')]}
          renderRow={(row) => <PlanRow row={row} t={t} locale={locale} />}
        />
      </section>
    </div>
  );
}

function PlanRow({ row, t, locale }: { row: PlanRowView; t: T; locale: Locale }) {
  return (
    <>
      <div role="cell" className="cell-row">
        {/* the row at its source: the CSV file or the workbook's own sheet, and its row there */}
        <BreakableCode text={row.source} />
        <span className="small muted">
          {row.rows.length === 0
            ? t('plan.noSheetRow')
            : rowLabel(
                t,
                row.rows.filter((r) => r.source === row.source),
                row.moreRows,
              )}
        </span>
      </div>
      <div role="cell">
        <EntityName t={t} e={row} />
      </div>
      <div role="cell">
        <Tag tone={actionTone(row.action)}>{t(PLAN_ACTION_MESSAGE[row.action])}</Tag>
      </div>
      <div role="cell" className="cell-details">
        <PlanDetails row={row} t={t} locale={locale} />
      </div>
    </>
  );
}

export function PlanDetails({ row, t, locale }: { row: PlanRowView; t: T; locale: Locale }) {
  return (
    <>
      {row.problems.map((p, i) => (
        <span className="detail-line detail-problem" key={`p${i}`}>
          {p.sheet && p.cell && <code>{`${p.sheet}!${p.cell}`}</code>} {problemText(p, locale)}{' '}
          {p.errCode && <code>{p.errCode}</code>}
        </span>
      ))}
      {row.changes.length > 0 && (
        <ul className="changes" aria-label={t('plan.changes')}>
          {row.changes.map((c) => (
            <li key={c.field}>
              {fieldLabel(c.field, locale)}: <del>{formatFieldValue(c.field, c.before, locale)}</del> →{' '}
              <ins>{formatFieldValue(c.field, c.after, locale)}</ins>
            </li>
          ))}
        </ul>
      )}
      {row.bom && (
        <ul className="changes" aria-label={t('plan.bomChanges')}>
          {row.bom.added.map((c) => (
            <li key={`a${c.type}${c.code}`}>
              <ins>+ {c.code}</ins> <span className="muted">{wordsOf(t, COMPONENT_TYPE_MESSAGE, c.type)}</span>{' '}
              {formatValue(c.massKg, locale)} kg
            </li>
          ))}
          {row.bom.removed.map((c) => (
            <li key={`r${c.type}${c.code}`}>
              <del>− {c.code}</del> <span className="muted">{wordsOf(t, COMPONENT_TYPE_MESSAGE, c.type)}</span>{' '}
              {formatValue(c.massKg, locale)} kg
            </li>
          ))}
          {row.bom.changed.map((c) => (
            <li key={`c${c.type}${c.code}`}>
              {c.code}: <del>{formatValue(c.before, locale)} kg</del> → <ins>{formatValue(c.after, locale)} kg</ins>
            </li>
          ))}
          {row.bom.unchanged > 0 && <li className="muted">{t('plan.bomUnchanged', { count: row.bom.unchanged })}</li>}
        </ul>
      )}
      {row.fields.length > 0 && row.action !== 'blocked' && row.action !== 'conflict' && (
        <span className="fields">
          {row.fields.map((f) => (
            <span key={f.field} className="field-pair">
              <span className="muted">{fieldLabel(f.field, locale)}</span>{' '}
              <span className="field-value">{formatFieldValue(f.field, f.value, locale)}</span>
            </span>
          ))}
        </span>
      )}
      {row.notes.map((n, i) => (
        <span className="detail-line muted" key={`n${i}`}>
          {noteText(n, locale)}
        </span>
      ))}
    </>
  );
}
