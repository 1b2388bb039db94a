/**
 * The notes of a plan's entries in the UI's language: the undo plan's (core/jobs/undo-notes.ts) and the dry run's
 * (core/jobs/plan-notes.ts, worded in plan-notes.ts). Each note is known by its shape and worded by its message,
 * field names by their labels; a note of any other shape stays as it came.
 */
import type { UndoNoteName } from '../../../core/jobs/undo-notes.js';
import type { UndoRefusalName } from '../../../core/jobs/undo-refusal.js';
import { JOB_STATUSES, type JobStatus } from '../../../core/names.js';
import { fieldLabel } from './field-labels.js';
import { translate, type Locale, type MessageKey } from './index.js';
import { planNoteText } from './plan-notes.js';

const NOTE_SHAPES: Readonly<Record<UndoNoteName, RegExp>> = {
  afterRecreate: /^after re-create of (?<code>.+)$/,
  figuresSetBack: /^production figures set back to their values before the job$/,
  bomPutBack: /^BOM put back as it was before the job$/,
  createdDeleted: /^created by the job: deleted$/,
  createdAlreadyDeleted: /^created by the job, already deleted: nothing is sent$/,
  setBack: /^set back: (?<fields>.+)$/,
  recreated:
    /^deleted by the job: re-created from the snapshot taken before the delete, with a new id \(was (?<id>.+)\)$/,
  figuresPutBack: /^production figures put back as they were before the job$/,
};

/** A note of a plan entry (an undo's or a dry run's) in the UI's words. */
export function noteText(note: string, locale: Locale): string {
  for (const [name, shape] of Object.entries(NOTE_SHAPES) as [UndoNoteName, RegExp][]) {
    const m = shape.exec(note);
    if (!m) continue;
    const vars: Record<string, string> = { ...m.groups };
    if (vars.fields !== undefined)
      vars.fields = vars.fields
        .split(', ')
        .map((f) => fieldLabel(f, locale))
        .join(', ');
    return translate(locale, `undoNote.${name}` satisfies MessageKey, vars);
  }
  return planNoteText(note, locale) ?? note;
}

const REFUSAL_SHAPES: Readonly<Record<UndoRefusalName, RegExp>> = {
  otherService:
    /^Job (?<jobId>\S+) was made against another service \((?<jobBaseUrl>[^()]*)\) than the active connection \((?<baseUrl>[^()]*)\): undo it with a connection to that service\.$/,
  underWay:
    /^Job (?<jobId>\S+) is being undone by job (?<undoId>\S+) \((?<status>\w+)\): resume that job instead of starting another undo\.$/,
  alreadyUndone:
    /^Job (?<jobId>\S+) was already undone by job (?<undoId>[^\s:]+)(?: \(last put back by job (?<chain>\S+)\))?: to restore what it wrote, undo job (?<last>\S+)\.$/,
  undoTakenBack:
    /^Job (?<jobId>\S+) was undone by job (?<undoId>\S+), and that undo was taken back by job (?<last>\S+): undo job \S+ to take the job's changes back again \(its ids are not the job's any more\)\.$/,
};

/**
 * Why a job may not be undone (core/jobs/undo-refusal.ts UNDO_REFUSALS) in the UI's words, a job's status by its
 * name on the Jobs screen; undefined when the message is none of these.
 */
export function undoRefusalText(message: string, locale: Locale): string | undefined {
  for (const [name, shape] of Object.entries(REFUSAL_SHAPES) as [UndoRefusalName, RegExp][]) {
    const m = shape.exec(message)?.groups;
    if (!m) continue;
    const vars: Record<string, string> = { ...m };
    if (vars.status !== undefined && JOB_STATUSES.includes(vars.status as JobStatus))
      vars.status = translate(locale, `job.status.${vars.status as JobStatus}` satisfies MessageKey);
    const key = name === 'alreadyUndone' && vars.chain !== undefined ? 'alreadyUndoneChain' : name;
    return translate(locale, `undoRefusal.${key}` satisfies MessageKey, vars);
  }
  return undefined;
}
