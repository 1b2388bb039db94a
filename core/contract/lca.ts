/** The `lca` namespace: instances selected, LCA runs (read or recompute) with a live state, the report, the analysis, production figures entered, the results workbook. */
import { z } from 'zod';
import {
  LCA_ABORT_REASONS,
  LCA_BASES,
  LCA_CODE_KINDS,
  LCA_OUTCOMES,
  LCA_RUN_STATES,
  LCA_SELECTORS,
  LCA_STATES,
} from '../names.js';
import { Accepted, DownloadTicketSchema, Empty, Int, NonNegInt, type ProcedureDef, RunId, Text } from './common.js';

export const LcaSelectedView = z.object({
  id: Text,
  externalId: Text.nullable(),
  name: Text.nullable(),
  plantCode: Text.nullable(),
  productArticle: Text.nullable(),
  productName: Text.nullable(),
  /** the product's declared unit as written after "per" (t, m³, kg, unit); null when the product is not readable */
  declaredUnit: Text.nullable(),
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
  aborted: z.object({ reason: z.enum(LCA_ABORT_REASONS), errCode: Text.nullable(), message: Text }).nullable(),
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
  /** the run's indicators: code and unit (the renderer names them in the UI's language itself) */
  indicators: z.array(z.object({ code: Text, unit: Text.nullable() })),
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

export const lcaProcedures = {
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
} as const satisfies Record<string, ProcedureDef>;

export const lcaEvents = {
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
} as const satisfies Record<string, z.ZodType>;
