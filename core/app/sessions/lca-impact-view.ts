/**
 * The app's views of a job's LCA impact (contract/lca-impact.ts) from what core/app/lca-impact.ts keeps: the
 * affected set, the dry run's estimates and the impact report, cut to what a screen shows (one indicator's
 * rows, one instance's attribution, at most a few hundred lines).
 */
import type { LcaAffectedView, LcaEstimatesView, LcaImpactReportView } from '../../contract/lca-impact.js';
import type { AffectedSet, ImpactCause, ImpactEstimates, ImpactReport } from '../lca-impact.js';

const MAX_INSTANCES = 200;
const MAX_ESTIMATES = 2000;
const MAX_ROWS = 500;
/** Results read per recompute besides its lca-update, on average: the first read and one more while it runs. */
const READS_PER_RECOMPUTE = 2;
/** The indicator shown first when the report has it. */
const DEFAULT_INDICATOR = 'GWP-total';

/** Requests a recompute of `recomputes` instances sends, about: one lca-update each and its result reads. */
export function requestsAbout(recomputes: number): number {
  return recomputes * (1 + READS_PER_RECOMPUTE);
}

/** One line per changed thing (several rows may change the same supplier product). */
type CauseView = LcaAffectedView['instances'][number]['causes'][number];
function uniqueCauses(causes: readonly ImpactCause[]): CauseView[] {
  const seen = new Map<string, CauseView>();
  for (const c of causes) {
    const key = `${c.kind}|${c.of_kind ?? ''}|${c.code ?? ''}|${c.label}`;
    if (!seen.has(key)) seen.set(key, { kind: c.kind, ofKind: c.of_kind ?? null, code: c.code, label: c.label });
  }
  return [...seen.values()];
}

export function affectedView(a: AffectedSet): LcaAffectedView {
  return {
    count: a.instances.length,
    byPlant: a.byPlant.map((p) => ({ plantCode: p.plant_code, count: p.count })),
    instances: a.instances.slice(0, MAX_INSTANCES).map((i) => ({
      instanceId: i.id,
      externalId: i.external_id,
      plantCode: i.plant_code,
      rows: i.rows,
      causes: uniqueCauses(i.causes),
    })),
    moreInstances: Math.max(0, a.instances.length - MAX_INSTANCES),
    bomsRead: a.bomsRead,
    unchecked: a.unchecked,
  };
}

export function estimatesView(e: ImpactEstimates): LcaEstimatesView {
  return {
    note: e.note,
    estimates: e.estimates.slice(0, MAX_ESTIMATES).map((x) => ({
      instanceId: x.instance_id,
      externalId: x.external_id,
      year: x.year,
      indicator: x.indicator,
      module: x.module,
      unit: x.unit,
      basis: x.basis,
      current: x.current,
      change: x.estimated_change,
      parts: x.parts.map((p) => ({
        component: p.component,
        change: p.change,
        why: p.why,
        whyCode: p.why_code ?? null,
      })),
    })),
    moreEstimates: Math.max(0, e.estimates.length - MAX_ESTIMATES),
    notEstimated: e.not_estimated.map((n) => ({
      instanceId: n.instance_id,
      externalId: n.external_id,
      why: n.why,
      whyCode: n.why_code ?? null,
      rows: n.rows,
    })),
  };
}

export interface ReportQuery {
  indicator?: string | undefined;
  instanceId?: string | undefined;
  year?: number | undefined;
  module?: string | undefined;
}

/**
 * The report for one indicator (the asked one, else GWP-total, else the first): its before → after rows and the
 * attribution of one (instance, year, module) — the asked one, else the first whose value changed.
 */
export function reportView(r: ImpactReport, q: ReportQuery = {}): LcaImpactReportView {
  const indicators: { code: string; unit: string | null }[] = [];
  for (const row of r.rows)
    if (row.indicator !== '' && !indicators.some((i) => i.code === row.indicator))
      indicators.push({ code: row.indicator, unit: row.unit });
  const codes = indicators.map((i) => i.code);
  const indicator =
    q.indicator && codes.includes(q.indicator)
      ? q.indicator
      : codes.includes(DEFAULT_INDICATOR)
        ? DEFAULT_INDICATOR
        : (codes[0] ?? null);
  const rows = r.rows.filter((x) => x.indicator === indicator);
  const choices = rows
    .filter((x) => x.change !== null && x.change !== 0)
    .map((x) => ({ instanceId: x.instance_id, year: x.year, module: x.module }));
  const asked = choices.find(
    (c) => c.instanceId === q.instanceId && c.year === q.year && (q.module === undefined || c.module === q.module),
  );
  const chosen = asked ?? choices[0];
  const row = chosen
    ? rows.find((x) => x.instance_id === chosen.instanceId && x.year === chosen.year && x.module === chosen.module)
    : undefined;
  return {
    recomputed: r.recomputed,
    generatedAt: r.generated_at,
    aborted: r.aborted,
    notes: r.notes,
    noteCodes: r.note_codes ?? null,
    instances: r.instances.map((i) => ({
      instanceId: i.instance_id,
      externalId: i.external_id,
      plantCode: i.plant_code,
      beforeOutcome: i.before_outcome,
      afterOutcome: i.after_outcome,
      problem: i.problem,
      problemCodes: i.problem_codes ?? null,
      yearsNeedingData: i.years_needing_data,
    })),
    indicators,
    indicator,
    rows: rows.slice(0, MAX_ROWS).map((x) => ({
      instanceId: x.instance_id,
      externalId: x.external_id,
      plantCode: x.plant_code,
      year: x.year,
      module: x.module,
      unit: x.unit,
      basis: x.basis,
      before: x.before,
      after: x.after,
      change: x.change,
      changePct: x.change_pct,
      blockedBefore: x.blocked_before,
      blockedAfter: x.blocked_after,
    })),
    moreRows: Math.max(0, rows.length - MAX_ROWS),
    blocked: r.rows
      .filter((x) => x.indicator === '')
      .map((x) => ({
        instanceId: x.instance_id,
        externalId: x.external_id,
        year: x.year,
        why: x.blocked_after ?? x.blocked_before ?? '',
      })),
    attribution:
      chosen && row
        ? {
            instanceId: chosen.instanceId,
            year: chosen.year,
            module: chosen.module,
            unit: row.unit,
            before: row.before,
            after: row.after,
            change: row.change,
            lines: r.sources
              .filter(
                (s) =>
                  s.instance_id === chosen.instanceId &&
                  s.year === chosen.year &&
                  s.indicator === indicator &&
                  s.module === chosen.module,
              )
              .map((s) => ({
                line: s.line,
                componentType: s.component_type,
                code: s.code,
                name: s.name,
                change: s.change,
                rows: s.rows,
              })),
          }
        : null,
    choices,
  };
}
