/**
 * LCA: POST /v2/product-instances/{id}/lca-update starts a recompute; GET .../lca-results reports the job and
 * the results. Polling follows rule 5 of the spec exactly: poll while job.status is queued or processing,
 * stop at completed, failed or idle whatever `results` holds — emptiness of results never means "running".
 */
import { LcaResults } from '../../spec/schemas.js';
import { isLcaJobInFlight, LCA_JOB_STATUSES } from '../../spec/constants.js';
import { ApiError } from '../errors.js';
import { sleep } from '../backoff.js';
import { strictParser } from '../parse.js';
import type { CallOptions } from '../resource.js';
import type { LoggerLike } from '../secrets.js';
import type { Transport } from '../transport.js';

export type { LcaResults };
export type LcaJob = LcaResults['job'];

export interface LcaUpdateResult {
  /**
   * The job as the answer named it. Absent when the service answered a 2xx without `job.status` (a 202 without a
   * body, say): any 2xx means started (docs/api-assumptions.md row 25) and the status is learnt by polling.
   */
  job?: LcaJob;
  /** HTTP status of the answer that settled it (0 when settled by reading lca-results after a lost answer). */
  status: number;
  /**
   * True when a recompute was found in flight after our own attempt's answer was lost (read from lca-results,
   * or told by err_lca_update_not_queued): it was waited for instead of starting another.
   */
  alreadyRunning?: boolean;
}

export interface RecomputeOptions extends CallOptions {
  /** Called with every job status seen while polling (first the started job). */
  onStatus?: (status: string, results: LcaResults | undefined) => void;
  /** First poll delay; grows ×1.5 per poll up to pollMaxMs (with jitter). */
  pollBaseMs?: number;
  pollMaxMs?: number;
  /** Give up (ApiError client_timeout) after this long. Default 15 minutes. */
  maxWaitMs?: number;
  /**
   * A recompute already in flight (err_lca_update_not_queued): 'wait-then-restart' (default) waits for it to end
   * and then starts ours (so the results include the latest data); 'wait' just waits for it; 'error' throws.
   */
  ifRunning?: 'wait-then-restart' | 'wait' | 'error';
}

export interface LcaApi {
  update(instanceId: string, o?: CallOptions): Promise<LcaUpdateResult>;
  results(instanceId: string, o?: CallOptions): Promise<LcaResults>;
  recomputeAndWait(instanceId: string, o?: RecomputeOptions): Promise<LcaResults>;
}

function instancePath(instanceId: string, tail: string): string {
  if (typeof instanceId !== 'string' || instanceId.trim() === '')
    throw new TypeError('a product instance id is required');
  return `/v2/product-instances/${encodeURIComponent(instanceId)}/${tail}`;
}

const KNOWN_STATUSES = new Set<string>(LCA_JOB_STATUSES);

export function lcaApi(transport: Transport, logger: () => LoggerLike): LcaApi {
  const parseResults = strictParser(LcaResults);
  /** The job an lca-update answer names (`{job:{status}}`, or a bare job), or undefined when it names none. */
  const jobOf = (raw: unknown): LcaJob | undefined => {
    if (!raw || typeof raw !== 'object') return undefined;
    const o = raw as { job?: unknown; status?: unknown };
    const job = o.job && typeof o.job === 'object' ? o.job : raw;
    return typeof (job as { status?: unknown }).status === 'string' ? (job as LcaJob) : undefined;
  };

  const results = async (instanceId: string, o: CallOptions = {}): Promise<LcaResults> => {
    const res = await transport.callSafe({
      method: 'GET',
      path: instancePath(instanceId, 'lca-results'),
      signal: o.signal,
      timeoutMs: o.timeoutMs,
    });
    const r = parseResults(res.body, 'GET /v2/product-instances/{id}/lca-results');
    if (!KNOWN_STATUSES.has(r.job.status)) {
      logger().warn(
        { status: r.job.status, endpoint: 'GET /v2/product-instances/{id}/lca-results' },
        'unknown LCA job status: polling stops',
      );
    }
    return r;
  };

  /**
   * Any 2xx is "started" (the job, if the answer names one, is passed on). After a lost answer (reset, timeout,
   * 500 after sending) the POST is never repeated blindly: lca-results is read first, and a job in flight
   * (queued/processing) is waited for instead of starting another. Only when none is in flight is it sent again;
   * err_lca_update_not_queued then still means an earlier attempt started it.
   */
  const update = async (instanceId: string, o: CallOptions = {}): Promise<LcaUpdateResult> => {
    const endpoint = 'POST /v2/product-instances/{id}/lca-update';
    let lost = false;
    let settled: LcaUpdateResult | undefined;
    const inFlightNow = async (): Promise<LcaUpdateResult | undefined> => {
      const r = await results(instanceId, o);
      return isLcaJobInFlight(r.job.status) ? { job: r.job, status: 0, alreadyRunning: true } : undefined;
    };
    try {
      return await transport.retryLoop(
        async (n) => {
          const res = await transport.attempt(
            { method: 'POST', path: instancePath(instanceId, 'lca-update'), signal: o.signal, timeoutMs: o.timeoutMs },
            n,
          );
          const job = jobOf(res.body);
          if (job) return { job, status: res.status };
          logger().info(
            { endpoint, status: res.status },
            'lca-update answered without job.status: treated as started, the job is read by polling',
          );
          return { status: res.status };
        },
        async (e) => {
          if (lost && e.err_code === 'err_lca_update_not_queued') {
            const r = await results(instanceId, o);
            settled = { job: r.job, status: 0, alreadyRunning: true };
            return false;
          }
          if (!e.retryable) return false;
          if (e.ambiguous) {
            lost = true;
            // The lost attempt may have started a recompute: look before sending another.
            try {
              settled = await inFlightNow();
            } catch (re) {
              if (re instanceof ApiError) {
                logger().warn(
                  { endpoint, err_code: re.err_code },
                  'lca-update answer lost and lca-results unreadable: not sent again',
                );
                return false;
              }
              throw re;
            }
            if (settled) return false;
          }
          return true;
        },
        o.signal,
      );
    } catch (e) {
      if (settled) return settled;
      throw e;
    }
  };

  const recomputeAndWait = async (instanceId: string, o: RecomputeOptions = {}): Promise<LcaResults> => {
    const started = Date.now();
    const maxWaitMs = o.maxWaitMs ?? 15 * 60_000;
    const pollBase = o.pollBaseMs ?? 250;
    const pollMax = o.pollMaxMs ?? 5_000;
    const ifRunning = o.ifRunning ?? 'wait-then-restart';
    const call: CallOptions = { signal: o.signal, timeoutMs: o.timeoutMs };

    /**
     * Poll until the job is no longer in flight (rule 5: stop at completed, failed or idle — whatever the job's
     * id or `results` hold); returns the final answer.
     */
    const waitDone = async (): Promise<LcaResults> => {
      let delay = pollBase;
      for (;;) {
        if (Date.now() - started > maxWaitMs) {
          throw new ApiError({
            status: 0,
            err_code: 'client_timeout',
            msg: `LCA recompute not finished after ${maxWaitMs} ms`,
            endpoint: 'GET /v2/product-instances/{id}/lca-results',
            classification: 'network',
            retryable: true,
          });
        }
        await sleep(delay / 2 + Math.random() * (delay / 2), o.signal);
        delay = Math.min(pollMax, delay * 1.5);
        const r = await results(instanceId, call);
        o.onStatus?.(r.job.status, r);
        if (!isLcaJobInFlight(r.job.status)) return r;
      }
    };

    for (let round = 0; ; round++) {
      try {
        const u = await update(instanceId, call);
        if (u.job) {
          o.onStatus?.(u.job.status, undefined);
          if (!isLcaJobInFlight(u.job.status)) return results(instanceId, call);
        }
        return await waitDone();
      } catch (e) {
        if (
          !(e instanceof ApiError) ||
          e.err_code !== 'err_lca_update_not_queued' ||
          ifRunning === 'error' ||
          round > 0
        )
          throw e;
        const done = await waitDone();
        if (ifRunning === 'wait') return done;
      }
    }
  };

  return { update, results, recomputeAndWait };
}
