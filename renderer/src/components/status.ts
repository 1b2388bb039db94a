/**
 * Status words that say what happened: a job that completed with failed or skipped rows is not
 * "Completed" in green; an LCA instance with no year computed is not a green "Completed"; an instance of a run
 * not started is "Not started", not "Waiting". Pure functions over the contract's views, unit-tested in
 * test/renderer/status.test.ts. The lists of statuses and outcomes are the core's (names.ts: JOB_STATUSES,
 * ROW_OUTCOMES, LCA_STATES, LCA_OUTCOMES; jobs/types.ts: SUCCESS_OUTCOMES); this file only decides the words and tones.
 */
import type { JobListItem, LcaInstanceView } from '../../../core/ipc/contract.js';
import { SUCCESS_OUTCOMES } from '../../../core/jobs/types.js';
import type { LcaInstanceState, LcaOutcome } from '../../../core/names.js';
import type { MessageKey } from '../i18n/index.js';
import { JOB_STATUS_MESSAGE, JOB_STATUS_TEXT_MESSAGE, LCA_OUTCOME_MESSAGE, LCA_STATE_MESSAGE } from '../i18n/names.js';
import type { Tone } from './format.js';

export interface StatusWords {
  tone: Tone;
  /** the badge */
  label: MessageKey;
  /** the sentence under the title */
  text: MessageKey;
  params: Record<string, number>;
}

/** Counts of a finished job: successes (the core's SUCCESS_OUTCOMES), failed, skipped, not run. */
export function outcomeTotals(counts: Record<string, number>): {
  ok: number;
  failed: number;
  skipped: number;
  pending: number;
} {
  let ok = 0;
  for (const o of SUCCESS_OUTCOMES) ok += counts[o] ?? 0;
  return { ok, failed: counts.failed ?? 0, skipped: counts.skipped ?? 0, pending: counts.pending ?? 0 };
}

/** The badge and sentence of a job, from its status and counts per outcome. */
export function jobStatusWords(v: Pick<JobListItem, 'status' | 'reason' | 'counts'>): StatusWords {
  const totals = outcomeTotals(v.counts);
  const params = { ...totals };
  switch (v.status) {
    case 'completed':
      if (totals.failed > 0)
        return { tone: 'bad', label: 'job.status.completedFailed', text: 'job.statusText.completedProblems', params };
      if (totals.skipped > 0)
        return { tone: 'warn', label: 'job.status.completedSkipped', text: 'job.statusText.completedProblems', params };
      return { tone: 'ok', label: 'job.status.completed', text: 'job.statusText.completed', params };
    case 'running':
      return { tone: 'change', label: 'job.status.running', text: 'job.statusText.running', params };
    case 'aborted':
      return { tone: 'bad', label: 'job.status.aborted', text: 'job.statusText.auth', params };
    case 'interrupted':
      return { tone: 'bad', label: 'job.status.interrupted', text: 'job.statusText.interrupted', params };
    case 'paused':
      return {
        tone: 'warn',
        label: 'job.status.paused',
        text: v.reason === 'daily_limit' ? 'job.statusText.daily_limit' : 'job.statusText.paused',
        params,
      };
    default:
      return {
        tone: 'warn',
        label: JOB_STATUS_MESSAGE[v.status],
        text: JOB_STATUS_TEXT_MESSAGE[v.status],
        params,
      };
  }
}

/** Years with a GWP value and years blocked, of one LCA instance. */
export function lcaYearCounts(i: Pick<LcaInstanceView, 'years'>): { computed: number; blocked: number } {
  let computed = 0;
  for (const y of i.years) if (y.gwp !== null) computed++;
  return { computed, blocked: i.years.length - computed };
}

const LCA_STATE_TONE: Record<LcaInstanceState, Tone> = {
  waiting: 'neutral',
  queued: 'change',
  processing: 'change',
  done: 'ok',
  failed: 'bad',
};

/**
 * The state badge of an instance: "Not started" until a run exists (it is not waiting for anything yet); a
 * finished job that computed no year is "Done" in neutral, not green (the result column says why).
 */
export function lcaStateWords(
  i: Pick<LcaInstanceView, 'state' | 'outcome' | 'years'>,
  runStarted: boolean,
): { tone: Tone; label: MessageKey } {
  if (!runStarted) return { tone: 'neutral', label: 'lca.st.notStarted' };
  if (i.state === 'done' && i.outcome === 'completed' && lcaYearCounts(i).computed === 0)
    return { tone: 'neutral', label: 'lca.st.done' };
  return { tone: LCA_STATE_TONE[i.state] ?? 'neutral', label: LCA_STATE_MESSAGE[i.state] };
}

const LCA_OUTCOME_TONE: Record<LcaOutcome, Tone> = {
  completed: 'ok',
  idle: 'neutral',
  failed: 'bad',
  unknown_status: 'bad',
  error: 'bad',
  cancelled: 'warn',
  skipped: 'warn',
};

/** The result badge of an instance: a completed job that computed no year has its own neutral words. */
export function lcaOutcomeWords(
  i: Pick<LcaInstanceView, 'outcome' | 'years'>,
): { tone: Tone; label: MessageKey } | null {
  if (!i.outcome) return null;
  if (i.outcome === 'completed' && lcaYearCounts(i).computed === 0)
    return { tone: 'neutral', label: 'lca.out.completedNoYears' };
  return { tone: LCA_OUTCOME_TONE[i.outcome] ?? 'neutral', label: LCA_OUTCOME_MESSAGE[i.outcome] };
}
