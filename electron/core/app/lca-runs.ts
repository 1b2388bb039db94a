/**
 * LCA runs of the LCA screen, on the main side: choose instances (selectInstances: reads only), then read or
 * recompute-and-poll their results (runLca) in the background with a live state per instance (`lca.progress`
 * events), and offer the workbook (lcaWorkbookBuffer) and the GWP chart data (gwpChartData). One run at a time
 * per connection profile; cancelling keeps what finished.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, createApiClient, type ApiClient } from '../api/index.js';
import {
  hotspotRows,
  hotspotSlices,
  indicatorsOf,
  lcaChartData,
  moduleSelectionsOf,
  topContributors,
  trendRows,
} from '../lca/analysis.js';
import { indicatorInfo, type ModuleSelection } from '../lca/indicators.js';
import { gwpChartData } from '../lca/chart.js';
import { lcaWorkbookBuffer } from '../lca/workbook/index.js';
import { GWP_TOTAL } from '../lca/indicators.js';
import {
  blockerNeedsAction,
  readResults,
  serviceCurrentYear,
  type InstanceLca,
  type LcaReport,
  type SelectedInstance,
} from '../lca/model.js';
import type { LcaInstanceState } from '../lca/run.js';
import { lcaRun } from './lca.js';
import { selectInstances, type InstanceSelector, type UnknownCodes } from '../lca/select.js';
import type { LcaAnalysisView, LcaChartView, LcaInstanceView, LcaRunView } from '../contract/index.js';
import { AppError } from './errors.js';
import type { Connection } from './profiles.js';
import type { WorkServices } from './host.js';
import { requestsController } from '../api/signal.js';

const MAX_SELECTIONS = 10;
const MAX_RUNS = 10;

interface Selection {
  selectionId: string;
  profileId: string;
  description: string;
  instances: SelectedInstance[];
  at: number;
}

interface LiveState {
  state: LcaInstanceState;
  jobStatus: string | null;
  errCode: string | null;
}

interface Run {
  runId: string;
  profileId: string;
  recompute: boolean;
  selection: Selection;
  startedAt: Date;
  live: Map<string, LiveState>;
  finished: number;
  controller: AbortController;
  report: LcaReport | null;
  error: string | null;
  done: Promise<void>;
}

export function selectedView(i: SelectedInstance) {
  return {
    id: i.id,
    externalId: i.external_id,
    name: i.name,
    plantCode: i.plant_code,
    productArticle: i.product_article,
    productName: i.product_name,
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

export class LcaRuns {
  private readonly selections = new Map<string, Selection>();
  private readonly runs = new Map<string, Run>();

  constructor(private readonly app: WorkServices) {}

  private client(conn: Connection): ApiClient {
    return createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
  }

  /** Products with instances, plants and instance codes to choose from (one walk each; reads only). */
  async options(conn: Connection) {
    const client = this.client(conn);
    try {
      const products: { article: string; name: string; instances: number }[] = [];
      for await (const p of client.products.walk({ limit: 200 })) {
        const n = Array.isArray(p.product_instance_ids) ? p.product_instance_ids.length : 0;
        if (p.external_id && n > 0) products.push({ article: p.external_id, name: p.name, instances: n });
      }
      let plantsReadable = true;
      const plants: { code: string; name: string | null }[] = [];
      try {
        for await (const p of client.plants.walk({ limit: 200 }))
          if (p.external_id) plants.push({ code: p.external_id, name: p.name ?? null });
      } catch (e) {
        if ((e as { status?: number }).status !== 403) throw e;
        plantsReadable = false;
      }
      const instances: { externalId: string; name: string | null }[] = [];
      let instancesTruncated = false;
      for await (const i of client.productInstances.walk({ limit: 200 })) {
        if (!i.external_id) continue;
        if (instances.length >= 2000) {
          instancesTruncated = true;
          break;
        }
        instances.push({ externalId: i.external_id, name: i.name ?? null });
      }
      const byText = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
      products.sort((a, b) => byText(a.article, b.article));
      plants.sort((a, b) => byText(a.code, b.code));
      instances.sort((a, b) => byText(a.externalId, b.externalId));
      return { products, plants, plantsReadable, instances, instancesTruncated };
    } finally {
      await client.close();
    }
  }

  async select(conn: Connection, by: 'products' | 'plant' | 'instances' | 'all', codes: string[]) {
    const clean = [...new Set(codes.map((c) => c.trim()).filter((c) => c !== ''))];
    if (by !== 'all' && clean.length === 0)
      throw new AppError('invalid_input', 'Choose at least one product, plant or instance code.');
    const selector: InstanceSelector =
      by === 'products'
        ? { by, articles: clean }
        : by === 'plant'
          ? { by, plantCodes: clean }
          : by === 'instances'
            ? { by, externalIds: clean }
            : { by: 'all' };
    const client = this.client(conn);
    try {
      const s = await selectInstances(client, selector);
      const selection: Selection = {
        selectionId: randomUUID(),
        profileId: conn.profileId,
        description: s.description,
        instances: s.instances,
        at: Date.now(),
      };
      this.selections.set(selection.selectionId, selection);
      trim(this.selections, MAX_SELECTIONS, (x) => x.at);
      return {
        selectionId: selection.selectionId,
        description: s.description,
        instances: s.instances.map(selectedView),
        unknown: s.unknown.map((u: UnknownCodes) => ({ kind: u.kind, codes: u.codes })),
      };
    } finally {
      await client.close();
    }
  }

  runningFor(profileId: string): string | undefined {
    for (const r of this.runs.values()) if (r.profileId === profileId && !r.report && !r.error) return r.runId;
    return undefined;
  }

  start(conn: Connection, selectionId: string, recompute: boolean): string {
    const selection = this.selections.get(selectionId);
    if (!selection)
      throw new AppError('not_found', 'That choice of instances is no longer available. Find the instances again.');
    if (selection.profileId !== conn.profileId)
      throw new AppError(
        'invalid_input',
        'The instances were found on another connection. Find them again on this one.',
      );
    if (selection.instances.length === 0) throw new AppError('invalid_input', 'No product instance is chosen.');
    const busy = this.runningFor(conn.profileId);
    if (busy)
      throw new AppError(
        'unavailable',
        'An LCA run is already going on this connection. Wait for it or cancel it first.',
      );
    const run: Run = {
      runId: randomUUID(),
      profileId: conn.profileId,
      recompute,
      selection,
      startedAt: new Date(),
      live: new Map(),
      finished: 0,
      controller: requestsController(),
      report: null,
      error: null,
      done: Promise.resolve(),
    };
    this.runs.set(run.runId, run);
    trim(this.runs, MAX_RUNS, (r) => (r.report || r.error ? r.startedAt.getTime() : Number.MAX_SAFE_INTEGER));
    const client = this.client(conn);
    this.app.emit('lca.changed', { runId: run.runId, state: 'running' });
    run.done = (async () => {
      try {
        const report = await lcaRun(client, selection.instances, {
          recompute,
          signal: run.controller.signal,
          selection: selection.description,
          onEvent: (e) => {
            run.live.set(e.instanceId, { state: e.state, jobStatus: e.jobStatus, errCode: e.errCode });
            run.finished = e.finished;
            this.app.emit('lca.progress', { runId: run.runId, ...e });
          },
        });
        run.report = report;
      } catch (e) {
        run.error = e instanceof Error ? e.message.split('\n')[0] : String(e);
        this.app.log.warn({ runId: run.runId, err: e }, 'LCA run failed');
      } finally {
        await client.close().catch(() => {});
        this.app.emit('lca.changed', { runId: run.runId, state: run.error ? 'failed' : 'done' });
      }
    })();
    return run.runId;
  }

  private get(runId: string): Run {
    const r = this.runs.get(runId);
    if (!r) throw new AppError('not_found', 'That LCA run is no longer available. Run it again.');
    return r;
  }

  cancel(runId: string): boolean {
    const r = this.get(runId);
    if (r.report || r.error) return false;
    r.controller.abort(new Error('cancelled by the user'));
    return true;
  }

  view(runId: string): LcaRunView {
    const r = this.get(runId);
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

  /** Any indicator of a finished run, per declared unit or totals, with hotspots and trend (plain data). */
  analysis(
    runId: string,
    q: {
      indicator?: string;
      modules?: ModuleSelection;
      basis?: 'per_unit' | 'total';
      declaredUnit?: string | null;
      instanceId?: string;
      year?: number;
    },
  ): LcaAnalysisView {
    const report = this.report(runId);
    const codes = indicatorsOf(report);
    const selections = moduleSelectionsOf(report);
    const indicator = q.indicator && codes.includes(q.indicator) ? q.indicator : (codes[0] ?? 'GWP-total');
    const modules: ModuleSelection =
      q.modules && selections.includes(q.modules) ? q.modules : selections.includes('A1-A4') ? 'A1-A4' : 'A1-A3';
    const basis = q.basis ?? 'per_unit';
    const chart = lcaChartData(report, { indicator, modules, basis, declaredUnit: q.declaredUnit });
    const rows = hotspotRows(report);
    const choices: { instanceId: string; year: number; partial: boolean }[] = [];
    for (const i of report.instances)
      for (const y of readResults(i.results))
        if (y.status === 'computed' && y.year !== null)
          choices.push({ instanceId: i.instance.id, year: y.year, partial: y.partial_year === true });
    const latestOf = (id: string) =>
      choices.filter((c) => c.instanceId === id && !c.partial).at(-1) ??
      choices.filter((c) => c.instanceId === id).at(-1);
    const chosen =
      choices.find((c) => c.instanceId === q.instanceId && c.year === q.year) ??
      (q.instanceId ? latestOf(q.instanceId) : undefined) ??
      (choices[0] ? latestOf(choices[0].instanceId) : undefined);
    const ctx = report.breakdown_context;
    const wanted = new Set<string>(modules === 'A1-A4' ? ['A1-A3', 'A4'] : [modules]);
    const hot = chosen && ctx?.readable ? { instanceId: chosen.instanceId, year: chosen.year } : null;
    const slices = hot ? hotspotSlices(rows, { ...hot, indicator, modules, top: 10 }) : [];
    const table = hot
      ? rows
          .filter(
            (r) =>
              r.instanceId === hot.instanceId &&
              r.year === hot.year &&
              r.indicator === indicator &&
              wanted.has(r.module ?? ''),
          )
          .sort((a, b) => Math.abs(b.value) - Math.abs(a.value))
      : [];
    const top = hot ? topContributors(rows, { indicator, modules, year: hot.year, top: 10 }) : [];
    return {
      indicators: codes.map((c) => {
        const info = indicatorInfo(c);
        return { code: c, nameEn: info?.name_en ?? null, nameDe: info?.name_de ?? null, unit: info?.unit ?? null };
      }),
      moduleSelections: selections,
      indicator,
      modules,
      basis,
      chart: {
        unit: chart.unit,
        declaredUnit: chart.declaredUnit,
        declaredUnits: chart.declaredUnits,
        hidden: chart.hidden,
        years: chart.years,
        series: chart.series.map((s) => ({
          instanceId: s.instanceId,
          label: s.label,
          plantCode: s.plantCode,
          productArticle: s.productArticle,
          declaredUnit: s.declaredUnit,
          points: s.points.map((p) => ({
            year: p.year,
            value: p.value,
            partial: p.partial,
            status: p.status,
            note: p.note,
          })),
        })),
      },
      hotspots: {
        readable: ctx?.readable ?? false,
        reason: ctx?.readable ? null : (ctx?.reason ?? null),
        instanceId: chosen?.instanceId ?? null,
        year: chosen?.year ?? null,
        choices,
        slices: slices.map((x) => ({ label: x.label, value: x.value, share: x.share, rest: x.component === null })),
        rows: table.map((r) => ({
          component: r.component,
          module: r.module,
          value: r.value,
          perDeclaredUnit: r.perDeclaredUnit,
          share: r.share,
        })),
        top: top.map((t) => ({ label: t.label, value: t.value, instances: t.instances })),
      },
      trend: trendRows(report)
        .filter((t) => t.indicator === indicator && t.modules === modules)
        .map((t) => ({
          instanceId: t.instanceId,
          year: t.year,
          partial: t.partial,
          value: t.value,
          perDeclaredUnit: t.perDeclaredUnit,
          previousYear: t.previousYear,
          previousPartial: t.previousPartial,
          changeAbs: t.changeAbs,
          changePct: t.changePct,
          changePerUnitAbs: t.changePerUnitAbs,
          changePerUnitPct: t.changePerUnitPct,
        })),
    };
  }

  /**
   * "Enter it here": write one production figure through the API, then recompute the LCA of the run's
   * instances (a new run). A service without the endpoint → an error whose message points to the web interface.
   */
  async enterProduction(
    conn: Connection,
    runId: string,
    instanceId: string,
    year: number,
    quantity: number,
  ): Promise<string> {
    const r = this.get(runId);
    const inst = r.selection.instances.find((i) => i.id === instanceId);
    if (!inst) throw new AppError('not_found', 'That product instance is not part of this LCA run.');
    const client = this.client(conn);
    try {
      await client.productionFigures.put(instanceId, [{ year, quantity }], {
        ...(inst.produced_from !== null ? { producedFrom: inst.produced_from, producedTo: inst.produced_to } : {}),
      });
    } catch (e) {
      if (e instanceof ApiError)
        throw new AppError(e.status === 403 ? 'forbidden' : 'invalid_input', `${e.msg} (${e.err_code})`, {
          errCode: e.err_code,
          status: e.status,
        });
      throw e;
    } finally {
      await client.close();
    }
    return this.start(conn, r.selection.selectionId, true);
  }

  report(runId: string): LcaReport {
    const r = this.get(runId);
    if (!r.report)
      throw new AppError(
        'invalid_input',
        r.error ? `The LCA run failed: ${r.error}` : 'The LCA run is not finished yet.',
      );
    return r.report;
  }

  /** The results workbook of a finished run (`lca.export`). */
  async workbook(runId: string): Promise<Buffer> {
    return (await lcaWorkbookBuffer(this.report(runId))).buffer;
  }

  async dispose(): Promise<void> {
    const going = [...this.runs.values()].filter((r) => !r.report && !r.error);
    for (const r of going) r.controller.abort(new Error('the app is closing'));
    await Promise.race([Promise.all(going.map((r) => r.done)), new Promise((res) => setTimeout(res, 3000).unref())]);
  }
}

function trim<T>(m: Map<string, T>, max: number, age: (t: T) => number): void {
  if (m.size <= max) return;
  const sorted = [...m.entries()].sort((a, b) => age(a[1]) - age(b[1]));
  for (const [k] of sorted.slice(0, m.size - max)) m.delete(k);
}
