/**
 * runJob / resumeJob: execute a plan in dependency order (companies → supplier plants → supplier products →
 * silos → product instances → prechain products → BOMs), concurrently within a level (the client's adaptive
 * limiter bounds what is really in flight), with a journal that makes any interruption resumable with no
 * duplicate and no lost row.
 *
 * - Rows whose dependency did not succeed are `skipped` (reason `dependency`), never sent.
 * - 401 → the job stops as `aborted` (resumable once the key is fixed, with any client/key of the manufacturer).
 * - err_svc_daily_limit_reached → `paused` (resumable).
 * - err_entitlement_limit_reached → that row `failed` with dimension/usage/limit; further writes of that
 *   dimension (product_instances → instance creates) are `skipped` (reason `entitlement`); the rest goes on.
 * - AbortSignal → `cancelled`; JobControl.pause() → `paused`. In-flight requests finish (or are aborted), no new
 *   ones start; rows without an outcome stay pending and run on resume.
 */
import {
  ApiError,
  fieldDifferences,
  idempotencyKey,
  isAbortError,
  type ApiClient,
  type CreateResult,
} from '../api/index.js';
import { explainErrCode } from '../api/errors.js';
import { join } from 'node:path';
import { fillRefs } from './diff.js';
import { EntryIndex } from './entry-index.js';
import { Journal, scanJournal, skippedOutcome, type IntentLine } from './journal.js';
import {
  createJobDir,
  effectiveStatus,
  JOURNAL_FILE,
  jobDir,
  newJobId,
  readMeta,
  readJobIndex,
  readPlan,
  writeMeta,
} from './job-store.js';
import { userKindsOf, userWords, type UserKind } from './plan/in-use.js';
import { Semaphore } from './pool.js';
import { ProgressMeter } from './progress.js';
import {
  RESUMABLE_STATUSES,
  type EntitlementInfo,
  type EntityKind,
  type IdentifiedKind,
  type EntryOutcome,
  type JobMeta,
  type JobProgress,
  type JobResult,
  type JobResultSummary,
  type JobStatus,
  type Plan,
  type PlanEntry,
  type PlanHeader,
  type StopReason,
} from './types.js';

/** Pause a running job from outside (the UI's Pause button). Resume with resumeJob. */
export class JobControl {
  private requested = false;
  private readonly listeners = new Set<() => void>();
  pause(): void {
    if (this.requested) return;
    this.requested = true;
    for (const l of this.listeners) l();
  }
  get pauseRequested(): boolean {
    return this.requested;
  }
  /** @internal */
  onPause(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

export interface RunOptions {
  client: ApiClient;
  jobsDir: string;
  /** Cancels the job (status `cancelled`, resumable). */
  signal?: AbortSignal;
  control?: JobControl;
  /** Throttled to at most 10 events per second, plus a last one when the job stops. */
  onProgress?: (p: JobProgress) => void;
  /** Writes in flight at most (default 16); the client's adaptive limiter may run fewer requests. */
  concurrency?: number;
  /** Full path of the workbook, kept in meta.json for results workbooks later. */
  inputPath?: string;
  /** Told the job id as soon as the job folder exists. */
  onStart?: (jobId: string) => void;
  /** Use this id instead of a new one (must be unused). */
  jobId?: string;
  /** Told the job's index before the first write (runPlannedJob), and each entry once its outcome is durable. */
  onIndex?: (index: EntryIndex) => void;
  onSettled?: (i: number) => void;
  /**
   * Told once, when the job's first writes are on their way (as many as it may have in flight, or fewer if that
   * is all it has), or when its first entry settled or it stopped, whichever comes first: work started beside
   * the job then runs while the job waits for the service, instead of holding up its first requests.
   */
  onWritesUnderway?: () => void;
}

export type ResumeOptions = Omit<RunOptions, 'jobId' | 'inputPath'>;

/** An intent line as the job gives it to the journal (which adds `t` and `at`). */
type IntentInput = Omit<IntentLine, 't' | 'at'>;

/** Entity kinds whose writes an entitlement dimension limits. */
const DIMENSION_KINDS: Record<string, EntityKind[]> = { product_instances: ['product_instance'] };

const STATUS_MESSAGE: Record<StopReason, string> = {
  auth: 'The service refused the API key (401): it was revoked, has expired or is wrong. Fix the key or choose another one of the same manufacturer, then resume the job.',
  daily_limit:
    "The service's daily request limit is reached (err_svc_daily_limit_reached). Resume the job once the limit resets or is raised.",
  user_pause: 'Paused. Resume the job to continue where it stopped.',
  cancelled: 'Cancelled. Rows already written stay; resume the job to finish the rest.',
};

/** A job's result with its outcomes in the compact index (the entries' outcomes are not materialised). */
export interface IndexedJobResult {
  result: JobResultSummary;
  header: PlanHeader;
  index: EntryIndex;
}

function newMeta(plan: PlanHeader, jobId: string, opts: RunOptions): JobMeta {
  const now = new Date().toISOString();
  const meta: JobMeta = {
    format: 'supply-loader/job@1',
    jobId,
    status: 'running',
    file: plan.file,
    baseUrl: opts.client.baseUrl,
    manufacturerId: plan.manufacturerId,
    maskedKey: opts.client.maskedKey,
    createdAt: now,
    startedAt: now,
    finishedAt: null,
    updatedAt: now,
    pid: process.pid,
    entries: plan.summary.entries,
    rows: plan.summary.rows,
    counts: {},
    sessions: [],
  };
  if (opts.inputPath) meta.inputPath = opts.inputPath;
  if (plan.undoes) meta.undoes = plan.undoes;
  return meta;
}

/** Run a plan held in memory (the desktop app, undo): the job folder is written first, then run. */
export async function runJob(plan: Plan, opts: RunOptions): Promise<JobResult> {
  if (plan.format !== 'supply-loader/plan@1') throw new Error('This is not a Supply Loader plan');
  const jobId = opts.jobId ?? newJobId();
  await createJobDir(opts.jobsDir, jobId, plan);
  const meta = newMeta(plan, jobId, opts);
  await writeMeta(opts.jobsDir, meta);
  opts.onStart?.(jobId);
  const index = EntryIndex.fromEntries(plan.entries);
  plan.entries.forEach((e, i) => {
    const o = staticOutcome(e);
    if (o) index.setOutcome(i, o);
  });
  opts.onIndex?.(index);
  const { entries: _e, ...header } = plan;
  return withEntries(await new JobRun(header, index, meta, opts, new Map()).execute());
}

/**
 * Run a job whose folder holds its plan already (planned into it with planImportToFile and writePlanHeader):
 * the CLI's import. The entries are read back from plan-entries.jsonl; only the compact index is in memory.
 */
export async function runPlannedJob(jobId: string, opts: Omit<RunOptions, 'jobId'>): Promise<IndexedJobResult> {
  const { header, index } = await readIndexWithStatics(opts.jobsDir, jobId);
  const meta = newMeta(header, jobId, opts);
  await writeMeta(opts.jobsDir, meta);
  opts.onStart?.(jobId);
  opts.onIndex?.(index);
  return new JobRun(header, index, meta, opts, new Map()).execute();
}

export async function resumeJob(jobId: string, opts: ResumeOptions): Promise<JobResult> {
  return withEntries(await resumeIndexed(jobId, opts));
}

/** resumeJob with the outcomes left in the compact index (the CLI's resume of a large job). */
export async function resumeIndexed(jobId: string, opts: ResumeOptions): Promise<IndexedJobResult> {
  const meta = await readMeta(opts.jobsDir, jobId);
  const status = effectiveStatus(meta);
  if (status === 'completed') return loadIndexed(opts.jobsDir, jobId);
  if (status === 'running')
    throw new Error(`Job ${jobId} is running in another process (pid ${meta.pid}); it cannot be resumed twice.`);
  if (!RESUMABLE_STATUSES.includes(status)) throw new Error(`Job ${jobId} cannot be resumed (status ${status}).`);
  const head = await readIndexWithStatics(opts.jobsDir, jobId);
  opts.onStart?.(jobId);
  try {
    const me = await opts.client.me({ signal: opts.signal });
    if (me.manufacturer_id.toLowerCase() !== head.header.manufacturerId.toLowerCase()) {
      throw new Error(
        `The API key belongs to another manufacturer than job ${jobId} (${head.header.manufacturerId}); use a key of that manufacturer.`,
      );
    }
  } catch (e) {
    if (e instanceof ApiError && e.classification === 'auth') {
      meta.status = 'aborted';
      meta.reason = 'auth';
      meta.message = STATUS_MESSAGE.auth;
      meta.maskedKey = opts.client.maskedKey;
      meta.updatedAt = new Date().toISOString();
      await writeMeta(opts.jobsDir, meta);
      return loadIndexed(opts.jobsDir, jobId);
    }
    throw e;
  }
  const openIntents = await applyJournal(opts.jobsDir, jobId, head.index);
  return new JobRun(head.header, head.index, meta, opts, openIntents).execute();
}

/** The job's plan index with the static outcomes (entries settled without sending anything) recorded. */
async function readIndexWithStatics(
  jobsDir: string,
  jobId: string,
): Promise<{ header: PlanHeader; index: EntryIndex }> {
  const statics: [number, EntryOutcome][] = [];
  const r = await readJobIndex(jobsDir, jobId, (e, i) => {
    const o = staticOutcome(e);
    if (o) statics.push([i, o]);
  });
  for (const [i, o] of statics) r.index.setOutcome(i, o);
  return r;
}

/** The journal's outcomes into the index (they replace static ones); the open intents of unsettled entries. */
async function applyJournal(jobsDir: string, jobId: string, index: EntryIndex): Promise<Map<string, IntentLine>> {
  const state = await scanJournal(join(jobDir(jobsDir, jobId), JOURNAL_FILE), (o) => {
    const i = index.indexOf(o.key);
    if (i !== undefined) index.setOutcome(i, o);
  });
  for (const k of [...state.openIntents.keys()]) {
    const i = index.indexOf(k);
    if (i === undefined || index.hasOutcome(i)) state.openIntents.delete(k);
  }
  return state.openIntents;
}

type Writable = {
  create(
    body: unknown,
    o: { signal?: AbortSignal; idempotencyKey?: string; onExisting?: 'error' | 'compare' },
  ): Promise<CreateResult<{ id: string }>>;
  update(id: string, patch: unknown, o: { signal?: AbortSignal }): Promise<{ id: string }>;
  findByExternalId(code: string, o: { signal?: AbortSignal }): Promise<{ id: string } | null>;
  delete(id: string, o: { signal?: AbortSignal }): Promise<{ id: string }>;
};

function resourceOf(client: ApiClient, kind: IdentifiedKind): Writable {
  const r = {
    supplier_company: client.supplierCompanies,
    supplier_plant: client.supplierPlants,
    supplier_product: client.supplierProducts,
    silo: client.silos,
    product_instance: client.productInstances,
    prechain_product: client.prechainProducts,
  }[kind];
  return r as unknown as Writable;
}

/** Kinds whose create the service de-duplicates by Idempotency-Key. */
const SERVER_IDEMPOTENT = new Set<EntityKind>(['silo', 'prechain_product']);

/** What a plan entry's outcome is without sending anything (not a write action). */
export function staticOutcome(e: PlanEntry): EntryOutcome | null {
  switch (e.action) {
    case 'unchanged':
      return e.id ? { key: e.key, outcome: 'unchanged', id: e.id } : { key: e.key, outcome: 'unchanged' };
    case 'delete':
      // Not on the service when planned: already absent, nothing is sent.
      return e.id ? null : { key: e.key, outcome: 'already_absent', msg: 'not on the service: nothing to delete' };
    case 'skipped_update':
      return skippedOutcome(e.key, 'create_only', 'not applied: the import runs create-only');
    case 'blocked':
    case 'conflict': {
      const p = e.problems?.[0];
      const o = skippedOutcome(
        e.key,
        'blocked',
        p ? `${e.action === 'conflict' ? 'conflict' : 'blocked'}: ${p.message}` : e.action,
      );
      if (p?.err_code) o.err_code = p.err_code;
      return o;
    }
    default:
      return null;
  }
}

class JobRun {
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

  constructor(
    private readonly plan: PlanHeader,
    private readonly index: EntryIndex,
    private readonly meta: JobMeta,
    private readonly opts: ResumeOptions,
    private readonly openIntents: Map<string, IntentLine>,
  ) {
    this.concurrency = Math.max(1, Math.floor(opts.concurrency ?? 16));
    this.writeSlots = new Semaphore(this.concurrency);
    this.startRequests = opts.client.stats().requests;
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
          const what = de ? `${de.label} (${de.sheet} row ${de.row})` : dep;
          return await this.settle(
            i,
            skippedOutcome(
              e.key,
              'dependency',
              `not sent: ${what} ${outcome !== 'pending' ? (outcome === 'failed' ? 'failed' : `was ${outcome}`) : 'did not run'}`,
            ),
          );
        }
      }
      // The intent goes into the journal before the entry waits for a write slot, so that a slot freed by an
      // answer is taken by a request at once, not after a trip through the thread pool for its journal line
      // (~1 ms of each write slot's cycle; behind an outcome line being written, two trips). An intent
      // whose request never went (the job stopped meanwhile) is what resume handles anyway: the write may or may
      // not have landed.
      if (this.stopping()) return;
      const entry = e;
      const w = this.prepare(entry);
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

  /**
   * The entry's write: its journal intent and the request that sends it (`send`, run once a write slot is held),
   * or its outcome when nothing is to be sent (a delete of what the service no longer has).
   */
  private prepare(
    e: PlanEntry,
  ): { outcome: EntryOutcome } | { intent: IntentInput; send: () => Promise<EntryOutcome> } {
    const { client, signal } = this.opts;
    const body = fillRefs(e.body ?? {}, e.refs ?? [], (k) => this.idOf(k));
    const idRef = e.refs?.find((r) => r.path[0] === '$id');
    const targetId = e.id ?? (idRef ? this.idOf(idRef.key) : undefined);
    const o = { signal };

    if (e.kind === 'bom') {
      if (!targetId) throw new Error(`no product instance id for ${e.label}`);
      return {
        intent: { key: e.key, op: 'replace', external_id: e.externalId },
        send: async () => {
          await client.bom.put(targetId, (body.bom ?? []) as Parameters<ApiClient['bom']['put']>[1], o);
          return { key: e.key, outcome: 'replaced', id: targetId, status: 200 };
        },
      };
    }
    if (e.kind === 'production') {
      // PUT sets the years sent (others unchanged): re-sending after a lost answer is a no-op.
      if (!targetId) throw new Error(`no product instance id for ${e.label}`);
      return {
        intent: { key: e.key, op: 'replace', external_id: e.externalId },
        send: async () => {
          const figures = (body.production_figures ?? []) as Parameters<ApiClient['productionFigures']['put']>[1];
          await client.productionFigures.put(targetId, figures, o);
          return { key: e.key, outcome: e.action === 'create' ? 'created' : 'updated', id: targetId, status: 200 };
        },
      };
    }
    const kind = e.kind; // narrowed: neither a BOM nor production figures
    const resource = resourceOf(client, kind);
    if (e.action === 'delete') {
      if (!targetId)
        return { outcome: { key: e.key, outcome: 'already_absent', msg: 'not on the service: nothing to delete' } };
      const sentBefore = this.openIntents.has(e.key);
      return {
        intent: { key: e.key, op: 'delete', external_id: e.externalId },
        send: async () => {
          try {
            await resource.delete(targetId, o);
            return { key: e.key, outcome: 'deleted', id: targetId, status: 200 };
          } catch (err) {
            // Gone after an attempt whose answer was lost: that attempt deleted it. Gone before (deleted by someone
            // else, or by a session that stopped before recording it): already absent. Both are a success.
            // Gone on resume of an entry whose intent is in the journal but not its outcome: the earlier session sent
            // the DELETE (the intent is written before the request), so that session deleted it.
            if (err instanceof ApiError && err.err_code === 'err_not_found')
              return err.ambiguous || sentBefore
                ? {
                    key: e.key,
                    outcome: 'deleted',
                    id: targetId,
                    status: 200,
                    msg: sentBefore
                      ? 'deleted by an earlier session of this job, whose answer was not recorded'
                      : err.msg,
                  }
                : { key: e.key, outcome: 'already_absent', id: targetId, status: err.status, msg: err.msg };
            if (err instanceof ApiError && IN_USE_CODES.has(err.err_code)) {
              const users = await whatUses(client, kind, targetId, signal, err.err_code).catch(() => null);
              const f = this.failure(e, err);
              if (users) f.msg = `${err.msg} — still used by ${users}`;
              return f;
            }
            throw err;
          }
        },
      };
    }
    if (e.action === 'update') {
      if (!targetId) throw new Error(`no service id for ${e.label}`);
      return {
        intent: { key: e.key, op: 'update', external_id: e.externalId },
        send: async () => {
          const updated = await resource.update(targetId, body, o);
          return { key: e.key, outcome: 'updated', id: String(updated.id).toLowerCase(), status: 200 };
        },
      };
    }
    // create
    const open = this.openIntents.get(e.key);
    // One key per intent of one job entry: the same across retries and resumes of this entry (the journal keeps
    // it), another for a new job or an undo, so a create that an undo or a later job sends again is created,
    // never answered with the replay of an earlier job's create of an entity deleted since.
    const idemKey =
      open?.idempotency_key ??
      idempotencyKey(this.plan.manufacturerId, e.kind, e.externalId, { job: this.jobId, entry: e.key, body });
    return {
      intent: { key: e.key, op: 'create', external_id: e.externalId, idempotency_key: idemKey },
      send: async () => {
        if (open && !SERVER_IDEMPOTENT.has(kind) && e.externalId) {
          // A create whose answer was never recorded: did it land? Look before sending again.
          const found = await resource.findByExternalId(e.externalId, o);
          if (found) {
            const differences = fieldDifferences(body, found);
            if (differences.length === 0)
              return { key: e.key, outcome: 'already_existed', id: String(found.id).toLowerCase(), status: 200 };
            return {
              key: e.key,
              outcome: 'failed',
              status: 409,
              err_code: 'err_external_id_exists',
              msg: `an active ${kind.replace(/_/g, ' ')} with external_id "${e.externalId}" exists with other values (${differences.join(', ')})`,
              explanation: explainErrCode('err_external_id_exists').explanation,
            };
          }
        }
        const res = await resource.create(body, { signal, idempotencyKey: idemKey, onExisting: 'compare' });
        return { key: e.key, outcome: res.outcome, id: String(res.entity.id).toLowerCase(), status: res.status };
      },
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

/** The spec's in-use refusals of a DELETE. */
const IN_USE_CODES = new Set([
  'err_supplier_in_use',
  'err_supplier_plant_in_use',
  'err_supplier_product_in_recipe',
  'err_supplier_product_in_silo',
  'err_silo_in_use',
  'err_product_instance_in_recipe',
  'err_product_instance_has_declarations',
  'err_prechain_product_in_recipe',
]);

/** At most this many users are named (and BOMs read) after an in-use refusal. */
const USERS_NAMED = 5;
const BOMS_READ = 200;

/** Which users an in-use refusal is about (the service's err_code), by the kind of user. */
const USERS_OF_REFUSAL: Record<string, UserKind[]> = {
  err_supplier_in_use: ['supplier_plant'],
  err_supplier_plant_in_use: ['supplier_product'],
  err_supplier_product_in_recipe: ['bom'],
  err_supplier_product_in_silo: ['silo'],
  err_silo_in_use: ['bom'],
  err_product_instance_in_recipe: ['prechain_product'],
  err_product_instance_has_declarations: [],
  err_prechain_product_in_recipe: ['bom'],
};

/**
 * What still references an entity, read after an in-use refusal (read-only): the users the refusal's err_code
 * is about (any user of the kind without one) — the supplier plants of a company, the supplier products of a
 * plant, the silos or the BOMs holding a supplier product, the BOMs holding a silo or prechain product, the
 * prechain products of an instance. Words like `silo SILO-1, the BOM of product instance PI-2`; null if none
 * found.
 */
export async function whatUses(
  client: ApiClient,
  kind: IdentifiedKind,
  id: string,
  signal?: AbortSignal,
  errCode?: string,
): Promise<string | null> {
  const names: string[] = [];
  const same = (v: unknown) => typeof v === 'string' && v.toLowerCase() === id.toLowerCase();
  const label = (x: { id: string; external_id?: string | null; name?: string | null }) =>
    x.name ? `"${x.name}" (${x.id})` : x.id;
  const collect = async <T extends { id: string; external_id?: string | null; name?: string | null }>(
    items: AsyncIterable<T>,
    user: UserKind,
    hit: (x: T) => boolean,
  ) => {
    for await (const x of items) {
      if (names.length >= USERS_NAMED) break;
      if (hit(x)) names.push(userWords(user, x.external_id, label(x)));
    }
  };
  const o = { signal };
  const about = new Set<UserKind>((errCode !== undefined && USERS_OF_REFUSAL[errCode]) || userKindsOf(kind));
  if (about.has('supplier_plant'))
    await collect(client.supplierPlants.walk({}, o), 'supplier_plant', (p) => same(p.supplier_company_id));
  if (about.has('supplier_product'))
    await collect(client.supplierProducts.walk({}, o), 'supplier_product', (p) => same(p.supplier_plant_id));
  if (about.has('silo'))
    await collect(client.silos.walk({}, o), 'silo', (s) => (s.items ?? []).some((it) => same(it.supplier_product_id)));
  if (about.has('prechain_product'))
    await collect(client.prechainProducts.walk({}, o), 'prechain_product', (p) => same(p.product_instance_id));
  if (about.has('bom')) {
    let read = 0;
    for await (const inst of client.productInstances.walk({}, o)) {
      if (names.length >= USERS_NAMED || read++ >= BOMS_READ) break;
      const bom = await client.bom.get(inst.id, o);
      if (bom.some((c) => same(c.ref))) names.push(userWords('bom', inst.external_id, label(inst)));
    }
  }
  return names.length ? names.join(', ') : null;
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

/** The job's result from its index: counts, rows per sheet, licence limits; not the outcome of every entry. */
export function resultSummary(index: EntryIndex, meta: JobMeta, requests: number): JobResultSummary {
  const limits = new Map<string, EntitlementInfo>();
  for (const l of meta.entitlementLimits ?? []) limits.set(l.dimension, l);
  for (const [, o] of index.notPlain())
    if (o.entitlement_limit) limits.set(o.entitlement_limit.dimension, o.entitlement_limit);
  const startedAt = meta.startedAt;
  const finishedAt = meta.finishedAt;
  const end = finishedAt ?? meta.updatedAt;
  const result: JobResultSummary = {
    jobId: meta.jobId,
    status: effectiveStatus(meta),
    baseUrl: meta.baseUrl,
    maskedKey: meta.maskedKey,
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(end) - Date.parse(startedAt)),
    counts: index.outcomeCounts(),
    bySheet: index.rowsBySheet(),
    entitlementLimits: [...limits.values()],
    requests,
  };
  if (meta.reason) result.reason = meta.reason;
  if (meta.message) result.message = meta.message;
  return result;
}

/** The JobResult with every entry's outcome, in plan order (for callers that hold the plan anyway). */
export async function withEntries(r: IndexedJobResult): Promise<JobResult> {
  const { index } = r;
  const entries: JobResult['entries'] = [];
  for (let i = 0; i < index.size; i++) entries.push(index.outcomeOf(i));
  await index.close();
  const { counts, bySheet, entitlementLimits, requests, ...head } = r.result;
  return { ...head, entries, counts, bySheet, entitlementLimits, requests };
}

/** A job as it stands on disk (any status), its outcomes in the compact index. */
export async function loadIndexed(jobsDir: string, jobId: string): Promise<IndexedJobResult> {
  const { header, index } = await readIndexWithStatics(jobsDir, jobId);
  const meta = await readMeta(jobsDir, jobId);
  await applyJournal(jobsDir, jobId, index);
  return { result: resultSummary(index, meta, 0), header, index };
}

/** The result of a job as it stands on disk (any status). */
export async function loadJobResult(jobsDir: string, jobId: string): Promise<JobResult> {
  return withEntries(await loadIndexed(jobsDir, jobId));
}

/** Plan and result of a job on disk, e.g. to write its results workbook later. */
export async function loadJob(
  jobsDir: string,
  jobId: string,
): Promise<{ plan: Plan; meta: JobMeta; result: JobResult }> {
  const [plan, meta, result] = await Promise.all([
    readPlan(jobsDir, jobId),
    readMeta(jobsDir, jobId),
    loadJobResult(jobsDir, jobId),
  ]);
  return { plan, meta, result };
}
