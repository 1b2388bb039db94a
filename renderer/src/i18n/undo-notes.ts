/**
 * The notes of a plan's entries in the UI's language: the undo plan's (core/jobs/undo-notes.ts) and the dry run's
 * (core/jobs/plan-notes.ts, worded in plan-notes.ts). Each note is known by its shape and worded by its message,
 * field names by their labels; a note of any other shape stays as it came.
 */
import type { UndoNoteName } from '../../../core/jobs/undo-notes.js';
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
