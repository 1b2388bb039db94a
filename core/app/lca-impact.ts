/**
 * What an import does to the LCA, the operation the CLI's `import --lca-impact` and `lca impact` (and the app's
 * job results) share: the instances a job's plan affects (lca/impact/affected.ts, from the plan entries and the
 * service's BOMs), their LCA results kept before the job with an estimate of the change (dry run), and after the
 * job their recompute and the impact report (before → after, attributed to the components and job rows that
 * moved it), kept in the job folder and written as a workbook. docs/lca-export.md, "Import impact".
 */
import path from 'node:path';
import type { ApiClient } from '../api/index.js';
import { effectiveStatus, forEachJobEntry } from '../jobs/job-store.js';
import type { JobStatus, PlanEntry, PlanHeader } from '../jobs/types.js';
import { resolveBreakdownContext } from '../lca/hotspots.js';
import { affectedInstances, affectsLca } from '../lca/impact/affected.js';
import { donorInstances, estimateImpact } from '../lca/impact/estimate.js';
import {
  LCA_AFFECTED_FILE,
  LCA_AFTER_FILE,
  LCA_ASKED_FILE,
  LCA_BEFORE_CONTEXT_FILE,
  LCA_BEFORE_FILE,
  LCA_ESTIMATES_FILE,
  LCA_IMPACT_FILE,
  readAffected,
  readBeforeContext,
  readEstimates,
  readImpactAsked,
  readImpactReport,
  readInstanceLines,
  writeInstanceLines,
  writeJobJson,
} from '../lca/impact/files.js';
import { readServiceUses } from '../lca/impact/read.js';
import { buildImpactReport } from '../lca/impact/report.js';
import type {
  AffectedInstance,
  AffectedSet,
  ImpactEstimates,
  ImpactReport,
  ImpactText,
  InstanceBom,
} from '../lca/impact/types.js';
import { writeImpactWorkbook, type ImpactWorkbookStats } from '../lca/impact/workbook.js';
import { AppError } from './errors.js';
import { findJob } from './jobs.js';
import type { BreakdownContext, InstanceLca, SelectedInstance } from '../lca/model.js';
import { runLca, type RunLcaOptions } from '../lca/run.js';
import { selectInstances } from '../lca/select.js';

export type {
  AffectedInstance,
  AffectedPlant,
  AffectedSet,
  ImpactCause,
  ImpactEstimate,
  ImpactEstimates,
  ImpactInstance,
  ImpactReport,
  ImpactRow,
  ImpactSourceRow,
  NotEstimated,
} from '../lca/impact/types.js';
export type { ImpactWorkbookStats };
export { readImpactReport };
export { LCA_AFFECTED_FILE, LCA_AFTER_FILE, LCA_BEFORE_FILE, LCA_ESTIMATES_FILE, LCA_IMPACT_FILE };

/** The LCA run's options (lca/run.ts): the signal, progress per instance (as `lca` reports it), polling. */
export type ImpactOptions = Pick<
  RunLcaOptions,
  'signal' | 'onEvent' | 'pollBaseMs' | 'pollMaxMs' | 'maxWaitMs' | 'concurrency'
>;

/** The plan header and the entries that can affect an instance's LCA (and the instances the plan creates). */
async function lcaEntries(jobsDir: string, jobId: string): Promise<{ header: PlanHeader; entries: PlanEntry[] }> {
  const entries: PlanEntry[] = [];
  const header = await forEachJobEntry(jobsDir, jobId, (e) => {
    if (affectsLca(e) || (e.kind === 'product_instance' && e.action === 'create')) entries.push(e);
  });
  return { header, entries };
}

/**
 * The instances a job affects, per plant, with the rows that affect each (GETs only: the service's BOMs, silos
 * and prechain products, read only when the plan changes a component). Kept in the job folder the first time
 * (lca-affected.json) so it stays the set of the plan once the job has changed the service; `fresh` decides it
 * again.
 */
export async function lcaImpactAffected(
  client: ApiClient,
  jobsDir: string,
  jobId: string,
  o: { signal?: AbortSignal; fresh?: boolean } = {},
): Promise<AffectedSet> {
  if (!o.fresh) {
    const kept = await readAffected(jobsDir, jobId);
    if (kept) return kept;
  }
  return (await decideAffected(client, jobsDir, jobId, o.signal)).affected;
}

/** The affected set decided from the plan and the service (kept in the job folder), with what it was read from. */
async function decideAffected(client: ApiClient, jobsDir: string, jobId: string, signal: AbortSignal | undefined) {
  const { header, entries } = await lcaEntries(jobsDir, jobId);
  const service = await readServiceUses(client, entries, { ...(signal && { signal }) });
  const affected = affectedInstances(header, entries, service, service?.unchecked ?? []);
  await writeJobJson(jobsDir, jobId, LCA_AFFECTED_FILE, affected);
  return { affected, entries, service };
}

/**
 * The status of a job whose impact may be taken: one that has run (meta.json) and is not running any more; a
 * refusal in words otherwise (no such job, only planned, still running). Nothing is sent.
 */
export async function impactableJob(jobsDir: string, jobId: string): Promise<JobStatus> {
  const status = effectiveStatus(await findJob(jobsDir, jobId));
  if (status === 'running')
    throw new AppError('invalid_input', `Job ${jobId} is still running: its LCA impact is known once it has ended.`);
  return status;
}

/** What the dry run keeps and shows of the impact: the affected set, the results read before, the estimates. */
export interface LcaImpactDryRun {
  affected: AffectedSet;
  /**
   * The affected instances whose current results were read and kept (lca-before.jsonl); what could not be read,
   * in words (`problems`) and as codes with their parameters in the same order (`problemCodes`: `read_stopped`,
   * `unread_before`), for the app to word.
   */
  before: { instances: number; completed: number; problems: string[]; problemCodes: ImpactText[] };
  estimates: ImpactEstimates;
  /** Recomputes the job's impact will start (one lca-update each, then polling): shown before starting. */
  recomputes: number;
}

/** The selected-instance shape of affected instances (their product and declared unit read), by service id. */
async function selectAffected(
  client: ApiClient,
  instances: readonly AffectedInstance[],
  signal: AbortSignal | undefined,
): Promise<SelectedInstance[]> {
  const codes = instances.flatMap((i) => (i.external_id ? [i.external_id] : []));
  const found = codes.length
    ? (await selectInstances(client, { by: 'instances', externalIds: codes }, { ...(signal && { signal }) })).instances
    : [];
  const out = [...found];
  for (const i of instances)
    if (!i.external_id && i.id)
      out.push({
        id: i.id,
        external_id: null,
        name: null,
        plant_id: i.plant_id,
        plant_code: i.plant_code,
        product_id: null,
        product_article: null,
        product_name: null,
        produced_from: null,
        produced_to: null,
      });
  return out;
}

/**
 * At plan time (import --lca-impact, the app's dry run): the affected set, the affected instances' current LCA
 * results kept in the job folder (lca-before.jsonl; stored results read, nothing recomputed) with the breakdown's
 * names, and the estimate of the change from the current breakdown (lca-estimates.json).
 */
export async function prepareLcaImpact(
  client: ApiClient,
  jobsDir: string,
  jobId: string,
  o: ImpactOptions = {},
): Promise<LcaImpactDryRun> {
  const { affected, entries, service } = await decideAffected(client, jobsDir, jobId, o.signal);
  const existing = affected.instances.filter((i) => i.id !== null);
  const donors = donorInstances(service?.instances ?? [], entries, affected);
  const selected = await selectAffected(client, [...existing, ...donors.map(donorOf)], o.signal);
  const read = await runLca(client, selected, { ...o, recompute: false });
  const isDonor = new Set(donors.map((d) => d.id.toLowerCase()));
  const report = { ...read, instances: read.instances.filter((i) => !isDonor.has(i.instance.id.toLowerCase())) };
  await writeInstanceLines(jobsDir, jobId, LCA_BEFORE_FILE, report.instances);
  const context = await namesOf(client, read.instances, o.signal);
  await writeJobJson(jobsDir, jobId, LCA_BEFORE_CONTEXT_FILE, context);
  const estimates = estimateImpact(affected, read.instances, context, entries);
  await writeJobJson(jobsDir, jobId, LCA_ESTIMATES_FILE, estimates);
  const unread = report.instances.filter((i) => i.outcome !== 'completed' && i.outcome !== 'idle');
  const problems = unread.map(
    (i) => `${i.instance.external_id ?? i.instance.id}: ${i.outcome}${i.err_code ? ` (${i.err_code})` : ''}`,
  );
  const problemCodes = unread.map((i): ImpactText => ({
    code: 'unread_before',
    params: {
      instance: i.instance.external_id ?? i.instance.id,
      outcome: i.outcome,
      ...(i.err_code && { err_code: i.err_code }),
    },
  }));
  if (report.aborted) {
    problems.unshift(report.aborted.message);
    const { reason, err_code } = report.aborted;
    problemCodes.unshift({ code: 'read_stopped', params: { reason, ...(err_code && { err_code }) } });
  }
  return {
    affected,
    before: {
      instances: report.instances.length,
      completed: report.instances.filter((i) => i.outcome === 'completed').length,
      problems,
      problemCodes,
    },
    estimates,
    recomputes: affected.instances.length,
  };
}

/** A donor instance in the shape the selection takes. */
const donorOf = (i: InstanceBom): AffectedInstance => ({
  id: i.id,
  external_id: i.external_id,
  plant_id: i.plant_id,
  plant_code: i.plant_code ?? null,
  causes: [],
  rows: [],
});

async function namesOf(
  client: ApiClient,
  instances: InstanceLca[],
  signal: AbortSignal | undefined,
): Promise<BreakdownContext> {
  return resolveBreakdownContext(client, { instances }, { ...(signal && { signal }) }).catch((e: unknown) => ({
    readable: false,
    reason: `The per-source breakdown could not be resolved to names (${e instanceof Error ? e.message : String(e)}).`,
    components: {},
    problems: [],
  }));
}

/**
 * After the job: the affected instances recomputed (`recompute`, default true; the spec's lca-update and polling
 * rules, the daily limit stopping the run) or their stored results read, kept as lca-after.jsonl, and the impact
 * report built against the results kept before the job (lca-impact.json). Refused in words for a job that was
 * only planned or is still running; a job that stopped early gets a note.
 */
export async function lcaImpact(
  client: ApiClient,
  jobsDir: string,
  jobId: string,
  o: ImpactOptions & { recompute?: boolean } = {},
): Promise<ImpactReport> {
  const status = await impactableJob(jobsDir, jobId);
  const affected = await lcaImpactAffected(client, jobsDir, jobId, { ...(o.signal && { signal: o.signal }) });
  const before = (await readInstanceLines(jobsDir, jobId, LCA_BEFORE_FILE)) ?? new Map<string, InstanceLca>();
  const beforeContext = await readBeforeContext(jobsDir, jobId);
  const selected = await selectAffected(client, affected.instances, o.signal);
  const recompute = o.recompute ?? true;
  const run = await runLca(client, selected, { ...o, recompute });
  await writeInstanceLines(jobsDir, jobId, LCA_AFTER_FILE, run.instances);
  const afterContext = run.aborted ? null : await namesOf(client, run.instances, o.signal);
  const report = buildImpactReport({
    jobId,
    baseUrl: client.baseUrl,
    maskedKey: client.maskedKey,
    recomputed: recompute,
    affected,
    before,
    after: new Map(run.instances.map((i) => [i.instance.id.toLowerCase(), i])),
    beforeContext,
    afterContext,
    aborted: run.aborted,
  });
  if (status !== 'completed')
    report.notes.unshift(
      `Job ${jobId} did not complete (${status}): the after-values show only what its settled rows changed.`,
    );
  await writeJobJson(jobsDir, jobId, LCA_IMPACT_FILE, report);
  return report;
}

/**
 * Records in the job folder that the import asked for its LCA impact after the job (`import --lca-impact`), so
 * that `resume` (and a watch folder resuming a drop) keeps it: recomputes the affected instances once the job
 * has ended and writes the report.
 */
export function keepImpactAsked(jobsDir: string, jobId: string): Promise<void> {
  return writeJobJson(jobsDir, jobId, LCA_ASKED_FILE, { recompute_after: true });
}

/** Whether the import of the job asked for its LCA impact after the job (keepImpactAsked). */
export async function impactAsked(jobsDir: string, jobId: string): Promise<boolean> {
  return (await readImpactAsked(jobsDir, jobId))?.recompute_after === true;
}

/**
 * What the dry run kept of a job's impact (lca-affected.json, lca-estimates.json), read back without any
 * request; null parts when it was not asked for.
 */
export async function readLcaImpactDryRun(
  jobsDir: string,
  jobId: string,
): Promise<{ affected: AffectedSet | null; estimates: ImpactEstimates | null }> {
  const [affected, estimates] = await Promise.all([readAffected(jobsDir, jobId), readEstimates(jobsDir, jobId)]);
  return { affected, estimates };
}

/**
 * How an impact run ended for its caller, as the LCA run's verdicts: `aborted` — the recompute stopped (key
 * refused, daily limit, cancelled); `partial` — an affected instance has no after-values (failed, not found, no
 * results) or a past or current year of it lacks production data after the job; `ok` otherwise (a future year
 * blocked until it arrives is no problem).
 */
export function impactVerdict(report: ImpactReport): 'ok' | 'partial' | 'aborted' {
  if (report.aborted) return 'aborted';
  if (report.instances.some((i) => i.after_outcome !== 'completed') || report.notes.some((n) => /not found/.test(n)))
    return 'partial';
  return report.instances.some((i) => i.years_needing_data.length > 0) ? 'partial' : 'ok';
}

/**
 * Where the impact workbook goes unless told: beside the job's source (`<source name>.impact.xlsx`), else in
 * `dir` as `<job id>.impact.xlsx`.
 */
export async function defaultImpactFile(jobsDir: string, jobId: string, dir: string): Promise<string> {
  const meta = await findJob(jobsDir, jobId);
  if (meta.inputPath) {
    const p = path.parse(meta.inputPath);
    return path.join(p.dir, `${p.name}.impact.xlsx`);
  }
  return path.join(dir, `${jobId}.impact.xlsx`);
}

/** The impact report as a workbook (`impact` and `impact-sources` sheets; docs/lca-export.md). */
export function writeLcaImpactWorkbook(report: ImpactReport, file: string): Promise<ImpactWorkbookStats> {
  return writeImpactWorkbook(report, file);
}
