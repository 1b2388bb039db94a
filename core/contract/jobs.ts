/** The `jobs` namespace: import jobs listed, watched, paused, resumed, undone; their rows paged; their results and failed-rows files offered as downloads. */
import { z } from 'zod';
import { ENTITY_KINDS, JOB_ROW_OUTCOMES, JOB_STATUSES } from '../names.js';
import {
  Accepted,
  Counts,
  DownloadTicketSchema,
  Empty,
  Int,
  JobIdSchema,
  NonNegInt,
  Page,
  type ProcedureDef,
  Text,
} from './common.js';
import { PlanActionSchema, PlanProblemView, PlanRowView } from './import.js';

/** A job row not run yet is `pending` (names.ts). */
export const RowOutcomeSchema = z.enum(JOB_ROW_OUTCOMES);

export const JobProgressView = z.object({
  jobId: JobIdSchema,
  status: Text,
  done: NonNegInt,
  total: NonNegInt,
  rowsPerS: z.number(),
  etaS: z.number().nullable(),
  byOutcome: Counts,
  level: Int,
});
export type JobProgressView = z.infer<typeof JobProgressView>;

export const JobStatusSchema = z.enum(JOB_STATUSES);

const JobBase = z.object({
  jobId: JobIdSchema,
  status: JobStatusSchema,
  reason: Text.nullable(),
  file: Text,
  baseUrl: Text,
  maskedKey: Text,
  createdAt: Text,
  finishedAt: Text.nullable(),
  entries: NonNegInt,
  rows: NonNegInt,
  counts: Counts,
  resumable: z.boolean(),
  /** running in this app right now */
  running: z.boolean(),
  /** an undo job: the id of the job it takes back */
  undoes: JobIdSchema.nullable(),
});

export const JobListItem = JobBase.extend({
  /**
   * The undo job that takes this job back: a completed one when there is one (the job cannot be undone again),
   * else the newest that has not completed (it is to be resumed, not started a second time)
   */
  undoneBy: z.object({ jobId: JobIdSchema, status: JobStatusSchema }).nullable(),
  /** made against another service (base URL) than the active connection's: it cannot be undone or resumed with it */
  otherService: z.boolean(),
});
export type JobListItem = z.infer<typeof JobListItem>;

export const EntitlementView = z.object({ dimension: Text, usage: Int, limit: Int });

export const JobView = JobBase.extend({
  startedAt: Text,
  durationMs: NonNegInt,
  /** worksheet rows per sheet and outcome */
  bySheet: z.record(z.string(), Counts),
  entitlementLimits: z.array(EntitlementView),
  progress: JobProgressView.nullable(),
  /** entries that did not succeed (failed, skipped other than create-only, not run yet) */
  notSucceeded: NonNegInt,
  /** worksheet rows of those entries (what a re-run of the failed rows reads again) */
  notSucceededRows: NonNegInt,
  /** worksheet rows of entries without a success outcome: exactly the rows the failed-rows workbook holds */
  failedRows: NonNegInt,
  /** the job's copy of the workbook is there: results and failed-rows workbooks can be made */
  inputAvailable: z.boolean(),
  /** the results and failed-rows files: workbooks (.xlsx) or, for a CSV source, CSV files in its own layout */
  resultsFormat: z.enum(['xlsx', 'csv']),
  /** the CSV sources the job kept (their file names), one results file each */
  csvSources: z.array(Text),
  /** a workbook the job read beside its CSV sources (mixed): its name, for jobs.resultsWorkbook's `source`; its results are a workbook */
  workbookSource: Text.nullable(),
  createOnly: z.boolean(),
  /** why the job could not go on, in words, when it stopped with an error of this app */
  error: Text.nullable(),
});
export type JobView = z.infer<typeof JobView>;

/** The undo's own dry run: what an undo of a job would delete, set back, put back, re-create. */
export const UndoPlanView = z.object({
  jobId: JobIdSchema,
  file: Text,
  summary: z.object({ byAction: Counts, entries: NonNegInt, rows: NonNegInt }),
  /** entries that send something (delete, update, replace, create) */
  writes: NonNegInt,
  /** entries not sent: conflicts (changed on the service since the job) and what cannot be undone */
  blocked: NonNegInt,
  requests: NonNegInt,
  /** the entries, conflicts first; at most 500 */
  rows: z.array(PlanRowView),
  moreRows: NonNegInt,
});
export type UndoPlanView = z.infer<typeof UndoPlanView>;

export const JobRowFilter = z
  .object({
    /** one outcome, or `problems` (failed, skipped, not run) */
    outcome: z.union([RowOutcomeSchema, z.literal('problems')]).optional(),
    sheet: z.string().max(100).optional(),
    search: z.string().max(200).optional(),
  })
  .strict();
export type JobRowFilter = z.infer<typeof JobRowFilter>;

export const JobRowView = z.object({
  key: Text,
  kind: z.enum(ENTITY_KINDS),
  sheet: Text,
  /** the row at its source: `source` is the CSV file or the workbook's own sheet name (several sources decoded) */
  row: Int,
  source: Text.optional(),
  rowCount: NonNegInt,
  label: Text,
  externalId: Text.nullable(),
  planAction: PlanActionSchema,
  outcome: RowOutcomeSchema,
  /** why a row was skipped: blocked, create_only, dependency, entitlement */
  reason: Text.nullable(),
  /** HTTP status of the answer that settled it */
  status: Int.nullable(),
  errCode: Text.nullable(),
  /** what happened, in words (the service's msg for a failure) */
  message: Text,
  entitlement: EntitlementView.nullable(),
  id: Text.nullable(),
  /** a row not sent because the dry run blocked it: the dry run's problem, for the UI to word from code and params */
  problem: PlanProblemView.optional(),
  /** a replaced BOM's components: added, removed, mass changed, unchanged (for the UI to word) */
  bomDiff: z
    .object({
      added: z.number().int(),
      removed: z.number().int(),
      changed: z.number().int(),
      unchanged: z.number().int(),
    })
    .optional(),
});
export type JobRowView = z.infer<typeof JobRowView>;

const ByJob = z.object({ jobId: JobIdSchema }).strict();
/** source: which CSV source's file, by its name, when the job read several (JobView.csvSources) */
const ByJobSource = z.object({ jobId: JobIdSchema, source: Text.optional() }).strict();

export const jobsProcedures = {
  'jobs.list': {
    summary: 'Import jobs of this computer, newest first',
    input: Empty,
    /** serviceUrl: the active connection's base URL (null while the embedded sandbox is not running) */
    output: z.object({ jobs: z.array(JobListItem), serviceUrl: Text.nullable() }),
  },
  'jobs.get': {
    summary: 'One job: status, counts per sheet and outcome, entitlement limits, live progress',
    input: ByJob,
    output: JobView,
  },
  'jobs.rows': {
    summary: 'One page of a job’s outcomes per row, filtered by outcome, sheet or text',
    input: z.object({ jobId: JobIdSchema, ...Page, filter: JobRowFilter.default({}) }).strict(),
    output: z.object({ total: NonNegInt, offset: NonNegInt, rows: z.array(JobRowView) }),
  },
  'jobs.pause': { summary: 'Pause a running job (resumable)', input: ByJob, output: Accepted },
  'jobs.cancel': { summary: 'Cancel a running job (rows written stay; resumable)', input: ByJob, output: Accepted },
  'jobs.resume': {
    summary: 'Resume a paused, cancelled, aborted or interrupted job with the active connection',
    input: ByJob,
    output: z.object({ jobId: JobIdSchema }),
  },
  'jobs.undoPlan': {
    summary: 'The dry run of undoing a completed job with the active connection (reads only)',
    input: ByJob,
    output: UndoPlanView,
  },
  'jobs.undo': {
    summary:
      'Undo a completed job as a journaled job of its own (planned again first); conflicts block unless skipBlocked; progress comes as jobs.progress',
    input: z.object({ jobId: JobIdSchema, skipBlocked: z.boolean().default(false) }).strict(),
    output: z.object({ jobId: JobIdSchema }),
  },
  'jobs.resultsWorkbook': {
    // for a CSV source: its results CSV in its own layout (source: which one, when the job read several)
    summary: 'Make the results workbook of a job (a copy of its workbook with the outcome of every row)',
    input: ByJobSource,
    output: DownloadTicketSchema,
  },
  'jobs.failedWorkbook': {
    // for a CSV source: its failed-rows CSV in its own layout
    summary: 'Make the workbook of the rows that did not succeed, in the template format, ready to fix',
    input: ByJobSource,
    output: DownloadTicketSchema.extend({ rows: NonNegInt }),
  },
} as const satisfies Record<string, ProcedureDef>;

export const jobsEvents = {
  'jobs.progress': JobProgressView,
  /** a job started, stopped or finished */
  'jobs.changed': z.object({ jobId: JobIdSchema, status: JobStatusSchema.nullable(), running: z.boolean() }),
} as const satisfies Record<string, z.ZodType>;
