/** The client's default cap of requests in flight (its adaptive limiter goes below it, never above). */
export const DEFAULT_MAX_CONCURRENCY = 16;
