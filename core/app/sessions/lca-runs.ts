/**
 * LCA runs of the LCA screen, on the main side: choose instances (selectInstances: reads only), then read or
 * recompute-and-poll their results (runLca) in the background with a live state per instance (`lca.progress`
 * events), and offer the workbook (lcaWorkbookBuffer) and the GWP chart data (gwpChartData). One run at a time
 * per connection profile; cancelling keeps what finished.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, createApiClient, type ApiClient } from '../../api/index.js';
import { lcaWorkbookBuffer } from '../../lca/workbook/index.js';
import type { LcaReport, SelectedInstance } from '../../lca/model.js';
import { lcaRun } from '../lca.js';
import { analysisView, type AnalysisQuery } from './lca-analysis-view.js';
import { lcaOptions } from './lca-choices.js';
import { runView, selectedView, type LiveState } from './lca-views.js';
import { selectInstances, type InstanceSelector, type UnknownCodes } from '../../lca/select.js';
import type { LcaAnalysisView, LcaRunView } from '../../contract/index.js';
import { AppError } from '../errors.js';
import type { Connection } from '../profiles.js';
import type { SessionServices } from '../host.js';
import { requestsController } from '../../api/signal.js';

const MAX_SELECTIONS = 10;
const MAX_RUNS = 10;

interface Selection {
  selectionId: string;
  profileId: string;
  description: string;
  instances: SelectedInstance[];
  at: number;
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

export class LcaRuns {
  private readonly selections = new Map<string, Selection>();
  private readonly runs = new Map<string, Run>();

  constructor(private readonly app: SessionServices) {}

  private client(conn: Connection): ApiClient {
    return createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
  }

  /** Products with instances, plants and instance codes to choose from (one walk each; reads only). */
  async options(conn: Connection) {
    const client = this.client(conn);
    try {
      return await lcaOptions(client);
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
    return runView(runId, this.get(runId));
  }

  /** Any indicator of a finished run, per declared unit or totals, with hotspots and trend (plain data). */
  analysis(runId: string, q: AnalysisQuery): LcaAnalysisView {
    return analysisView(this.report(runId), q);
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
