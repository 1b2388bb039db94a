/**
 * The LCA screen's "exported" notice holds only while it tells the truth: the file is of the run on screen as it
 * was when exported. A later recompute (a new run, a production figure entered) or a run that went on after the
 * export makes the file stale, and the notice goes.
 */
import type { LcaRunView } from '../../../../core/ipc/contract.js';

/** What was exported: the file and the run's state it holds. */
export interface Exported {
  fileName: string;
  runId: string;
  state: LcaRunView['state'];
  finished: number;
}

export function exportedOf(fileName: string, run: LcaRunView): Exported {
  return { fileName, runId: run.runId, state: run.state, finished: run.finished };
}

/** The file the notice names; null when nothing was exported or the run on screen is no longer what was. */
export function currentExport(exported: Exported | null, run: LcaRunView | null): string | null {
  if (!exported || !run) return null;
  const same = run.runId === exported.runId && run.state === exported.state && run.finished === exported.finished;
  return same ? exported.fileName : null;
}
