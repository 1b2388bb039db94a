/**
 * What an import does to the LCA, in the app (procedures of the `lca` namespace): the instances a job's plan
 * affects and the estimate of the change in the dry run, and in a finished job's results the recompute of the
 * affected instances with the before → after table and the attribution of one instance's change.
 */
import { z } from 'zod';
import { Accepted, ImportId, Int, JobIdSchema, NonNegInt, type ProcedureDef, Text } from './common.js';

const Basis = z.enum(['per_declared_unit', 'total']);

/**
 * A text's code (IMPACT_TEXT_CODES of core/lca/impact/types.ts) and parameters beside its English words, for the
 * UI's language.
 */
const ImpactText = z.object({ code: Text, params: z.record(z.string(), z.union([Text, z.number()])) });

export const LcaAffectedView = z.object({
  /** instances affected in all (the list below is the first 200) */
  count: NonNegInt,
  byPlant: z.array(z.object({ plantCode: Text.nullable(), count: NonNegInt })),
  instances: z.array(
    z.object({
      /** null: created by the job */
      instanceId: Text.nullable(),
      externalId: Text.nullable(),
      plantCode: Text.nullable(),
      /** the job rows affecting it, as `sheet!row` */
      rows: z.array(Text),
      /**
       * what affects it (one per changed thing): its kind (IMPACT_CAUSE_KINDS), code and the plan's words; a
       * `prechain_instance` cause: the kind of what changed in the instance it stands for (ofKind)
       */
      causes: z.array(z.object({ kind: Text, ofKind: Text.nullable(), code: Text.nullable(), label: Text })),
    }),
  ),
  moreInstances: NonNegInt,
  /** the service's BOMs were read (a plan changing no component needs none) */
  bomsRead: z.boolean(),
  /** what could not be checked, in words */
  unchecked: z.array(Text),
});
export type LcaAffectedView = z.infer<typeof LcaAffectedView>;

/** Estimates of the change, from the current per-source breakdown: never a result. */
export const LcaEstimatesView = z.object({
  note: Text,
  estimates: z.array(
    z.object({
      instanceId: Text,
      externalId: Text.nullable(),
      year: Int,
      indicator: Text,
      module: Text,
      unit: Text.nullable(),
      basis: Basis,
      current: z.number().nullable(),
      change: z.number(),
      parts: z.array(z.object({ component: Text, change: z.number(), why: Text, whyCode: ImpactText.nullable() })),
    }),
  ),
  moreEstimates: NonNegInt,
  /** what could not be estimated and why */
  notEstimated: z.array(
    z.object({
      instanceId: Text.nullable(),
      externalId: Text.nullable(),
      why: Text,
      whyCode: ImpactText.nullable(),
      rows: z.array(Text),
    }),
  ),
});
export type LcaEstimatesView = z.infer<typeof LcaEstimatesView>;

export const LcaImpactRecomputeView = z.object({
  state: z.enum(['idle', 'running', 'done', 'failed']),
  finished: NonNegInt,
  total: NonNegInt,
  /** why the recompute could not be done, in words */
  error: Text.nullable(),
});

export const LcaImpactReportView = z.object({
  recomputed: z.boolean(),
  generatedAt: Text,
  aborted: z.object({ reason: Text, message: Text }).nullable(),
  notes: z.array(Text),
  /** the notes' codes, in the same order (null: a report without them) */
  noteCodes: z.array(ImpactText).nullable(),
  instances: z.array(
    z.object({
      instanceId: Text,
      externalId: Text.nullable(),
      plantCode: Text.nullable(),
      beforeOutcome: Text.nullable(),
      afterOutcome: Text.nullable(),
      problem: Text.nullable(),
      /** the problem as codes, one per side (null: a report without them) */
      problemCodes: z.array(ImpactText).nullable(),
      yearsNeedingData: z.array(Int),
    }),
  ),
  /** the indicators of the report, with their unit */
  indicators: z.array(z.object({ code: Text, unit: Text.nullable() })),
  /** the indicator shown (default: GWP-total when there, else the first) */
  indicator: Text.nullable(),
  /** before → after of the indicator shown, per instance, year and module (the first 500) */
  rows: z.array(
    z.object({
      instanceId: Text,
      externalId: Text.nullable(),
      plantCode: Text.nullable(),
      year: Int,
      module: Text,
      unit: Text.nullable(),
      basis: Basis,
      before: z.number().nullable(),
      after: z.number().nullable(),
      change: z.number().nullable(),
      changePct: z.number().nullable(),
      blockedBefore: Text.nullable(),
      blockedAfter: Text.nullable(),
    }),
  ),
  moreRows: NonNegInt,
  /** years blocked on both sides (no indicator): the blocker's words */
  blocked: z.array(z.object({ instanceId: Text, externalId: Text.nullable(), year: Int, why: Text })),
  /** the change of one instance, year and module of the indicator shown, by what moved it */
  attribution: z
    .object({
      instanceId: Text,
      year: Int,
      module: Text,
      unit: Text.nullable(),
      before: z.number().nullable(),
      after: z.number().nullable(),
      change: z.number().nullable(),
      lines: z.array(
        z.object({
          line: z.enum(['component', 'production_figures', 'not_attributed']),
          componentType: Text.nullable(),
          code: Text.nullable(),
          name: Text.nullable(),
          change: z.number(),
          rows: z.array(Text),
        }),
      ),
    })
    .nullable(),
  /** the (instance, year, module) rows with a change to attribute, to choose from */
  choices: z.array(z.object({ instanceId: Text, year: Int, module: Text })),
});
export type LcaImpactReportView = z.infer<typeof LcaImpactReportView>;

export const LcaImpactView = z.object({
  jobId: JobIdSchema,
  affected: LcaAffectedView.nullable(),
  /** why the affected instances could not be found, in words */
  affectedError: Text.nullable(),
  /** the dry run's estimates, when it made them */
  estimates: LcaEstimatesView.nullable(),
  /** recomputes a recompute starts (one per affected instance that exists) */
  recomputes: NonNegInt,
  /** requests a recompute sends, about: one lca-update each, then reading the results until done */
  requestsAbout: NonNegInt,
  recompute: LcaImpactRecomputeView,
  report: LcaImpactReportView.nullable(),
});
export type LcaImpactView = z.infer<typeof LcaImpactView>;

export const LcaImpactDryRunView = z.object({
  jobId: JobIdSchema,
  affected: LcaAffectedView,
  /**
   * the affected instances' current results read and kept for the comparison after the job; what could not be
   * read in English words and as codes (`read_stopped`, `unread_before`) in the same order
   */
  before: z.object({
    instances: NonNegInt,
    completed: NonNegInt,
    problems: z.array(Text),
    problemCodes: z.array(ImpactText),
  }),
  estimates: LcaEstimatesView,
  recomputes: NonNegInt,
  requestsAbout: NonNegInt,
});
export type LcaImpactDryRunView = z.infer<typeof LcaImpactDryRunView>;

const ByJob = z.object({ jobId: JobIdSchema }).strict();

export const lcaImpactProcedures = {
  'lca.impactDryRun': {
    summary:
      'In the dry run: the instances the plan affects, their current LCA results kept and the estimated change (reads only)',
    input: z.object({ importId: ImportId }).strict(),
    output: LcaImpactDryRunView,
  },
  'lca.impact': {
    summary: 'A job’s LCA impact: affected instances, the recompute’s state, the before → after table of one indicator',
    input: z
      .object({
        jobId: JobIdSchema,
        indicator: z.string().max(100).optional(),
        instanceId: z.string().max(100).optional(),
        year: Int.optional(),
        module: z.string().max(40).optional(),
      })
      .strict(),
    output: LcaImpactView,
  },
  'lca.impactRecompute': {
    summary: 'Recompute the LCA of the instances a finished job affected and build its impact report',
    input: ByJob,
    output: Accepted,
  },
  'lca.impactCancel': { summary: 'Stop a job’s LCA recompute (what finished is kept)', input: ByJob, output: Accepted },
} as const satisfies Record<string, ProcedureDef>;
