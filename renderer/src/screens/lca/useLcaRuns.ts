/**
 * The LCA screen's state and calls: the choices (loaded when the screen is shown, again on coming back after a
 * failure), the instances found, the run with its live state per instance (`lca.progress`) and its report once
 * done (`lca.changed`), the export, and writing a missing production figure ("Enter it here", then a new run).
 */
import { useCallback, useEffect, useState } from 'react';
import type { LcaRunView, ProcedureOutput } from '../../../../core/ipc/contract.js';
import { useApi } from '../../ApiContext.js';
import { openDownload, saveDownload } from '../../components/downloads.js';
import { useRpc } from '../../useRpc.js';
import { currentExport, exportedOf, type Exported } from './exportNotice.js';

export type LcaBy = 'products' | 'plant' | 'instances' | 'all';
export type LcaOptions = ProcedureOutput<'lca.options'>;
export type LcaSelection = ProcedureOutput<'lca.select'>;

export function useLcaRuns(active: boolean) {
  const api = useApi();
  const [options, setOptions] = useState<LcaOptions | null>(null);
  /** the choices could not be read (e.g. the key was refused): no endless "Loading…" */
  const [optionsFailed, setOptionsFailed] = useState(false);
  const [selection, setSelection] = useState<LcaSelection | null>(null);
  const [run, setRun] = useState<LcaRunView | null>(null);
  const rpc = useRpc<'options' | 'select' | 'start' | 'export'>();
  const { fail, run: runRpc } = rpc;
  const [exportedAs, setExported] = useState<Exported | null>(null);
  const runId = run?.runId ?? null;

  const loadOptions = useCallback(async () => {
    setOptionsFailed(false);
    const o = await runRpc(
      () =>
        api.call('lca.options', {}).catch((e: unknown) => {
          setOptionsFailed(true);
          throw e;
        }),
      'options',
    );
    if (o) setOptions(o);
  }, [api, runRpc]);

  useEffect(() => {
    if (active && options === null && !optionsFailed) void loadOptions();
  }, [active, options, optionsFailed, loadOptions]);

  // Coming back to the screen tries again (the key may have been fixed meanwhile).
  useEffect(() => {
    if (!active) setOptionsFailed(false);
  }, [active]);

  // Live state per instance while a run goes on; the full report once it is done.
  useEffect(() => {
    if (!runId) return;
    const offP = api.on('lca.progress', (p) => {
      if (p.runId !== runId) return;
      setRun((cur) =>
        cur && cur.runId === runId
          ? {
              ...cur,
              finished: p.finished,
              instances: cur.instances.map((i) =>
                i.id === p.instanceId ? { ...i, state: p.state, jobStatus: p.jobStatus, errCode: p.errCode } : i,
              ),
            }
          : cur,
      );
    });
    const offC = api.on('lca.changed', (c) => {
      if (c.runId === runId && c.state !== 'running') void api.call('lca.report', { runId }).then(setRun, fail);
    });
    // A run that ended before this subscription existed (a fast recompute) sent its lca.changed already:
    // read its state once now, so the screen never waits for an event that has gone by.
    void api.call('lca.report', { runId }).then(
      (v) => setRun((cur) => (cur && cur.runId === runId && cur.state === 'running' ? v : cur)),
      () => {},
    );
    return () => {
      offP();
      offC();
    };
  }, [api, runId, fail]);

  const find = async (by: LcaBy, codes: string[]) => {
    setRun(null);
    setExported(null);
    const s = await runRpc(() => api.call('lca.select', { by, codes }), 'select');
    if (s) setSelection(s);
  };

  const start = async (recompute: boolean) => {
    if (!selection) return;
    setExported(null);
    const report = await runRpc(async () => {
      const r = await api.call('lca.run', { selectionId: selection.selectionId, recompute });
      return api.call('lca.report', { runId: r.runId });
    }, 'start');
    if (report) setRun(report);
  };

  const exportIt = (open: boolean) => {
    if (!run) return;
    return runRpc(async () => {
      const ticket = await api.call('lca.export', { runId: run.runId });
      if (open) await openDownload(api, ticket);
      else await saveDownload(api, ticket);
      setExported(exportedOf(ticket.fileName, run));
    }, 'export');
  };

  const cancel = () => {
    if (run) void api.call('lca.cancel', { runId: run.runId }).catch(fail);
  };

  /**
   * Write one production figure, then show the new run. Not one of the screen's busy actions (its form has its
   * own), so the screen's actions stay usable meanwhile: `written` once the figure is accepted, `failed` if not.
   */
  const enterProduction = async (
    instanceId: string,
    year: number,
    quantity: number,
    on: { written(): void; failed(): void },
  ) => {
    if (!run) return;
    rpc.dismiss();
    try {
      const r = await api.call('lca.enterProduction', { runId: run.runId, instanceId, year, quantity });
      on.written();
      setRun(await api.call('lca.report', { runId: r.runId }));
    } catch (e) {
      on.failed();
      fail(e);
    }
  };

  return {
    transport: api.transport,
    options,
    optionsFailed,
    loadOptions,
    selection,
    clearSelection: () => setSelection(null),
    run,
    rpc,
    /** the file of the last export, while it is the run on screen as it is */
    exported: currentExport(exportedAs, run),
    find,
    start,
    exportIt,
    cancel,
    enterProduction,
  };
}
