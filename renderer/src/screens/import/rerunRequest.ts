/**
 * A re-run of a job's failed rows asked for on the Jobs screen is carried out by the Import screen (which holds
 * the wizard): the Jobs screen hands over the chosen workbook and the job id here, and the Import screen, always
 * mounted, takes it.
 */
import type { PickedFile } from '../../../../core/ipc/contract.js';

export interface RerunRequest {
  file: PickedFile;
  jobId: string;
}

type Listener = (r: RerunRequest) => void;
const listeners = new Set<Listener>();
let pending: RerunRequest | null = null;

export function requestRerun(r: RerunRequest): void {
  if (listeners.size === 0) pending = r;
  else for (const l of listeners) l(r);
}

export function onRerunRequest(l: Listener): () => void {
  listeners.add(l);
  if (pending) {
    const p = pending;
    pending = null;
    l(p);
  }
  return () => {
    listeners.delete(l);
  };
}
