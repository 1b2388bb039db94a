/**
 * HTTP transport of the client: one undici Pool per base URL with keep-alive, the adaptive limiter, per-request
 * timeout and AbortSignal, error bodies turned into ApiError, structured logs (method, path, status, err_code,
 * duration, attempt) that never carry the key, and the retry loop with full-jitter backoff.
 */
// undici's Pool and its request(), without undici's entry (types: undici-parts.d.ts). The entry attaches request()
// to every dispatcher; loaded on its own, request() is called on the pool.
import Pool from 'undici/lib/dispatcher/pool.js';
import poolRequest from 'undici/lib/api/api-request.js';
import { ApiError } from './errors.js';
import { AdaptiveLimiter } from './limiter.js';
import { type RetryPolicy, abortReason, backoffDelay, parseRetryAfter, sleep } from './backoff.js';
import type { LoggerLike, Scrubber } from './secrets.js';
import { errCodeInfo } from '../spec/err-codes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;

export interface CallSpec {
  method: HttpMethod;
  /** Path below the base URL, starting with /v2. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface CallResult {
  status: number;
  body: unknown;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  maxConcurrency: number;
  timeoutMs: number;
  retry: RetryPolicy;
  logger: LoggerLike;
  scrub: Scrubber;
  random?: () => number;
}

/** Failures where the request surely never reached the server (safe to send again, even a create). */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const UUID_SEGMENT = /\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=\/|$)/gi;

/** 'POST /v2/silos', 'GET /v2/silos/{id}': the endpoint an error names, without ids or query. */
export function endpointName(method: string, path: string): string {
  return `${method} ${path.split('?')[0].replace(UUID_SEGMENT, '/{id}')}`;
}

export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) p.append(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

export interface TransportStats {
  requests: number;
  retries: number;
  /** Current adaptive concurrency limit. */
  concurrency: number;
  /** Requests in flight right now. */
  inFlight: number;
}

export class Transport {
  readonly limiter: AdaptiveLimiter;
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly opts: TransportOptions;
  private readonly random: () => number;
  private requests = 0;
  private retries = 0;
  private closed = false;

  constructor(opts: TransportOptions) {
    this.opts = opts;
    let url: URL;
    try {
      url = new URL(opts.baseUrl);
    } catch {
      throw new Error(`The service address is not a valid URL: ${opts.scrub(String(opts.baseUrl))}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`The service address must start with http:// or https:// (got ${url.protocol})`);
    }
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections: opts.maxConcurrency,
      pipelining: 1,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      // The per-request timeout below is the one that counts; undici's own ones only as a backstop.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    this.limiter = new AdaptiveLimiter({ cap: opts.maxConcurrency });
    this.random = opts.random ?? Math.random;
  }

  get policy(): RetryPolicy {
    return this.opts.retry;
  }

  get logger(): LoggerLike {
    return this.opts.logger;
  }

  stats(): TransportStats {
    return {
      requests: this.requests,
      retries: this.retries,
      concurrency: this.limiter.limit,
      inFlight: this.limiter.inFlight,
    };
  }

  /** One HTTP exchange (through the limiter). Resolves for 2xx; throws ApiError otherwise, or the abort reason. */
  async attempt(spec: CallSpec, attemptNo = 1): Promise<CallResult> {
    if (this.closed) throw new Error('API client is closed');
    const endpoint = endpointName(spec.method, spec.path);
    const path = `${this.prefix}${spec.path}${buildQuery(spec.query)}`;
    const logPath = `${spec.path}${buildQuery(spec.query)}`;
    const slot = await this.limiter.acquire(spec.signal);
    const timeoutMs = spec.timeoutMs ?? this.opts.timeoutMs;
    const ac = new AbortController();
    let timedOut = false;
    const onUserAbort = () => ac.abort(abortReason(spec.signal as AbortSignal));
    spec.signal?.addEventListener('abort', onUserAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort(new DOMException('request timed out', 'TimeoutError'));
    }, timeoutMs);
    const started = Date.now();
    this.requests++;
    let outcome: 'ok' | 'overload' | 'neutral' = 'neutral';
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'supply-loader',
      'x-api-key': this.opts.apiKey,
      ...(spec.headers ?? {}),
    };
    let payload: string | undefined;
    if (spec.body !== undefined) {
      payload = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    const log = (level: 'debug' | 'warn', status: number, err_code?: string, extra?: Record<string, unknown>) =>
      this.opts.logger[level](
        {
          method: spec.method,
          path: logPath,
          status,
          ...(err_code ? { err_code } : {}),
          duration_ms: Date.now() - started,
          attempt: attemptNo,
          ...(spec.headers?.['idempotency-key'] ? { idempotency_key: spec.headers['idempotency-key'] } : {}),
          ...extra,
        },
        'api request',
      );
    try {
      let res;
      try {
        res = await poolRequest.call(this.pool, {
          method: spec.method,
          path,
          headers,
          body: payload,
          signal: ac.signal,
        });
      } catch (e) {
        if (spec.signal?.aborted && !timedOut) throw abortReason(spec.signal);
        const code = errorCode(e);
        const notSent = NOT_SENT_CODES.has(code);
        if (timedOut) {
          outcome = 'overload';
          log('warn', 0, 'client_timeout');
          throw new ApiError({
            status: 0,
            err_code: 'client_timeout',
            msg: `no answer within ${timeoutMs} ms`,
            endpoint,
            attempts: attemptNo,
            ambiguous: spec.method !== 'GET',
          });
        }
        outcome = notSent ? 'neutral' : 'overload';
        log('warn', 0, 'client_network_error', { cause: code });
        throw new ApiError({
          status: 0,
          err_code: 'client_network_error',
          msg: `${code || 'network error'}: ${this.opts.scrub(e instanceof Error ? e.message : String(e))}`,
          endpoint,
          attempts: attemptNo,
          ambiguous: !notSent && spec.method !== 'GET',
        });
      }
      let text: string;
      try {
        text = await res.body.text();
      } catch (e) {
        if (spec.signal?.aborted && !timedOut) throw abortReason(spec.signal);
        outcome = 'overload';
        log('warn', res.statusCode, timedOut ? 'client_timeout' : 'client_network_error');
        throw new ApiError({
          status: 0,
          err_code: timedOut ? 'client_timeout' : 'client_network_error',
          msg: `answer broke off (${errorCode(e) || 'read error'})`,
          endpoint,
          attempts: attemptNo,
          ambiguous: spec.method !== 'GET',
        });
      }
      const status = res.statusCode;
      const parsed = parseJson(text);
      if (status >= 200 && status < 300) {
        if (parsed === undefined && text.trim() !== '') {
          log('warn', status, 'client_invalid_response');
          throw new ApiError({
            status,
            err_code: 'client_invalid_response',
            msg: 'the answer is not JSON',
            endpoint,
            attempts: attemptNo,
            classification: 'unknown',
            retryable: false,
          });
        }
        outcome = 'ok';
        log('debug', status);
        return { status, body: parsed };
      }
      const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
      if (retryAfterMs !== undefined) this.limiter.pauseFor(retryAfterMs);
      const overload = status >= 500 || status === 429;
      outcome = overload ? 'overload' : 'neutral';
      const err = errorFromBody(status, parsed, endpoint, attemptNo, this.opts.scrub, retryAfterMs);
      log('warn', status, err.err_code);
      throw err;
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onUserAbort);
      slot.release(outcome);
    }
  }

  /**
   * Run `fn` (one attempt each call) until it succeeds, `shouldRetry` says no, or the policy's attempts / total
   * time are spent. Backoff is full jitter, at least a server's Retry-After.
   */
  async retryLoop<T>(
    fn: (attemptNo: number) => Promise<T>,
    shouldRetry: (err: ApiError, attemptNo: number) => boolean | Promise<boolean>,
    signal?: AbortSignal,
  ): Promise<T> {
    const policy = this.opts.retry;
    const started = Date.now();
    for (let attemptNo = 1; ; attemptNo++) {
      try {
        return await fn(attemptNo);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        // shouldRetry runs even on the last attempt: it may settle the outcome (a lookup after a lost answer).
        const wants = await shouldRetry(e, attemptNo);
        const last = attemptNo >= policy.maxAttempts || Date.now() - started >= policy.maxTotalMs;
        if (wants && last && e.err_code === 'client_service_busy') throw keptBusy(e, attemptNo);
        if (!wants || last) throw e;
        let delay = backoffDelay(attemptNo, policy, this.random);
        if (e.retryAfterMs !== undefined) delay = Math.max(delay, e.retryAfterMs);
        delay = Math.min(delay, Math.max(0, policy.maxTotalMs - (Date.now() - started)));
        this.retries++;
        this.opts.logger.debug(
          { endpoint: e.endpoint, err_code: e.err_code, attempt: attemptNo, delay_ms: delay },
          'api retry',
        );
        await sleep(delay, signal);
      }
    }
  }

  /** A call whose repetition cannot duplicate anything (GET, PUT BOM, PATCH): retried on 500 / network. */
  callSafe(spec: CallSpec): Promise<CallResult> {
    return this.retryLoop(
      (n) => this.attempt(spec, n),
      (e) => e.retryable,
      spec.signal,
    );
  }

  /** A call never repeated blindly. */
  callOnce(spec: CallSpec): Promise<CallResult> {
    return this.attempt(spec, 1);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.limiter.dispose();
    await this.pool.close();
  }
}

/** The last busy answer of a retried call, saying that the service kept answering so and how often it was asked. */
function keptBusy(e: ApiError, attempts: number): ApiError {
  return new ApiError({
    status: e.status,
    err_code: e.err_code,
    msg: `the service kept answering ${e.status} without an error body (busy or unavailable), ${attempts} attempts`,
    endpoint: e.endpoint,
    attempts,
    classification: e.classification,
    retryable: e.retryable,
    ambiguous: e.ambiguous,
    ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
  });
}

function errorCode(e: unknown): string {
  if (e && typeof e === 'object') {
    const c = (e as { code?: unknown }).code;
    if (typeof c === 'string') return c;
    const cause = (e as { cause?: unknown }).cause;
    if (cause && typeof cause === 'object' && typeof (cause as { code?: unknown }).code === 'string') {
      return (cause as { code: string }).code;
    }
  }
  return '';
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorFromBody(
  status: number,
  body: unknown,
  endpoint: string,
  attemptNo: number,
  scrub: Scrubber,
  retryAfterMs: number | undefined,
): ApiError {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const errCode = typeof b.err_code === 'string' && b.err_code !== '' ? b.err_code : undefined;
  const overload = status >= 500 || status === 429;
  const msg = typeof b.msg === 'string' ? scrub(b.msg) : `the service answered ${status} without an error body`;
  const el = b.entitlement_limit;
  const entitlement =
    el && typeof el === 'object' && typeof (el as { dimension?: unknown }).dimension === 'string'
      ? (el as { dimension: string; usage: number; limit: number })
      : undefined;
  return new ApiError({
    status,
    // An overload answer without an error body says the service is busy, not that its contract changed.
    err_code: errCode ?? (overload ? 'client_service_busy' : 'client_invalid_response'),
    msg,
    endpoint,
    attempts: attemptNo,
    ...(entitlement ? { entitlement_limit: entitlement } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    // Statuses outside the spec's list: 429/503-like overload is transient; anything else is unknown unless the
    // err_code is one of the catalog's (classified by err_code first).
    ...(status === 429 || (status > 500 && status < 600) ? { classification: 'server' as const } : {}),
    ...(status !== 401 &&
    status !== 403 &&
    status !== 409 &&
    status !== 422 &&
    status < 500 &&
    status !== 429 &&
    (errCode === undefined || errCodeInfo(errCode) === undefined)
      ? { classification: 'unknown' as const }
      : {}),
    ...(overload && errCode === undefined ? { retryable: true } : {}),
    ambiguous: overload,
  });
}
