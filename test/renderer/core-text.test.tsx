/**
 * Core data kept in both languages (err_code explanations and actions, indicator names) reaches the UI through
 * one helper of the renderer's i18n (i18n/core-text.ts): the German UI shows the German texts, the English UI the
 * English ones, and no other renderer file picks between an English and a German field itself.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { JobRowView } from '../../core/ipc/contract.js';
import { OutcomeDetail } from '../../renderer/src/components/JobResults.js';
import { describeError } from '../../renderer/src/errors.js';
import { errCodeText, indicatorName } from '../../renderer/src/i18n/core-text.js';
import { translate, type Locale } from '../../renderer/src/i18n/index.js';

const RENDERER_SRC = join(import.meta.dirname, '../../renderer/src');
const tOf = (locale: Locale) => (key: Parameters<typeof translate>[1], vars?: Record<string, string | number>) =>
  translate(locale, key, vars);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(f) ? [p] : [];
  });
}

describe('core texts in the UI language', () => {
  it('an err_code explained in German for the German UI, in English for the English one', () => {
    expect(errCodeText('err_permission_denied', 'de')).toEqual({
      known: true,
      explanation: 'Dem API-Schlüssel fehlt die Berechtigung (Scope) für diesen Vorgang.',
      action: 'Einen Kontoinhaber um einen Schlüssel mit dem nötigen Scope bitten.',
    });
    expect(errCodeText('err_permission_denied', 'en')).toMatchObject({
      explanation: 'The API key lacks the permission (scope) for this operation.',
      action: 'Ask an account owner for a key with the needed scope.',
    });
    // A code the catalog does not know: its general explanation, in the UI's language too.
    const unknown = errCodeText('err_made_up_code', 'de');
    expect(unknown.known).toBe(false);
    expect(unknown.explanation).toMatch(/Fehlercode/);
  });

  it("a failed call's words (describeError) and a failed row (OutcomeDetail) in German", () => {
    const de = describeError(
      { code: 'forbidden', message: 'Permission denied', errCode: 'err_permission_denied' },
      tOf('de'),
      'de',
    );
    expect(de.detail).toBe('Dem API-Schlüssel fehlt die Berechtigung (Scope) für diesen Vorgang.');
    expect(de.action).toBe('Einen Kontoinhaber um einen Schlüssel mit dem nötigen Scope bitten.');
    const row = {
      outcome: 'failed',
      errCode: 'err_permission_denied',
      message: 'Permission denied',
    } as unknown as JobRowView;
    const html = renderToStaticMarkup(<OutcomeDetail row={row} t={tOf('de')} locale="de" />);
    expect(html).toContain('Dem API-Schlüssel fehlt die Berechtigung');
    expect(html).toContain('Einen Kontoinhaber um einen Schlüssel');
    expect(html).not.toContain('The API key lacks');
  });

  it('indicator names in the UI language; none for a code the indicator list does not have', () => {
    expect(indicatorName('GWP-total', 'de')).toBe('Globales Erwärmungspotenzial – gesamt');
    expect(indicatorName('GWP-total', 'en')).toBe('Global warming potential – total');
    expect(indicatorName('XYZ-unknown', 'de')).toBeNull();
  });

  it('no renderer file but the helper reads a per-language field of core data', () => {
    const helper = join(RENDERER_SRC, 'i18n/core-text.ts');
    const offenders = sourceFiles(RENDERER_SRC)
      .filter((f) => f !== helper)
      .filter((f) => /\b(explanation|action|name|unit|definition)_de\b|\bname(De|En)\b/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(RENDERER_SRC, f));
    expect(offenders).toEqual([]);
  });
});
