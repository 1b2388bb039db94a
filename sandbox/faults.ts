/**
 * Injected faults (PUT /__sandbox/faults): a 500 before anything is done, a socket reset after the write was
 * committed, a write committed whose answer never comes (the socket is held open until the client gives up or
 * closes it: a client killed or timed out while waiting), and latency with jitter. Every draw comes from one seeded PRNG, so a run is reproducible for a
 * given arrival order of requests.
 */
/** Restricts the faults to matching requests (others pass untouched, the draws still happen). */
export interface FaultScope {
  /** e.g. POST; any method when absent. */
  method?: string;
  /** true: writes only (every method but GET). */
  writes?: boolean;
  /** The request path (without query) ends with this, e.g. /lca-update; any path when absent. */
  path_suffix?: string;
}

export interface FaultConfig {
  error_rate: number;
  reset_after_commit_rate: number;
  /** Share of requests whose write is committed and whose answer is never sent (drawn from the reset draw). */
  stall_after_commit_rate: number;
  latency_ms: number;
  jitter_ms: number;
  seed: number;
  /** null = every /v2 request. */
  only: FaultScope | null;
}

export const NO_FAULTS: FaultConfig = {
  error_rate: 0,
  reset_after_commit_rate: 0,
  stall_after_commit_rate: 0,
  latency_ms: 0,
  jitter_ms: 0,
  seed: 1,
  only: null,
};

/** mulberry32: small, fast, good enough for fault draws. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FaultDecision {
  delayMs: number;
  error: boolean;
  resetAfterCommit: boolean;
  stallAfterCommit: boolean;
}

export class Faults {
  private cfg: FaultConfig = { ...NO_FAULTS };
  private rand = mulberry32(NO_FAULTS.seed);

  configure(cfg: FaultConfig): void {
    this.cfg = { ...cfg, only: cfg.only ? { ...cfg.only } : null };
    this.rand = mulberry32(cfg.seed);
  }

  get config(): FaultConfig {
    return { ...this.cfg, only: this.cfg.only ? { ...this.cfg.only } : null };
  }

  get active(): boolean {
    const c = this.cfg;
    return (
      c.error_rate > 0 ||
      c.reset_after_commit_rate > 0 ||
      c.stall_after_commit_rate > 0 ||
      c.latency_ms > 0 ||
      c.jitter_ms > 0
    );
  }

  /**
   * Draws the fate of one request. Three draws per request, always, so the sequence stays aligned; a request
   * outside `only` (when set) gets no fault.
   */
  decide(method = '', path = ''): FaultDecision {
    const c = this.cfg;
    const jitter = this.rand();
    const err = this.rand();
    const reset = this.rand();
    const o = c.only;
    if (
      o &&
      ((o.method !== undefined && o.method.toUpperCase() !== method.toUpperCase()) ||
        (o.writes === true && method.toUpperCase() === 'GET') ||
        (o.path_suffix !== undefined && !path.endsWith(o.path_suffix)))
    )
      return { delayMs: 0, error: false, resetAfterCommit: false, stallAfterCommit: false };
    return {
      delayMs: c.latency_ms + Math.floor(jitter * c.jitter_ms),
      error: err < c.error_rate,
      resetAfterCommit: reset < c.reset_after_commit_rate,
      // The same draw, the range above the reset's: no extra draw, so seeded sequences stay as they were.
      stallAfterCommit:
        reset >= c.reset_after_commit_rate && reset < c.reset_after_commit_rate + c.stall_after_commit_rate,
    };
  }
}
