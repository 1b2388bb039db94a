/**
 * Run the LCA of selected product instances: optionally start a recompute of each (bounded concurrency), then
 * poll its results exactly as the spec's rules for results say — poll while job.status is `queued` or
 * `processing`, with backoff; stop at `completed`, `failed` or `idle` (or a status this version does not know)
 * whatever `results` holds. Emptiness of `results` never means "running" (rule 4): only job.status counts.
 *
 * err_lca_update_not_queued means a recompute is already in flight: we wait for that one rather than fail.
 * A failed job is reported with its err_code and the catalog's explanation. An authentication failure or the
 * daily limit stops the whole run (remaining instances `skipped`); cancelling (AbortSignal) stops it too
 * (`cancelled`) — either way the report of what was done is returned, never thrown away.
 *
 * Progress comes as events per instance (queued / processing / done / failed) for the UI and the CLI bar.
 */
import { ApiError, explainErrCode, isAbortError, type ApiClient, type LcaResults } from '../api/index.js';
import type { LcaInstanceState } from '../names.js';
import { isLcaJobInFlight } from '../spec/constants.js';
import { unknownFields } from './flatten.js';
import { type InstanceLca, type LcaReport, type SelectedInstance, summarize } from './model.js';
import { requestsController } from '../api/signal.js';

/** What the UI shows per instance (LCA_STATES). `waiting` = not started yet. */
export type { LcaInstanceState };

export interface LcaProgressEvent {
  instanceId: string;
  externalId: string | null;
  state: LcaInstanceState;
  /** Raw job.status when one was seen. */
  jobStatus: string | null;
  errCode: string | null;
  /** Instances finished (done or failed) so far, and in all. */
  finished: number;
  total: number;
}

export interface RunLcaOptions {
  /** Start a recompute (lca-update) of every instance first. Default false: read the stored results. */
  recompute?: boolean;
  /** Instances worked on at once. Default 16 (the client caps requests in flight at 16 by default too). The client's own limiter caps requests further. */
  concurrency?: number;
  signal?: AbortSignal;
  onEvent?: (e: LcaProgressEvent) => void;
  /** First poll delay (ms); grows ×1.5 per poll up to pollMaxMs, with jitter. Defaults 250 and 5,000. */
  pollBaseMs?: number;
  pollMaxMs?: number;
  /** Stop waiting for one instance's job after this long (reported as an error). Default 15 minutes. */
  maxWaitMs?: number;
  /** For the report header. */
  selection?: string;
}

const RESPONSE_FIELDS = new Set(['product_instance_id', 'job', 'results']);

function stateOf(status: string): LcaInstanceState {
  if (status === 'queued') return 'queued';
  if (status === 'processing') return 'processing';
  if (status === 'failed') return 'failed';
  return 'done';
}

/** Sleep that ends early (rejecting) when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

class WaitTimeout extends Error {
  override readonly name = 'WaitTimeout';
}

export interface PollOptions {
  signal: AbortSignal;
  pollBaseMs: number;
  pollMaxMs: number;
  maxWaitMs: number;
  onStatus?: (status: string) => void;
  /** Skip the first wait (nothing started just now). */
  immediate?: boolean;
}

/**
 * GET lca-results until job.status is no longer `queued`/`processing` (spec rule 5); returns that answer.
 * `results` is never looked at to decide (rule 4: it is empty while a job runs, and also when there is
 * nothing to report).
 */
export async function pollUntilSettled(client: ApiClient, instanceId: string, o: PollOptions): Promise<LcaResults> {
  const started = Date.now();
  let delay = o.pollBaseMs;
  let first = true;
  for (;;) {
    if (!(first && o.immediate)) {
      await pause(delay / 2 + Math.random() * (delay / 2), o.signal);
      delay = Math.min(o.pollMaxMs, delay * 1.5);
    }
    first = false;
    const r = await client.lca.results(instanceId, { signal: o.signal });
    o.onStatus?.(r.job.status);
    if (!isLcaJobInFlight(r.job.status)) return r;
    if (Date.now() - started > o.maxWaitMs)
      throw new WaitTimeout(`the LCA job was still ${r.job.status} after ${Math.round(o.maxWaitMs / 1000)} s`);
  }
}

function blankOutcome(instance: SelectedInstance): InstanceLca {
  return {
    instance,
    outcome: 'skipped',
    job_status: null,
    job: null,
    err_code: null,
    msg: null,
    explanation: null,
    action: null,
    recomputed: false,
    waited_for_running_job: false,
    results: [],
    response_extra: {},
    checked_at: null,
  };
}

function withErrCode(out: InstanceLca, errCode: string, msg: string | null): void {
  const ex = explainErrCode(errCode);
  out.err_code = errCode;
  out.msg = msg;
  out.explanation = ex.explanation;
  out.action = ex.action ?? null;
}

/** Record the final lca-results answer on the outcome. */
function settle(out: InstanceLca, r: LcaResults): void {
  const job = r.job as Record<string, unknown>;
  out.job = { ...job };
  out.job_status = r.job.status;
  out.results = Array.isArray(r.results) ? r.results : [];
  out.response_extra = unknownFields(r as Record<string, unknown>, RESPONSE_FIELDS, 'response.');
  out.checked_at = new Date().toISOString();
  switch (r.job.status) {
    case 'completed':
      out.outcome = 'completed';
      break;
    case 'idle':
      out.outcome = 'idle';
      break;
    case 'failed': {
      out.outcome = 'failed';
      const code =
        typeof job.err_code === 'string' && job.err_code !== '' ? job.err_code : 'client_lca_failed_without_code';
      const msg = typeof job.msg === 'string' ? job.msg : null;
      withErrCode(out, code, msg);
      if (code === 'client_lca_failed_without_code') {
        out.explanation = 'The LCA recompute failed and the service gave no err_code.';
        out.action = 'Show this to an operator or support.';
      }
      break;
    }
    default:
      out.outcome = 'unknown_status';
      out.explanation = `The service reported the job status "${r.job.status}", which this version does not know; polling stopped.`;
      out.action = 'Show this to an operator or support.';
  }
}

/**
 * LCA of every instance: recompute (optional), poll, collect. Resolves with the report in every case
 * (cancelled or aborted runs included); throws only for programming errors.
 */
export async function runLca(
  client: ApiClient,
  instances: readonly SelectedInstance[],
  o: RunLcaOptions = {},
): Promise<LcaReport> {
  const t0 = Date.now();
  const recompute = o.recompute ?? false;
  const concurrency = Math.max(1, Math.min(64, Math.floor(o.concurrency ?? 16)));
  const poll = {
    pollBaseMs: o.pollBaseMs ?? 250,
    pollMaxMs: o.pollMaxMs ?? 5_000,
    maxWaitMs: o.maxWaitMs ?? 15 * 60_000,
  };
  // Our own controller: aborted by the caller's signal, or by us when the key fails or the daily limit is hit.
  const stop = requestsController();
  const onOuterAbort = () => stop.abort(o.signal?.reason);
  if (o.signal?.aborted) stop.abort(o.signal.reason);
  else o.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let aborted: LcaReport['aborted'] = null;

  const outcomes = instances.map(blankOutcome);
  const total = instances.length;
  let finished = 0;
  const emit = (i: number, state: LcaInstanceState, jobStatus: string | null, errCode: string | null = null) => {
    if (state === 'done' || state === 'failed') finished++;
    const inst = instances[i];
    o.onEvent?.({ instanceId: inst.id, externalId: inst.external_id, state, jobStatus, errCode, finished, total });
  };

  const one = async (i: number): Promise<void> => {
    const inst = instances[i];
    const out = outcomes[i];
    let last: string | null = null;
    const onStatus = (s: string) => {
      out.job_status = s;
      if (isLcaJobInFlight(s) && s !== last) emit(i, stateOf(s), s);
      last = s;
    };
    try {
      let started = false;
      if (recompute) {
        try {
          const u = await client.lca.update(inst.id, { signal: stop.signal });
          out.recomputed = !u.alreadyRunning;
          out.waited_for_running_job = u.alreadyRunning === true;
          started = true;
          if (u.job) onStatus(u.job.status);
        } catch (e) {
          // A recompute is already in flight: wait for it rather than fail.
          if (!(e instanceof ApiError) || e.err_code !== 'err_lca_update_not_queued') throw e;
          out.waited_for_running_job = true;
        }
      }
      const r = await pollUntilSettled(client, inst.id, {
        ...poll,
        signal: stop.signal,
        onStatus,
        immediate: !started,
      });
      settle(out, r);
      emit(i, out.outcome === 'completed' || out.outcome === 'idle' ? 'done' : 'failed', out.job_status, out.err_code);
    } catch (e) {
      if (stop.signal.aborted && (isAbortError(e) || e === stop.signal.reason || !(e instanceof ApiError))) {
        out.outcome = aborted && aborted.reason !== 'cancelled' ? 'skipped' : 'cancelled';
        return;
      }
      out.outcome = 'error';
      out.checked_at = new Date().toISOString();
      if (e instanceof ApiError) {
        withErrCode(out, e.err_code, e.msg);
        if (e.classification === 'auth' || e.classification === 'daily_limit') {
          if (!aborted) {
            aborted = {
              reason: e.classification,
              err_code: e.err_code,
              message:
                e.classification === 'auth'
                  ? 'The API key was refused (revoked, expired or unknown): the run stopped. Fix the key and run again.'
                  : 'The daily request limit of the service is reached: the run stopped. Run again tomorrow.',
            };
            stop.abort(new Error(aborted.message));
          }
        }
      } else if (e instanceof WaitTimeout) {
        out.err_code = 'client_timeout';
        out.msg = e.message;
        out.explanation = e.message;
        out.action = 'Run again later; the job may still finish on the service.';
      } else {
        out.err_code = 'client_unexpected';
        out.msg = e instanceof Error ? e.message : String(e);
        out.explanation = 'An unexpected error stopped the LCA of this instance.';
      }
      emit(i, 'failed', out.job_status, out.err_code);
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < total && !stop.signal.aborted) await one(next++);
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  } finally {
    o.signal?.removeEventListener('abort', onOuterAbort);
  }
  if (!aborted && o.signal?.aborted)
    aborted = {
      reason: 'cancelled',
      err_code: null,
      message: 'Cancelled: the instances not finished are marked cancelled.',
    };
  // Never started: skipped when the key/daily limit stopped the run, cancelled when the user did.
  for (const out of outcomes) {
    if (out.outcome === 'skipped' && out.checked_at === null && aborted?.reason === 'cancelled')
      out.outcome = 'cancelled';
  }

  return {
    generated_at: new Date().toISOString(),
    base_url: client.baseUrl,
    masked_key: client.maskedKey,
    selection: o.selection ?? `${total} product instance${total === 1 ? '' : 's'}`,
    recompute,
    instances: outcomes,
    summary: summarize(outcomes),
    aborted,
    duration_ms: Date.now() - t0,
  };
}
