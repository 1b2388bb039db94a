/**
 * Any collection of the active connection to a workbook in the template format: codes instead of ids, ready to
 * edit and import again (each row carries a hidden snapshot, so a row changed on the service since is reported
 * as a conflict instead of being overwritten).
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { ProcedureOutput } from '../../../../core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { formatBytes } from '../../download.js';
import { openDownload, saveDownload } from '../../components/downloads.js';
import { formatNumber } from '../../components/format.js';
import { Notice } from '../../components/Notice.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { useI18n } from '../../i18n/index.js';
import { EXPORT_TEXT_MESSAGE, EXPORT_TITLE_MESSAGE } from '../../i18n/names.js';
import { EXPORT_COLLECTIONS, type ExportSelection } from '../../../../core/names.js';
import { useProfiles } from '../../useProfiles.js';
import { useRpc } from '../../useRpc.js';
import { DataTable } from '../../components/DataTable.js';

/** The choices in the order shown: everything, the core's collections, the products (reference data) last. */
export const COLLECTIONS: readonly ExportSelection[] = [
  'all',
  ...EXPORT_COLLECTIONS.filter((c) => c !== 'products'),
  'products',
];
type Collection = ExportSelection;
type Exported = ProcedureOutput<'export.run'>;

export function ExportScreen() {
  const api = useApi();
  const { t, locale } = useI18n();
  const [collection, setCollection] = useState<Collection>('all');
  const rpc = useRpc();
  const profile = useProfiles(rpc.fail).active?.name ?? null;
  const busy = rpc.busy !== null;
  const [progress, setProgress] = useState<{ collection: string; done: number } | null>(null);
  const [result, setResult] = useState<Exported | null>(null);
  const ref = useRef<string>('');
  const groupId = useId();

  useEffect(() => {
    const off = api.on('export.progress', (p) => {
      if (p.ref === ref.current) setProgress({ collection: p.collection, done: p.done });
    });
    return off;
  }, [api]);

  const run = () =>
    rpc.run(async () => {
      setResult(null);
      setProgress(null);
      ref.current = `${collection}-${Date.now()}`;
      const r = await api.call('export.run', { collection, ref: ref.current });
      setResult(r);
      await saveDownload(api, r.download);
    });

  return (
    <div className="stack">
      <p className="lead">{t('export.intro')}</p>
      {rpc.notice}
      <section className="card" aria-labelledby="export-heading">
        <h2 id="export-heading">{t('export.title', { profile: profile ?? '…' })}</h2>
        <fieldset className="choices" aria-describedby={`${groupId}-hint`}>
          <legend>{t('export.what')}</legend>
          {COLLECTIONS.map((c) => (
            <label key={c} className="choice">
              <input
                type="radio"
                name="collection"
                value={c}
                checked={collection === c}
                onChange={() => setCollection(c)}
              />
              <span>
                <strong>{t(EXPORT_TITLE_MESSAGE[c])}</strong>
                <span className="muted"> — {t(EXPORT_TEXT_MESSAGE[c])}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <p className="field-hint" id={`${groupId}-hint`}>
          {t('export.hint')}
        </p>
        <div className="form-actions">
          <button type="button" className="btn btn-primary" onClick={() => void run()} disabled={busy}>
            {busy ? t('export.running') : t('export.run')}
          </button>
        </div>
        {busy && (
          <div aria-live="polite">
            <ProgressBar value={0} max={null} label={t('export.running')} />
            {progress && (
              <p className="field-hint">
                {t('export.reading', { collection: progress.collection, count: formatNumber(progress.done, locale) })}
              </p>
            )}
          </div>
        )}
      </section>
      {result && (
        <section className="card" aria-labelledby="export-done-heading">
          <h2 id="export-done-heading">{t('export.done', { file: result.download.fileName })}</h2>
          <Notice kind="success">
            {t('export.saved', {
              file: result.download.fileName,
              size: formatBytes(result.download.size, locale),
              requests: result.requests,
            })}
          </Notice>
          <DataTable className="compact" columns={[t('plan.sheet'), { head: t('check.rows'), num: true }]}>
            {result.sheets.map((s) => (
              <tr key={s.sheet}>
                <th scope="row">
                  <code>{s.sheet}</code>
                </th>
                <td className="num">{formatNumber(s.rows, locale)}</td>
              </tr>
            ))}
          </DataTable>
          {result.warnings.length > 0 && (
            <Notice kind="warning">
              <strong>{t('export.warnings', { count: result.warnings.length })}</strong>
              <ul>
                {result.warnings.slice(0, 50).map((w, i) => (
                  <li key={i}>{w}</li>
                ))}
              </ul>
            </Notice>
          )}
          <div className="form-actions">
            <button
              type="button"
              className="btn"
              onClick={() => void saveDownload(api, result.download).catch(rpc.fail)}
            >
              {t(api.transport === 'electron' ? 'export.saveAgain' : 'export.downloadAgain')}
            </button>
            {api.transport === 'electron' && (
              <button
                type="button"
                className="btn"
                onClick={() => void openDownload(api, result.download).catch(rpc.fail)}
              >
                {t('results.openResults')}
              </button>
            )}
          </div>
        </section>
      )}
    </div>
  );
}
