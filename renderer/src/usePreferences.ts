import { useCallback, useEffect, useState } from 'react';
import type { Api } from './api.js';
import type { Locale } from './i18n/index.js';
import { resolveLocale } from './i18n/index.js';
import type { LanguagePref, ThemePref } from '../../core/names.js';

export type { LanguagePref, ThemePref } from '../../core/names.js';

export interface Preferences {
  language: LanguagePref;
  theme: ThemePref;
  locale: Locale;
  setLanguage(l: LanguagePref): void;
  setTheme(t: ThemePref): void;
}

/** UI preferences persisted in the main side's settings; language 'system' follows navigator.languages. */
export function usePreferences(api: Api): Preferences {
  const [language, setLang] = useState<LanguagePref>('system');
  const [theme, setThemeState] = useState<ThemePref>('system');

  useEffect(() => {
    let live = true;
    api
      .call('settings.get', {})
      .then((p) => {
        if (!live) return;
        setLang(p.language);
        setThemeState(p.theme);
      })
      .catch(() => {
        /* defaults stay: the app is still usable */
      });
    return () => {
      live = false;
    };
  }, [api]);

  // The page carries the resolved scheme (light or dark): 'system' follows the OS setting, live, so the dark
  // palette is stated once in the CSS.
  useEffect(() => {
    const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
    const apply = () => {
      document.documentElement.dataset.theme = theme === 'system' ? (media?.matches ? 'dark' : 'light') : theme;
    };
    apply();
    if (theme !== 'system' || !media) return;
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);

  const locale = resolveLocale(language, typeof navigator === 'undefined' ? undefined : navigator.languages);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const setLanguage = useCallback(
    (l: LanguagePref) => {
      setLang(l);
      void api.call('settings.update', { language: l }).catch(() => {});
    },
    [api],
  );
  const setTheme = useCallback(
    (t: ThemePref) => {
      setThemeState(t);
      void api.call('settings.update', { theme: t }).catch(() => {});
    },
    [api],
  );
  return { language, theme, locale, setLanguage, setTheme };
}
