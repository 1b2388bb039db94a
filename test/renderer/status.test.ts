/**
 * Status words that say what happened. A job that completed with a failed row is not a green
 * "Completed"; an LCA instance that computed no year has its own neutral words; instances of a run not started
 * are "Not started"; years and codes are never grouped with thousands separators. Every key the words use
 * exists in English and German.
 */
import { describe, expect, it } from 'vitest';
import type { LcaInstanceView } from '../../core/ipc/contract.js';
import { JOB_STATUSES, LCA_OUTCOMES, LCA_STATES } from '../../core/names.js';
import { formatFieldValue, formatValue, isPlainField } from '../../renderer/src/components/format.js';
import { offersRerun } from '../../renderer/src/components/JobResults.js';
import { jobStatusWords, lcaOutcomeWords, lcaStateWords, outcomeTotals } from '../../renderer/src/components/status.js';
import { de } from '../../renderer/src/i18n/de.js';
import { en } from '../../renderer/src/i18n/en.js';

function fill(text: string, params: Record<string, number>): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k]));
}

function instance(over: Partial<LcaInstanceView>): LcaInstanceView {
  return {
    id: 'i1',
    externalId: 'PI-1',
    name: null,
    productArticle: null,
    productName: null,
    plantCode: null,
    producedFrom: 2022,
    producedTo: null,
    state: 'done',
    outcome: 'completed',
    jobStatus: 'completed',
    errCode: null,
    msg: null,
    recomputed: true,
    waitedForRunningJob: false,
    years: [],
    ...over,
  } as LcaInstanceView;
}

describe('job status words', () => {
  it('a completed job with a failed row is not green and names how many failed', () => {
    const w = jobStatusWords({ status: 'completed', reason: null, counts: { created: 12, failed: 1, skipped: 1 } });
    expect(w.tone).toBe('bad');
    expect(fill(en[w.label], w.params)).toBe('Completed, 1 failed');
    expect(fill(en[w.text], w.params)).toContain('12 succeeded, 1 failed, 1 skipped');
    expect(fill(de[w.label], w.params)).toBe('Abgeschlossen, 1 fehlgeschlagen');
  });

  it('a completed job with only skipped rows is amber and says so; all succeeded is green', () => {
    const s = jobStatusWords({ status: 'completed', reason: null, counts: { created: 3, skipped: 2 } });
    expect(s.tone).toBe('warn');
    expect(fill(en[s.label], s.params)).toBe('Completed, 2 skipped');
    const ok = jobStatusWords({ status: 'completed', reason: null, counts: { created: 3, updated: 1, unchanged: 2 } });
    expect(ok.tone).toBe('ok');
    expect(en[ok.label]).toBe('Completed');
    expect(en[ok.text]).toBe('Completed: every row succeeded.');
  });

  it('counts successes from the core list of success outcomes', () => {
    expect(
      outcomeTotals({ created: 1, replayed: 1, already_existed: 1, unchanged: 1, updated: 1, replaced: 1, failed: 2 }),
    ).toEqual({ ok: 6, failed: 2, skipped: 0, pending: 0 });
  });

  it('every status has words in both languages; stopped jobs are never green', () => {
    for (const status of JOB_STATUSES) {
      for (const reason of [null, 'daily_limit']) {
        const w = jobStatusWords({ status, reason, counts: { failed: 1 } });
        expect(en[w.label], `${status} label`).toBeTruthy();
        expect(de[w.label], `${status} label de`).toBeTruthy();
        expect(en[w.text], `${status} text`).toBeTruthy();
        expect(de[w.text], `${status} text de`).toBeTruthy();
        expect(w.tone).not.toBe('ok');
      }
    }
  });

  it('offers a re-run for any finished job with rows that did not succeed', () => {
    expect(offersRerun({ running: false, resumable: false, notSucceeded: 2 })).toBe(true);
    expect(offersRerun({ running: false, resumable: false, notSucceeded: 0 })).toBe(false);
    expect(offersRerun({ running: true, resumable: false, notSucceeded: 2 })).toBe(false);
    expect(offersRerun({ running: false, resumable: true, notSucceeded: 2 })).toBe(false);
  });
});

describe('LCA status words', () => {
  it('a completed instance with no year computed has its own neutral state', () => {
    const zero = instance({ years: [] });
    const w = lcaOutcomeWords(zero)!;
    expect(w.tone).toBe('neutral');
    expect(en[w.label]).toBe('Completed — no years computed');
    expect(de[w.label]).toBe('Abgeschlossen — keine Jahre berechnet');
    expect(lcaStateWords(zero, true).tone).toBe('neutral');
    const blockedOnly = instance({
      years: [{ year: 2024, gwp: null, partial: false } as LcaInstanceView['years'][number]],
    });
    expect(lcaOutcomeWords(blockedOnly)!.label).toBe('lca.out.completedNoYears');
    const some = instance({ years: [{ year: 2024, gwp: 12, partial: false } as LcaInstanceView['years'][number]] });
    expect(lcaOutcomeWords(some)).toEqual({ tone: 'ok', label: 'lca.out.completed' });
    expect(lcaStateWords(some, true)).toEqual({ tone: 'ok', label: 'lca.st.done' });
  });

  it('instances of a run not started are "Not started", not "Waiting"', () => {
    const w = lcaStateWords(instance({ state: 'waiting', outcome: null }), false);
    expect(en[w.label]).toBe('Not started');
    expect(de[w.label]).toBe('Nicht gestartet');
    expect(lcaOutcomeWords(instance({ outcome: null }))).toBeNull();
    expect(en[lcaStateWords(instance({ state: 'waiting', outcome: null }), true).label]).toBe('Waiting');
  });

  it('every state and outcome has words in both languages', () => {
    for (const state of LCA_STATES)
      for (const outcome of [...LCA_OUTCOMES, null]) {
        const i = instance({ state, outcome });
        for (const started of [true, false]) expect(en[lcaStateWords(i, started).label]).toBeTruthy();
        const o = lcaOutcomeWords(i);
        if (o) {
          expect(en[o.label]).toBeTruthy();
          expect(de[o.label]).toBeTruthy();
        }
      }
  });
});

describe('years and codes are never grouped', () => {
  it('plain fields: years, produced_from/to, codes and ids', () => {
    for (const f of ['year', 'produced_from', 'produced_to', 'plant_code', 'external_id', 'transport_route.year'])
      expect(isPlainField(f), f).toBe(true);
    for (const f of ['amount', 'mass_kg', 'truck_km', 'transport_route.truck_km', 'items[SP-1][2025]'])
      expect(isPlainField(f), f).toBe(false);
  });

  it('a year is "2024" in both languages; an amount keeps its grouping', () => {
    expect(formatFieldValue('produced_from', 2024, 'en')).toBe('2024');
    expect(formatFieldValue('year', 2024, 'de')).toBe('2024');
    expect(formatFieldValue('plant_code', 12345, 'en')).toBe('12345');
    expect(formatValue(2024, 'en')).toBe('2,024');
    expect(formatFieldValue('items[SP-1][2025]', 1200, 'en')).toBe('1,200');
    expect(formatFieldValue('amount', 1200, 'de')).toBe('1.200');
    expect(formatFieldValue('name', null, 'en')).toBe('—');
  });
});
