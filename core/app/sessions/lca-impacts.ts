/**
 * Jobs' LCA impact in the app (core/app/lca-impact.ts): in the dry run the affected instances, their current
 * results kept and the estimate; in a finished job's results the recompute of the affected instances, run in the
 * background one job at a time (the renderer reads its state with `lca.impact`), and the impact report's views.
 * The service's daily request limit stops a recompute (lca/run.ts); what finished is kept in the report.
 */
import { createApiClient, type ApiClient } from '../../api/index.js';
import { requestsController } from '../../api/signal.js';
import type { LcaImpactDryRunView, LcaImpactView } from '../../contract/lca-impact.js';
import { readMeta } from '../../jobs/job-store.js';
import { AppError } from '../errors.js';
import {
  lcaImpact,
  lcaImpactAffected,
  prepareLcaImpact,
  readImpactReport,
  readLcaImpactDryRun,
  type AffectedSet,
} from '../lca-impact.js';
import type { Connection } from '../profiles.js';
import type { SessionServices } from '../host.js';
import { affectedView, estimatesView, reportView, requestsAbout, type ReportQuery } from './lca-impact-view.js';

interface Recompute {
  state: 'running' | 'done' | 'failed';
  finished: number;
  total: number;
  error: string | null;
  controller: AbortController;
  done: Promise<void>;
}

/** The connection, when it is to the service the job was made against (its base URL); else why not, in words. */
async function jobConnection(jobsDir: string, jobId: string, conn: Connection): Promise<Connection> {
  const meta = await readMeta(jobsDir, jobId);
  const same = (u: string) => u.replace(/\/+$/, '').toLowerCase();
  if (same(meta.baseUrl) !== same(conn.baseUrl))
    throw new AppError(
      'invalid_input',
      `This job was made against another service (${meta.baseUrl}). Connect to that service to work with its LCA.`,
    );
  return conn;
}

const words = (e: unknown): string => (e instanceof Error ? e.message.split('\n')[0]! : String(e));

export class LcaImpacts {
  private readonly recomputes = new Map<string, Recompute>();
  /** The dry runs' reads of the current results still under way, by job: a run of that job waits for its read. */
  private readonly beforeReads = new Map<string, Promise<unknown>>();

  constructor(
    private readonly app: SessionServices,
    private readonly jobsDir: string,
  ) {}

  private client(conn: Connection): ApiClient {
    return createApiClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey });
  }

  /**
   * The dry run's part: affected set, current results kept, estimates (reads only). The read is registered at
   * once, before the connection is resolved, so that a run of the job started meanwhile waits for it (settled).
   */
  dryRun(conn: () => Promise<Connection>, jobId: string): Promise<LcaImpactDryRunView> {
    const read = (async () => {
      const client = this.client(await conn());
      try {
        const d = await prepareLcaImpact(client, this.jobsDir, jobId);
        return {
          jobId,
          affected: affectedView(d.affected),
          before: d.before,
          estimates: estimatesView(d.estimates),
          recomputes: d.recomputes,
          requestsAbout: requestsAbout(d.recomputes),
        };
      } finally {
        await client.close();
      }
    })();
    const pending = read.then(
      () => {},
      () => {},
    );
    this.beforeReads.set(jobId, pending);
    void pending.then(() => {
      if (this.beforeReads.get(jobId) === pending) this.beforeReads.delete(jobId);
    });
    return read;
  }

  /**
   * Resolves once no dry-run read of the job's current results is under way (at once when none is), so that the
   * job does not start writing before its "before" results are read. A failed read is not an error here.
   */
  async settled(jobId: string): Promise<void> {
    for (let p = this.beforeReads.get(jobId); p; p = this.beforeReads.get(jobId)) await p;
  }

  /** A job's impact as the results show it: affected (kept, else found with reads only), estimates, report. */
  async view(conn: () => Promise<Connection>, jobId: string, q: ReportQuery): Promise<LcaImpactView> {
    const kept = await readLcaImpactDryRun(this.jobsDir, jobId);
    let affected: AffectedSet | null = kept.affected;
    let affectedError: string | null = null;
    if (!affected) {
      try {
        const client = this.client(await jobConnection(this.jobsDir, jobId, await conn()));
        try {
          affected = await lcaImpactAffected(client, this.jobsDir, jobId);
        } finally {
          await client.close();
        }
      } catch (e) {
        affectedError = words(e);
      }
    }
    const report = await readImpactReport(this.jobsDir, jobId);
    const r = this.recomputes.get(jobId);
    const recomputes = affected?.instances.length ?? 0;
    return {
      jobId,
      affected: affected ? affectedView(affected) : null,
      affectedError,
      estimates: kept.estimates ? estimatesView(kept.estimates) : null,
      recomputes,
      requestsAbout: requestsAbout(recomputes),
      recompute: r
        ? { state: r.state, finished: r.finished, total: r.total, error: r.error }
        : { state: 'idle', finished: 0, total: 0, error: null },
      report: report ? reportView(report, q) : null,
    };
  }

  /** Start the recompute of the affected instances of a finished job (one at a time per job). */
  async start(conn: Connection, jobId: string): Promise<boolean> {
    await jobConnection(this.jobsDir, jobId, conn);
    if (this.recomputes.get(jobId)?.state === 'running')
      throw new AppError('unavailable', 'The LCA of this job’s instances is being recomputed already.');
    const r: Recompute = {
      state: 'running',
      finished: 0,
      total: 0,
      error: null,
      controller: requestsController(),
      done: Promise.resolve(),
    };
    this.recomputes.set(jobId, r);
    const client = this.client(conn);
    r.done = (async () => {
      try {
        await lcaImpact(client, this.jobsDir, jobId, {
          signal: r.controller.signal,
          onEvent: (e) => {
            r.finished = e.finished;
            r.total = e.total;
          },
        });
        r.state = 'done';
      } catch (e) {
        r.state = 'failed';
        r.error = words(e);
        this.app.log.warn({ jobId, err: e }, 'LCA impact recompute failed');
      } finally {
        await client.close().catch(() => {});
      }
    })();
    return true;
  }

  cancel(jobId: string): boolean {
    const r = this.recomputes.get(jobId);
    if (r?.state !== 'running') return false;
    r.controller.abort(new Error('cancelled by the user'));
    return true;
  }

  async dispose(): Promise<void> {
    const going = [...this.recomputes.values()].filter((r) => r.state === 'running');
    for (const r of going) r.controller.abort(new Error('the app is closing'));
    await Promise.race([Promise.all(going.map((r) => r.done)), new Promise((res) => setTimeout(res, 3000).unref())]);
  }
}
