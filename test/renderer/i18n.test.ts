/** The English and German catalogues have the same keys and placeholders; the language follows the OS. */
import { describe, expect, it } from 'vitest';
import { de } from '../../renderer/src/i18n/de.js';
import { en } from '../../renderer/src/i18n/en.js';
import { localeFromNavigator, resolveLocale, translate } from '../../renderer/src/i18n/index.js';

/** `{name}` and `{name, plural, …}`: the values a message takes. */
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((m) => m[1]).sort();

describe('i18n catalogues', () => {
  it('have exactly the same keys', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });

  it('use the same placeholders in every message, and no empty text', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(de[key]), key).toEqual(placeholders(en[key]));
      expect(en[key].trim(), key).not.toBe('');
      expect(de[key].trim(), key).not.toBe('');
    }
  });

  it('German is really translated (not a copy of English) for most messages', () => {
    const keys = Object.keys(en) as (keyof typeof en)[];
    const same = keys.filter((k) => en[k] === de[k]);
    expect(same.length / keys.length).toBeLessThan(0.1);
  });

  it('follows the OS language, falls back to English', () => {
    expect(localeFromNavigator(['de-DE', 'en-US'])).toBe('de');
    expect(localeFromNavigator(['de-AT'])).toBe('de');
    expect(localeFromNavigator(['fr-FR', 'de-CH'])).toBe('de');
    expect(localeFromNavigator(['en-GB', 'de-DE'])).toBe('en');
    expect(localeFromNavigator(['fr-FR'])).toBe('en');
    expect(localeFromNavigator([])).toBe('en');
    expect(resolveLocale('system', ['de-DE'])).toBe('de');
    expect(resolveLocale('en', ['de-DE'])).toBe('en');
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('de', 'connection.deleteConfirm', { name: 'Prod' })).toBe(
      'Das Profil „Prod“ und seinen gespeicherten Schlüssel löschen?',
    );
    expect(translate('en', 'connection.deleteConfirm')).toContain('{name}');
  });
});
