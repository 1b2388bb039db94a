/**
 * No English left in the German UI: every message key of the German catalogue is German (apart from an
 * allow-list of words that are the same in both languages: names, units, loanwords), and every core text that
 * reaches the screens — the undo plan's and the dry run's notes, the indicators' units, the hotspots' component
 * types — is worded in both languages.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAN_NOTES, RUN_NOTES, rowWords, type PlanNoteName } from '../../core/jobs/plan-notes.js';
import { UNDO_NOTES, type UndoNoteName } from '../../core/jobs/undo-notes.js';
import { UNDO_REFUSALS } from '../../core/jobs/undo-refusal.js';
import { describeError } from '../../renderer/src/errors.js';
import { INDICATOR_INFO } from '../../core/lca/indicators.js';
import { BOM_COMPONENT_TYPES } from '../../core/spec/constants.js';
import { chartNoteText, ignoredSheetText, indicatorUnit } from '../../renderer/src/i18n/core-text.js';
import { IGNORED_SHEET_REASONS } from '../../core/workbook/reader.js';
import { lcaChartData, NO_QUANTITY_NOTE, ZERO_QUANTITY_NOTE } from '../../core/lca/analysis.js';
import { de } from '../../renderer/src/i18n/de.js';
import { en } from '../../renderer/src/i18n/en.js';
import { catalogues, translate, type Locale, type MessageKey } from '../../renderer/src/i18n/index.js';
import { COMPONENT_TYPE_MESSAGE, wordsOf } from '../../renderer/src/i18n/names.js';
import { runNoteText } from '../../renderer/src/i18n/plan-notes.js';
import { noteText, undoRefusalText } from '../../renderer/src/i18n/undo-notes.js';
import { problemText } from '../../renderer/src/screens/import/issueText.js';
import { checkProductionYears } from '../../core/spec/rules.js';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { staticOutcome } from '../../core/jobs/job-result.js';
import type { PlanEntry } from '../../core/jobs/types.js';
import { jobRowView } from '../../core/app/sessions/job-views.js';
import { OutcomeDetail } from '../../renderer/src/components/JobResults.js';
import { fieldLabel } from '../../renderer/src/i18n/field-labels.js';
import { IMPACT_TEXT_CODES, type ImpactText, type ImpactTextCode } from '../../core/lca/impact/types.js';
import { LCA_ABORT_REASONS, LCA_OUTCOMES } from '../../core/names.js';
import { impactText } from '../../renderer/src/screens/impact/impactLogic.js';

const tOf = (locale: Locale) => (key: MessageKey, vars?: Record<string, string | number>) =>
  translate(locale, key, vars);

/** Words that are English and not German (German shares "in", "an", "was", "will", "so" …, so those are not here). */
const ENGLISH =
  /\b(the|and|is|are|of|to|with|not|for|were|cannot|this|that|your|you|from|on|or|be|has|have|by|it|all|row|rows|file|still|used|done|skipped|failed|created|updated|instance|instances|entity|entities|found|error|errors|warning|warnings|please|click|choose|select|unit|year|years|back|job|jobs|deleted|sent|nothing)\b/i;

/** The text a reader sees of a message: no placeholders, no quoted or code parts; plural forms kept. */
function prose(text: string): string {
  return text
    .replace(/\{\w+, plural,/g, ' ')
    .replace(/(?:=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g, ' $1 ')
    .replace(/\{\w+\}/g, ' ')
    .replace(/`[^`]*`|“[^”]*”|„[^“]*“|"[^"]*"/g, ' ')
    .replace(/\b[a-z]+(?:[_:.-][a-z0-9]+)+\b/g, ' ') // field names, scopes, err_codes: the format's own names
    .replace(/--[a-z-]+/g, ' ')
    .replace(/\b[A-Z]{2,}\b/g, ' '); // acronyms (XML, DOCTYPE, ENTITY, BOM, API)
}

describe('the German catalogue', () => {
  it('has a German text for every message key', () => {
    const missing = (Object.keys(en) as MessageKey[]).filter((k) => typeof de[k] !== 'string' || de[k].trim() === '');
    expect(missing).toEqual([]);
  });

  it('has no English left, every message key walked', () => {
    const english = (Object.keys(de) as MessageKey[])
      .filter((k) => ENGLISH.test(prose(de[k])))
      .map((k) => `${k}: ${de[k]}`);
    expect(english).toEqual([]);
  });

  it('the check finds English (a German text replaced by its English one is caught)', () => {
    expect(ENGLISH.test(prose(en['lca.found']))).toBe(true);
    expect(ENGLISH.test(prose(en['jobs.interruptedNotice']))).toBe(true);
    expect(ENGLISH.test(prose(de['lca.found']))).toBe(false);
  });

  it('a message the same in both languages is a name, a unit or a word German shares', () => {
    const SHARED = new Set([
      'Import',
      'Export',
      'Name',
      'Status',
      'Silos',
      'Silo',
      'Rest',
      '{source} → {sheet}',
      '{usage} / {limit}',
      'GWP-total {year}: {value} {unit}',
      ' in {unit}',
      ' ≥ {min}',
      ' ≤ {max}',
    ]);
    const same = (Object.keys(en) as MessageKey[]).filter((k) => en[k] === de[k] && !SHARED.has(en[k]));
    expect(same).toEqual([]);
  });
});

describe('words of the user, not of the code', () => {
  it('no message shows backticks or a CLI flag, except where it tells what the CLI does', () => {
    const aboutTheCli = new Set<MessageKey>(['columns.saveHint']);
    const code = [en, de].flatMap((catalogue) =>
      (Object.keys(catalogue) as MessageKey[])
        .filter((k) => !aboutTheCli.has(k) && /`|(?:^|\s|\()--[a-z]/.test(catalogue[k]))
        .map((k) => `${k}: ${catalogue[k]}`),
    );
    expect(code).toEqual([]);
  });

  it('the cap of a mirror is told as a limit of deletes, not as a flag', () => {
    const vars = { sheet: 'supplier-plants', count: 4, cap: 2 };
    expect(translate('en', 'plan.mirror_cap', vars)).toBe(
      'the mirror of supplier-plants would delete 4 entities, more than the limit of 2 deletes per import: nothing is deleted',
    );
    expect(translate('de', 'plan.mirror_cap', vars)).toContain('Obergrenze von 2 Löschungen je Import');
  });
});

describe('no internal names on screen', () => {
  it('no fixed text names a field by its internal name: a field is told by its label (`{label:…}`)', () => {
    const named: string[] = [];
    for (const locale of ['en', 'de'] as const) {
      const cat = catalogues[locale] as Record<string, string>;
      const fields = Object.keys(cat)
        .filter((k) => k.startsWith('field.') && k.includes('_'))
        .map((k) => k.slice('field.'.length));
      for (const key of Object.keys(cat).filter((k) => !k.startsWith('field.'))) {
        const text = translate(locale, key as MessageKey).replace(/\{[^{}]*\}/g, ' ');
        for (const f of fields) if (new RegExp(`\\b${f}\\b`).test(text)) named.push(`${locale} ${key}: ${f}`);
      }
    }
    expect(named).toEqual([]);
  });

  it('a field named in a text is worded by its label in each language', () => {
    expect(translate('en', 'lca.listLabel')).toContain('“Your code”');
    expect(translate('de', 'lca.listLabel')).toContain('„Ihr Code“');
    expect(translate('de', 'plan.notManaged', { count: 2 })).toBe(
      '2 Einträge ohne „Ihr Code“ werden nicht vom Arbeitsblatt verwaltet und nie angefasst.',
    );
  });
});

describe('core texts that reach the UI, in both languages', () => {
  const samples: { [K in UndoNoteName]: Parameters<(typeof UNDO_NOTES)[K]> } = {
    afterRecreate: ['SC-1'],
    figuresSetBack: [],
    bomPutBack: [],
    createdDeleted: [],
    createdAlreadyDeleted: [],
    setBack: [['name', 'country']],
    recreated: ['123e4567-e89b-12d3-a456-426614174000'],
    figuresPutBack: [],
  };

  it('every note of an undo plan is worded in German, its values kept', () => {
    for (const name of Object.keys(UNDO_NOTES) as UndoNoteName[]) {
      const note = (UNDO_NOTES[name] as (...a: unknown[]) => string)(...samples[name]);
      const german = noteText(note, 'de');
      expect(german, name).not.toBe(note);
      expect(ENGLISH.test(prose(german)), `${name}: ${german}`).toBe(false);
      const kept = name === 'setBack' ? [] : samples[name].flat();
      for (const v of kept) expect(german, name).toContain(String(v));
      expect(ENGLISH.test(prose(noteText(note, 'en'))), name).toBe(true);
    }
  });

  it('the undo note of fields set back names them by their labels', () => {
    expect(noteText(UNDO_NOTES.setBack(['name', 'country']), 'de')).toBe('zurückgesetzt: Bezeichnung, Land');
    expect(noteText(UNDO_NOTES.setBack(['name', 'country']), 'en')).toBe('set back: Name, Country');
  });

  it('a note no plan writes stays as it came', () => {
    expect(noteText('something new', 'de')).toBe('something new');
  });

  // each note of the dry run with sample values, and the values that stay as they are in every language
  const planSamples: { [K in PlanNoteName]: [Parameters<(typeof PLAN_NOTES)[K]>, string[]] } = {
    afterCreate: [
      ['supplier company SC-1', rowWords({ sheet: 'supplier-companies', row: 3 })],
      ['SC-1', '3'],
    ],
    afterWrittenWithout: [['silo SILO-1 (written by this import)'], ['SILO-1']],
    afterDeleteWithBom: [['product instance PI-2', 'the BOM of product instance PI-2'], ['PI-2']],
    afterDeleteOf: [['silo SILO-1'], ['SILO-1']],
    createOnlyNotApplied: [[], []],
    actionCreateExists: [[], []],
    actionDelete: [[], []],
    actionDeleteNotUsed: [[['name', 'country']], []],
    alreadyAbsent: [[], []],
    mirrorNotIn: [['Lieferanten'], ['Lieferanten']],
    bomUnreadable: [['HTTP 503'], ['HTTP 503']],
    bomCreateOnly: [[], []],
    figuresUnreadable: [['HTTP 503'], ['HTTP 503']],
    futureYear: [[2031], ['2031']],
    figuresCreateOnly: [[], []],
  };

  it('every note of a dry run is worded in German, its codes and numbers kept, its entities and fields in words', () => {
    for (const name of Object.keys(PLAN_NOTES) as PlanNoteName[]) {
      const [args, kept] = planSamples[name];
      const note = (PLAN_NOTES[name] as (...a: unknown[]) => string)(...args);
      const german = noteText(note, 'de');
      expect(german, name).not.toBe(note);
      expect(ENGLISH.test(prose(german)), `${name}: ${german}`).toBe(false);
      for (const v of kept) expect(german, name).toContain(v);
      // the code's own words never show: entity nouns, field names, "create-only"
      expect(german, name).not.toMatch(/supplier company|product instance|\bsilo\b|external_id|create-only|spec rule/);
      expect(noteText(note, 'en'), name).not.toMatch(/external_id|create-only|spec rule|\bcountry\b/);
    }
    expect(noteText(PLAN_NOTES.afterCreate('supplier company SC-1', rowWords(undefined)), 'de')).toBe(
      'nachdem Lieferant SC-1 (eine andere Zeile) angelegt ist',
    );
    expect(noteText(PLAN_NOTES.actionDeleteNotUsed(['name', 'country']), 'de')).toBe(
      'Aktion „delete“ (nur „Ihr Code“ zählt; nicht verwendet: Bezeichnung, Land)',
    );
  });

  it('indicator units in German ("kg CO2-Äq."), as the service writes them in English', () => {
    expect(indicatorUnit('kg CO2 eq.', 'de')).toBe('kg CO2-Äq.');
    expect(indicatorUnit('kg CO2 eq.', 'en')).toBe('kg CO2 eq.');
    for (const i of INDICATOR_INFO) expect(indicatorUnit(i.unit, 'de')).toBe(i.unit_de);
    expect(indicatorUnit('furlongs', 'de')).toBe('furlongs');
  });

  it('hotspot component types in words of the language, never the code', () => {
    for (const type of BOM_COMPONENT_TYPES) {
      for (const locale of ['en', 'de'] as const) {
        const words = wordsOf(tOf(locale), COMPONENT_TYPE_MESSAGE, type);
        expect(words, `${locale} ${type}`).not.toMatch(/_/);
      }
      expect(wordsOf(tOf('de'), COMPONENT_TYPE_MESSAGE, type)).not.toBe(
        wordsOf(tOf('en'), COMPONENT_TYPE_MESSAGE, type),
      );
    }
  });
});

describe('why an undo does not send a row, in both languages', () => {
  // every variant the undo plan writes, read from its source: one added there without words here fails
  const source = readFileSync(join(__dirname, '../../core/jobs/undo-plan.ts'), 'utf8');
  const variants = [...new Set([...source.matchAll(/variant: '(undo_\w+)'/g)].map((m) => m[1]))];
  const values = { jobId: 'job-20260101-1', years: '2024, 2025', fields: 'name, country', value: 'PI-1', id: '42' };

  it('every variant has its words in English and German, values kept, fields by their labels', () => {
    expect(variants.length).toBeGreaterThanOrEqual(8);
    for (const variant of variants) {
      const message = `the core's English for ${variant}`;
      const p = {
        kind: 'conflict',
        sheet: 'supplier-companies',
        cell: null,
        row: 2,
        field: null,
        message,
        params: { detail: message, variant, ...values },
      };
      // its own words, by the code it comes with: not a generic text of that code
      const codes = ['snapshot_conflict', 'row_rule'].filter((c) => Object.hasOwn(en, `plan.${c}.${variant}`));
      expect(codes, variant).toHaveLength(1);
      expect(Object.hasOwn(de, `plan.${codes[0]}.${variant}`), variant).toBe(true);
      const words = (locale: Locale) => problemText({ ...p, code: codes[0] }, locale);
      for (const locale of ['en', 'de'] as const) expect(words(locale), `${locale} ${variant}`).not.toBe(message);
      const german = words('de');
      expect(ENGLISH.test(prose(german)), `${variant}: ${german}`).toBe(false);
      expect(german).not.toMatch(/external_id|\bcountry\b/);
    }
  });
});

describe('why a job may not be undone, in both languages', () => {
  const refusals = [
    UNDO_REFUSALS.otherService('job-1', 'https://a.example/v2', 'https://b.example/v2'),
    UNDO_REFUSALS.underWay('job-1', 'job-2', 'paused'),
    UNDO_REFUSALS.alreadyUndone('job-1', 'job-2', 'job-2'),
    UNDO_REFUSALS.alreadyUndone('job-1', 'job-2', 'job-4'),
    UNDO_REFUSALS.undoTakenBack('job-1', 'job-2', 'job-3'),
  ];

  it('every refusal is worded in German, its jobs kept; in English as the core says it', () => {
    expect(refusals).toHaveLength(Object.keys(UNDO_REFUSALS).length + 1);
    for (const r of refusals) {
      expect(undoRefusalText(r, 'en')?.toLowerCase(), r).toBe(r.toLowerCase()); // a status by its name on screen
      const german = undoRefusalText(r, 'de');
      expect(german, r).toBeDefined();
      expect(ENGLISH.test(prose(german!)), german).toBe(false);
      for (const job of r.match(/job-\d/g)!) expect(german).toContain(job);
    }
    expect(undoRefusalText(refusals[1], 'de')).toContain('(Pausiert)');
    expect(undoRefusalText('Job x cannot be resumed (paused).', 'de')).toBeUndefined();
  });

  it('a refused undo is told in German where the app shows the error', () => {
    const text = describeError({ code: 'invalid_input', message: refusals[4] }, tOf('de'), 'de');
    expect(text.detail).toMatch(/^Auftrag job-1 wurde von Auftrag job-2 zurückgenommen/);
  });
});

describe('why a sheet is not read, in German', () => {
  it('every reason the reader gives is worded, the sheet kept; any other stays as it came', () => {
    const reasons = Object.values(IGNORED_SHEET_REASONS).map((r) => r('supplier-companies'));
    for (const r of reasons) {
      const german = ignoredSheetText(r, tOf('de'));
      expect(german, r).not.toBe(r);
      expect(ENGLISH.test(prose(german)), german).toBe(false);
    }
    expect(ignoredSheetText(IGNORED_SHEET_REASONS.second('silos'), tOf('de'))).toBe('ein zweites Blatt silos');
    expect(ignoredSheetText('something else', tOf('de'))).toBe('something else');
  });
});

describe('problems of the dry run that carry a rule, in German', () => {
  const at = { sheet: 'product-instances', cell: 'D3', row: 3 };
  it('a rule of the service in a row is worded as the check words it, its fields by their labels', () => {
    const [v] = checkProductionYears(2024, 2020);
    const p = {
      ...at,
      kind: 'validation',
      field: 'produced_to',
      message: v.msg,
      code: 'row_rule',
      params: { detail: v.msg, errCode: v.err_code },
    };
    const german = problemText(p, 'de');
    expect(german).toBe('Letztes Produktionsjahr darf nicht vor „Erstes Produktionsjahr“ liegen.');
    expect(problemText(p, 'en')).toBe('Last year of production must not be before “First year of production”');
  });

  it("a production figure outside its instance's period names the years in German", () => {
    const p = (params: Record<string, string | number>) => ({
      ...at,
      sheet: 'production',
      kind: 'rule',
      field: 'year',
      message: 'year 2031 lies outside the production period of PI-2 (2022–2030)',
      code: 'row_rule',
      params: { detail: 'year 2031 outside 2022–2030', ...params },
    });
    expect(problemText(p({ variant: 'outside_period', year: 2031, from: 2022, to: 2030 }), 'de')).toBe(
      'Das Jahr 2031 liegt außerhalb des Produktionszeitraums der Instanz (2022–2030).',
    );
    expect(problemText(p({ variant: 'outside_period_open', year: 2019, from: 2022 }), 'de')).toBe(
      'Das Jahr 2019 liegt vor dem Produktionszeitraum der Instanz (ab 2022).',
    );
    for (const variant of ['outside_period', 'outside_period_open'])
      expect(ENGLISH.test(prose(problemText(p({ variant, year: 2031, from: 2022, to: 2030 }), 'de')))).toBe(false);
  });
});

describe('what a job says of a row it did not send, in German', () => {
  const what = `supplier product E-SP-4 (${rowWords({ sheet: 'supplier-products', row: 5 })})`;
  it('a row whose dependency did not succeed names it in words, its code and row kept', () => {
    expect(runNoteText(RUN_NOTES.dependencyNotSent(what, 'failed'), 'de')).toBe(
      'Lieferantenprodukt E-SP-4 (supplier-products Zeile 5) ist fehlgeschlagen',
    );
    expect(runNoteText(RUN_NOTES.dependencyNotSent(what, 'skipped'), 'de')).toBe(
      'Lieferantenprodukt E-SP-4 (supplier-products Zeile 5): Übersprungen',
    );
    expect(runNoteText(RUN_NOTES.dependencyNotSent('supplier-products!5', 'pending'), 'de')).toBe(
      'supplier-products!5 wurde nicht ausgeführt',
    );
    expect(runNoteText(RUN_NOTES.dependencyNotSent(what, 'failed'), 'en')).toBe(
      'supplier product E-SP-4 (supplier-products row 5) failed',
    );
  });

  it('every such note is worded in German; any other message is none of them', () => {
    const notes = [
      RUN_NOTES.dependencyNotSent(what, 'failed'),
      RUN_NOTES.dependencyNotSent(what, 'already_existed'),
      RUN_NOTES.dependencyNotSent(what, 'pending'),
      RUN_NOTES.createOnly(),
    ];
    for (const n of notes) {
      const german = runNoteText(n, 'de');
      expect(german, n).toBeDefined();
      expect(ENGLISH.test(prose(german!)), `${n}: ${german}`).toBe(false);
    }
    expect(runNoteText('blocked: something else', 'de')).toBeUndefined();
  });

  it('an updated row names the fields it changed by their labels', () => {
    const e = {
      key: 'supplier-products!4',
      kind: 'supplier_product',
      level: 2,
      sheet: 'supplier-products',
      row: 4,
      rows: [{ sheet: 'supplier-products', row: 4 }],
      externalId: 'SP-4',
      label: 'supplier product SP-4',
      action: 'update',
      id: 'sp-4',
      changes: [
        { field: 'name', before: 'Sand; fine', after: 'Sand' },
        { field: 'transport_route.truck_km', before: 10, after: 12 },
      ],
    } as unknown as PlanEntry;
    const row = jobRowView(e, { key: e.key, outcome: 'updated', id: 'sp-4' });
    const shown = (locale: Locale) =>
      renderToStaticMarkup(createElement(OutcomeDetail, { row, t: tOf(locale), locale })).replace(/<[^>]+>/g, '');
    expect(shown('de')).toBe(
      `Bezeichnung: Sand; fine → Sand; ${fieldLabel('transport_route.truck_km', 'de')}: 10 → 12`,
    );
    expect(shown('en')).not.toMatch(/\bname:|truck_km/);
  });

  it('a replaced BOM, a row already on the service and a replayed create are worded in the UI language', () => {
    const e = {
      key: 'bom!4',
      kind: 'bom',
      level: 6,
      sheet: 'bom',
      row: 4,
      rows: [{ sheet: 'bom', row: 4 }],
      externalId: 'PI-1',
      label: 'BOM of PI-1',
      action: 'replace_bom',
      id: 'pi-1',
      bomDiff: { added: ['SP-1'], removed: [], changed: ['SP-2', 'SP-3'], unchanged: 4 },
    } as unknown as PlanEntry;
    const shown = (row: ReturnType<typeof jobRowView>, locale: Locale) =>
      renderToStaticMarkup(createElement(OutcomeDetail, { row, t: tOf(locale), locale })).replace(/<[^>]+>/g, ' ');
    const replaced = jobRowView(e, { key: e.key, outcome: 'replaced', id: 'pi-1' });
    expect(shown(replaced, 'de')).toContain(
      'Stückliste ersetzt: 1 hinzugefügt, 0 entfernt, 2 mit anderer Masse, 4 unverändert',
    );
    expect(shown(replaced, 'en')).toContain('BOM replaced: 1 added');
    for (const outcome of ['already_existed', 'replayed'] as const) {
      const row = jobRowView(e, { key: e.key, outcome, id: 'pi-1' });
      expect(ENGLISH.test(prose(shown(row, 'de'))), shown(row, 'de')).toBe(false);
      expect(shown(row, 'de').trim()).not.toBe('');
    }
    for (const row of [replaced]) expect(ENGLISH.test(prose(shown(row, 'de'))), shown(row, 'de')).toBe(false);
  });

  it("a row the dry run blocked shows the dry run's problem in words, not the planner's English", () => {
    const message = 'material code "MAT-X" is not in the materials sheet (as the planner words it)';
    const e = {
      key: 'supplier-products!3',
      kind: 'supplier_product',
      level: 2,
      sheet: 'supplier-products',
      row: 3,
      rows: [{ sheet: 'supplier-products', row: 3 }],
      externalId: 'SP-3',
      label: 'supplier product SP-3',
      action: 'blocked',
      id: null,
      problems: [
        {
          kind: 'unresolved',
          sheet: 'supplier-products',
          cell: 'D3',
          row: 3,
          field: 'material_code',
          message,
          code: 'material_unknown',
          params: { value: 'MAT-X' },
        },
      ],
    } as unknown as PlanEntry;
    const row = jobRowView(e, staticOutcome(e)!);
    const shown = (locale: Locale) =>
      renderToStaticMarkup(createElement(OutcomeDetail, { row, t: tOf(locale), locale })).replace(/<[^>]+>/g, ' ');
    for (const locale of ['en', 'de'] as const) {
      expect(shown(locale)).not.toContain('as the planner words it');
      expect(shown(locale)).toContain('MAT-X');
    }
    expect(shown('de')).toContain('Materialcode');
    expect(ENGLISH.test(prose(shown('de').replace(/„[^“]*“/g, ' '))), shown('de')).toBe(false);
  });
});

describe('notes of the LCA chart, in German', () => {
  const tDe = (key: MessageKey, vars?: Record<string, string | number>) => translate('de', key, vars);
  it('every note the analysis writes on a point is worded in German, its modules kept', () => {
    const missing = lcaChartData(
      {
        instances: [
          {
            instance: { id: 'pi-1', external_id: 'PI-1' },
            results: [
              {
                year: 2024,
                status: 'computed',
                production_quantity: 10,
                values: [{ indicator: 'GWP-total', module: 'A1-A3', unit: 'kg CO2 eq.', value: 5 }],
              },
            ],
          },
        ] as never,
      },
      { modules: 'A1-A4', basis: 'total' },
    ).series[0].points[0].note;
    expect(missing).toMatch(/not declared/);
    for (const note of [NO_QUANTITY_NOTE, ZERO_QUANTITY_NOTE, missing!]) {
      const german = chartNoteText(note, tDe);
      expect(german, note).not.toBe(note);
      expect(ENGLISH.test(prose(german)), german).toBe(false);
    }
    expect(chartNoteText(missing!, tDe)).toContain('A4');
    expect(chartNoteText('something else', tDe)).toBe('something else');
  });
});

describe('the LCA impact’s texts', () => {
  /** Each code the core writes beside its English words, with parameters as the core writes them. */
  const SAMPLES: Record<ImpactTextCode, ImpactText['params'][]> = {
    component_changed: [
      { kind: 'supplier_product', code: 'SP-1', action: 'update' },
      { kind: 'silo', code: 'E-SILO-1', action: 'create' },
      { kind: 'prechain_product', code: 'PP-1', action: 'delete' },
      { kind: 'supplier_product', code: 'SP-2', action: 'update', via_kind: 'silo', via_code: 'E-SILO-1' },
      { kind: 'prechain_instance', of_kind: 'silo', code: 'E-SILO-1', action: 'update' },
    ],
    production_changed: [{ action: 'create' }],
    new_instance: [{}],
    component_created: [{ code: 'SP-9' }],
    no_current_per_unit: [{ year: 2024 }],
    no_breakdown: [{ year: 2024 }],
    added_without_per_kg: [{ year: 2024, code: 'sp-ref' }],
    no_current_results: [{}],
    mass_changed: [{ from: 1.5, to: 2 }],
    removed: [{}],
    added: [{ mass: 3, from: 'PI-7' }],
    not_found_after: [{ instance: 'PI-1' }],
    no_before: [{ instance: 'PI-1' }],
    not_read_after: [{ instance: 'PI-1' }],
    outcome: [
      { side: 'before', outcome: 'failed', err_code: 'lca_failed' },
      { side: 'after', outcome: 'timeout' },
    ],
    // every outcome the dry run's read lists (not completed, not idle), every reason it stops for
    unread_before: LCA_OUTCOMES.filter((o) => o !== 'completed' && o !== 'idle').map((outcome, k) => ({
      instance: `PI-${k + 1}`,
      outcome,
      ...(outcome === 'failed' && { err_code: 'lca_failed' }),
    })),
    read_stopped: LCA_ABORT_REASONS.map((reason) => ({
      reason,
      ...(reason === 'daily_limit' && { err_code: 'err_rate_limited' }),
    })),
  };

  it('words every code in German, its codes, years and instances kept', () => {
    const tDe = tOf('de');
    expect(Object.keys(SAMPLES).sort()).toEqual([...IMPACT_TEXT_CODES].sort());
    for (const code of IMPACT_TEXT_CODES)
      for (const params of SAMPLES[code]) {
        const german = impactText(tDe, 'de', { code, params }, 'ENGLISH WORDS');
        const english = impactText(tOf('en'), 'en', { code, params }, 'ENGLISH WORDS');
        expect(german, code).not.toBe('ENGLISH WORDS');
        expect(german, code).not.toBe(english);
        expect(ENGLISH.test(prose(german)), `${code}: ${german}`).toBe(false);
        for (const k of ['code', 'year', 'instance', 'via_code', 'err_code'])
          if (params[k] !== undefined) expect(german, code).toContain(String(params[k]));
      }
  });

  it('keeps the core’s words when there is no code (a report kept by an older version)', () => {
    expect(impactText(tOf('de'), 'de', null, 'as the core wrote it')).toBe('as the core wrote it');
  });
});
