/**
 * The notes of an undo plan's entries (core/jobs/undo-notes.ts) in the UI's language: each note is known by its
 * shape and worded by its message; any other note (a plan's own) stays as it came.
 */
import type { UndoNoteName } from '../../../core/jobs/undo-notes.js';
import type { MessageKey } from './en.js';
import type { T } from './index.js';

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

/** A note of a plan entry in the UI's words. */
export function noteText(note: string, t: T): string {
  for (const [name, shape] of Object.entries(NOTE_SHAPES) as [UndoNoteName, RegExp][]) {
    const m = shape.exec(note);
    if (m) return t(`undoNote.${name}` satisfies MessageKey, { ...m.groups });
  }
  return note;
}
