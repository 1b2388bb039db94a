/**
 * The views of an LCA run the LCA screen shows (the contract's LcaRunView): each chosen instance with its live
 * state, outcome and per year the GWP-total and blockers, the run's summary, and the GWP chart's data.
 */
import { declaredUnitLabel } from '../../lca/analysis.js';
import { gwpChartData } from '../../lca/chart.js';
import { GWP_TOTAL } from '../../lca/indicators.js';
import {
  blockerNeedsAction,
  readResults,
  serviceCurrentYear,
  type InstanceLca,
  type LcaReport,
  type SelectedInstance,
} from '../../lca/model.js';
import type { LcaInstanceState } from '../../lca/run.js';
import type { LcaChartView, LcaInstanceView, LcaRunView } from '../../contract/index.js';

/** An instance's state while its run goes on (from the run's progress events). */
export interface LiveState {
  state: LcaInstanceState;
  jobStatus: string | null;
  errCode: string | null;
}

/** What a run's view is made of: the session's record of the run. */
export interface RunFacts {
  recompute: boolean;
  selection: { description: string; instances: SelectedInstance[] };
  startedAt: Date;
  live: ReadonlyMap<string, LiveState>;
  finished: number;
  report: LcaReport | null;
  error: string | null;
}

export function selectedView(i: SelectedInstance) {
  return {
    id: i.id,
    externalId: i.external_id,
    name: i.name,
    plantCode: i.plant_code,
    productArticle: i.product_article,
    productName: i.product_name,
    declaredUnit: declaredUnitLabel(i.product_unit),
    producedFrom: i.produced_from,
    producedTo: i.produced_to,
  };
}

/** One instance as the LCA screen shows it: live state, outcome, and per year the GWP-total and blockers. */
export function instanceView(
  i: SelectedInstance,
  live: LiveState | undefined,
  lca: InstanceLca | undefined,
): LcaInstanceView {
  const years = lca ? readResults(lca.results) : [];
  const current = serviceCurrentYear(years, lca?.job ?? null);
  return {
    ...selectedView(i),
    state:
      live?.state ?? (lca ? (lca.outcome === 'completed' || lca.outcome === 'idle' ? 'done' : 'failed') : 'waiting'),
    outcome: lca?.outcome ?? null,
    jobStatus: lca?.job_status ?? live?.jobStatus ?? null,
    errCode: lca?.err_code ?? live?.errCode ?? null,
    msg: lca?.msg ?? null,
    recomputed: lca?.recomputed ?? false,
    waitedForRunningJob: lca?.waited_for_running_job ?? false,
    years: years.map((y) => {
      let gwp: number | null = null;
      for (const v of y.values ?? []) if (v.indicator === GWP_TOTAL && v.value !== null) gwp = (gwp ?? 0) + v.value;
      return {
        year: y.year,
        status: y.status,
        partial: y.partial_year === true,
        gwp,
        blockers: y.blockers.map((b) => ({
          type: b.type,
          kind: b.kind,
          code: b.code,
          errCode: b.err_code,
          msg: b.msg,
          needsAction: blockerNeedsAction(y.year, current),
        })),
      };
    }),
  };
}

export function chartView(report: Pick<LcaReport, 'instances'>): LcaChartView {
  const c = gwpChartData(report);
  return {
    unit: c.unit,
    years: c.years,
    modules: c.modules,
    series: c.series.map((s) => ({
      instanceId: s.instanceId,
      externalId: s.externalId,
      label: s.label,
      points: s.points.map((p) => ({ year: p.year, value: p.value, partial: p.partial, status: p.status })),
    })),
  };
}

const EMPTY_SUMMARY = { completed: 0, idle: 0, failed: 0, unknown_status: 0, error: 0, cancelled: 0, skipped: 0 };

/** A run as the LCA screen shows it: running (live states) or finished (the report's outcomes). */
export function runView(runId: string, r: RunFacts): LcaRunView {
  const byId = new Map((r.report?.instances ?? []).map((i) => [i.instance.id, i]));
  const instances = r.selection.instances.map((i) =>
    instanceView(i, r.report ? undefined : r.live.get(i.id), byId.get(i.id)),
  );
  const report = r.report;
  return {
    runId,
    state: report ? 'done' : r.error ? 'failed' : 'running',
    recompute: r.recompute,
    selection: r.selection.description,
    startedAt: r.startedAt.toISOString(),
    durationMs: report ? Math.round(report.duration_ms) : Date.now() - r.startedAt.getTime(),
    finished: report ? report.instances.length : r.finished,
    total: r.selection.instances.length,
    summary: report
      ? {
          completed: report.summary.completed,
          idle: report.summary.idle,
          failed: report.summary.failed,
          unknown_status: report.summary.unknown_status,
          error: report.summary.error,
          cancelled: report.summary.cancelled,
          skipped: report.summary.skipped,
        }
      : EMPTY_SUMMARY,
    aborted: report?.aborted
      ? { reason: report.aborted.reason, errCode: report.aborted.err_code, message: report.aborted.message }
      : null,
    error: r.error,
    instances,
    chart: chartView({ instances: report?.instances ?? [] }),
  };
}
