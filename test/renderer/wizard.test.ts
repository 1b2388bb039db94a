/**
 * The import wizard as a reducer (renderer/src/screens/import/wizard.ts): one state per step,
 * each step holding exactly what it shows; actions that do not fit the step (an answer arriving after the user
 * went back or started over) change nothing. Plus the helpers for several sources chosen at once.
 */
import { describe, expect, it } from 'vitest';
import type { ImportValidation, JobView, PlanOverview } from '../../core/ipc/contract.js';
import type { ColumnMappingDoc, ColumnsView } from '../../renderer/src/screens/import/columnsLogic.js';
import {
  INITIAL,
  sheetsOfFile,
  sourceIds,
  sourcesName,
  stepStates,
  wizard,
  withFiles,
  type WizardAction,
  type WizardState,
} from '../../renderer/src/screens/import/wizard.js';

const csvA = { fileId: 'f-a', name: 'MAT_2025-10.csv', size: 10 };
const csvB = { fileId: 'f-b', name: 'MAT_2025-11.csv', size: 11 };
const book = { fileId: 'f-w', name: 'Lieferanten.xlsx', size: 99 };

// The reducer keeps these as they are (it reads only a job's id): tagged objects show which one a step holds.
const validation = { importId: 'imp-1' } as unknown as ImportValidation;
const overview = { tag: 'overview-1' } as unknown as PlanOverview;
const overview2 = { tag: 'overview-2' } as unknown as PlanOverview;
const job = (jobId: string) => ({ jobId, running: false }) as unknown as JobView;
const mapping: ColumnMappingDoc = {
  version: 1,
  sheets: { 'supplier-products': { source: 'MAT_*.csv', columns: { Materialnummer: 'external_id' } } },
};
const columns: ColumnsView = {
  highConfidence: 0.8,
  needed: true,
  saved: null,
  draft: mapping,
  sources: [
    {
      source: 'MAT_2025-10.csv',
      isCsv: true,
      sheet: 'supplier-products',
      headerRow: 2,
      unmappedRequired: [],
      columns: [],
    },
    {
      source: 'MAT_2025-11.csv',
      isCsv: true,
      sheet: 'supplier-products',
      headerRow: 2,
      unmappedRequired: [],
      columns: [],
    },
    { source: 'Firmen', isCsv: false, sheet: 'supplier-companies', headerRow: 1, unmappedRequired: [], columns: [] },
    { source: 'Notizen', isCsv: false, sheet: null, headerRow: 1, unmappedRequired: [], columns: [] },
  ],
} as unknown as ColumnsView;

const run = (...actions: WizardAction[]): WizardState => actions.reduce(wizard, INITIAL);

describe('the wizard: one state per step', () => {
  it('workbook → columns → check → dry run → run → results, each step with what it shows', () => {
    const read: WizardAction = { type: 'read', files: [csvA, csvB], onlyFailedOf: null };
    expect(run(read)).toEqual({
      step: 'check',
      validation: null,
      files: [csvA, csvB],
      onlyFailedOf: null,
      columns: null,
      mapping: null,
      applied: null,
      columnsShown: false,
    });
    const cols = run(read, { type: 'columns', columns });
    expect(cols).toMatchObject({ step: 'columns', columns, files: [csvA, csvB] });
    const checking = run(read, { type: 'columns', columns }, { type: 'check', columns, mapping, applied: null });
    expect(checking).toMatchObject({ step: 'check', validation: null, columns, mapping });
    const checked = wizard(checking, { type: 'checked', validation });
    expect(checked).toMatchObject({ step: 'check', validation, mapping });
    const planned = wizard(checked, { type: 'planned', overview });
    expect(planned).toMatchObject({ step: 'plan', validation, overview, mapping, files: [csvA, csvB] });
    // a new dry run (create-only toggled) replaces the overview, stays on the step
    expect(wizard(planned, { type: 'planned', overview: overview2 })).toMatchObject({
      step: 'plan',
      overview: overview2,
    });
    const running = wizard(planned, { type: 'started', jobId: 'job-1' });
    expect(running).toEqual({
      step: 'run',
      jobId: 'job-1',
      files: [csvA, csvB],
      onlyFailedOf: null,
      columns,
      mapping,
      applied: null,
      columnsShown: true,
    });
    expect('validation' in running).toBe(false);
    const done = wizard(running, { type: 'finished', job: job('job-1') });
    expect(done).toMatchObject({ step: 'results', jobId: 'job-1', job: job('job-1') });
    // a stopped job resumed runs again; its end comes back to the results
    const resumed = wizard(done, { type: 'resumed' });
    expect(resumed).toMatchObject({ step: 'run', jobId: 'job-1' });
    expect(wizard(resumed, { type: 'finished', job: job('job-1') })).toMatchObject({ step: 'results' });
  });

  it('a saved mapping applied goes straight to the check, named; "Change columns" opens the step again without the name', () => {
    const s = run(
      { type: 'read', files: [csvB], onlyFailedOf: null },
      { type: 'check', columns, mapping, applied: 'SAP MM monthly' },
      { type: 'checked', validation },
    );
    expect(s).toMatchObject({ step: 'check', applied: 'SAP MM monthly', mapping, validation });
    const back = wizard(s, { type: 'changeColumns' });
    expect(back).toMatchObject({ step: 'columns', columns, mapping, applied: null });
    expect('validation' in back).toBe(false);
  });

  it('back from the dry run to the check keeps the check; the plan is gone', () => {
    const s = run(
      { type: 'read', files: [book], onlyFailedOf: 'job-0' },
      { type: 'checked', validation },
      { type: 'planned', overview },
      { type: 'backToCheck' },
    );
    expect(s).toEqual({
      step: 'check',
      validation,
      files: [book],
      onlyFailedOf: 'job-0',
      columns: null,
      mapping: null,
      applied: null,
      columnsShown: false,
    });
  });

  it('answers that no longer fit the step change nothing', () => {
    // the check's answer after the user started over
    expect(
      run({ type: 'read', files: [csvA], onlyFailedOf: null }, { type: 'reset' }, { type: 'checked', validation }),
    ).toBe(INITIAL);
    // a dry run before the check has its answer, a run before a dry run
    const reading = run({ type: 'read', files: [csvA], onlyFailedOf: null });
    expect(wizard(reading, { type: 'planned', overview })).toBe(reading);
    expect(wizard(reading, { type: 'started', jobId: 'job-1' })).toBe(reading);
    // another job's end, and "Change columns" when no Columns step was shown
    const running = run(
      { type: 'read', files: [csvA], onlyFailedOf: null },
      { type: 'checked', validation },
      { type: 'planned', overview },
      { type: 'started', jobId: 'job-1' },
    );
    expect(wizard(running, { type: 'finished', job: job('job-2') })).toBe(running);
    const checked = run({ type: 'read', files: [book], onlyFailedOf: null }, { type: 'checked', validation });
    expect(wizard(checked, { type: 'changeColumns' })).toBe(checked);
    // nothing to resume from the choose step
    expect(wizard(INITIAL, { type: 'resumed' })).toBe(INITIAL);
  });

  it('several files chosen are listed (their sheets once known) before they are read', () => {
    const listed = run({ type: 'list', files: [csvA, book] });
    expect(listed).toEqual({ step: 'choose', files: [csvA, book], sheets: null });
    expect(wizard(listed, { type: 'listed', files: [csvA, book], sheets: columns.sources })).toEqual({
      step: 'choose',
      files: [csvA, book],
      sheets: columns.sources,
    });
    // the answer for the list before a file was added, or after the files were read, changes nothing
    const more = wizard(listed, { type: 'list', files: [csvA, book, csvB] });
    expect(wizard(more, { type: 'listed', files: [csvA, book], sheets: columns.sources })).toBe(more);
    const reading = wizard(more, { type: 'read', files: [csvA, book, csvB], onlyFailedOf: null });
    expect(wizard(reading, { type: 'listed', files: [csvA, book, csvB], sheets: columns.sources })).toBe(reading);
  });
});

describe('several sources', () => {
  it('each file says what it feeds: a CSV its sheet, a workbook each of its sheets (none: null)', () => {
    expect(sheetsOfFile(csvA, columns.sources)).toEqual(['supplier-products']);
    expect(sheetsOfFile(book, columns.sources)).toEqual(['Firmen → supplier-companies', null]);
    expect(sheetsOfFile(csvA, null)).toEqual([]);
  });

  it('ids as the procedures take them, files added once, one name for all', () => {
    expect(sourceIds([csvA])).toEqual({ fileId: 'f-a' });
    expect(sourceIds([csvA, csvB, book])).toEqual({ fileId: 'f-a', moreFileIds: ['f-b', 'f-w'] });
    expect(withFiles([csvA], [csvA, csvB])).toEqual([csvA, csvB]);
    expect(sourcesName([csvA, csvB])).toBe('MAT_2025-10.csv + MAT_2025-11.csv');
  });
});

describe('the step pills', () => {
  const read: WizardAction = { type: 'read', files: [book], onlyFailedOf: null };
  const through = (...actions: WizardAction[]) =>
    run(read, ...actions, { type: 'checked', validation }, { type: 'planned', overview });

  it('a Columns step that was never shown is skipped, not done', () => {
    // the template's own headers: straight to the check
    expect(stepStates(through({ type: 'check', columns: null, mapping: null, applied: null }))).toEqual([
      'done',
      'skipped',
      'done',
      'current',
      'todo',
      'todo',
    ]);
    // a saved mapping applied without asking
    expect(stepStates(through({ type: 'check', columns, mapping, applied: 'SAP MM monthly' }))[1]).toBe('skipped');
  });

  it('a Columns step the user went through is done', () => {
    const s = through({ type: 'columns', columns }, { type: 'check', columns, mapping, applied: null });
    expect(stepStates(s)).toEqual(['done', 'done', 'done', 'current', 'todo', 'todo']);
    expect(stepStates(INITIAL)).toEqual(['current', 'todo', 'todo', 'todo', 'todo', 'todo']);
  });
});
