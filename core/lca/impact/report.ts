/**
 * The impact report (pure): per affected instance, year, indicator and module the value before the job and
 * after it — per declared unit where the year's production quantity is known on both sides, as reported (totals)
 * otherwise — the change and the change in %, and the change attributed: one line per component whose
 * contribution in the per-source breakdown changed (old → new), named with its supplier and the job rows that
 * changed it, and one line for what the breakdown does not explain (`production_figures` when the job changed
 * the instance's production figures, `not_attributed` otherwise). The lines of an instance, year, indicator and
 * module sum to its change, up to floating-point rounding.
 */
import {
  blockerNeedsAction,
  readResults,
  serviceCurrentYear,
  type BreakdownContext,
  type ComponentInfo,
  type InstanceLca,
  type ResultYear,
} from '../model.js';
import type {
  AffectedInstance,
  AffectedSet,
  ImpactBasis,
  ImpactCause,
  ImpactInstance,
  ImpactText,
  ImpactReport,
  ImpactRow,
  ImpactSourceRow,
} from './types.js';

export interface ImpactInputs {
  jobId: string;
  baseUrl: string;
  maskedKey: string;
  recomputed: boolean;
  affected: AffectedSet;
  /** The results before and after the job, by instance id (lower case). */
  before: ReadonlyMap<string, InstanceLca>;
  after: ReadonlyMap<string, InstanceLca>;
  beforeContext: BreakdownContext | null;
  afterContext: BreakdownContext | null;
  aborted: { reason: string; message: string } | null;
  now?: Date;
}

/** A change smaller than this share of the values compared is rounding, not a contribution. */
const ROUNDING = 1e-9;

/** The year's blockers in words (`code: message`), or null when it is not blocked. */
export function blockerWords(y: ResultYear | undefined): string | null {
  if (!y || y.status !== 'blocked') return null;
  const words = y.blockers.map((b) => [b.code ?? b.err_code ?? b.kind, b.msg].filter(Boolean).join(': '));
  return words.length ? words.join('; ') : 'blocked';
}

const quantityOf = (y: ResultYear | undefined): number | null =>
  y && y.status === 'computed' && y.production_quantity !== null && y.production_quantity > 0
    ? y.production_quantity
    : null;

/** The rows that changed a component of an instance: its own entry's, a silo's or prechain's it is in, a BOM's. */
function rowsOfComponent(causes: readonly ImpactCause[], ref: string, code: string | null): string[] {
  const hit = causes.filter(
    (c) =>
      (c.kind !== 'bom' && c.kind !== 'production' && (c.ref === ref || c.via?.ref === ref)) ||
      (c.kind === 'bom' && code !== null && (c.components ?? []).includes(code)),
  );
  return [...new Set(hit.flatMap((c) => c.where))];
}

const componentKey = (type: string | null, ref: string | null) => `${type ?? ''}|${(ref ?? '').toLowerCase()}`;

function componentName(info: ComponentInfo | undefined): Pick<ImpactSourceRow, 'code' | 'name' | 'supplier'> {
  const supplier = [info?.supplierCompany, info?.supplierPlant].filter(Boolean).join(', ');
  return { code: info?.externalId ?? null, name: info?.name ?? null, supplier: supplier || null };
}

function yearsNeedingData(i: InstanceLca | undefined): number[] {
  if (!i) return [];
  const years = readResults(i.results);
  const current = serviceCurrentYear(years, i.job);
  return years
    .filter((y) => y.year !== null && y.blockers.length > 0 && blockerNeedsAction(y.year, current))
    .map((y) => y.year as number);
}

export function buildImpactReport(x: ImpactInputs): ImpactReport {
  const rows: ImpactRow[] = [];
  const sources: ImpactSourceRow[] = [];
  const instances: ImpactInstance[] = [];
  const notes: string[] = [];
  const note_codes: ImpactText[] = [];
  const note = (words: string, code: ImpactText['code'], instance: string) => {
    notes.push(words);
    note_codes.push({ code, params: { instance } });
  };
  const byCode = new Map<string, InstanceLca>();
  for (const a of x.after.values()) if (a.instance.external_id) byCode.set(a.instance.external_id, a);

  for (const ai of x.affected.instances) {
    const after =
      (ai.id ? x.after.get(ai.id.toLowerCase()) : undefined) ??
      (ai.external_id ? byCode.get(ai.external_id) : undefined);
    const id = (ai.id ?? after?.instance.id ?? null)?.toLowerCase() ?? null;
    const before = id ? x.before.get(id) : undefined;
    const label = ai.external_id ?? ai.id ?? ai.entryKey ?? '';
    if (!id) {
      note(
        `Product instance ${label}: not found on the service after the job; not compared.`,
        'not_found_after',
        label,
      );
      continue;
    }
    if (!before)
      note(`Product instance ${label}: no results were kept before the job; only after-values.`, 'no_before', label);
    if (!after) note(`Product instance ${label}: not read after the job; only before-values.`, 'not_read_after', label);
    const unfinished = [before, after].filter(
      (i): i is InstanceLca => !!i && i.outcome !== 'completed' && i.outcome !== 'idle',
    );
    const problem = unfinished
      .map((i) => `${i === before ? 'before' : 'after'}: ${i.outcome}${i.err_code ? ` (${i.err_code})` : ''}`)
      .join('; ');
    const problem_codes: ImpactText[] = unfinished.map((i) => ({
      code: 'outcome',
      params: {
        side: i === before ? 'before' : 'after',
        outcome: i.outcome,
        ...(i.err_code ? { err_code: i.err_code } : {}),
      },
    }));
    instances.push({
      instance_id: id,
      external_id: ai.external_id ?? after?.instance.external_id ?? null,
      plant_code: ai.plant_code ?? after?.instance.plant_code ?? null,
      rows: ai.rows,
      before_outcome: before?.outcome ?? null,
      after_outcome: after?.outcome ?? null,
      problem: problem || null,
      problem_codes,
      years_needing_data: yearsNeedingData(after),
    });
    compareInstance(x, ai, id, before, after, rows, sources);
  }
  return {
    format: 'supply-loader/lca-impact@1',
    job_id: x.jobId,
    generated_at: (x.now ?? new Date()).toISOString(),
    base_url: x.baseUrl,
    masked_key: x.maskedKey,
    recomputed: x.recomputed,
    instances,
    rows,
    sources,
    breakdown: { before: x.beforeContext?.readable ?? false, after: x.afterContext?.readable ?? false },
    aborted: x.aborted ? { reason: x.aborted.reason, message: x.aborted.message } : null,
    notes,
    note_codes,
  };
}

function compareInstance(
  x: ImpactInputs,
  ai: AffectedInstance,
  id: string,
  before: InstanceLca | undefined,
  after: InstanceLca | undefined,
  rows: ImpactRow[],
  sources: ImpactSourceRow[],
): void {
  const yb = new Map(readResults(before?.results ?? []).map((y) => [y.year, y]));
  const ya = new Map(readResults(after?.results ?? []).map((y) => [y.year, y]));
  const years = [...new Set([...yb.keys(), ...ya.keys()])].filter((y): y is number => y !== null).sort((a, b) => a - b);
  const external_id = ai.external_id ?? after?.instance.external_id ?? before?.instance.external_id ?? null;
  const plant_code = ai.plant_code ?? after?.instance.plant_code ?? before?.instance.plant_code ?? null;
  const unitOfProduct = after?.instance.product_unit ?? before?.instance.product_unit ?? null;
  const production = ai.causes.some((c) => c.kind === 'production');
  // The contexts are keyed by the instance id as the service wrote it.
  const keys = [...new Set([after?.instance.id, before?.instance.id, id].filter((k): k is string => !!k))];
  const infoOf = (ref: string | null): ComponentInfo | undefined => {
    const r = (ref ?? '').toLowerCase();
    for (const ctx of [x.afterContext, x.beforeContext])
      for (const k of keys) {
        const hit = ctx?.components[k]?.find((c) => c.ref.toLowerCase() === r);
        if (hit) return hit;
      }
    return undefined;
  };
  const onlyProduction = ai.causes.every((c) => c.kind === 'production');

  for (const year of years) {
    const b = yb.get(year);
    const a = ya.get(year);
    const qb = quantityOf(b);
    const qa = quantityOf(a);
    const computedB = b?.status === 'computed';
    const computedA = a?.status === 'computed';
    // Per declared unit when every computed side has its quantity; totals otherwise.
    const basis: ImpactBasis =
      (computedB || computedA) && (!computedB || qb !== null) && (!computedA || qa !== null)
        ? 'per_declared_unit'
        : 'total';
    const per = (v: number | null, q: number | null) =>
      v === null ? null : basis === 'per_declared_unit' && q !== null ? v / q : v;
    const keys = new Map<string, { indicator: string; module: string; unit: string | null }>();
    for (const v of [...(b?.values ?? []), ...(a?.values ?? [])])
      if (v.indicator && v.module)
        keys.set(`${v.indicator}|${v.module}`, { indicator: v.indicator, module: v.module, unit: v.unit });
    const blocked_before = blockerWords(b);
    const blocked_after = blockerWords(a);
    if (keys.size === 0 && (blocked_before || blocked_after)) {
      rows.push({
        instance_id: id,
        external_id,
        plant_code,
        year,
        indicator: '',
        module: '',
        unit: null,
        basis,
        declared_unit: null,
        before: null,
        after: null,
        change: null,
        change_pct: null,
        blocked_before,
        blocked_after,
      });
      continue;
    }
    for (const k of keys.values()) {
      const valueOf = (y: ResultYear | undefined) =>
        y?.status === 'computed'
          ? (y.values?.find((v) => v.indicator === k.indicator && v.module === k.module)?.value ?? null)
          : null;
      const before = per(valueOf(b), qb);
      const after = per(valueOf(a), qa);
      const change = before !== null && after !== null ? after - before : null;
      rows.push({
        instance_id: id,
        external_id,
        plant_code,
        year,
        indicator: k.indicator,
        module: k.module,
        unit: k.unit,
        basis,
        declared_unit: basis === 'per_declared_unit' ? unitOfProduct : null,
        before,
        after,
        change,
        change_pct: change !== null && before !== null && before !== 0 ? (change / Math.abs(before)) * 100 : null,
        blocked_before,
        blocked_after,
      });
      if (change === null) continue;
      const base = {
        instance_id: id,
        external_id,
        year,
        indicator: k.indicator,
        module: k.module,
        unit: k.unit,
        basis,
      };
      // Per component: its contribution before and after.
      let explained = 0;
      const bdB = b?.breakdown ?? null;
      const bdA = a?.breakdown ?? null;
      if (bdB && bdA) {
        const contrib = new Map<string, { type: string | null; ref: string | null; b: number; a: number }>();
        const add = (list: typeof bdB, side: 'b' | 'a', q: number | null) => {
          for (const e of list) {
            if (e.indicator !== k.indicator || e.module !== k.module || e.value === null) continue;
            const key = componentKey(e.component_type, e.ref);
            const c = contrib.get(key) ?? { type: e.component_type, ref: e.ref, b: 0, a: 0 };
            c[side] += per(e.value, q) ?? 0;
            contrib.set(key, c);
          }
        };
        add(bdB, 'b', qb);
        add(bdA, 'a', qa);
        for (const c of contrib.values()) {
          const d = c.a - c.b;
          if (Math.abs(d) <= ROUNDING * Math.max(Math.abs(c.a), Math.abs(c.b))) continue;
          explained += d;
          const info = infoOf(c.ref);
          sources.push({
            ...base,
            line: 'component',
            component_type: c.type,
            ref: c.ref,
            ...componentName(info),
            before: c.b,
            after: c.a,
            change: d,
            rows: rowsOfComponent(ai.causes, (c.ref ?? '').toLowerCase(), info?.externalId ?? null),
          });
        }
      }
      const rest = change - explained;
      if (Math.abs(rest) > ROUNDING * Math.max(Math.abs(before!), Math.abs(after!))) {
        // What the breakdown leaves is the production figures' when they changed and the rest is explained.
        const prod = production && ((bdB !== null && bdA !== null) || onlyProduction);
        sources.push({
          ...base,
          line: prod ? 'production_figures' : 'not_attributed',
          component_type: null,
          ref: null,
          code: null,
          name: null,
          supplier: null,
          before: null,
          after: null,
          change: rest,
          rows: prod ? [...new Set(ai.causes.filter((c) => c.kind === 'production').flatMap((c) => c.where))] : [],
        });
      }
    }
  }
}
