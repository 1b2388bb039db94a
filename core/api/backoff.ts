/** Exponential backoff with full jitter, bounded by attempts and total time; abortable sleep. */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** No retry is started once this much time has passed since the first attempt. */
  maxTotalMs: number;
  /** First backoff ceiling; doubles per retry. */
  baseMs: number;
  /** Largest backoff ceiling. */
  capMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 6, maxTotalMs: 60_000, baseMs: 100, capMs: 5_000 };

export function retryPolicy(p?: Partial<RetryPolicy>): RetryPolicy {
  const out = {
    ...DEFAULT_RETRY_POLICY,
    ...Object.fromEntries(Object.entries(p ?? {}).filter(([, v]) => v !== undefined)),
  };
  if (!(out.maxAttempts >= 1)) throw new RangeError('retry.maxAttempts must be at least 1');
  if (!(out.baseMs >= 0) || !(out.capMs >= 0) || !(out.maxTotalMs >= 0))
    throw new RangeError('retry times must be ≥ 0');
  return out;
}

/**
 * Full jitter ("exponential backoff and jitter"): a uniform delay in [0, min(cap, base·2^(retry-1))].
 * `retry` is 1 for the first retry.
 */
export function backoffDelay(
  retry: number,
  policy: Pick<RetryPolicy, 'baseMs' | 'capMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** The reason a signal was aborted with, as a throwable (an AbortError DOMException when none was given). */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

export function isAbortError(e: unknown): boolean {
  return e instanceof Error && (e.name === 'AbortError' || e.name === 'TimeoutError');
}

/** Sleep that rejects with the signal's reason as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(abortReason(signal as AbortSignal));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Parse a Retry-After header (delta-seconds or HTTP date) into milliseconds from now; undefined if absent/bad. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v.trim()) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}
