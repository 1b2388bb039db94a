/**
 * "Undo this job": the undo's own dry run first — what will be deleted, set back, put back and
 * re-created, conflicts with what changed on the service — then the undo runs as a job of its own. Conflicts
 * block it unless the user ticks "undo the rest, skip the conflicts". The rules live in the core (planUndo).
 */
import { useEffect, useState } from 'react';
import type { UndoPlanView } from '../../../../core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { actionTone, formatNumber } from '../../components/format.js';
import { EntityName } from '../../components/JobResults.js';
import { Notice } from '../../components/Notice.js';
import { Tag } from '../../components/Tag.js';
import { useI18n } from '../../i18n/index.js';
import type { MessageKey } from '../../i18n/index.js';
import { messageKeys, PLAN_ACTION_MESSAGE } from '../../i18n/names.js';
import type { PlanAction } from '../../../../core/names.js';
import { PlanDetails } from '../import/DryRunStep.js';
import { rowLabel } from '../import/planView.js';
import { useRpc } from '../../useRpc.js';
import { DataTable } from '../../components/DataTable.js';
import { BlockedNotice } from '../../components/BlockedNotice.js';

/** What each action of an undo plan does, in the order the panel lists the counts. */
const UNDO_ACTIONS = [
  'conflict',
  'blocked',
  'delete',
  'update',
  'replace',
  'create',
  'unchanged',
] as const satisfies readonly PlanAction[];

/** An undo's own words for its actions; a plan's words for the others. */
export const UNDO_ACTION_MESSAGE = {
  ...PLAN_ACTION_MESSAGE,
  ...messageKeys('undo.action', UNDO_ACTIONS),
} satisfies Record<PlanAction, MessageKey>;

/** What an undo row does, in words: production figures put back are named as such (not as a BOM). */
export function undoRowAction(row: Pick<UndoPlanView['rows'][number], 'kind' | 'action'>): MessageKey {
  if (row.kind === 'production' && (row.action === 'replace' || row.action === 'update' || row.action === 'create'))
    return 'undo.productionBack';
  return UNDO_ACTION_MESSAGE[row.action];
}

export function UndoPanel({
  jobId,
  onStarted,
  onClose,
}: {
  jobId: string;
  onStarted: (undoJobId: string) => void;
  onClose: () => void;
}) {
  const api = useApi();
  const { t, locale } = useI18n();
  const [plan, setPlan] = useState<UndoPlanView | null>(null);
  const [skip, setSkip] = useState(false);
  const rpc = useRpc<'plan' | 'undo'>();
  const { error, run: runRpc } = rpc;
  const busy = rpc.busy === 'undo';

  useEffect(() => {
    setPlan(null);
    setSkip(false);
    void runRpc(() => api.call('jobs.undoPlan', { jobId }), 'plan').then((p) => p && setPlan(p));
  }, [api, jobId, runRpc]);

  const run = async () => {
    const r = await runRpc(() => api.call('jobs.undo', { jobId, skipBlocked: skip }), 'undo');
    if (r) onStarted(r.jobId);
  };

  const counts = plan ? UNDO_ACTIONS.filter((a) => (plan.summary.byAction[a] ?? 0) > 0) : [];
  const canRun = plan !== null && plan.writes > 0 && (plan.blocked === 0 || skip) && !busy;
  return (
    <section className="card undo-panel" aria-labelledby="undo-heading">
      <div className="card-head">
        <h2 id="undo-heading">{t('undo.title', { job: jobId })}</h2>
      </div>
      <p className="lead">{t('undo.intro')}</p>
      {rpc.notice}
      {plan === null ? (
        !error && <p aria-busy="true">{t('undo.planning')}</p>
      ) : (
        <>
          <p className="chips-inline undo-summary" aria-label={t('undo.summary')}>
            {counts.map((a) => (
              <Tag key={a} tone={actionTone(a)}>
                {t(UNDO_ACTION_MESSAGE[a])} {formatNumber(plan.summary.byAction[a] ?? 0, locale)}
              </Tag>
            ))}
          </p>
          <BlockedNotice
            blocked={plan.blocked}
            words={['undo.blockedNotice', 'undo.skipBlocked']}
            skip={skip}
            onSkip={setSkip}
          />
          {plan.writes === 0 && <Notice kind="info">{t('undo.nothing')}</Notice>}
          <DataTable
            className="undo-table"
            columns={[t('plan.row'), t('plan.entity'), t('plan.action'), t('undo.details')]}
          >
            {plan.rows.map((row) => (
              <tr key={row.key}>
                <td>
                  <code>{row.sheet}</code>{' '}
                  <span className="small muted">
                    {row.row > 0 ? rowLabel(t, [{ row: row.row }], 0) : t('plan.noSheetRow')}
                  </span>
                </td>
                <td>
                  <EntityName t={t} e={row} />
                </td>
                <td>
                  <Tag tone={actionTone(row.action)}>{t(undoRowAction(row))}</Tag>
                </td>
                <td>
                  <div className="cell-details">
                    <PlanDetails row={row} t={t} locale={locale} />
                  </div>
                </td>
              </tr>
            ))}
          </DataTable>
          {plan.moreRows > 0 && (
            <p className="field-hint">{t('undo.moreRows', { count: formatNumber(plan.moreRows, locale) })}</p>
          )}
          <div className="form-actions">
            <button type="button" className="btn" onClick={onClose} disabled={busy}>
              {t('undo.close')}
            </button>
            <button type="button" className="btn btn-primary" disabled={!canRun} onClick={() => void run()}>
              {t('undo.run', { count: formatNumber(plan.writes, locale) })}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
