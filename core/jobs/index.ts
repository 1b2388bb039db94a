/**
 * The import engine: plan (dry run) → run (journaled, resumable) → results workbooks.
 * JSON-serialisable data everywhere; no electron import. Driven by the CLI and the desktop app alike.
 */
export { planImport, LEVEL, type PlanContext, type PlanProgress } from './plan.js';
export { runJob, resumeJob, loadIndexed, JobControl, type RunOptions, type ResumeOptions } from './run.js';
export {
  listJobs,
  readPlan,
  readMeta,
  jobDir,
  isJobId,
  effectiveStatus,
  PLAN_FILE,
  JOURNAL_FILE,
  META_FILE,
} from './job-store.js';
export { planUndo, undoJob, type UndoOptions, type UndoJobOptions, type UndoJobResult } from './undo.js';
export { readJournal, type JournalLine, type JournalState } from './journal.js';
export { writeResultsWorkbook, REPORT_SHEET } from './results-workbook.js';
export { writeFailedRowsWorkbook } from './failed-rows-workbook.js';
export { outcomeMessage } from './row-marks.js';
export { snapshotOf, entityContent, SNAPSHOT_COLUMN, CONTENT_FIELDS } from './snapshot.js';
export type { CodeMappings } from './resolve.js';
export * from './types.js';
