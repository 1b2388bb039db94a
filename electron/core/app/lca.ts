/**
 * One LCA run, the operation the CLI's `lca` and the app's LCA screen (lca-runs.ts) share: read or
 * recompute-and-poll the results of the selected instances (lca/run.ts runLca), then, unless the run stopped
 * early, resolve the per-source breakdown to names for the hotspots (lca/hotspots.ts; needs view:recipes). A
 * breakdown that cannot be resolved does not fail the run: the report's context says why (not readable), and
 * the results workbook then has no hotspots sheet.
 */
import type { ApiClient } from '../api/index.js';
import { resolveBreakdownContext } from '../lca/hotspots.js';
import type { LcaReport } from '../lca/model.js';
import { runLca, type RunLcaOptions } from '../lca/run.js';

type Instances = Parameters<typeof runLca>[1];

export async function lcaRun(
  client: ApiClient,
  instances: Instances,
  o: RunLcaOptions & {
    /** told when the breakdown could not be resolved (the CLI says so on stderr) */
    onBreakdownError?: (reason: string) => void;
  },
): Promise<LcaReport> {
  const report = await runLca(client, instances, o);
  if (!report.aborted) {
    report.breakdown_context = await resolveBreakdownContext(client, report, {
      ...(o.signal ? { signal: o.signal } : {}),
    }).catch((e: unknown) => {
      const reason = `The per-source breakdown could not be resolved to names (${e instanceof Error ? e.message : String(e)}).`;
      o.onBreakdownError?.(reason);
      return { readable: false, reason, components: {}, problems: [] };
    });
  }
  return report;
}
