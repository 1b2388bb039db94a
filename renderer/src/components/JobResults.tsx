/**
 * The report of an import job, on the Import screen's last step and on the Jobs screen: status in words,
 * counts per outcome and per sheet, entitlement limits as "usage / limit", the results and failed-rows
 * workbooks, and every row's outcome with its err_code and the catalog's explanation (paged, virtualised).
 */
import { useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { JobRowView, JobView, PickedFile } from '../../../core/ipc/contract.js';
import { useApi } from '../ApiContext.js';
import { errCodeText } from '../i18n/core-text.js';
import { usedByText } from '../i18n/in-use-words.js';
import { changesText, runNoteText } from '../i18n/plan-notes.js';
import { useI18n } from '../i18n/index.js';
import type { Locale, T } from '../i18n/index.js';
import {
  DIMENSION_MESSAGE,
  ENTITY_KIND_MESSAGE,
  OUTCOME_MESSAGE,
  SKIP_REASON_MESSAGE,
  wordsOf,
} from '../i18n/names.js';
import type { EntityKind } from '../../../core/names.js';
import { problemText } from '../screens/import/issueText.js';
import { countRows, OUTCOME_ORDER, outcomeColumns, resultTotals, rowLabel } from '../screens/import/planView.js';
import { openDownload, saveDownload, type DownloadTicket } from './downloads.js';
import { formatDateTime, formatMs, formatNumber, outcomeTone, safeKeyText } from './format.js';
import { Notice } from './Notice.js';
import { DropZone } from './DropZone.js';
import { reveal, useReveal } from './reveal.js';
import { jobStatusWords } from './status.js';
import { Tag } from './Tag.js';
import { BreakableCode } from './BreakableCode.js';
import { SearchField } from './SearchField.js';
import { SelectField, SheetSelect } from './SelectField.js';
import { useRpc } from '../useRpc.js';
import { VirtualRows } from './VirtualRows.js';
import type { PagedSource } from './VirtualRows.js';
import { CountsTable } from './CountsTable.js';
import { Facts } from './Facts.js';

type OutcomeFilter = '' | 'problems' | (typeof OUTCOME_ORDER)[number];

/** "supplier product SP-1", "BOM of PI-1" in the user's language (the engine's label when there is no code), with
 * the code kept on one line (a code like E-SP-1 must not break at its hyphens). */
export function EntityName({ t, e }: { t: T; e: { kind: EntityKind; externalId: string | null; label: string } }) {
  if (!e.externalId) return <span className="entity">{e.label}</span>;
  const [before, after = ''] = t(ENTITY_KIND_MESSAGE[e.kind], { code: '\u0001' }).split('\u0001');
  return (
    <span className="entity">
      {before}
      <span className="nowrap">{e.externalId}</span>
      {after}
    </span>
  );
}

/** The rows per outcome as chips, in the outcomes' order (the ones with none left out): a job's report and its run. */
export function OutcomeChips({ counts }: { counts: Readonly<Record<string, number>> }) {
  const { t, locale } = useI18n();
  return (
    <ul className="outcome-chips" aria-label={t('results.byOutcome')}>
      {OUTCOME_ORDER.filter((o) => (counts[o] ?? 0) > 0).map((o) => (
        <li key={o}>
          <Tag tone={outcomeTone(o)}>
            {t('results.outcomeEntities', {
              outcome: t(OUTCOME_MESSAGE[o]),
              count: formatNumber(counts[o] ?? 0, locale),
            })}
          </Tag>
        </li>
      ))}
    </ul>
  );
}

/** A licensed dimension in words; one this version does not know stays as the service named it. */
export function dimensionLabel(t: T, d: string): string {
  return wordsOf(t, DIMENSION_MESSAGE, d);
}

/** The engine's detail of a skip without its "not sent:" / "blocked:" lead (the sentence above says that). */
export function engineDetail(msg: string): string {
  return msg.replace(/^(not sent|blocked|not applied)\s*:\s*/i, '');
}

/** The licence limit a row ran into (usage of limit), when it ran into one. */
function EntitlementLine({ row, t }: { row: JobRowView; t: T }): ReactNode {
  if (!row.entitlement) return null;
  const { dimension, usage, limit } = row.entitlement;
  return (
    <span className="detail-line">
      {t('results.entitlement', { dimension: dimensionLabel(t, dimension), usage, limit })}
    </span>
  );
}

/** What happened to a row, in the user's language: err_code explained, skip reason, changes. */
export function OutcomeDetail({ row, t, locale }: { row: JobRowView; t: T; locale: Locale }): ReactNode {
  if (row.outcome === 'failed') {
    const info = row.errCode ? errCodeText(row.errCode, locale) : null;
    const message = row.message ? usedByText(row.message, locale) : null;
    return (
      <>
        {info && <span className="detail-main">{info.explanation}</span>}
        <EntitlementLine t={t} row={row} />
        {info?.action && <span className="detail-line detail-action">{info.action}</span>}
        {message?.usedBy && <span className="detail-line">{message.usedBy}</span>}
        {message?.said && (
          <span className="detail-line detail-service">
            {t('results.serviceSaid')} {message.said}
          </span>
        )}
      </>
    );
  }
  if (row.outcome === 'skipped') {
    return (
      <>
        <span className="detail-main">{wordsOf(t, SKIP_REASON_MESSAGE, row.reason ?? 'blocked')}</span>
        <EntitlementLine t={t} row={row} />
        {row.problem ? (
          <span className="detail-line detail-service">{problemText(row.problem, locale)}</span>
        ) : (
          row.message && (
            <span className="detail-line detail-service">
              {runNoteText(row.message, locale) ?? engineDetail(row.message)}
            </span>
          )
        )}
      </>
    );
  }
  if (row.outcome === 'pending') return <span className="detail-main">{t('results.pending')}</span>;
  if (row.outcome === 'replaced' && row.bomDiff)
    return <span className="detail-main">{t('results.bomReplaced', row.bomDiff)}</span>;
  if (row.outcome === 'already_existed') return <span className="detail-main">{t('results.sameValues')}</span>;
  if (row.outcome === 'replayed') return <span className="detail-main">{t('results.replayed')}</span>;
  return row.message ? <span className="detail-main">{changesText(row.message, locale)}</span> : null;
}

export interface JobResultsProps {
  view: JobView;
  /** extra buttons (import another workbook) */
  actions?: ReactNode;
  onResume?(): void;
  /** a corrected workbook chosen to re-run the rows that did not succeed */
  onRerun?(file: PickedFile): void;
  /** "Read <file> again" in the re-run panel (desktop app, the same file) */
  rerunSame?: { label: string; onClick(): void };
}

/**
 * Whether a finished job offers "Re-run failed rows": any job that is not running and not resumable (resume
 * finishes those) with rows that did not succeed — also after a reload, from the Jobs screen.
 */
export function offersRerun(v: Pick<JobView, 'running' | 'resumable' | 'notSucceeded'>): boolean {
  return !v.running && !v.resumable && v.notSucceeded > 0;
}

export function JobResults({ view, actions, onResume, onRerun, rerunSame }: JobResultsProps) {
  const api = useApi();
  const { t, locale } = useI18n();
  /** busy: the download being made — `results`/`failed`, `-open`, and the source file of a job of several */
  const rpc = useRpc<string>();
  const busy = rpc.busy;
  const [made, setMade] = useState<{ kind: 'results' | 'failed'; ticket: DownloadTicket; rows?: number } | null>(null);
  const [filter, setFilter] = useState<{ outcome: OutcomeFilter; sheet: string; search: string }>({
    outcome: view.notSucceeded > 0 ? 'problems' : '',
    sheet: '',
    search: '',
  });
  const [shown, setShown] = useState<number | null>(null);
  const [rerunOpen, setRerunOpen] = useState(false);
  const rerunRef = useReveal<HTMLElement>(rerunOpen);

  const jobId = view.jobId;
  const stamp = `${view.status}|${view.finishedAt ?? ''}|${view.running}`;
  const source = useMemo<PagedSource<JobRowView>>(
    () => ({
      key: `${jobId}|${stamp}|${filter.outcome}|${filter.sheet}|${filter.search}`,
      fetch: (offset, limit) =>
        api.call('jobs.rows', {
          jobId,
          offset,
          limit,
          filter: {
            ...(filter.outcome ? { outcome: filter.outcome } : {}),
            ...(filter.sheet ? { sheet: filter.sheet } : {}),
            ...(filter.search.trim() ? { search: filter.search.trim() } : {}),
          },
        }),
    }),
    [api, jobId, stamp, filter.outcome, filter.sheet, filter.search],
  );

  /** `source`: the file of a job of several sources whose results (or failed rows) are made */
  const make = (kind: 'results' | 'failed', open = false, source?: string) =>
    rpc.run(
      async () => {
        const which = { jobId, ...(source !== undefined && { source }) };
        const ticket =
          kind === 'results'
            ? await api.call('jobs.resultsWorkbook', which)
            : await api.call('jobs.failedWorkbook', which);
        setMade({ kind, ticket, rows: 'rows' in ticket ? (ticket as { rows: number }).rows : undefined });
        if (open) await openDownload(api, ticket);
        else await saveDownload(api, ticket);
      },
      kind + (open ? '-open' : '') + (source ?? ''),
    );

  const sheets = countRows(view.bySheet);
  const totals = resultTotals(view.counts, sheets);
  const cols = outcomeColumns(sheets.totals);
  const electron = api.transport === 'electron';
  const csv = view.resultsFormat === 'csv';
  /** a job of several sources (a workbook and CSV files, or several CSV files): results and failed rows per file */
  const sources = [...(view.workbookSource ? [view.workbookSource] : []), ...view.csvSources];
  const perSource = sources.length > 1;
  const madeCsv = made ? made.ticket.fileName.toLowerCase().endsWith('.csv') : csv;
  const stopped = !view.running;
  const words = jobStatusWords(view);

  return (
    <div className="stack">
      <section className="card" aria-labelledby={`job-${jobId}-status`}>
        <div className="card-head">
          <h2 id={`job-${jobId}-status`}>{t('results.title', { file: view.file })}</h2>
          <Tag tone={words.tone}>{t(words.label, words.params)}</Tag>
        </div>
        <p className="status-line">{t(words.text, words.params)}</p>
        {view.error && (
          <Notice kind="warning">
            {t('results.stoppedWithError')} {view.error}
          </Notice>
        )}
        <Facts
          inline
          facts={[
            [t('results.job'), <code>{view.jobId}</code>],
            [
              t('results.connection'),
              <>
                {view.baseUrl} · <code>{safeKeyText(view.maskedKey)}</code>
              </>,
            ],
            [t('results.started'), formatDateTime(view.startedAt, locale)],
            [t('results.duration'), formatMs(view.durationMs)],
            [
              t('results.rows'),
              <>
                {t('results.rowsEntries', {
                  rows: formatNumber(totals.rows, locale),
                  entries: formatNumber(totals.entities, locale),
                })}
                {view.createOnly && <> · {t('results.createOnly')}</>}
              </>,
            ],
          ]}
        />
        <OutcomeChips counts={view.counts} />
        {view.entitlementLimits.length > 0 && (
          <Notice kind="warning">
            <strong>{t('results.limitsTitle')}</strong>
            <ul>
              {view.entitlementLimits.map((l) => (
                <li key={l.dimension}>
                  {dimensionLabel(t, l.dimension)}:{' '}
                  <strong>{t('results.usageOfLimit', { usage: l.usage, limit: l.limit })}</strong>
                </li>
              ))}
            </ul>
            <p>{t('results.limitsHint')}</p>
          </Notice>
        )}
        {rpc.notice}
        {made && (
          <Notice kind="success">
            {made.kind === 'results'
              ? t(madeCsv ? 'results.madeResultsCsv' : 'results.madeResults', { file: made.ticket.fileName })
              : t(madeCsv ? 'results.madeFailedCsv' : 'results.madeFailed', {
                  file: made.ticket.fileName,
                  rows: made.rows ?? 0,
                })}
          </Notice>
        )}
        {perSource && (
          <ul className="source-downloads" aria-label={t('results.perSource')}>
            {sources.map((src) => {
              const srcCsv = src !== view.workbookSource;
              const results = srcCsv
                ? t(electron ? 'results.saveResultsCsv' : 'results.downloadResultsCsv')
                : t(electron ? 'results.saveResults' : 'results.downloadResults');
              const off = !stopped || !view.inputAvailable || busy !== null;
              return (
                <li key={src}>
                  <code>{src}</code>{' '}
                  <button
                    type="button"
                    className="btn"
                    disabled={off}
                    aria-label={`${results} – ${src}`}
                    onClick={() => void make('results', false, src)}
                  >
                    {busy === `results${src}` ? t('common.preparing') : results}
                  </button>{' '}
                  {electron && (
                    <button
                      type="button"
                      className="btn"
                      disabled={off}
                      aria-label={`${t(srcCsv ? 'results.openResultsCsv' : 'results.openResults')} – ${src}`}
                      onClick={() => void make('results', true, src)}
                    >
                      {t(srcCsv ? 'results.openResultsCsv' : 'results.openResults')}
                    </button>
                  )}{' '}
                  <button
                    type="button"
                    className="btn"
                    disabled={off || view.failedRows === 0}
                    aria-label={`${t('results.sourceFailed')} – ${src}`}
                    onClick={() => void make('failed', false, src)}
                  >
                    {busy === `failed${src}` ? t('common.preparing') : t('results.sourceFailed')}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <div className="form-actions">
          {view.resumable && onResume && (
            <button type="button" className="btn btn-primary" onClick={onResume}>
              {t('results.resume')}
            </button>
          )}
          {!perSource && (
            <>
              <button
                type="button"
                className="btn"
                disabled={!stopped || !view.inputAvailable || busy !== null}
                onClick={() => void make('results')}
              >
                {busy === 'results'
                  ? t('common.preparing')
                  : csv
                    ? t(electron ? 'results.saveResultsCsv' : 'results.downloadResultsCsv')
                    : t(electron ? 'results.saveResults' : 'results.downloadResults')}
              </button>
              {electron && (
                <button
                  type="button"
                  className="btn"
                  disabled={!stopped || !view.inputAvailable || busy !== null}
                  onClick={() => void make('results', true)}
                >
                  {t(csv ? 'results.openResultsCsv' : 'results.openResults')}
                </button>
              )}
              <button
                type="button"
                className="btn"
                disabled={!stopped || !view.inputAvailable || view.failedRows === 0 || busy !== null}
                onClick={() => void make('failed')}
              >
                {busy === 'failed'
                  ? t('common.preparing')
                  : t(view.resumable ? 'results.saveNotDone' : 'results.saveFailed', { count: view.failedRows })}
              </button>
            </>
          )}
          {onRerun && offersRerun(view) && (
            <button
              type="button"
              className="btn"
              disabled={view.notSucceededRows === 0}
              onClick={() => {
                setRerunOpen(true);
                reveal(rerunRef.current);
              }}
              aria-expanded={rerunOpen}
              aria-controls={`job-${jobId}-rerun`}
            >
              {t('rerun.button', { count: view.notSucceededRows })}
            </button>
          )}
          {actions}
        </div>
        {!view.inputAvailable && <p className="field-hint">{t('results.noInput')}</p>}
      </section>

      {onRerun && rerunOpen && offersRerun(view) && (
        <section
          className="card"
          id={`job-${jobId}-rerun`}
          aria-labelledby={`job-${jobId}-rerun-heading`}
          ref={rerunRef}
          tabIndex={-1}
        >
          <h2 id={`job-${jobId}-rerun-heading`}>{t('rerun.title')}</h2>
          <p>{t('rerun.text', { count: view.notSucceededRows })}</p>
          {rerunSame && (
            <p>
              <button type="button" className="btn" onClick={rerunSame.onClick}>
                {rerunSame.label}
              </button>
            </p>
          )}
          <DropZone label={t('rerun.choose')} hint={t('rerun.hint')} onFile={onRerun} onError={rpc.fail} />
        </section>
      )}

      {sheets.rows.length > 0 && (
        <section className="card" aria-labelledby={`job-${jobId}-sheets`}>
          <h2 id={`job-${jobId}-sheets`}>{t('results.bySheet')}</h2>
          <CountsTable
            table={sheets}
            columns={cols}
            head={(c) => t(OUTCOME_MESSAGE[c])}
            count={(_, __, n) => (n ? formatNumber(n, locale) : '')}
          />
          <p className="field-hint">{t('results.rowsHint')}</p>
        </section>
      )}

      <section className="card" aria-labelledby={`job-${jobId}-rows`}>
        <div className="card-head">
          <h2 id={`job-${jobId}-rows`}>{t('results.perRow')}</h2>
          {shown !== null && <span className="muted">{t('plan.shown', { count: formatNumber(shown, locale) })}</span>}
        </div>
        <div className="filters">
          <SelectField<OutcomeFilter>
            label={t('results.filterOutcome')}
            value={filter.outcome}
            onChange={(outcome) => setFilter({ ...filter, outcome })}
            options={[
              { value: '', label: t('plan.all') },
              { value: 'problems', label: t('results.problems') },
              ...OUTCOME_ORDER.map((o) => ({ value: o, label: t(OUTCOME_MESSAGE[o]) })),
            ]}
          />
          <SheetSelect
            value={filter.sheet}
            onChange={(sheet) => setFilter({ ...filter, sheet })}
            sheets={sheets.rows.map((r) => r.sheet).filter((s) => !['hazardous-substances', 'silo-items'].includes(s))}
          />
          <SearchField
            value={filter.search}
            onChange={(v) => setFilter({ ...filter, search: v })}
            placeholder={t('results.searchHint')}
          />
        </div>
        <VirtualRows
          source={source}
          label={t('results.perRow')}
          className="results-grid"
          estimateSize={52}
          empty={<p className="muted">{t('results.noRows')}</p>}
          onTotal={setShown}
          onError={rpc.fail}
          columns={[t('plan.row'), t('plan.entity'), t('results.outcome'), t('results.code'), t('results.details')]}
          renderRow={(row) => (
            <>
              <div role="cell" className="cell-row">
                <BreakableCode text={row.source ?? row.sheet} />
                <span className="small muted">
                  {row.row > 0 ? rowLabel(t, [{ row: row.row }], 0) : t('plan.noSheetRow')}
                  {row.rowCount > 1 && <> {t('plan.moreRows', { count: row.rowCount })}</>}
                </span>
              </div>
              <div role="cell">
                <EntityName t={t} e={row} />
              </div>
              <div role="cell">
                <Tag tone={outcomeTone(row.outcome, row.reason)}>{t(OUTCOME_MESSAGE[row.outcome])}</Tag>
              </div>
              <div role="cell">
                {row.errCode && <code className="err-code-inline">{row.errCode}</code>}
                {row.outcome === 'failed' && row.status ? <span className="muted"> HTTP {row.status}</span> : null}
              </div>
              <div role="cell" className="cell-details">
                <OutcomeDetail row={row} t={t} locale={locale} />
              </div>
            </>
          )}
        />
      </section>
    </div>
  );
}
