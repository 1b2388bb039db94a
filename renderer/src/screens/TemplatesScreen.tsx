import { useI18n } from '../i18n/index.js';

/** Templates: filled in once the workbook core (electron/core/workbook) is wired into the contract. */
export function TemplatesScreen() {
  const { t } = useI18n();
  return (
    <section className="card">
      <h2>{t('coming.title')}</h2>
      <p>{t('templates.intro')}</p>
    </section>
  );
}
