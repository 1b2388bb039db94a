/**
 * Every list of names is written once (core/names.ts) and every name the screens show has its message
 * in English and German: the maps of renderer/src/i18n/names.ts cover their list exactly, and each of their
 * message keys exists in both catalogues. (The compiler checks the same through `satisfies Record<Name,
 * MessageKey>`; this test checks it at run time, against the catalogues as shipped.)
 */
import { describe, expect, it } from 'vitest';
import * as core from '../../core/names.js';
import * as coreTypes from '../../core/jobs/types.js';
import { RESULT_COLUMNS } from '../../core/jobs/results-workbook.js';
import { EXPORT_COLLECTIONS as EXPORT_OF_COLLECT } from '../../core/export/collect.js';
import { BOM_COMPONENT_TYPES, ENTITLEMENT_DIMENSIONS } from '../../core/spec/constants.js';
import { SCOPES } from '../../core/spec/scopes.js';
import { de } from '../../renderer/src/i18n/de.js';
import { en } from '../../renderer/src/i18n/en.js';
import { translate } from '../../renderer/src/i18n/index.js';
import * as messages from '../../renderer/src/i18n/names.js';
import { messageKeys, messageOf, wordsOf } from '../../renderer/src/i18n/names.js';
import { COLLECTIONS } from '../../renderer/src/screens/export/ExportScreen.js';
import { STEPS } from '../../renderer/src/screens/import/ImportScreen.js';
import { actionColumns, OUTCOME_ORDER } from '../../renderer/src/screens/import/planView.js';
import { RUN_LEVEL_MESSAGE } from '../../renderer/src/screens/import/RunStep.js';
import { UNDO_ACTION_MESSAGE } from '../../renderer/src/screens/jobs/UndoPanel.js';

/** Each message map and the list of names it must cover. */
const MAPS: [string, Readonly<Record<string, string>>, readonly string[]][] = [
  ['PLAN_ACTION_MESSAGE', messages.PLAN_ACTION_MESSAGE, core.PLAN_ACTIONS],
  ['OUTCOME_MESSAGE', messages.OUTCOME_MESSAGE, core.JOB_ROW_OUTCOMES],
  ['ENTITY_KIND_MESSAGE', messages.ENTITY_KIND_MESSAGE, core.ENTITY_KINDS],
  ['SKIP_REASON_MESSAGE', messages.SKIP_REASON_MESSAGE, core.SKIP_REASONS],
  ['JOB_STATUS_MESSAGE', messages.JOB_STATUS_MESSAGE, core.JOB_STATUSES],
  ['JOB_STATUS_TEXT_MESSAGE', messages.JOB_STATUS_TEXT_MESSAGE, core.JOB_STATUSES],
  ['IMPORT_PHASE_MESSAGE', messages.IMPORT_PHASE_MESSAGE, core.IMPORT_PHASES],
  ['COMPONENT_TYPE_MESSAGE', messages.COMPONENT_TYPE_MESSAGE, BOM_COMPONENT_TYPES],
  ['DIMENSION_MESSAGE', messages.DIMENSION_MESSAGE, ENTITLEMENT_DIMENSIONS],
  ['SCOPE_MESSAGE', messages.SCOPE_MESSAGE, SCOPES],
  ['EXPORT_TITLE_MESSAGE', messages.EXPORT_TITLE_MESSAGE, core.EXPORT_SELECTIONS],
  ['EXPORT_TEXT_MESSAGE', messages.EXPORT_TEXT_MESSAGE, core.EXPORT_SELECTIONS],
  ['LCA_STATE_MESSAGE', messages.LCA_STATE_MESSAGE, core.LCA_STATES],
  ['LCA_OUTCOME_MESSAGE', messages.LCA_OUTCOME_MESSAGE, core.LCA_OUTCOMES],
  ['LCA_ABORT_MESSAGE', messages.LCA_ABORT_MESSAGE, core.LCA_ABORT_REASONS],
  ['LCA_SELECTOR_MESSAGE', messages.LCA_SELECTOR_MESSAGE, core.LCA_SELECTORS],
  ['LCA_UNKNOWN_MESSAGE', messages.LCA_UNKNOWN_MESSAGE, core.LCA_CODE_KINDS],
  ['LCA_BASIS_MESSAGE', messages.LCA_BASIS_MESSAGE, core.LCA_BASES],
  ['UNDO_ACTION_MESSAGE', UNDO_ACTION_MESSAGE, core.PLAN_ACTIONS],
];

const sorted = (a: readonly string[]) => [...a].sort();

describe('lists of names and their messages', () => {
  it('every message map of i18n/names.ts is checked here', () => {
    const exported = Object.keys(messages).filter((k) => k.endsWith('_MESSAGE'));
    expect(sorted(exported)).toEqual(sorted(MAPS.map(([n]) => n).filter((n) => n !== 'UNDO_ACTION_MESSAGE')));
  });

  it.each(MAPS)('%s has a message for every name of its list, and no other', (_name, map, names) => {
    expect(sorted(Object.keys(map))).toEqual(sorted(names));
  });

  it.each(MAPS)('%s: every message exists in English and German, with text', (_name, map) => {
    for (const [name, key] of Object.entries(map)) {
      expect(en[key as keyof typeof en], `${name} → ${key} (en)`).toBeTruthy();
      expect(de[key as keyof typeof de], `${name} → ${key} (de)`).toBeTruthy();
    }
  });

  it('messages of the screens own lists (import steps, run levels) exist in English and German', () => {
    const keys = [...STEPS.map((s) => `import.step.${s}`), ...RUN_LEVEL_MESSAGE];
    const missing = keys.filter((k) => !(k in en) || !(k in de));
    expect(missing).toEqual([]);
  });

  it('entity labels keep their code placeholder, so codes stay on one line', () => {
    for (const key of Object.values(messages.ENTITY_KIND_MESSAGE)) {
      expect(en[key]).toContain('{code}');
      expect(de[key]).toContain('{code}');
    }
  });

  it('an undo words its own actions, and a plan action it does not word as a plan does', () => {
    expect(UNDO_ACTION_MESSAGE.delete).toBe('undo.action.delete');
    expect(UNDO_ACTION_MESSAGE.skipped_update).toBe('action.skipped_update');
  });

  it('the display orders are orders of the whole list: outcomes, plan action columns, export choices', () => {
    expect(sorted(OUTCOME_ORDER)).toEqual(sorted(core.JOB_ROW_OUTCOMES));
    const every = Object.fromEntries(core.PLAN_ACTIONS.map((a) => [a, 1]));
    expect(sorted(actionColumns(every))).toEqual(sorted(core.PLAN_ACTIONS));
    expect(sorted(COLLECTIONS)).toEqual(sorted(core.EXPORT_SELECTIONS));
    expect(COLLECTIONS[0]).toBe('all');
    expect(COLLECTIONS.at(-1)).toBe('products');
  });

  it('the core modules hand on the lists of names.ts, not copies', () => {
    expect(coreTypes.PLAN_ACTIONS).toBe(core.PLAN_ACTIONS);
    expect(coreTypes.ROW_OUTCOMES).toBe(core.ROW_OUTCOMES);
    expect(EXPORT_OF_COLLECT).toBe(core.EXPORT_COLLECTIONS);
    expect(RESULT_COLUMNS).toBe(core.RESULT_COLUMNS);
  });

  it('a name that comes as plain text: its words when known, as it came when not', () => {
    const t = (k: Parameters<typeof translate>[1]) => translate('de', k);
    expect(wordsOf(t, messages.SCOPE_MESSAGE, 'view:plants')).toBe(de['scope.view:plants']);
    expect(wordsOf(t, messages.SCOPE_MESSAGE, 'view:unicorns')).toBe('view:unicorns');
    expect(messageOf(messages.DIMENSION_MESSAGE, 'toString')).toBeUndefined();
    expect(messageKeys('x', ['a', 'b'] as const)).toEqual({ a: 'x.a', b: 'x.b' });
  });
});
