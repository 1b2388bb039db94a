/**
 * The dry run's estimate of what a job does to the LCA (pure), from the affected instances' current results and
 * their per-source breakdown — never a result: the recompute after the job gives those. Per declared unit, per
 * year computed now, indicator and module:
 * - a BOM replace that changes a component's mass scales its contribution linearly (new mass / old mass);
 * - a component the BOM replace removes takes its contribution away;
 * - a component it adds (or swaps in) adds its mass × its contribution per kg where another instance's breakdown
 *   shows it (the same year first, else its latest year); otherwise it is not estimated.
 * What is not estimated is said in words: a component's own data changed (a supplier product, a silo, a prechain
 * product: its new contribution is known only from the recompute), production figures, a year without values
 * or breakdown, a component the job creates.
 */
import { readResults, type BreakdownContext, type InstanceLca } from '../model.js';
import type { PlanEntry } from '../../jobs/types.js';
import type { AffectedSet, ImpactEstimate, ImpactEstimates, ImpactText, InstanceBom, NotEstimated } from './types.js';

export const ESTIMATE_NOTE =
  'Estimates from the current per-source breakdown (BOM masses scaled linearly; removed components taken away; added components at a contribution per kg seen in another instance): not results. The recompute after the import gives the results.';

const NOUN: Record<string, string> = {
  supplier_product: 'supplier product',
  silo: 'silo',
  prechain_product: 'prechain product',
  prechain_instance: 'product instance of a prechain product',
};

interface PerKg {
  /** `year|indicator|module` → contribution per declared unit per kg of component */
  byYear: Map<string, number>;
  /** `indicator|module` → of the latest year seen */
  latest: Map<string, { year: number; value: number }>;
  from: string;
  /** The component's code where the donor's breakdown names it. */
  code: string | null;
}

/** Contribution per kg of each component (by ref), from every instance's breakdown and BOM masses. */
function perKgIndex(before: readonly InstanceLca[], context: BreakdownContext): Map<string, PerKg> {
  const index = new Map<string, PerKg>();
  for (const i of before) {
    const masses = new Map(
      (context.components[i.instance.id] ?? []).map((c) => [c.ref.toLowerCase(), c.massKg] as const),
    );
    for (const y of readResults(i.results)) {
      const q = y.production_quantity;
      if (y.status !== 'computed' || y.year === null || !q || q <= 0 || !y.breakdown) continue;
      for (const e of y.breakdown) {
        const ref = e.ref?.toLowerCase();
        const m = ref ? masses.get(ref) : null;
        if (!ref || !m || m <= 0 || e.value === null || !e.indicator || !e.module) continue;
        const p = index.get(ref) ?? {
          byYear: new Map(),
          latest: new Map(),
          from: i.instance.external_id ?? i.instance.id,
          code: context.components[i.instance.id]?.find((c) => c.ref.toLowerCase() === ref)?.externalId ?? null,
        };
        const v = e.value / q / m;
        const k = `${e.indicator}|${e.module}`;
        p.byYear.set(`${y.year}|${k}`, (p.byYear.get(`${y.year}|${k}`) ?? 0) + v);
        const l = p.latest.get(k);
        if (!l || l.year <= y.year) p.latest.set(k, { year: y.year, value: p.byYear.get(`${y.year}|${k}`)! });
        index.set(ref, p);
      }
    }
  }
  return index;
}

/** The BOM a replace writes: its components by ref (a component the job creates: null ref, with its code). */
function plannedBom(e: PlanEntry): { ref: string | null; code: string | null; mass: number }[] {
  const bom = Array.isArray(e.body?.bom) ? (e.body.bom as Record<string, unknown>[]) : [];
  return bom.map((c, i) => {
    const slot = e.refs?.find((r) => r.path[0] === 'bom' && r.path[1] === i);
    return {
      ref: slot ? null : typeof c.ref === 'string' ? c.ref.toLowerCase() : null,
      code: slot?.code ?? null,
      mass: typeof c.mass_kg === 'number' ? c.mass_kg : 0,
    };
  });
}

/** At most this many instances not affected are read per component a BOM replace adds (its contribution per kg). */
const DONORS_PER_COMPONENT = 2;

/**
 * Instances the job does not affect whose BOM holds a component a BOM replace adds: their stored results show
 * that component's contribution per kg (read with the affected instances' before-results, not kept).
 */
export function donorInstances(
  instances: readonly InstanceBom[],
  entries: readonly PlanEntry[],
  affected: AffectedSet,
): InstanceBom[] {
  const added = new Set<string>();
  for (const e of entries)
    if (e.kind === 'bom' && e.action === 'replace') for (const c of plannedBom(e)) if (c.ref) added.add(c.ref);
  const taken = new Set(affected.instances.flatMap((i) => (i.id ? [i.id.toLowerCase()] : [])));
  const count = new Map<string, number>();
  const out: InstanceBom[] = [];
  for (const i of instances) {
    if (taken.has(i.id.toLowerCase()) || !i.bom) continue;
    const useful = i.bom.filter((c) => added.has(c.ref) && (count.get(c.ref) ?? 0) < DONORS_PER_COMPONENT);
    if (useful.length === 0) continue;
    for (const c of useful) count.set(c.ref, (count.get(c.ref) ?? 0) + 1);
    out.push(i);
  }
  return out;
}

/**
 * The estimates of the affected instances' change. `before`: their current results and those of donor
 * instances (donorInstances); `context`: the breakdown resolved over all of them (component masses).
 */
export function estimateImpact(
  affected: AffectedSet,
  before: readonly InstanceLca[],
  context: BreakdownContext,
  entries: readonly PlanEntry[],
): ImpactEstimates {
  const estimates: ImpactEstimate[] = [];
  const notEstimated: NotEstimated[] = [];
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const beforeOf = new Map(before.map((i) => [i.instance.id.toLowerCase(), i]));
  const perKg = perKgIndex(before, context);

  for (const ai of affected.instances) {
    const not = (why: string, code: ImpactText, rows: string[] = ai.rows) =>
      notEstimated.push({ instance_id: ai.id, external_id: ai.external_id, why, why_code: code, rows });
    const lca = ai.id ? beforeOf.get(ai.id) : undefined;
    for (const c of ai.causes) {
      if (c.kind === 'bom') continue;
      not(
        c.kind === 'production'
          ? `production figures change (${c.action}): not estimated; their effect is known from the recompute`
          : `${NOUN[c.kind]} ${c.via ? `${c.code ?? c.ref ?? ''} (through ${c.via.type.replace('_', ' ')} ${c.via.code ?? c.via.ref})` : (c.code ?? c.ref ?? '')} is ${c.action === 'delete' ? 'deleted' : c.action === 'create' ? 'created' : 'updated'}: its new contribution is known only from the recompute`,
        c.kind === 'production'
          ? { code: 'production_changed', params: { action: c.action } }
          : {
              code: 'component_changed',
              params: {
                kind: c.kind,
                ...(c.of_kind ? { of_kind: c.of_kind } : {}),
                code: c.code ?? c.ref ?? '',
                action: c.action,
                ...(c.via ? { via_kind: c.via.type, via_code: c.via.code ?? c.via.ref } : {}),
              },
            },
        c.where,
      );
    }
    const bomCause = ai.causes.find((c) => c.kind === 'bom');
    if (!bomCause) continue;
    const entry = byKey.get(bomCause.entryKey);
    if (!ai.id || !lca) {
      not('a new product instance: it has no results yet', { code: 'new_instance', params: {} }, bomCause.where);
      continue;
    }
    if (!entry) continue;
    const masses = new Map(
      (context.components[lca.instance.id] ?? []).map((c) => [c.ref.toLowerCase(), c.massKg] as const),
    );
    const next = plannedBom(entry);
    const nextRefs = new Map(next.flatMap((c) => (c.ref ? [[c.ref, c.mass] as const] : [])));
    for (const c of next)
      if (c.ref === null)
        not(
          `component ${c.code ?? '?'} is created by this import: no contribution per kg is known`,
          { code: 'component_created', params: { code: c.code ?? '?' } },
          bomCause.where,
        );
    const years = readResults(lca.results);
    let anyYear = false;
    for (const y of years) {
      const q = y.production_quantity;
      if (y.year === null) continue;
      if (y.status !== 'computed' || !q || q <= 0 || !y.values) {
        not(
          `${y.year}: no current values per declared unit (blocked or no production quantity)`,
          { code: 'no_current_per_unit', params: { year: y.year } },
          bomCause.where,
        );
        continue;
      }
      if (!y.breakdown) {
        not(
          `${y.year}: no per-source breakdown (the key lacks view:recipes, or the service returned none)`,
          { code: 'no_breakdown', params: { year: y.year } },
          bomCause.where,
        );
        continue;
      }
      anyYear = true;
      const unknownAdds = new Set<string>();
      for (const v of y.values) {
        if (!v.indicator || !v.module) continue;
        const k = `${v.indicator}|${v.module}`;
        const contribution = new Map<string, number>();
        for (const e of y.breakdown)
          if (e.indicator === v.indicator && e.module === v.module && e.ref && e.value !== null)
            contribution.set(e.ref.toLowerCase(), (contribution.get(e.ref.toLowerCase()) ?? 0) + e.value / q);
        const parts: ImpactEstimate['parts'] = [];
        const refs = new Set([...masses.keys(), ...nextRefs.keys()]);
        for (const ref of refs) {
          const oldMass = masses.get(ref) ?? null;
          const newMass = nextRefs.get(ref);
          const c = contribution.get(ref) ?? 0;
          const name = context.components[lca.instance.id]?.find((x) => x.ref === ref)?.externalId ?? ref;
          if (oldMass !== null && newMass !== undefined) {
            if (oldMass === newMass || oldMass <= 0) continue;
            parts.push({
              component: name,
              ref,
              change: c * (newMass / oldMass - 1),
              why: `mass ${oldMass} → ${newMass} kg`,
              why_code: { code: 'mass_changed', params: { from: oldMass, to: newMass } },
            });
          } else if (oldMass !== null && newMass === undefined) {
            if (c !== 0)
              parts.push({
                component: name,
                ref,
                change: -c,
                why: 'removed from the BOM',
                why_code: { code: 'removed', params: {} },
              });
          } else if (newMass !== undefined) {
            const p = perKg.get(ref);
            const f = p?.byYear.get(`${y.year}|${k}`) ?? p?.latest.get(k)?.value;
            if (f === undefined) {
              unknownAdds.add(ref);
              continue;
            }
            parts.push({
              component: p!.code ?? ref,
              ref,
              change: f * newMass,
              why: `added with ${newMass} kg at the contribution per kg seen in ${p!.from}`,
              why_code: { code: 'added', params: { mass: newMass, from: p!.from } },
            });
          }
        }
        if (parts.length === 0) continue;
        estimates.push({
          instance_id: lca.instance.id,
          external_id: ai.external_id,
          year: y.year,
          indicator: v.indicator,
          module: v.module,
          unit: v.unit,
          basis: 'per_declared_unit',
          current: v.value === null ? null : v.value / q,
          estimated_change: parts.reduce((s, p) => s + p.change, 0),
          parts,
        });
      }
      for (const ref of unknownAdds)
        not(
          `${y.year}: component ${ref} is added and no breakdown shows its contribution per kg`,
          { code: 'added_without_per_kg', params: { year: y.year, code: ref } },
          bomCause.where,
        );
    }
    if (!anyYear && years.length === 0)
      not('no current results to estimate from', { code: 'no_current_results', params: {} }, bomCause.where);
  }
  // One line per instance and reason.
  const seen = new Set<string>();
  const not_estimated = notEstimated.filter((n) => {
    const k = `${n.instance_id ?? n.external_id}|${n.why}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
  return { kind: 'estimate', note: ESTIMATE_NOTE, estimates, not_estimated };
}
