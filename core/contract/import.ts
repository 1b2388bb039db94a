/** The `import` namespace: workbooks the user hands to the app (`files.*`: opaque ids), column mappings (`mappings.*`), validation, the dry run (kept on the main side, paged to the renderer: a plan of 100,000 rows is never sent whole) and the start of a run. */
import { z } from 'zod';
import { ENTITY_KINDS, IMPORT_PHASES, PLAN_ACTIONS } from '../names.js';
import { DATA_SHEET_NAMES, ENTITY_SHEET_NAMES } from '../workbook/types.js';
import { SUGGESTION_METHODS, columnMappingSchema } from '../workbook/column-mapping/schema.js';
import {
  Accepted,
  Counts,
  Empty,
  ImportId,
  Int,
  JobIdSchema,
  NonNegInt,
  Page,
  type ProcedureDef,
  Scalar,
  Text,
} from './common.js';

/** A file the user handed to the app; the main side keeps its path, the renderer only the opaque id. */
export const PickedFile = z.object({ fileId: z.string(), name: z.string(), size: z.number().int() });
export type PickedFile = z.infer<typeof PickedFile>;

/** Sheets a dry run can mirror: the entity sheets. */
export const MIRROR_SHEETS = ENTITY_SHEET_NAMES;
export type MirrorSheet = (typeof MIRROR_SHEETS)[number];

/** The lists of names are names.ts's. */
export const PlanActionSchema = z.enum(PLAN_ACTIONS);

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
      ignoredColumns: z
        .array(z.object({ header: Text, cell: Text, reason: z.enum(['unknown', 'mapping']) }))
        .optional(),
    }),
  ),
  ignoredSheets: z.array(z.object({ sheet: Text, reason: Text })),
  errors: NonNegInt,
  warnings: NonNegInt,
  /** every issue, by sheet, row and column (the reader keeps at most 10,000 and says so in the last one) */
  issues: z.array(WorkbookIssueView),
  rows: NonNegInt,
  ms: NonNegInt,
  /**
   * whether the codes (plants, materials, references) were checked against the active connection: then each
   * unknown one is among the issues (`code_unknown`, at its cell); else why not. Absent: not asked for.
   */
  codes: z.object({ checked: z.boolean(), unknown: NonNegInt.optional(), reason: Text.optional() }).optional(),
});
export type ImportValidation = z.infer<typeof ImportValidation>;

/** The column-mapping contract (workbook/column-mapping/schema.ts), as the CLI reads it. */
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
      /** the source needs the Columns step (a template sheet read as it is does not: not shown there) */
      needed: z.boolean(),
    }),
  ),
  /** the suggested mapping (high confidence only) */
  draft: ColumnMappingDoc,
  /** a source needs the Columns step (a CSV, a title above the header, a header that is not a field name) */
  needed: z.boolean(),
  /** the sheets a source may feed: the Columns step offers them */
  targetSheets: z.array(Text),
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
  /** entries that send something (PLAN_WRITE_ACTIONS: create, update, replace, delete) */
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
    /** one action, or `writes` (PLAN_WRITE_ACTIONS: create, update, replace, delete) */
    action: z.union([PlanActionSchema, z.literal('writes')]).optional(),
    search: z.string().max(200).optional(),
  })
  .strict();
export type PlanRowFilter = z.infer<typeof PlanRowFilter>;

export const importProcedures = {
  'files.pickWorkbook': {
    summary: 'Let the user choose a workbook with the native dialog (desktop only: supported=false in browser mode)',
    /** multiple: several sources at once (.xlsx and .csv files of one import); `files` holds them */
    input: z.object({ multiple: z.boolean().default(false) }).strict(),
    output: z.object({ supported: z.boolean(), file: PickedFile.nullable(), files: z.array(PickedFile) }),
  },
  'files.upload': {
    summary: 'Hand a workbook to the app as bytes (browser mode, drag and drop); returns its opaque id',
    input: z
      .object({
        name: z.string().min(1).max(1000),
        // base64 of at most 100 MB (the reader's file limit)
        dataBase64: z
          .string()
          .min(1)
          .max(Math.ceil((100 * 1024 * 1024) / 3) * 4)
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'),
      })
      .strict(),
    output: PickedFile,
  },
  'files.takeOpened': {
    summary: 'Workbooks the OS opened with the app (file association) not yet taken by the Import screen',
    input: Empty,
    output: z.object({ files: z.array(PickedFile) }),
  },
  'import.validate': {
    summary:
      'Read a workbook the user handed to the app and check it (nothing is written; with an active connection the plan’s service reads start beside the read, and with checkCodes its codes are checked against them); keeps it for the dry run',
    /** moreFileIds: further sources of the same import (a workbook's sheets and CSV files may be mixed) */
    input: z
      .object({
        fileId: z.string().min(1).max(100),
        moreFileIds: z.array(z.string().min(1).max(100)).max(20).optional(),
        mapping: ColumnMappingDoc.optional(),
        /** also check the codes against the active connection (reads only): each unknown one an error at its cell */
        checkCodes: z.boolean().optional(),
      })
      .strict(),
    output: ImportValidation,
  },
  'import.columns': {
    summary:
      'The Columns step of a source: header row, columns with samples, suggested fields and a saved mapping that fits',
    input: z
      .object({
        fileId: z.string().min(1).max(100),
        moreFileIds: z.array(z.string().min(1).max(100)).max(20).optional(),
        /** per source (file or workbook sheet name), the sheet the user chose for it */
        sheets: z.record(z.string().min(1).max(300), z.enum(DATA_SHEET_NAMES)).optional(),
      })
      .strict(),
    output: ColumnsViewSchema,
  },
  'import.columnsPreview': {
    summary:
      'The first rows of a source as the reader will read them with a column mapping (cells coerced, values translated)',
    input: z
      .object({
        fileId: z.string().min(1).max(100),
        moreFileIds: z.array(z.string().min(1).max(100)).max(20).optional(),
        mapping: ColumnMappingDoc,
      })
      .strict(),
    output: z.object({
      sources: z.array(
        z.object({
          source: Text,
          sheet: Text,
          fields: z.array(Text),
          rows: z.array(
            z.object({ row: Int, values: z.record(z.string(), z.union([z.string(), z.number(), z.null()])) }),
          ),
          issues: z.array(
            z.object({
              severity: z.enum(['error', 'warning']),
              cell: Text.nullable(),
              field: Text.nullable(),
              message: Text,
              /** as the check's issues: the UI words it from code and params */
              code: Text,
              params: IssueParamsView.optional(),
            }),
          ),
        }),
      ),
    }),
  },
  'mappings.list': {
    summary: 'Column mappings saved with the active profile (the CLI’s `mapping list`)',
    input: Empty,
    output: z.object({
      profileName: Text,
      mappings: z.array(z.object({ name: Text, sheets: z.array(Text), ok: z.boolean() })),
    }),
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
        /** entity sheets to mirror: what the sheet no longer has is deleted, under the cap */
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
} as const satisfies Record<string, ProcedureDef>;

export const importEvents = {
  /** a workbook opened with the app by the OS (file association, "Open with") */
  'files.opened': PickedFile,
  /** reading, checking or planning a workbook; `ref` is the fileId (validate) or the importId (plan) */
  'import.progress': z.object({
    ref: Text,
    phase: z.enum(IMPORT_PHASES),
    done: z.number(),
    total: z.number().nullable(),
  }),
} as const satisfies Record<string, z.ZodType>;
