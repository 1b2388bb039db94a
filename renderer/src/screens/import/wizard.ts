/**
 * The import wizard's state: one shape per step (workbook → columns → check → dry run → run → results), so a
 * step has exactly what it shows — a dry run always has its check and its plan, a run its job id — and each
 * user action or answer of the main side is one transition. Busy flags, progress and the last error are the
 * screen's own (they belong to whatever is in flight, not to a step).
 */
import type { ImportValidation, JobView, PlanOverview } from '../../../../core/ipc/contract.js';
import type { PickedFile } from '../../../../core/ipc/contract.js';
import type { ColumnMappingDoc, ColumnsView } from './columnsLogic.js';

export const STEPS = ['choose', 'columns', 'check', 'plan', 'run', 'results'] as const;

/** What every step after the first knows: the sources read, the mapping they are read with, the job re-run. */
export interface Sources {
  /** the files of this import: one workbook, CSV files, or both (several read as one) */
  files: PickedFile[];
  /** a re-run of the failed rows of this job */
  onlyFailedOf: string | null;
  /** the Columns step's view of the sources (null: not needed, or the sources could not be peeked) */
  columns: ColumnsView | null;
  /** the column mapping the check reads with (null: the template's own headers) */
  mapping: ColumnMappingDoc | null;
  /** a saved mapping applied without asking: its name */
  applied: string | null;
  /** whether the Columns step was shown (not skipped: the template's own headers, or a saved mapping applied) */
  columnsShown: boolean;
}

export type WizardState =
  /** `files`: several sources listed before they are read (each with the sheet it feeds, when known) */
  | { step: 'choose'; files: PickedFile[]; sheets: ColumnsView['sources'] | null }
  | ({ step: 'columns'; columns: ColumnsView } & Sources)
  | ({ step: 'check'; validation: ImportValidation | null } & Sources)
  | ({ step: 'plan'; validation: ImportValidation; overview: PlanOverview } & Sources)
  | ({ step: 'run'; jobId: string } & Sources)
  | ({ step: 'results'; jobId: string; job: JobView } & Sources);

export type WizardAction =
  | { type: 'reset' }
  /** several sources chosen: listed before they are read */
  | { type: 'list'; files: PickedFile[] }
  /** the sheets the listed files feed (an answer for other files, or after the list was read, changes nothing) */
  | { type: 'listed'; files: PickedFile[]; sheets: ColumnsView['sources'] }
  /** the sources are being read (peeked for the Columns step, then checked) */
  | { type: 'read'; files: PickedFile[]; onlyFailedOf: string | null }
  /** the Columns step is needed */
  | { type: 'columns'; columns: ColumnsView }
  /** the check runs with this mapping (a saved one applied: its name) */
  | { type: 'check'; columns: ColumnsView | null; mapping: ColumnMappingDoc | null; applied: string | null }
  | { type: 'checked'; validation: ImportValidation }
  /** back from the check to the Columns step (to change the mapping) */
  | { type: 'changeColumns' }
  | { type: 'planned'; overview: PlanOverview }
  /** back from the dry run to the check */
  | { type: 'backToCheck' }
  | { type: 'started'; jobId: string }
  | { type: 'finished'; job: JobView }
  /** a stopped job resumed */
  | { type: 'resumed' };

export const INITIAL: WizardState = { step: 'choose', files: [], sheets: null };

function sourcesOf(s: WizardState): Sources | null {
  if (s.step === 'choose') return null;
  const { files, onlyFailedOf, columns, mapping, applied, columnsShown } = s;
  return { files, onlyFailedOf, columns, mapping, applied, columnsShown };
}

/** An action that does not fit the step is ignored (e.g. an answer that arrives after the user went back). */
export function wizard(s: WizardState, a: WizardAction): WizardState {
  const src = sourcesOf(s);
  switch (a.type) {
    case 'reset':
      return INITIAL;
    case 'list':
      return { step: 'choose', files: a.files, sheets: null };
    case 'listed':
      return s.step === 'choose' && sameFiles(s.files, a.files) ? { ...s, sheets: a.sheets } : s;
    case 'read':
      return {
        step: 'check',
        validation: null,
        files: a.files,
        onlyFailedOf: a.onlyFailedOf,
        columns: null,
        mapping: null,
        applied: null,
        columnsShown: false,
      };
    case 'columns':
      return src ? { ...src, step: 'columns', columns: a.columns, applied: null, columnsShown: true } : s;
    case 'check':
      return src
        ? { ...src, step: 'check', validation: null, columns: a.columns, mapping: a.mapping, applied: a.applied }
        : s;
    case 'checked':
      return s.step === 'check' ? { ...s, validation: a.validation } : s;
    case 'changeColumns':
      return src?.columns && (s.step === 'check' || s.step === 'plan')
        ? { ...src, step: 'columns', columns: src.columns, applied: null, columnsShown: true }
        : s;
    case 'planned':
      return s.step === 'check' && s.validation
        ? { ...sourcesOf(s)!, step: 'plan', validation: s.validation, overview: a.overview }
        : s.step === 'plan'
          ? { ...s, overview: a.overview }
          : s;
    case 'backToCheck':
      return s.step === 'plan' ? { ...sourcesOf(s)!, step: 'check', validation: s.validation } : s;
    case 'started':
      return s.step === 'plan' ? { ...sourcesOf(s)!, step: 'run', jobId: a.jobId } : s;
    case 'finished':
      return (s.step === 'run' || s.step === 'results') && src && a.job.jobId === s.jobId
        ? { ...src, step: 'results', jobId: s.jobId, job: a.job }
        : s;
    case 'resumed':
      return s.step === 'results' && src ? { ...src, step: 'run', jobId: s.jobId } : s;
  }
}

export type StepState = 'done' | 'skipped' | 'current' | 'todo';

/** What each step's pill says: a step before the current one is done, or skipped when it was never shown. */
export function stepStates(s: WizardState): StepState[] {
  const current = STEPS.indexOf(s.step);
  return STEPS.map((step, i) => {
    if (i === current) return 'current';
    if (i > current) return 'todo';
    return step === 'columns' && s.step !== 'choose' && !s.columnsShown ? 'skipped' : 'done';
  });
}

function sameFiles(a: readonly PickedFile[], b: readonly PickedFile[]): boolean {
  return a.length === b.length && a.every((f, i) => f.fileId === b[i].fileId);
}

/** The ids of the import's files as the procedures take them: the first, and the others beside it. */
export function sourceIds(files: readonly PickedFile[]): { fileId: string; moreFileIds?: string[] } {
  return {
    fileId: files[0]?.fileId ?? '',
    ...(files.length > 1 && { moreFileIds: files.slice(1).map((f) => f.fileId) }),
  };
}

/** A list of chosen files with some added (a file of the same id not twice) or one removed. */
export function withFiles(files: readonly PickedFile[], added: readonly PickedFile[]): PickedFile[] {
  return [...files, ...added.filter((a) => !files.some((f) => f.fileId === a.fileId))];
}

/**
 * What each chosen file feeds (from the Columns view of all of them): a CSV file its target sheet, a workbook
 * `its sheet → target sheet` per sheet; null for a source whose headers match no sheet.
 */
export function sheetsOfFile(file: PickedFile, sheets: ColumnsView['sources'] | null): (string | null)[] {
  if (!sheets) return [];
  const own = sheets.filter((s) => s.isCsv && s.source === file.name);
  if (own.length) return own.map((s) => s.sheet);
  return sheets.filter((s) => !s.isCsv).map((s) => (s.sheet === null ? null : `${s.source} → ${s.sheet}`));
}

/** The name of the import's sources as one: `MAT_2025-10.csv + MAT_2025-11.csv`. */
export function sourcesName(files: readonly PickedFile[]): string {
  return files.map((f) => f.name).join(' + ');
}
