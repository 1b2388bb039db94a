/**
 * A job's result: the outcomes known without sending anything (from the plan) and from the journal, put into the
 * job's compact index; the summary of that index (counts, rows per sheet, licence limits); and a job as it stands
 * on disk (loadIndexed), every entry's outcome materialised only for output (withEntries).
 */
import { join } from 'node:path';
import type { EntryIndex } from './entry-index.js';
import { scanJournal, skippedOutcome, type IntentLine } from './journal.js';
import { effectiveStatus, JOURNAL_FILE, jobDir, readMeta, readJobIndex } from './job-store.js';
import type {
  EntitlementInfo,
  EntryOutcome,
  JobMeta,
  JobResult,
  JobResultSummary,
  PlanEntry,
  PlanHeader,
} from './types.js';
import { RUN_NOTES } from './plan-notes.js';

/** A job's result with its outcomes in the compact index (the entries' outcomes are not materialised). */
export interface IndexedJobResult {
  result: JobResultSummary;
  header: PlanHeader;
  index: EntryIndex;
}

/** What a plan entry's outcome is without sending anything (not a write action). */
export function staticOutcome(e: PlanEntry): EntryOutcome | null {
  switch (e.action) {
    case 'unchanged':
      return e.id ? { key: e.key, outcome: 'unchanged', id: e.id } : { key: e.key, outcome: 'unchanged' };
    case 'delete':
      // Not on the service when planned: already absent, nothing is sent.
      return e.id ? null : { key: e.key, outcome: 'already_absent', msg: 'not on the service: nothing to delete' };
    case 'skipped_update':
      return skippedOutcome(e.key, 'create_only', RUN_NOTES.createOnly());
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

/** The job's plan index with the static outcomes (entries settled without sending anything) recorded. */
export async function readIndexWithStatics(
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
export async function applyJournal(
  jobsDir: string,
  jobId: string,
  index: EntryIndex,
): Promise<Map<string, IntentLine>> {
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

/** The JobResult with every entry's outcome, in plan order (what `--json` prints); the index is closed. */
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
