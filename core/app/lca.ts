/**
 * One LCA run, the operation the CLI's `lca` and the app's LCA screen (lca-runs.ts) share: read or
 * recompute-and-poll the results of the selected instances (lca/run.ts runLca), then, unless the run stopped
 * early, resolve the per-source breakdown to names for the hotspots (lca/hotspots.ts; needs view:recipes). A
 * breakdown that cannot be resolved does not fail the run: the report's context says why (not readable), and
 * the results workbook then has no hotspots sheet.
 *
 * Around it, what the CLI's `lca` asks of a run: which instances a selector names (selectors from codes given
 * by kind), the verdict per instance (years computed, blocked, and those waiting for production data the user
 * must enter), and the results workbook written to a file.
 */
import type { ApiClient } from '../api/index.js';
import { resolveBreakdownContext } from '../lca/hotspots.js';
import { blockerNeedsAction, readResults, serviceCurrentYear, type LcaReport } from '../lca/model.js';
import { runLca, type RunLcaOptions } from '../lca/run.js';
import { cleanCodes, selectInstances, type InstanceSelector, type Selection } from '../lca/select.js';
import { writeLcaWorkbook, type LcaExportStats } from '../lca/workbook/index.js';

export type { LcaExportStats, LcaReport, InstanceSelector };

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

/**
 * The selector of instances named by codes of one kind (trimmed, empties and duplicates dropped, order kept);
 * null when no code is left. `all` takes no codes.
 */
export function lcaSelector(
  by: 'instances' | 'products' | 'plant' | 'all',
  codes: Iterable<string> = [],
): InstanceSelector | null {
  if (by === 'all') return { by: 'all' };
  const clean = cleanCodes(codes);
  if (clean.length === 0) return null;
  if (by === 'instances') return { by, externalIds: clean };
  if (by === 'products') return { by, articles: clean };
  return { by, plantCodes: clean };
}

/** The instances a selector names, and the codes that matched nothing (GETs only). */
export function lcaInstances(
  client: ApiClient,
  selector: InstanceSelector,
  o: { signal?: AbortSignal } = {},
): Promise<Selection> {
  return selectInstances(client, selector, o);
}

/** What a run gave one instance: its outcome and, of its results, the years computed, blocked, or needing data. */
export interface InstanceVerdict {
  external_id: string | null;
  id: string;
  outcome: string;
  job_status: string | null;
  err_code: string | null;
  explanation: string | null;
  action: string | null;
  years_computed: number;
  years_blocked: number;
  /** Past or current years blocked by missing production data (the user must enter it). */
  years_needing_data: number[];
}

export function instanceVerdicts(report: Pick<LcaReport, 'instances'>): InstanceVerdict[] {
  return report.instances.map((i) => {
    const years = readResults(i.results);
    const current = serviceCurrentYear(years, i.job);
    return {
      external_id: i.instance.external_id,
      id: i.instance.id,
      outcome: i.outcome,
      job_status: i.job_status,
      err_code: i.err_code,
      explanation: i.explanation,
      action: i.action,
      years_computed: years.filter((y) => y.status === 'computed').length,
      years_blocked: years.filter((y) => y.status === 'blocked').length,
      years_needing_data: years
        .filter((y) => y.blockers.length > 0 && blockerNeedsAction(y.year, current) && y.year !== null)
        .map((y) => y.year as number),
    };
  });
}

/** The results workbook of a run written to `file` (.xlsx; docs/lca-export.md), with what each sheet holds. */
export function writeLcaResults(
  report: LcaReport,
  file: string,
  o: { breakdown?: boolean } = {},
): Promise<LcaExportStats> {
  return writeLcaWorkbook(report, file, o);
}
