import { useI18n } from '../i18n/index.js';

/** Navigation placeholder for a screen whose core is still being built. */
export function ComingScreen({ screen }: { screen: 'import' | 'jobs' | 'export' | 'lca' }) {
  const { t } = useI18n();
  return (
    <section className="card">
      <h2>{t('coming.title')}</h2>
      <p>{t(`coming.${screen}`)}</p>
    </section>
  );
}
