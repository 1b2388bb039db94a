/** Step 2 of the import: the workbook checked on its own — every issue by cell, grouped and filterable. */
import { useMemo, useState } from 'react';
import type { ImportValidation, WorkbookIssueView } from '../../../../core/ipc/contract.js';
import { formatBytes } from '../../download.js';
import { formatMs, formatNumber } from '../../components/format.js';
import { Notice } from '../../components/Notice.js';
import { Tag } from '../../components/Tag.js';
import { SearchField } from '../../components/SearchField.js';
import { SelectField, SheetSelect } from '../../components/SelectField.js';
import { Checkbox } from '../../components/Checkbox.js';
import { DataTable, RowHead } from '../../components/DataTable.js';
import { VirtualRows } from '../../components/VirtualRows.js';
import type { PagedSource } from '../../components/VirtualRows.js';
import { useI18n } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/index.js';
import { IgnoredColumns } from './IgnoredColumns.js';
import { rowsWhat } from './checkCounts.js';
import { fieldLabel } from '../../i18n/field-labels.js';
import { ignoredSheetText } from '../../i18n/core-text.js';
import { issueGroupTitle, issueText } from './issueText.js';
import {
  FILE_LEVEL,
  filterIssues,
  groupIssues,
  ISSUE_GROUPINGS,
  issueSheets,
  placesText,
  SEVERITY_FILTERS,
} from './issues.js';
import type { IssueGroupBy, IssueLine, SeverityFilter } from './issues.js';

const TEMPLATE_SHEETS = ['instructions', 'lists', 'products'];

const SEVERITY_FILTER_MESSAGE = {
  all: 'check.severityAll',
  error: 'check.severityErrors',
  warning: 'check.severityWarnings',
} as const satisfies Record<SeverityFilter, MessageKey>;

const ISSUE_GROUPING_MESSAGE = {
  sheet: 'check.groupSheet',
  field: 'check.groupField',
  code: 'check.groupCode',
} as const satisfies Record<IssueGroupBy, MessageKey>;

export function ValidationStep({
  validation,
  createOnly,
  onCreateOnly,
  onPlan,
  onBack,
  planning,
  onlyFailedOf,
}: {
  validation: ImportValidation;
  createOnly: boolean;
  onCreateOnly(v: boolean): void;
  onPlan(): void;
  onBack(): void;
  planning: boolean;
  onlyFailedOf: string | null;
}) {
  const { t, locale } = useI18n();
  const [severity, setSeverity] = useState<SeverityFilter>('all');
  const [sheet, setSheet] = useState('');
  const [search, setSearch] = useState('');
  const [groupBy, setGroupBy] = useState<IssueGroupBy>('sheet');
  const v = validation;

  const lines = useMemo(
    () =>
      groupIssues(
        filterIssues(v.issues, { severity, sheet, search }, (i) => issueText(i, locale)),
        groupBy,
      ),
    [v.issues, severity, sheet, search, groupBy, locale],
  );
  const source = useMemo<PagedSource<IssueLine>>(
    () => ({
      key: `${v.importId}|${severity}|${sheet}|${search}|${groupBy}`,
      fetch: async (offset, limit) => ({ total: lines.length, rows: lines.slice(offset, offset + limit) }),
    }),
    [v.importId, severity, sheet, search, groupBy, lines],
  );
  const sheets = issueSheets(v.issues);
  // The template's own sheets (Instructions, the hidden lists, the products reference) are not worth a mention.
  const ignored = v.ignoredSheets.filter((s) => !TEMPLATE_SHEETS.includes(s.sheet.toLowerCase()));
  // Filled rows of a sheet whose header has an error are not read: counted, never shown as "0 rows".
  const unread = v.sheets.some((s) => (s.unreadRows ?? 0) > 0);

  return (
    <div className="stack">
      <section className="card" aria-labelledby="check-heading">
        <div className="card-head">
          <h2 id="check-heading">{t('check.title', { file: v.file.name })}</h2>
          <span className="muted">
            {formatBytes(v.file.size, locale)} · {t('check.readIn', { ms: formatMs(v.ms) })}
          </span>
        </div>
        {!v.readable ? (
          <Notice kind="warning">{t('check.unreadable')}</Notice>
        ) : v.errors === 0 ? (
          <Notice kind="success">
            {v.warnings === 0
              ? t('check.ok', { what: rowsWhat(v.sheets, t, locale) })
              : t('check.okWarnings', { what: rowsWhat(v.sheets, t, locale), warnings: v.warnings })}
          </Notice>
        ) : (
          <Notice kind="warning">
            {t('check.errors', {
              errors: formatNumber(v.errors, locale),
              warnings: formatNumber(v.warnings, locale),
              rows: formatNumber(v.rows, locale),
            })}
            <p>{t('check.errorsHint')}</p>
          </Notice>
        )}
        {onlyFailedOf && <Notice kind="info">{t('check.onlyFailed', { job: onlyFailedOf })}</Notice>}
        {v.sheets.length > 0 && (
          <DataTable
            className="compact"
            columns={[
              t('plan.sheet'),
              { head: t('check.rows'), num: true },
              { head: t('check.rowsWithErrors'), num: true },
              ...(unread ? [{ head: t('check.unreadRows'), num: true }] : []),
            ]}
          >
            {v.sheets.map((s) => (
              <tr key={s.name}>
                <RowHead>{s.sheetName}</RowHead>
                <td className="num">{formatNumber(s.rows, locale)}</td>
                <td className="num">
                  {s.blockedRows ? <Tag tone="bad">{formatNumber(s.blockedRows, locale)}</Tag> : '0'}
                </td>
                {unread && (
                  <td className="num">
                    {s.unreadRows ? <Tag tone="bad">{formatNumber(s.unreadRows, locale)}</Tag> : '0'}
                  </td>
                )}
              </tr>
            ))}
          </DataTable>
        )}
        {unread && <p className="field-hint">{t('check.unreadHint')}</p>}
        {v.codes && (
          <p className="field-hint">
            {v.codes.checked
              ? t('check.codesChecked', { unknown: formatNumber(v.codes.unknown ?? 0, locale) })
              : t('check.codesNotChecked', { reason: v.codes.reason ?? '' })}
          </p>
        )}
        <IgnoredColumns sheets={v.sheets} />
        {ignored.length > 0 && (
          <p className="field-hint">
            {t('check.ignored')} {ignored.map((s) => `${s.sheet} (${ignoredSheetText(s.reason, t)})`).join('; ')}
          </p>
        )}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onBack}>
            {t('check.another')}
          </button>
          <Checkbox checked={createOnly} onChange={onCreateOnly}>
            {t('plan.createOnly')}
          </Checkbox>
          <button type="button" className="btn btn-primary" onClick={onPlan} disabled={!v.readable || planning}>
            {planning ? t('plan.planning') : t('check.makeDryRun')}
          </button>
        </div>
        <p className="field-hint">{t('plan.createOnlyHint')}</p>
      </section>

      {v.issues.length > 0 && (
        <section className="card" aria-labelledby="issues-heading">
          <div className="card-head">
            <h2 id="issues-heading">{t('check.issuesTitle')}</h2>
            <span className="muted">
              {t('plan.shown', { count: formatNumber(lines.filter((l) => l.kind === 'issue').length, locale) })}
            </span>
          </div>
          <div className="filters">
            <SelectField<SeverityFilter>
              label={t('check.severity')}
              value={severity}
              onChange={setSeverity}
              options={SEVERITY_FILTERS.map((s) => ({ value: s, label: t(SEVERITY_FILTER_MESSAGE[s]) }))}
            />
            <SheetSelect
              value={sheet}
              onChange={setSheet}
              sheets={sheets.map((s) => ({ value: s, label: s === FILE_LEVEL ? t('check.fileLevel') : s }))}
            />
            <SelectField<IssueGroupBy>
              label={t('check.groupBy')}
              value={groupBy}
              onChange={setGroupBy}
              options={ISSUE_GROUPINGS.map((g) => ({ value: g, label: t(ISSUE_GROUPING_MESSAGE[g]) }))}
            />
            <SearchField value={search} onChange={setSearch} placeholder={t('check.searchHint')} />
          </div>
          <VirtualRows
            source={source}
            label={t('check.issuesTitle')}
            className="issues-grid"
            estimateSize={38}
            empty={<p className="muted">{t('check.noMatch')}</p>}
            columns={[t('check.severity'), t('check.cell'), t('check.field'), t('check.message')]}
            renderRow={(line) => (line.kind === 'group' ? groupHeader(line) : issueRow(line.issue, line.alsoAt))}
            rowClass={(line) => (line.kind === 'group' ? 'is-group' : undefined)}
          />
        </section>
      )}
    </div>
  );

  function groupHeader(line: Extract<IssueLine, { kind: 'group' }>) {
    return (
      <div role="cell" className="group-head">
        <strong>
          {line.label === FILE_LEVEL
            ? t('check.fileLevel')
            : groupBy === 'code'
              ? issueGroupTitle(line.label, locale)
              : groupBy === 'field' && line.label !== '—'
                ? fieldLabel(line.label, locale)
                : line.label}
        </strong>
        <span className="muted"> · {t('check.groupCounts', { errors: line.errors, warnings: line.warnings })}</span>
      </div>
    );
  }

  function issueRow(issue: WorkbookIssueView, alsoAt?: { cell: string | null; row: number | null }[]) {
    return (
      <>
        <div role="cell">
          <Tag tone={issue.severity === 'error' ? 'bad' : 'warn'}>
            {t(issue.severity === 'error' ? 'check.error' : 'check.warning')}
          </Tag>
        </div>
        <div role="cell">
          {issue.sheet ? (
            <code>
              {issue.cell
                ? `${issue.sheet}!${issue.cell}`
                : issue.row
                  ? `${issue.sheet} ${t('plan.rowN', { row: issue.row })}`
                  : issue.sheet}
            </code>
          ) : (
            '—'
          )}
        </div>
        <div role="cell">{issue.field ? <span title={issue.field}>{fieldLabel(issue.field, locale)}</span> : '—'}</div>
        <div role="cell" className="cell-details">
          {issueText(issue, locale)}
          {alsoAt && alsoAt.length > 0 && (
            <span className="detail-line muted">
              {t('check.alsoAt', { count: alsoAt.length, places: placesText(alsoAt, t) })}
            </span>
          )}
        </div>
      </>
    );
  }
}
