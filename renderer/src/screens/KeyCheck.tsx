import { useCallback, useEffect, useState } from 'react';
import type { ProcedureOutput } from '../../../core/ipc/contract.js';
import { SCOPES } from '../../../core/spec/scopes.js';
import { useApi } from '../ApiContext.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { Notice } from '../components/Notice.js';
import { useI18n } from '../i18n/index.js';
import { SCOPE_MESSAGE, wordsOf } from '../i18n/names.js';
import { useRpc } from '../useRpc.js';
import { keyCheckButtons } from './keyCheckLogic.js';
import { DataTable } from '../components/DataTable.js';
import { Facts } from '../components/Facts.js';

type Report = ProcedureOutput<'connection.check'>;

/** What /v2/me says about the active profile's key: masked id, scopes, plants, and what the jobs would miss. */
export function KeyCheck({
  profileId,
  profileName,
  isActive,
  onUse,
  revision,
}: {
  profileId: string;
  profileName: string;
  isActive: boolean;
  onUse(): void;
  revision: string;
}) {
  const api = useApi();
  const { t, locale } = useI18n();
  const [report, setReport] = useState<Report | null>(null);
  const { busy: checking, error, run: runRpc } = useRpc();
  const busy = checking !== null;

  const run = useCallback(async () => {
    const r = await runRpc(() =>
      api.call('connection.check', { profileId }).catch((e: unknown) => {
        setReport(null);
        throw e;
      }),
    );
    if (r) setReport(r);
  }, [api, profileId, runRpc]);

  useEffect(() => {
    void run();
  }, [run, revision]);

  const buttons = keyCheckButtons({ isActive, checked: report !== null, error });
  const granted = new Set(report?.scopes ?? []);
  const missing = new Set((report?.missingScopes ?? []).map((m) => m.scope));
  return (
    <section className="card" aria-labelledby="keycheck-heading" aria-busy={busy}>
      <div className="card-head">
        <h2 id="keycheck-heading">{t('keyCheck.title', { name: profileName })}</h2>
        <div className="profile-actions">
          {buttons.use && (
            <button type="button" className={buttons.use === 'primary' ? 'btn btn-primary' : 'btn'} onClick={onUse}>
              {t('keyCheck.use')}
            </button>
          )}
          <button
            type="button"
            className={buttons.again === 'primary' ? 'btn btn-primary' : 'btn'}
            onClick={() => void run()}
            disabled={busy}
          >
            {busy ? t('keyCheck.checking') : t('keyCheck.again')}
          </button>
        </div>
      </div>
      {error && <ErrorNotice error={error} />}
      {!report && !error && <p>{t('keyCheck.checking')}</p>}
      {report && (
        <>
          {report.keyExpired && <Notice kind="warning">{t('keyCheck.expired', { at: report.expiresAt ?? '' })}</Notice>}
          {!report.keyExpired && report.keyExpiringSoon && (
            <Notice kind="warning">{t('keyCheck.expiring', { at: report.expiresAt ?? '' })}</Notice>
          )}
          {report.missingScopes.length > 0 ? (
            <Notice kind="warning">
              <strong>{t('keyCheck.missingTitle')}</strong>
              <ul>
                {report.missingScopes.map((m) => (
                  <li key={m.scope}>
                    <code>{m.scope}</code> – {wordsOf(t, SCOPE_MESSAGE, m.scope)}.{' '}
                    {t('keyCheck.neededFor', { jobs: m.jobs.map((j) => t(`job.${j}`)).join(', ') })}
                  </li>
                ))}
              </ul>
            </Notice>
          ) : (
            <Notice kind="success">{t('keyCheck.allScopes')}</Notice>
          )}
          <Facts
            facts={[
              [t('connection.apiKey'), <code>{report.maskedKey}</code>],
              [t('keyCheck.keyId'), <code>{report.apiKeyId}</code>],
              [t('keyCheck.manufacturer'), <code>{report.manufacturerId}</code>],
              [
                t('keyCheck.expires'),
                report.expiresAt ? new Date(report.expiresAt).toLocaleString(locale) : t('keyCheck.noExpiry'),
              ],
            ]}
          />
          <h3>{t('keyCheck.scopes')}</h3>
          <ul className="chips" aria-label={t('keyCheck.scopes')}>
            {SCOPES.map((s) => {
              const needed = missing.has(s);
              const cls = granted.has(s) ? 'tag-ok' : needed ? 'tag-missing' : '';
              return (
                <li key={s} className={`tag ${cls}`} title={t(`scope.${s}`)}>
                  <span className="visually-hidden">
                    {granted.has(s) ? t('keyCheck.granted') : t('keyCheck.notGranted')}:{' '}
                  </span>
                  {s}
                </li>
              );
            })}
          </ul>
          <h3>{t('keyCheck.plants', { count: report.plants.length })}</h3>
          {report.plants.length === 0 ? (
            <p>{t('keyCheck.noPlants')}</p>
          ) : (
            <DataTable columns={[t('keyCheck.plantCode'), t('keyCheck.plantName'), t('keyCheck.plantId')]}>
              {report.plants.map((p) => (
                <tr key={p.id}>
                  <td>{p.code ?? '–'}</td>
                  <td>{p.name ?? '–'}</td>
                  <td>
                    <code>{p.id}</code>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          {!report.plantsReadable && <p className="field-hint">{t('keyCheck.plantsUnreadable')}</p>}
        </>
      )}
    </section>
  );
}
