/**
 * The part of the renderer ↔ main contract behind the Import, Jobs, Export and LCA screens (spread into
 * contract.ts's `procedures` and `events`). Big things stay on the main side and are paged to the renderer:
 * a plan of 100,000 rows is never sent whole (import.planRows, jobs.rows). Files the app makes are offered as
 * opaque download tickets (downloads.ts).
 */
import { z } from 'zod';
import {
  ENTITY_KINDS,
  EXPORT_SELECTIONS,
  IMPORT_PHASES,
  JOB_ROW_OUTCOMES,
  JOB_STATUSES,
  LCA_ABORT_REASONS,
  LCA_BASES,
  LCA_CODE_KINDS,
  LCA_OUTCOMES,
  LCA_RUN_STATES,
  LCA_SELECTORS,
  LCA_STATES,
  PLAN_ACTIONS,
} from '../names.js';

import { ENTITY_SHEET_NAMES } from '../workbook/types.js';

/** Sheets a dry run can mirror: the entity sheets. */
export const MIRROR_SHEETS = ENTITY_SHEET_NAMES;
export type MirrorSheet = (typeof MIRROR_SHEETS)[number];
import { columnMappingSchema, SUGGESTION_METHODS } from '../workbook/mapping/schema.js';

const Int = z.number().int();
const NonNegInt = Int.min(0);
const Text = z.string();
const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** Counts per action or outcome (only the ones that occur). */
const Counts = z.record(z.string(), NonNegInt);

export const ImportId = z.uuid();
export const JobIdSchema = z
  .string()
  .regex(/^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$/, 'not a job id (like 20260101-120000-a1b2c3)');
export const RunId = z.uuid();
export const DownloadId = z.uuid();

export const DownloadTicketSchema = z.object({
  downloadId: DownloadId,
  fileName: Text,
  mimeType: Text,
  size: NonNegInt,
});

/** The lists of names are names.ts's; a job row not run yet is `pending`. */
export const PlanActionSchema = z.enum(PLAN_ACTIONS);
export const RowOutcomeSchema = z.enum(JOB_ROW_OUTCOMES);

/** Values of an issue's message (field, expected type, value shown, limit …): strings and numbers only. */
export const IssueParamsView = z.record(z.string(), z.union([z.string(), z.number()]));

export const WorkbookIssueView = z.object({
  severity: z.enum(['error', 'warning']),
  code: Text,
  sheet: Text.nullable(),
  cell: Text.nullable(),
  row: Int.nullable(),
  field: Text.nullable(),
  message: Text,
  /** the values the message is built from, for the renderer to word it in the user's language */
  params: IssueParamsView.optional(),
});
export type WorkbookIssueView = z.infer<typeof WorkbookIssueView>;

export const ImportValidation = z.object({
  importId: ImportId,
  file: z.object({ name: Text, size: NonNegInt }),
  /** false: the file could not be read at all (the reason is among the issues) */
  readable: z.boolean(),
  sheets: z.array(
    z.object({
      name: Text,
      sheetName: Text,
      rows: NonNegInt,
      blockedRows: NonNegInt,
      /** filled rows not read because of a header error (absent: the header is fine) */
      unreadRows: NonNegInt.optional(),
      /** columns of the sheet that are not read (unknown headers; ignored by a column mapping) */
      ignoredColumns: z.array(z.object({ header: Text, cell: Text, reason: z.enum(['unknown', 'mapping']) })).optional(),
    }),
  ),
  ignoredSheets: z.array(z.object({ sheet: Text, reason: Text })),
  errors: NonNegInt,
  warnings: NonNegInt,
  /** every issue, by sheet, row and column (the reader keeps at most 10,000 and says so in the last one) */
  issues: z.array(WorkbookIssueView),
  rows: NonNegInt,
  ms: NonNegInt,
});
export type ImportValidation = z.infer<typeof ImportValidation>;

/** The column-mapping contract of issue 12 (workbook/mapping/schema.ts), as the CLI reads it. */
export const ColumnMappingDoc = columnMappingSchema;

export const ColumnsViewSchema = z.object({
  sources: z.array(
    z.object({
      /** the CSV file's name or the workbook's sheet name (what a mapping's `source` names) */
      source: Text,
      isCsv: z.boolean(),
      /** the target sheet it feeds (null: none found for its headers) */
      sheet: Text.nullable(),
      headerRow: Int.min(1),
      columns: z.array(
        z.object({
          column: Text,
          samples: z.array(Text),
          suggestion: z
            .object({ column: Text, field: Text, method: z.enum(SUGGESTION_METHODS), confidence: z.number() })
            .nullable(),
        }),
      ),
      fields: z.array(z.object({ field: Text, required: z.boolean(), allowed: z.array(Text) })),
      unmappedRequired: z.array(Text),
    }),
  ),
  /** the suggested mapping (high confidence only) */
  draft: ColumnMappingDoc,
  /** a source is CSV or a header is not a field name: the Columns step is shown */
  needed: z.boolean(),
  /** a mapping saved with the active profile whose headers match: applied automatically */
  saved: z.object({ name: Text, mapping: ColumnMappingDoc }).nullable(),
  /** the high-confidence threshold: suggestions below it are shown but never pre-selected */
  highConfidence: z.number(),
});
export type ColumnsViewSchema = z.infer<typeof ColumnsViewSchema>;

export const PlanProblemView = z.object({
  kind: Text,
  sheet: Text.nullable(),
  cell: Text.nullable(),
  row: Int.nullable(),
  field: Text.nullable(),
  message: Text,
  errCode: Text.nullable(),
  /** a workbook issue's code and params when the problem is one (kind `validation`) */
  code: Text.optional(),
  params: IssueParamsView.optional(),
});
export type PlanProblemView = z.infer<typeof PlanProblemView>;

export const PlanOverview = z.object({
  importId: ImportId,
  file: Text,
  createOnly: z.boolean(),
  /** the plan holds only the rows that did not succeed in this job (re-run of failed rows) */
  onlyFailedOf: JobIdSchema.nullable(),
  /** entries of the workbook left out because they succeeded before (re-run of failed rows) */
  excluded: NonNegInt,
  profileName: Text,
  baseUrl: Text,
  maskedKey: Text,
  summary: z.object({
    bySheet: z.record(z.string(), Counts),
    byAction: Counts,
    entries: NonNegInt,
    rows: NonNegInt,
  }),
  /** entries that send something (create, update, replace) */
  writes: NonNegInt,
  /** entries that cannot be sent (blocked, conflict) */
  blocked: NonNegInt,
  preflight: z.object({
    ok: z.boolean(),
    scopes: z.array(Text),
    problems: z.array(PlanProblemView),
    warnings: z.array(Text),
  }),
  requests: NonNegInt,
  /** per mirrored sheet: entities with an external_id, deletes, the cap and whether it is exceeded (nothing deleted) */
  mirror: z.array(
    z.object({ sheet: Text, managed: NonNegInt, deletes: NonNegInt, cap: NonNegInt, overCap: z.boolean() }),
  ),
  /** entities of mirrored types without an external_id: never touched ("not managed by the workbook") */
  notManaged: NonNegInt,
});
export type PlanOverview = z.infer<typeof PlanOverview>;

export const BomLineView = z.object({ type: Text, code: Text, massKg: z.number() });
export const PlanRowView = z.object({
  key: Text,
  kind: z.enum(ENTITY_KINDS),
  sheet: Text,
  row: Int,
  /** where the row is in the source: a CSV's file name or a workbook's own sheet name, and its row there */
  source: Text,
  sourceRow: Int,
  /** worksheet rows of the entry (a BOM's rows, a silo's item rows) at their source; at most 20 listed */
  rows: z.array(z.object({ sheet: Text, row: Int, source: Text })),
  moreRows: NonNegInt,
  label: Text,
  externalId: Text.nullable(),
  action: PlanActionSchema,
  /** update / skipped_update: field-level before → after */
  changes: z.array(z.object({ field: Text, before: Scalar, after: Scalar })),
  /** create: the values of the row as written in the workbook */
  fields: z.array(z.object({ field: Text, value: Scalar })),
  bom: z
    .object({
      added: z.array(BomLineView),
      removed: z.array(BomLineView),
      changed: z.array(z.object({ type: Text, code: Text, before: z.number(), after: z.number() })),
      unchanged: NonNegInt,
    })
    .nullable(),
  notes: z.array(Text),
  problems: z.array(PlanProblemView),
});
export type PlanRowView = z.infer<typeof PlanRowView>;

export const PlanRowFilter = z
  .object({
    sheet: z.string().max(100).optional(),
    /** one action, or `writes` (create, update, replace) */
    action: z.union([PlanActionSchema, z.literal('writes')]).optional(),
    search: z.string().max(200).optional(),
  })
  .strict();
export type PlanRowFilter = z.infer<typeof PlanRowFilter>;

const Page = { offset: NonNegInt.max(10_000_000), limit: Int.min(1).max(500) };

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

export const JobListItem = z.object({
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
export type JobListItem = z.infer<typeof JobListItem>;

export const EntitlementView = z.object({ dimension: Text, usage: Int, limit: Int });

export const JobView = JobListItem.extend({
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

/** The undo's own dry run (issue 13 §3): what an undo of a job would delete, set back, put back, re-create. */
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
});
export type JobRowView = z.infer<typeof JobRowView>;

export const LcaSelectedView = z.object({
  id: Text,
  externalId: Text.nullable(),
  name: Text.nullable(),
  plantCode: Text.nullable(),
  productArticle: Text.nullable(),
  productName: Text.nullable(),
  producedFrom: Int.nullable(),
  producedTo: Int.nullable(),
});

export const LcaBlockerView = z.object({
  type: Text.nullable(),
  kind: Text.nullable(),
  code: Text.nullable(),
  errCode: Text.nullable(),
  msg: Text.nullable(),
  /** a past or current year: the user must act; false for a future year waiting for its turn */
  needsAction: z.boolean(),
});

export const LcaInstanceView = LcaSelectedView.extend({
  state: z.enum(LCA_STATES),
  outcome: z.enum(LCA_OUTCOMES).nullable(),
  jobStatus: Text.nullable(),
  errCode: Text.nullable(),
  msg: Text.nullable(),
  recomputed: z.boolean(),
  waitedForRunningJob: z.boolean(),
  years: z.array(
    z.object({
      year: Int.nullable(),
      status: Text.nullable(),
      partial: z.boolean(),
      /** GWP-total summed over the declared modules; null = nothing declared (blocked) */
      gwp: z.number().nullable(),
      blockers: z.array(LcaBlockerView),
    }),
  ),
});
export type LcaInstanceView = z.infer<typeof LcaInstanceView>;

export const LcaChartView = z.object({
  unit: Text.nullable(),
  years: z.array(Int),
  modules: z.array(Text),
  series: z.array(
    z.object({
      instanceId: Text,
      externalId: Text.nullable(),
      label: Text,
      points: z.array(
        z.object({ year: Int, value: z.number().nullable(), partial: z.boolean(), status: Text.nullable() }),
      ),
    }),
  ),
});
export type LcaChartView = z.infer<typeof LcaChartView>;

export const LcaRunView = z.object({
  runId: RunId,
  state: z.enum(LCA_RUN_STATES),
  recompute: z.boolean(),
  selection: Text,
  startedAt: Text,
  durationMs: NonNegInt,
  finished: NonNegInt,
  total: NonNegInt,
  summary: z.object({
    completed: NonNegInt,
    idle: NonNegInt,
    failed: NonNegInt,
    unknown_status: NonNegInt,
    error: NonNegInt,
    cancelled: NonNegInt,
    skipped: NonNegInt,
  }),
  aborted: z
    .object({ reason: z.enum(LCA_ABORT_REASONS), errCode: Text.nullable(), message: Text })
    .nullable(),
  /** why the run could not be done at all, in words */
  error: Text.nullable(),
  instances: z.array(LcaInstanceView),
  chart: LcaChartView,
});
export type LcaRunView = z.infer<typeof LcaRunView>;

export const LcaModuleSelection = z.enum(['A1-A3', 'A4', 'A1-A4']);
export const LcaBasis = z.enum(LCA_BASES);
const PerUnitView = z.object({ value: z.number().nullable(), note: Text.nullable() });
const ComponentView = z.object({
  componentType: Text,
  ref: Text,
  externalId: Text.nullable(),
  name: Text.nullable(),
  supplierCompany: Text.nullable(),
  supplierPlant: Text.nullable(),
  massKg: z.number().nullable(),
});

/** The LCA screen's analysis of a finished run: any indicator, per declared unit or totals, hotspots, trend. */
export const LcaAnalysisView = z.object({
  indicators: z.array(
    z.object({ code: Text, nameEn: Text.nullable(), nameDe: Text.nullable(), unit: Text.nullable() }),
  ),
  moduleSelections: z.array(LcaModuleSelection),
  indicator: Text,
  modules: LcaModuleSelection,
  basis: LcaBasis,
  chart: z.object({
    unit: Text.nullable(),
    /** per declared unit: the one declared unit on the axis (the series are those of this unit); null as totals */
    declaredUnit: Text.nullable(),
    /** the selection's declared units, most instances first (a choice when there are several) */
    declaredUnits: z.array(z.object({ unit: Text.nullable(), count: NonNegInt })),
    /** per declared unit: instances not drawn because they are declared in another unit */
    hidden: z.array(z.object({ instanceId: Text, label: Text, declaredUnit: Text.nullable() })),
    years: z.array(Int),
    series: z.array(
      z.object({
        instanceId: Text,
        label: Text,
        plantCode: Text.nullable(),
        productArticle: Text.nullable(),
        declaredUnit: Text.nullable(),
        points: z.array(
          z.object({
            year: Int,
            value: z.number().nullable(),
            partial: z.boolean(),
            status: Text.nullable(),
            note: Text.nullable(),
          }),
        ),
      }),
    ),
  }),
  hotspots: z.object({
    readable: z.boolean(),
    /** why the breakdown is missing, in words */
    reason: Text.nullable(),
    /** the instance and year shown (default: the first instance with a computed year, its latest) */
    instanceId: Text.nullable(),
    year: Int.nullable(),
    /** computed (instance, year) pairs to choose from */
    choices: z.array(z.object({ instanceId: Text, year: Int, partial: z.boolean() })),
    /** top 10 + rest, over the chosen modules */
    slices: z.array(z.object({ label: Text, value: z.number(), share: z.number().nullable(), rest: z.boolean() })),
    rows: z.array(
      z.object({
        component: ComponentView,
        module: Text.nullable(),
        value: z.number(),
        perDeclaredUnit: PerUnitView,
        share: z.number().nullable(),
      }),
    ),
    /** across the selection, the year shown: the components contributing most */
    top: z.array(z.object({ label: Text, value: z.number(), instances: NonNegInt })),
  }),
  trend: z.array(
    z.object({
      instanceId: Text,
      year: Int,
      partial: z.boolean(),
      value: z.number(),
      perDeclaredUnit: PerUnitView,
      previousYear: Int.nullable(),
      previousPartial: z.boolean().nullable(),
      changeAbs: z.number().nullable(),
      changePct: z.number().nullable(),
      changePerUnitAbs: z.number().nullable(),
      changePerUnitPct: z.number().nullable(),
    }),
  ),
});
export type LcaAnalysisView = z.infer<typeof LcaAnalysisView>;

export const LcaSelector = z.enum(LCA_SELECTORS);
export const ExportCollectionSchema = z.enum(EXPORT_SELECTIONS);

const Empty = z.object({}).strict();
const ByJob = z.object({ jobId: JobIdSchema }).strict();
/** source: which CSV source's file, by its name, when the job read several (JobView.csvSources) */
const ByJobSource = z.object({ jobId: JobIdSchema, source: Text.optional() }).strict();
const Accepted = z.object({ accepted: z.boolean() });

export const workProcedures = {
  'import.validate': {
    summary:
      'Read a workbook the user handed to the app and check it on its own (nothing is sent); keeps it for the dry run',
    /** moreFileIds: further sources of the same import (a workbook's sheets and CSV files may be mixed) */
    input: z.object({ fileId: z.string().min(1).max(100), moreFileIds: z.array(z.string().min(1).max(100)).max(20).optional(), mapping: ColumnMappingDoc.optional() }).strict(),
    output: ImportValidation,
  },
  'import.columns': {
    summary:
      'The Columns step of a source: header row, columns with samples, suggested fields and a saved mapping that fits',
    input: z.object({ fileId: z.string().min(1).max(100), moreFileIds: z.array(z.string().min(1).max(100)).max(20).optional() }).strict(),
    output: ColumnsViewSchema,
  },
  'import.columnsPreview': {
    summary: 'The first rows of a source as the reader will read them with a column mapping (cells coerced, values translated)',
    input: z.object({ fileId: z.string().min(1).max(100), moreFileIds: z.array(z.string().min(1).max(100)).max(20).optional(), mapping: ColumnMappingDoc }).strict(),
    output: z.object({
      sources: z.array(
        z.object({
          source: Text,
          sheet: Text,
          fields: z.array(Text),
          rows: z.array(z.object({ row: Int, values: z.record(z.string(), z.union([z.string(), z.number(), z.null()])) })),
          issues: z.array(
            z.object({ severity: z.enum(['error', 'warning']), cell: Text.nullable(), field: Text.nullable(), message: Text }),
          ),
        }),
      ),
    }),
  },
  'mappings.list': {
    summary: 'Column mappings saved with the active profile (the CLI’s `mapping list`)',
    input: Empty,
    output: z.object({ profileName: Text, mappings: z.array(z.object({ name: Text, sheets: z.array(Text), ok: z.boolean() })) }),
  },
  'mappings.save': {
    summary: 'Save a column mapping under a name with the active profile (the CLI’s `mapping save`)',
    input: z.object({ name: z.string().trim().min(1).max(200), mapping: ColumnMappingDoc }).strict(),
    output: z.object({ name: Text, profileName: Text }),
  },
  'import.plan': {
    summary: 'Dry run: compare the workbook with the service (reads only); the plan stays on the main side',
    input: z
      .object({
        importId: ImportId,
        createOnly: z.boolean().default(false),
        onlyFailedOf: JobIdSchema.optional(),
        /** entity sheets to mirror (issue 13 §2): what the sheet no longer has is deleted, under the cap */
        mirror: z.array(z.enum(MIRROR_SHEETS)).max(MIRROR_SHEETS.length).default([]),
        maxDeletes: z.number().int().min(0).max(1_000_000_000).optional(),
      })
      .strict(),
    output: PlanOverview,
  },
  'import.planRows': {
    summary: 'One page of the dry run’s rows, filtered by sheet, action or text',
    input: z.object({ importId: ImportId, ...Page, filter: PlanRowFilter.default({}) }).strict(),
    output: z.object({ total: NonNegInt, offset: NonNegInt, rows: z.array(PlanRowView) }),
  },
  'import.run': {
    summary:
      'Run the dry run’s plan as a journaled job on the connection it was made with; progress comes as jobs.progress',
    input: z.object({ importId: ImportId, skipBlocked: z.boolean().default(false) }).strict(),
    output: z.object({ jobId: JobIdSchema }),
  },
  'import.cancel': {
    summary: 'Stop reading or planning a workbook',
    input: z.object({ importId: ImportId.optional(), fileId: z.string().min(1).max(100).optional() }).strict(),
    output: Accepted,
  },
  'import.close': {
    summary: 'Forget a workbook read for import',
    input: z.object({ importId: ImportId }).strict(),
    output: Accepted,
  },
  'jobs.list': {
    summary: 'Import jobs of this computer, newest first',
    input: Empty,
    output: z.object({ jobs: z.array(JobListItem) }),
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
  'downloads.save': {
    summary:
      'Save a file the app made with the native save dialog (desktop only: supported=false in browser mode, which uses GET /download/<id>)',
    input: z.object({ downloadId: DownloadId }).strict(),
    output: z.object({ supported: z.boolean(), saved: z.boolean(), fileName: Text.nullable() }),
  },
  'downloads.open': {
    summary: 'Open a file the app made with the program the system uses for it (desktop only)',
    input: z.object({ downloadId: DownloadId }).strict(),
    output: z.object({ supported: z.boolean(), opened: z.boolean() }),
  },
  'export.run': {
    summary: 'Export a collection (or all) of the active connection to a workbook in the template format',
    input: z.object({ collection: ExportCollectionSchema, ref: z.string().max(100).optional() }).strict(),
    output: z.object({
      download: DownloadTicketSchema,
      sheets: z.array(z.object({ sheet: Text, rows: NonNegInt })),
      warnings: z.array(Text),
      requests: NonNegInt,
    }),
  },
  'lca.options': {
    summary: 'What LCA instances can be chosen by: products with instances, plants, instance codes',
    input: Empty,
    output: z.object({
      products: z.array(z.object({ article: Text, name: Text, instances: NonNegInt })),
      plants: z.array(z.object({ code: Text, name: Text.nullable() })),
      plantsReadable: z.boolean(),
      instances: z.array(z.object({ externalId: Text, name: Text.nullable() })),
      instancesTruncated: z.boolean(),
    }),
  },
  'lca.select': {
    summary: 'Find the product instances of products, plants or a list of codes (reads only)',
    input: z.object({ by: LcaSelector, codes: z.array(z.string().max(200)).max(10_000).default([]) }).strict(),
    output: z.object({
      selectionId: RunId,
      description: Text,
      instances: z.array(LcaSelectedView),
      unknown: z.array(z.object({ kind: z.enum(LCA_CODE_KINDS), codes: z.array(Text) })),
    }),
  },
  'lca.run': {
    summary: 'Read (or recompute and poll) the LCA results of a selection; progress comes as lca.progress',
    input: z.object({ selectionId: RunId, recompute: z.boolean().default(false) }).strict(),
    output: z.object({ runId: RunId }),
  },
  'lca.report': {
    summary: 'State and results of an LCA run, with the GWP chart data',
    input: z.object({ runId: RunId }).strict(),
    output: LcaRunView,
  },
  'lca.analysis': {
    summary: 'Any indicator of a finished LCA run per declared unit or as totals, its hotspots and trend',
    input: z
      .object({
        runId: RunId,
        indicator: z.string().max(100).optional(),
        modules: LcaModuleSelection.optional(),
        basis: LcaBasis.default('per_unit'),
        /** per declared unit: which declared unit to chart (default: the one with the most instances) */
        declaredUnit: z.string().max(40).nullable().optional(),
        instanceId: z.string().max(100).optional(),
        year: Int.optional(),
      })
      .strict(),
    output: LcaAnalysisView,
  },
  'lca.enterProduction': {
    summary: 'Write the production figure of an instance for a year, then recompute the LCA of the run’s instances',
    input: z.object({ runId: RunId, instanceId: z.uuid(), year: Int, quantity: z.number().finite().min(0) }).strict(),
    output: z.object({ runId: RunId }),
  },
  'lca.cancel': {
    summary: 'Cancel an LCA run (what finished is kept)',
    input: z.object({ runId: RunId }).strict(),
    output: Accepted,
  },
  'lca.export': {
    summary: 'Make the LCA workbook of a run',
    input: z.object({ runId: RunId }).strict(),
    output: DownloadTicketSchema,
  },
} as const;

export const workEvents = {
  /** reading, checking or planning a workbook; `ref` is the fileId (validate) or the importId (plan) */
  'import.progress': z.object({
    ref: Text,
    phase: z.enum(IMPORT_PHASES),
    done: z.number(),
    total: z.number().nullable(),
  }),
  'jobs.progress': JobProgressView,
  /** a job started, stopped or finished */
  'jobs.changed': z.object({ jobId: JobIdSchema, status: JobStatusSchema.nullable(), running: z.boolean() }),
  'lca.progress': z.object({
    runId: RunId,
    instanceId: Text,
    externalId: Text.nullable(),
    state: z.enum(LCA_STATES),
    jobStatus: Text.nullable(),
    errCode: Text.nullable(),
    finished: NonNegInt,
    total: NonNegInt,
  }),
  'lca.changed': z.object({ runId: RunId, state: z.enum(LCA_RUN_STATES) }),
  'export.progress': z.object({ ref: Text, collection: Text, done: NonNegInt }),
} as const;
