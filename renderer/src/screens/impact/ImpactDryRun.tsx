/**
 * The dry run's LCA impact: the instances the plan affects, the current results kept for the comparison after
 * the job, and the estimated change, labelled as an estimate with what could not be estimated. Read once per
 * dry run (reads only); the recompute itself is offered in the job's results.
 */
import { useEffect, useState } from 'react';
import type { LcaImpactDryRunView, PlanOverview } from '../../../../core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { formatNumber } from '../../components/format.js';
import { useI18n } from '../../i18n/index.js';
import { useRpc } from '../../useRpc.js';
import { AffectedInstances, EstimatesList } from './ImpactParts.js';
import { impactText } from './impactLogic.js';

export function ImpactDryRun({ overview }: { overview: PlanOverview }) {
  const api = useApi();
  const { t, locale } = useI18n();
  const [d, setD] = useState<LcaImpactDryRunView | null>(null);
  const rpc = useRpc();
  const { run } = rpc;
  // a new dry run (a new overview) reads again
  useEffect(() => {
    setD(null);
    void run(() => api.call('lca.impactDryRun', { importId: overview.importId })).then((r) => r && setD(r));
  }, [api, overview, run]);

  const id = 'impact-dry-run';
  return (
    <section className="card impact-card" aria-labelledby={id}>
      <div className="card-head">
        <h2 id={id}>{t('impact.title')}</h2>
      </div>
      {rpc.notice}
      {!d ? (
        rpc.busy && <p aria-busy="true">{t('impact.est.reading')}</p>
      ) : (
        <>
          <AffectedInstances affected={d.affected} idPrefix={id} />
          {d.affected.count > 0 && (
            <>
              <p>
                {t('impact.est.kept', {
                  completed: formatNumber(d.before.completed, locale),
                  instances: formatNumber(d.before.instances, locale),
                })}
              </p>
              {d.before.problems.length > 0 && (
                <>
                  <h4>{t('impact.est.unread')}</h4>
                  <ul className="impact-list small">
                    {d.before.problems.map((p, k) => (
                      <li key={k}>{impactText(t, locale, d.before.problemCodes[k], p)}</li>
                    ))}
                  </ul>
                </>
              )}
              <EstimatesList estimates={d.estimates} idPrefix={id} />
              <p className="field-hint">
                {t('impact.est.after', { n: d.recomputes, requests: formatNumber(d.requestsAbout, locale) })}
              </p>
            </>
          )}
        </>
      )}
    </section>
  );
}
