/** The LCA screen's export notice goes once the run on screen is no longer what was exported. */
import { describe, expect, it } from 'vitest';
import type { LcaRunView } from '../../core/ipc/contract.js';
import { currentExport, exportedOf } from '../../renderer/src/screens/lca/exportNotice.js';

const run = (runId: string, state: LcaRunView['state'], finished: number) =>
  ({ runId, state, finished }) as unknown as LcaRunView;

describe('the LCA export notice', () => {
  const done = run('run-1', 'done', 3);
  const exported = exportedOf('lca-2026-11-27.xlsx', done);

  it('names the file while the run on screen is the one exported', () => {
    expect(currentExport(exported, done)).toBe('lca-2026-11-27.xlsx');
    expect(currentExport(exported, { ...done })).toBe('lca-2026-11-27.xlsx');
  });

  it('goes once a later recompute shows another run (a production figure entered, a new run)', () => {
    expect(currentExport(exported, run('run-2', 'running', 0))).toBeNull();
    expect(currentExport(exported, run('run-2', 'done', 3))).toBeNull();
  });

  it('goes when the run exported while running went on since', () => {
    const partial = exportedOf('partial.xlsx', run('run-1', 'running', 1));
    expect(currentExport(partial, run('run-1', 'running', 2))).toBeNull();
    expect(currentExport(partial, run('run-1', 'done', 3))).toBeNull();
  });

  it('nothing exported, or no run: no notice', () => {
    expect(currentExport(null, done)).toBeNull();
    expect(currentExport(exported, null)).toBeNull();
  });
});
