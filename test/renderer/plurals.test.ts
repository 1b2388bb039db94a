/**
 * Counts in the UI take their form from Intl.PluralRules: "1 instance" and "2 instances", "1 Auftrag wurde" and
 * "3 Aufträge wurden", never "instance(s)" or "Auftrag/Aufträge"; a count given already formatted ("1.234")
 * picks its form by its number.
 */
import { describe, expect, it } from 'vitest';
import { de } from '../../renderer/src/i18n/de.js';
import { en } from '../../renderer/src/i18n/en.js';
import { translate, type MessageKey } from '../../renderer/src/i18n/index.js';

describe('plural forms', () => {
  it('one and other, in English and German', () => {
    expect(translate('en', 'lca.instancesN', { count: 1 })).toBe('1 instance');
    expect(translate('en', 'lca.instancesN', { count: 2 })).toBe('2 instances');
    expect(translate('en', 'lca.instancesN', { count: 0 })).toBe('0 instances');
    expect(translate('de', 'lca.instancesN', { count: 1 })).toBe('1 Instanz');
    expect(translate('de', 'lca.instancesN', { count: 5 })).toBe('5 Instanzen');
    expect(translate('de', 'jobs.interruptedNotice', { count: 1 })).toMatch(
      /^1 Auftrag wurde unterbrochen .* Setzen Sie ihn fort\.$/,
    );
    expect(translate('de', 'jobs.interruptedNotice', { count: 3 })).toMatch(
      /^3 Aufträge wurden unterbrochen .* Setzen Sie sie fort\.$/,
    );
    expect(translate('en', 'results.rowsEntries', { rows: 1, entries: 1 })).toBe('1 worksheet row in 1 entity');
    expect(translate('en', 'results.rowsEntries', { rows: 16, entries: 11 })).toBe('16 worksheet rows in 11 entities');
    expect(translate('en', 'check.errors', { errors: 1, warnings: 2, rows: 1 })).toBe(
      '1 error and 2 warnings in 1 row.',
    );
    expect(translate('de', 'check.errors', { errors: 1, warnings: 1, rows: 40 })).toBe(
      '1 Fehler und 1 Warnung in 40 Zeilen.',
    );
  });

  it('a count passed formatted keeps its text and picks its form by its number', () => {
    expect(translate('de', 'lca.instancesN', { count: '1.234' })).toBe('1.234 Instanzen');
    expect(translate('en', 'lca.instancesN', { count: '1,234' })).toBe('1,234 instances');
    expect(translate('en', 'undo.moreRows', { count: '1' })).toBe('1 more row is not listed.');
  });

  it('a plural without its value stays visible, never crashes', () => {
    expect(translate('en', 'lca.instancesN', {})).toContain('{count, plural,');
  });

  it('no message writes a plural by hand ("(s)", "(en)", "Zeile(n)", "Auftrag/Aufträge")', () => {
    // a message that lists names, with no count to choose a form by
    const listsNames = new Set<MessageKey>(['columns.missing']);
    const byHand = /\w\((?:s|e|en|n)\)|Auftrag\/Aufträge/;
    const found = [
      ...Object.entries(en).filter(([k, v]) => !listsNames.has(k as MessageKey) && byHand.test(v)),
      ...Object.entries(de).filter(([k, v]) => !listsNames.has(k as MessageKey) && byHand.test(v)),
    ].map(([k, v]) => `${k}: ${v}`);
    expect(found).toEqual([]);
  });
});
