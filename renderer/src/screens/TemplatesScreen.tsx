import { useEffect, useId, useState } from 'react';
import type { ProcedureOutput } from '../../../core/ipc/contract.js';
import { useApi } from '../ApiContext.js';
import { Notice } from '../components/Notice.js';
import { downloadBytes, formatBytes } from '../download.js';
import { useI18n } from '../i18n/index.js';
import { useProfiles } from '../useProfiles.js';
import { useRpc } from '../useRpc.js';
import { DataTable } from '../components/DataTable.js';

type TemplatesList = ProcedureOutput<'templates.list'>;
type SheetName = TemplatesList['sheets'][number]['name'];
type Generated = ProcedureOutput<'templates.generate'>;

/** Download the combined or per-sheet templates, optionally pre-filled with reference data from the connection. */
export function TemplatesScreen() {
  const api = useApi();
  const { t, locale } = useI18n();
  const [list, setList] = useState<TemplatesList | null>(null);
  const [prefill, setPrefill] = useState(false);
  const [done, setDone] = useState<Generated | null>(null);
  const rpc = useRpc<SheetName | 'all'>();
  const busy = rpc.busy;
  const prefillHint = useId();

  const activeName = useProfiles(rpc.fail).active?.name ?? null;

  useEffect(() => {
    void api.call('templates.list', {}).then(setList, rpc.fail);
  }, [api, rpc.fail]);

  const download = (sheet: SheetName | 'all') =>
    rpc.run(async () => {
      setDone(null);
      const g = await api.call('templates.generate', { sheet, withReferenceData: prefill, lang: locale });
      downloadBytes(g.fileName, g.mimeType, g.dataBase64);
      setDone(g);
    }, sheet);

  return (
    <div className="stack">
      <p className="lead">{t('templates.intro')}</p>
      {rpc.notice}
      {done && (
        <Notice kind="success">
          {t('templates.downloaded', { file: done.fileName, size: formatBytes(done.byteLength, locale) })}
          {done.referenceData && (
            <p>
              {t('templates.prefilledWith', {
                plants: done.referenceData.plants,
                materials: done.referenceData.materials,
                products: done.referenceData.products,
              })}
            </p>
          )}
        </Notice>
      )}
      {done?.referenceData?.skipped.map((s) => (
        <Notice kind="warning" key={s.part}>
          {t('templates.skipped', { part: t(`templates.part.${s.part}`) })} <code>{s.errCode}</code>
        </Notice>
      ))}

      <section className="card" aria-labelledby="prefill-heading">
        <h2 id="prefill-heading">{t('templates.prefillTitle')}</h2>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={prefill}
            onChange={(e) => setPrefill(e.target.checked)}
            aria-describedby={prefillHint}
          />
          <span>{t('templates.prefill', { profile: activeName ?? '…' })}</span>
        </label>
        <p className="field-hint" id={prefillHint}>
          {t('templates.prefillHint')}
        </p>
      </section>

      <section className="card" aria-labelledby="combined-heading">
        <h2 id="combined-heading">{t('templates.combinedTitle')}</h2>
        <p>{t('templates.combinedText')}</p>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void download('all')}
          disabled={busy !== null || !list}
        >
          {busy === 'all' ? t('templates.preparing') : t('templates.downloadCombined')}
        </button>
        {list && (
          <p className="field-hint">
            <code>{prefill ? list.combinedFileName.replace(/\.xlsx$/, '-prefilled.xlsx') : list.combinedFileName}</code>
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="sheets-heading">
        <h2 id="sheets-heading">{t('templates.perSheetTitle')}</h2>
        <p>{t('templates.perSheetText')}</p>
        {!list ? (
          <p aria-busy="true">{t('common.loading')}</p>
        ) : (
          <DataTable
            columns={[t('templates.sheet'), t('templates.contents'), { head: t('templates.download'), hidden: true }]}
          >
            {list.sheets.map((s) => (
              <tr key={s.name}>
                <td>
                  <code>{s.name}</code>
                </td>
                <td>{t(`sheet.${s.name}`)}</td>
                <td>
                  <button
                    type="button"
                    className="btn"
                    onClick={() => void download(s.name)}
                    disabled={busy !== null}
                    aria-label={t('templates.downloadSheet', { sheet: s.name })}
                  >
                    {busy === s.name ? t('templates.preparing') : t('templates.download')}
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </div>
  );
}
