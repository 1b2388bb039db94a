/**
 * One session of a job: JobRun opens the journal, marks the job running, runs its entries — creates, updates
 * and BOM changes as soon as their dependencies settled, then the deletes level by level in reverse — and
 * records how it stopped (meta.json, the journal's stop line, the last progress event).
 *
 * - Rows whose dependency did not succeed are `skipped` (reason `dependency`), never sent.
 * - 401 → the job stops as `aborted` (resumable once the key is fixed, with any client/key of the manufacturer).
 * - err_svc_daily_limit_reached → `paused` (resumable).
 * - err_entitlement_limit_reached → that row `failed` with dimension/usage/limit; further writes of that
 *   dimension (product_instances → instance creates) are `skipped` (reason `entitlement`); the rest goes on.
 * - AbortSignal → `cancelled`; JobControl.pause() → `paused`. In-flight requests finish (or are aborted), no new
 *   ones start; rows without an outcome stay pending and run on resume.
 */
import { ApiError, isAbortError } from '../api/index.js';
import { explainErrCode } from '../api/errors.js';
import { join } from 'node:path';
import type { EntryIndex } from './entry-index.js';
import { resultSummary, type IndexedJobResult } from './job-result.js';
import { Journal, skippedOutcome, type IntentLine } from './journal.js';
import { RUN_NOTES, rowWords } from './plan-notes.js';
import { JOURNAL_FILE, jobDir, writeMeta } from './job-store.js';
import { Semaphore } from './pool.js';
import { ProgressMeter } from './progress.js';
import type { ResumeOptions } from './run-options.js';
import type {
  EntitlementInfo,
  EntityKind,
  EntryOutcome,
  JobMeta,
  JobStatus,
  PlanEntry,
  PlanHeader,
  StopReason,
} from './types.js';
import { prepareWrite, type IntentInput, type WriteContext } from './writes.js';

/** Entity kinds whose writes an entitlement dimension limits. */
const DIMENSION_KINDS: Record<string, EntityKind[]> = { product_instances: ['product_instance'] };

export const STATUS_MESSAGE: Record<StopReason, string> = {
  auth: 'The service refused the API key (401): it was revoked, has expired or is wrong. Fix the key or choose another one of the same manufacturer, then resume the job.',
  daily_limit:
    "The service's daily request limit is reached (err_svc_daily_limit_reached). Resume the job once the limit resets or is raised.",
  user_pause: 'Paused. Resume the job to continue where it stopped.',
  cancelled: 'Cancelled. Rows already written stay; resume the job to finish the rest.',
};

export class JobRun {
  private readonly exhausted = new Map<string, EntitlementInfo>();
  private stopReason: StopReason | null = null;
  private journal!: Journal;
  private meter!: ProgressMeter;
  private readonly concurrency: number;
  /** Writes in flight at most; entries waiting for their journal line to be durable do not hold one. */
  private readonly writeSlots: Semaphore;
  private readonly startRequests: number;
  private readonly sessionStart = new Date();
  private fatal: unknown;
  /** Writes whose request was handed to the client, until onWritesUnderway was told. */
  private sent = 0;
  /** How many sent writes make "underway": the job's write slots, or its writes if fewer; 0 once told. */
  private firstRound = 0;
  /** What the entries' writes need of this run (prepareWrite). */
  private readonly writes: WriteContext;

  constructor(
    private readonly plan: PlanHeader,
    private readonly index: EntryIndex,
    private readonly meta: JobMeta,
    private readonly opts: ResumeOptions,
    openIntents: Map<string, IntentLine>,
  ) {
    this.concurrency = Math.max(1, Math.floor(opts.concurrency ?? 16));
    this.writeSlots = new Semaphore(this.concurrency);
    this.startRequests = opts.client.stats().requests;
    this.writes = {
      client: opts.client,
      signal: opts.signal,
      manufacturerId: plan.manufacturerId,
      jobId: meta.jobId,
      openIntents,
      idOf: (k) => this.idOf(k),
      failure: (e, err) => this.failure(e, err),
    };
  }

  private get jobId(): string {
    return this.meta.jobId;
  }

  /** The service id of the entry with this key (planned, or from its outcome). */
  private idOf(key: string): string | undefined {
    const i = this.index.indexOf(key);
    return i === undefined ? undefined : this.index.id(i);
  }

  private stopping(): boolean {
    if (this.stopReason || this.fatal !== undefined) return true;
    if (this.opts.signal?.aborted) this.stopReason = 'cancelled';
    else if (this.opts.control?.pauseRequested) this.stopReason = 'user_pause';
    return this.stopReason !== null;
  }

  async execute(): Promise<IndexedJobResult> {
    const { jobsDir, client } = this.opts;
    this.journal = await Journal.open(join(jobDir(jobsDir, this.jobId), JOURNAL_FILE));
    this.meta.status = 'running';
    delete this.meta.reason;
    delete this.meta.message;
    this.meta.pid = process.pid;
    this.meta.maskedKey = client.maskedKey;
    this.meta.baseUrl = client.baseUrl;
    this.meta.finishedAt = null;
    this.meta.updatedAt = this.sessionStart.toISOString();
    this.meta.sessions.push({
      startedAt: this.sessionStart.toISOString(),
      finishedAt: null,
      maskedKey: client.maskedKey,
      status: 'running',
    });
    await writeMeta(jobsDir, this.meta);
    await this.journal.session({ event: 'start', maskedKey: client.maskedKey });

    this.meter = new ProgressMeter(this.index, this.jobId, this.opts.onProgress);
    this.meter.emit('running', 0, true);

    const { index } = this;
    let maxLevel = 0;
    const writes: number[] = [];
    const deletes = new Map<number, number[]>();
    for (let i = 0; i < index.size; i++) {
      maxLevel = Math.max(maxLevel, index.level[i]);
      if (index.actionOf(i) !== 'delete') writes.push(i);
      else {
        const l = deletes.get(index.level[i]);
        if (l) l.push(i);
        else deletes.set(index.level[i], [i]);
      }
    }
    this.firstRound = Math.max(1, Math.min(this.concurrency, index.size));
    try {
      // Creates, updates and BOM changes first; then the deletes, level by level in reverse dependency order
      // (prechain products … companies), so a delete whose references this job removed finds them gone.
      await this.runByDependencies(writes);
      for (const level of [...deletes.keys()].sort((a, b) => a - b)) {
        if (this.stopping()) break;
        await this.runByDependencies(deletes.get(level)!);
      }
    } finally {
      this.writesUnderway();
      const status = this.finalStatus();
      this.meta.status = status;
      if (this.stopReason && status !== 'completed') {
        this.meta.reason = this.stopReason;
        this.meta.message = STATUS_MESSAGE[this.stopReason];
      }
      const end = new Date().toISOString();
      this.meta.updatedAt = end;
      this.meta.finishedAt = status === 'completed' ? end : null;
      this.meta.counts = index.outcomeCounts();
      if (this.exhausted.size)
        this.meta.entitlementLimits = mergeLimits(this.meta.entitlementLimits, [...this.exhausted.values()]);
      const session = this.meta.sessions[this.meta.sessions.length - 1];
      session.finishedAt = end;
      session.status = status;
      if (this.meta.reason) session.reason = this.meta.reason;
      await this.journal
        .session({
          event: 'stop',
          status,
          ...(this.meta.reason ? { reason: this.meta.reason } : {}),
          maskedKey: client.maskedKey,
        })
        .catch(() => {});
      await this.journal.close();
      await writeMeta(jobsDir, this.meta);
      this.meter.emit(status, maxLevel, true);
    }
    if (this.fatal !== undefined) {
      await index.close();
      throw this.fatal;
    }
    return {
      result: resultSummary(index, this.meta, client.stats().requests - this.startRequests),
      header: this.plan,
      index,
    };
  }

  /**
   * Each entry starts as soon as every entry it depends on has settled, not when its whole level has: a
   * supplier product whose plant exists goes while other plants are still being created (levels are no
   * barriers). At most concurrency × 2 entries are under way (writes in flight are bounded by writeSlots);
   * ready entries start in plan order (level, then row). The waiting lists are typed arrays over entry
   * indices (no object per entry).
   */
  private async runByDependencies(entries: readonly number[]): Promise<void> {
    const { index } = this;
    const todo = entries.filter((i) => !index.hasOutcome(i));
    if (todo.length === 0) return;
    const inJob = new Uint8Array(index.size);
    for (const i of todo) inJob[i] = 1;
    /** Dependencies not settled yet, per entry; -1 once the entry is ready or started. */
    const missing = new Int32Array(index.size);
    const dependents = new Uint32Array(index.size + 1);
    for (const i of todo)
      for (const d of index.dependencies(i))
        if (d >= 0 && d !== i && inJob[d]) {
          missing[i]++;
          dependents[d + 1]++;
        }
    for (let k = 0; k < index.size; k++) dependents[k + 1] += dependents[k];
    const fill = dependents.slice(0, index.size);
    const waiting = new Uint32Array(dependents[index.size]);
    for (const i of todo)
      for (const d of index.dependencies(i)) if (d >= 0 && d !== i && inJob[d]) waiting[fill[d]++] = i;
    const ready = new Int32Array(todo.length);
    let tail = 0;
    for (const i of todo)
      if (missing[i] === 0) {
        ready[tail++] = i;
        missing[i] = -1;
      }
    let head = 0;
    let started = 0;
    let inFlight = 0;
    const width = this.concurrency * 2;
    await new Promise<void>((resolve) => {
      const pump = () => {
        while (inFlight < width && head < tail && !this.stopping()) {
          const i = ready[head++];
          inFlight++;
          started++;
          void this.runEntry(i).finally(() => {
            inFlight--;
            for (let w = dependents[i]; w < dependents[i + 1]; w++) {
              const next = waiting[w];
              if (missing[next] > 0 && --missing[next] === 0) {
                missing[next] = -1;
                ready[tail++] = next;
              }
            }
            pump();
          });
        }
        if (inFlight > 0) return;
        if (head === tail && started < todo.length && !this.stopping()) {
          // Only a dependency cycle can leave entries waiting with nothing under way: run the first of them (lowest
          // level), it is skipped for its dependency that did not run (as a level barrier did).
          let first = -1;
          for (const i of todo) if (missing[i] > 0 && (first < 0 || index.level[i] < index.level[first])) first = i;
          if (first >= 0) {
            missing[first] = -1;
            ready[tail++] = first;
            return pump();
          }
        }
        resolve();
      };
      pump();
    });
  }

  private finalStatus(): JobStatus {
    const all = this.index.outcomeCounts().pending === undefined;
    if (all && this.fatal === undefined) return 'completed';
    switch (this.stopReason) {
      case 'auth':
        return 'aborted';
      case 'daily_limit':
      case 'user_pause':
        return 'paused';
      case 'cancelled':
        return 'cancelled';
      default:
        return 'interrupted';
    }
  }

  private async settle(i: number, o: EntryOutcome): Promise<void> {
    const at = new Date().toISOString();
    // Whether the entity was on the service before the job, from the plan (a create: it was not), whatever the
    // answer said: a create whose answer was lost settles as already_existed, and is still the job's own entity.
    const action = this.index.actionOf(i);
    const existed = action === 'create' ? false : action === 'update' || action === 'delete' ? true : undefined;
    await this.journal.outcome(existed === undefined ? { ...o, at } : { ...o, existed_before: existed, at });
    this.index.setOutcome(i, { ...o, at });
    this.meter.tick();
    this.opts.onSettled?.(i);
    this.writesUnderway();
  }

  /**
   * onWritesUnderway, once: after the microtasks and ticks that put the requests just handed to the client on the
   * socket (setImmediate runs after them), so that what it starts does not run before they are sent.
   */
  private writesUnderway(): void {
    if (this.firstRound === 0) return;
    this.firstRound = 0;
    const told = this.opts.onWritesUnderway;
    if (told)
      setImmediate(() => {
        try {
          told();
        } catch (e) {
          this.fatal ??= e; // told outside the job's own calls: its error stops the job, as a journal failure does
        }
      });
  }

  private async runEntry(i: number): Promise<void> {
    this.meter.level = this.index.level[i];
    let e: PlanEntry | undefined;
    try {
      e = await this.index.entry(i);
      // Dependencies: every row this one refers to must have succeeded.
      for (const dep of e.dependsOn ?? []) {
        const d = this.index.indexOf(dep);
        const outcome = d === undefined ? 'pending' : this.index.outcomeName(d);
        if (d === undefined || !this.index.succeeded(d) || !this.index.id(d)) {
          const de = d === undefined ? undefined : await this.index.entry(d);
          const what = de ? `${de.label} (${rowWords(de)})` : dep;
          return await this.settle(i, skippedOutcome(e.key, 'dependency', RUN_NOTES.dependencyNotSent(what, outcome)));
        }
      }
      // The intent goes into the journal before the entry waits for a write slot, so that a slot freed by an
      // answer is taken by a request at once, not after a trip through the thread pool for its journal line
      // (~1 ms of each write slot's cycle; behind an outcome line being written, two trips). An intent
      // whose request never went (the job stopped meanwhile) is what resume handles anyway: the write may or may
      // not have landed.
      if (this.stopping()) return;
      const entry = e;
      const w = prepareWrite(entry, this.writes);
      if ('outcome' in w) return await this.settle(i, w.outcome);
      await this.intent(w.intent);
      // Checked once a write slot is held: an entitlement refusal of a write in flight counts for this one.
      const outcome = await this.writeSlots.use(async () => {
        if (this.stopping()) return null;
        const skip = this.entitlementSkip(entry);
        if (skip) return skip;
        try {
          const sending = w.send();
          this.noteSent();
          return await sending;
        } catch (err) {
          this.noteEntitlement(err); // before the slot is released
          throw err;
        }
      });
      if (outcome) await this.settle(i, outcome);
    } catch (err) {
      if (err instanceof JournalFailure) {
        this.fatal ??= err.cause;
        return;
      }
      const stop = this.classifyStop(err);
      if (stop) {
        this.stopReason ??= stop;
        return;
      }
      if (!e) {
        // the entry could not be read back from the job folder: nothing was sent; the job cannot go on
        this.fatal ??= err;
        return;
      }
      try {
        await this.settle(i, this.failure(e, err));
      } catch (je) {
        this.fatal ??= je;
      }
    }
  }

  /** Remember a licence limit the service reported (its dimension's further creates are skipped). */
  private noteEntitlement(err: unknown): EntitlementInfo | null {
    if (!(err instanceof ApiError) || !err.entitlement_limit) return null;
    const lim: EntitlementInfo = {
      dimension: err.entitlement_limit.dimension,
      usage: err.entitlement_limit.usage,
      limit: err.entitlement_limit.limit,
    };
    if (DIMENSION_KINDS[lim.dimension]) this.exhausted.set(lim.dimension, lim);
    return lim;
  }

  /** A create of a dimension whose licence limit was reached in this job is skipped, not sent. */
  private entitlementSkip(e: PlanEntry): EntryOutcome | null {
    if (e.action !== 'create') return null;
    for (const [dim, kinds] of Object.entries(DIMENSION_KINDS)) {
      const lim = this.exhausted.get(dim);
      if (lim && kinds.includes(e.kind)) {
        return skippedOutcome(
          e.key,
          'entitlement',
          `not sent: the licence's ${dim} limit is reached (${lim.usage} / ${lim.limit})`,
          lim,
        );
      }
    }
    return null;
  }

  private classifyStop(err: unknown): StopReason | null {
    if (isAbortError(err) || this.opts.signal?.aborted) return 'cancelled';
    if (err instanceof ApiError) {
      if (err.classification === 'auth') return 'auth';
      if (err.classification === 'daily_limit') return 'daily_limit';
    }
    return null;
  }

  private failure(e: PlanEntry, err: unknown): EntryOutcome {
    if (err instanceof ApiError) {
      const x = explainErrCode(err.err_code);
      const o: EntryOutcome = {
        key: e.key,
        outcome: 'failed',
        status: err.status,
        err_code: err.err_code,
        msg: err.msg,
        explanation: x.explanation,
      };
      if (x.action) o.action_hint = x.action;
      const lim = this.noteEntitlement(err);
      if (lim) o.entitlement_limit = lim;
      return o;
    }
    return {
      key: e.key,
      outcome: 'failed',
      status: 0,
      err_code: 'client_error',
      msg: err instanceof Error ? err.message : String(err),
    };
  }

  private async intent(line: IntentInput): Promise<void> {
    try {
      await this.journal.intent(line);
    } catch (e) {
      throw new JournalFailure(e);
    }
  }

  /** A write's request was just handed to the client (see onWritesUnderway). */
  private noteSent(): void {
    if (this.firstRound > 0 && ++this.sent >= this.firstRound) this.writesUnderway();
  }
}

class JournalFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('the journal could not be written');
  }
}

function mergeLimits(a: EntitlementInfo[] | undefined, b: EntitlementInfo[]): EntitlementInfo[] {
  const m = new Map((a ?? []).map((x) => [x.dimension, x]));
  for (const x of b) m.set(x.dimension, x);
  return [...m.values()];
}
