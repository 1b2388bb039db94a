import { useEffect, useRef, useState } from 'react';
import type { Api } from './api.js';
import { ApiContext } from './ApiContext.js';
import { ConnectionBadge } from './components/ConnectionBadge.js';
import { I18nProvider, useI18n } from './i18n/index.js';
import { ConnectionScreen } from './screens/ConnectionScreen.js';
import { ExportScreen } from './screens/export/ExportScreen.js';
import { ImportScreen } from './screens/import/ImportScreen.js';
import { JobsScreen } from './screens/jobs/JobsScreen.js';
import { LcaScreen } from './screens/lca/LcaScreen.js';
import { TemplatesScreen } from './screens/TemplatesScreen.js';
import './components/work.css';
import type { LanguagePref, Preferences, ThemePref } from './usePreferences.js';
import { usePreferences } from './usePreferences.js';

export const SCREENS = ['connection', 'templates', 'import', 'jobs', 'export', 'lca'] as const;
export type ScreenId = (typeof SCREENS)[number];

function screenFromHash(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, '');
  return (SCREENS as readonly string[]).includes(id) ? (id as ScreenId) : 'connection';
}

export function App({ api }: { api: Api }) {
  const prefs = usePreferences(api);
  return (
    <ApiContext.Provider value={api}>
      <I18nProvider locale={prefs.locale}>
        <Shell prefs={prefs} />
      </I18nProvider>
    </ApiContext.Provider>
  );
}

function Shell({ prefs }: { prefs: Preferences }) {
  const { t } = useI18n();
  const [screen, setScreen] = useState<ScreenId>(() => screenFromHash(window.location.hash));
  const mainRef = useRef<HTMLElement>(null);

  useEffect(() => {
    const onHash = () => setScreen(screenFromHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    document.title = `${t(`nav.${screen}`)} · Supply Loader`;
  }, [screen, t]);

  const go = (id: ScreenId) => {
    window.location.hash = `#/${id}`;
    setScreen(id);
    mainRef.current?.focus();
  };

  return (
    <div className="app">
      <a className="skip-link" href="#main" onClick={(e) => (e.preventDefault(), mainRef.current?.focus())}>
        {t('app.skipToContent')}
      </a>
      <nav className="sidebar" aria-label={t('nav.label')}>
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            SL
          </span>
          <span>Supply Loader</span>
        </div>
        <ul className="nav-list">
          {SCREENS.map((id) => (
            <li key={id}>
              <button
                type="button"
                className="nav-item"
                aria-current={screen === id ? 'page' : undefined}
                onClick={() => go(id)}
              >
                {t(`nav.${id}`)}
              </button>
            </li>
          ))}
        </ul>
        <ConnectionBadge onOpen={() => go('connection')} />
      </nav>
      <div className="main-col">
        <header className="topbar">
          <h1>{t(`nav.${screen}`)}</h1>
          <div className="prefs">
            <label className="field-inline">
              <span>{t('prefs.language')}</span>
              <select value={prefs.language} onChange={(e) => prefs.setLanguage(e.target.value as LanguagePref)}>
                <option value="system">{t('prefs.languageSystem')}</option>
                <option value="en">English</option>
                <option value="de">Deutsch</option>
              </select>
            </label>
            <label className="field-inline">
              <span>{t('prefs.theme')}</span>
              <select value={prefs.theme} onChange={(e) => prefs.setTheme(e.target.value as ThemePref)}>
                <option value="system">{t('prefs.themeSystem')}</option>
                <option value="light">{t('prefs.themeLight')}</option>
                <option value="dark">{t('prefs.themeDark')}</option>
              </select>
            </label>
          </div>
        </header>
        <main id="main" ref={mainRef} tabIndex={-1} className="content">
          {screen === 'connection' && <ConnectionScreen />}
          {screen === 'templates' && <TemplatesScreen />}
          {/* Import and LCA stay mounted while hidden: a running import or LCA run is still there on return. */}
          <div hidden={screen !== 'import'}>
            <ImportScreen />
          </div>
          {screen === 'jobs' && <JobsScreen active />}
          {screen === 'export' && <ExportScreen />}
          <div hidden={screen !== 'lca'}>
            <LcaScreen active={screen === 'lca'} />
          </div>
        </main>
      </div>
    </div>
  );
}
