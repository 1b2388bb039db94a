/**
 * English strings of typed numbers, of the core's undo notes and of what still uses an entity (spread into en.ts; words-de.ts has the same keys).
 * `{name}` marks a placeholder; `{n, plural, one {…} other {…}}` picks the form by Intl.PluralRules (`#` = n).
 */
export const enWords = {
  'number.ambiguous': '“{text}” can be read in more than one way. Type it as {examples}.',
  'number.otherMark': '“{text}” is not how a number is written here. Type it as {examples}.',
  'number.notANumber': '“{text}” is not a number. Type it like {example}.',
  'number.negative': 'The quantity cannot be negative.',
  'number.or': ' or ',

  // Notes of an undo plan's entries
  'undoNote.afterRecreate': 'after {code} is re-created',
  'undoNote.figuresSetBack': 'production figures set back to their values before the job',
  'undoNote.bomPutBack': 'BOM put back as it was before the job',
  'undoNote.createdDeleted': 'created by the job: deleted',
  'undoNote.createdAlreadyDeleted': 'created by the job, already deleted: nothing is sent',
  'undoNote.setBack': 'set back: {fields}',
  'undoNote.recreated':
    'deleted by the job: created again from the copy saved before the delete, with a new id (it was {id})',
  'undoNote.figuresPutBack': 'production figures put back as they were before the job',

  // Notes of a dry run's entries
  'planNote.afterCreate': 'after {label} ({row}) is created',
  'planNote.row': '{sheet} row {row}',
  'planNote.anotherRow': 'another row',
  'planNote.afterWrittenWithout': 'after {user} is written without it',
  'planNote.afterDeleteOf': 'after {label} is deleted',
  'planNote.afterDeleteWithBom': 'after {label} is deleted, and {bom} with it',
  'planNote.createOnlyNotApplied': 'create only: the differences are not applied',
  'planNote.actionCreateExists': 'action “create”: it exists already, the differences are not applied',
  'planNote.actionDelete': 'action “delete”',
  'planNote.actionDeleteNotUsed': 'action “delete” (only “{idField}” is used; not used: {fields})',
  'planNote.alreadyAbsent': 'not on the service: already absent, nothing is sent',
  'planNote.mirrorNotIn': 'mirror: not in {sheet}',
  'planNote.bomUnreadable': 'the current BOM could not be read ({detail}): it is replaced without a comparison',
  'planNote.bomCreateOnly': 'create only: the BOM differs from the one on the service but is not replaced',
  'planNote.figuresUnreadable':
    'the production figures on the service could not be read ({detail}): every year is written',
  'planNote.futureYear':
    '{year} is a future year: its figure is written now, and its LCA stays blocked until {year} has begun',
  'planNote.figuresCreateOnly': 'create only: production figures that differ from the service are not overwritten',

  // What a job says of a row it did not send
  'runNote.dependencyFailed': '{what} failed',
  'runNote.dependencyNotRun': '{what} did not run',
  'runNote.createOnly': 'the import runs “create only”',

  // What still uses an entity whose delete is refused or blocked
  'inUse.bom': 'the BOM of product instance {name}',
  'inUse.writtenByImport': '{user} (written by this import)',
  'inUse.deleteBlocked': '{user} (whose delete is blocked)',
  'results.stillUsedBy': 'Still used by {users}.',
} as const;
