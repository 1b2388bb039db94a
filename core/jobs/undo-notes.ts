/**
 * The notes an undo plan gives its entries, written once: the plan's JSON and the CLI show them as they are, the
 * app words each in its language by the same names (renderer/src/i18n/undo-notes.ts reads them back by their
 * shape, so a note changed here without its words there fails test/renderer/german.test.ts).
 */
export const UNDO_NOTES = {
  afterRecreate: (code: string) => `after re-create of ${code}`,
  figuresSetBack: () => 'production figures set back to their values before the job',
  bomPutBack: () => 'BOM put back as it was before the job',
  createdDeleted: () => 'created by the job: deleted',
  createdAlreadyDeleted: () => 'created by the job, already deleted: nothing is sent',
  setBack: (fields: readonly string[]) => `set back: ${fields.join(', ')}`,
  recreated: (id: string) =>
    `deleted by the job: re-created from the snapshot taken before the delete, with a new id (was ${id})`,
  figuresPutBack: () => 'production figures put back as they were before the job',
} as const;

export type UndoNoteName = keyof typeof UNDO_NOTES;
