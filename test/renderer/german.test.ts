/**
 * No English left in the German UI: every message key of the German catalogue is German (apart from an
 * allow-list of words that are the same in both languages: names, units, loanwords), and every core text that
 * reaches the screens — the undo plan's and the dry run's notes, the indicators' units, the hotspots' component
 * types — is worded in both languages.
 */
import { describe, expect, it } from 'vitest';
import { PLAN_NOTES, RUN_NOTES, rowWords, type PlanNoteName } from '../../core/jobs/plan-notes.js';
import { UNDO_NOTES, type UndoNoteName } from '../../core/jobs/undo-notes.js';
import { INDICATOR_INFO } from '../../core/lca/indicators.js';
import { BOM_COMPONENT_TYPES } from '../../core/spec/constants.js';
import { chartNoteText, indicatorUnit } from '../../renderer/src/i18n/core-text.js';
import { lcaChartData, NO_QUANTITY_NOTE, ZERO_QUANTITY_NOTE } from '../../core/lca/analysis.js';
import { de } from '../../renderer/src/i18n/de.js';
import { en } from '../../renderer/src/i18n/en.js';
import { translate, type Locale, type MessageKey } from '../../renderer/src/i18n/index.js';
import { COMPONENT_TYPE_MESSAGE, wordsOf } from '../../renderer/src/i18n/names.js';
import { runNoteText } from '../../renderer/src/i18n/plan-notes.js';
import { noteText } from '../../renderer/src/i18n/undo-notes.js';
import { problemText } from '../../renderer/src/screens/import/issueText.js';
import { checkProductionYears } from '../../core/spec/rules.js';
import { IMPACT_TEXT_CODES, type ImpactText, type ImpactTextCode } from '../../core/lca/impact/types.js';
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
