/**
 * The sandbox's LCA engine: EN 15804+A2 core indicators, transport factors, and the `results` array of
 * GET /v2/product-instances/{id}/lca-results per the spec's "Rules for results" 1–3.
 *
 * Pure: no I/O, no clock, no randomness. The server resolves BOM refs to ComponentInput and calls
 * computeResults with its own clock (`now`). Interface: /work/briefs/lca-seed-interface.md.
 *
 * Conventions:
 * - Factors are per kg of the component's material (per unit of an elementary's `unit` for non-KG
 *   elementaries such as electricity in kWh) for module A1-A3, and per t·km for transport (module A4).
 * - GWP-total is always derived as GWP-fossil + GWP-biogenic + GWP-luluc, in factors and in results.
 * - The calendar year of `now` is taken in UTC.
 */
import {
  BLOCKER_KIND_PRODUCTION_DATA,
  BLOCKER_TYPE_MISSING_INPUT,
  TRANSPORT_MODALITIES,
} from '../core/spec/constants.js';
import type { BomComponentType, TransportModality } from '../core/spec/constants.js';

// ---------------------------------------------------------------- indicators

export type IndicatorCode =
  | 'GWP-total'
  | 'GWP-fossil'
  | 'GWP-biogenic'
  | 'GWP-luluc'
  | 'ODP'
  | 'AP'
  | 'EP-freshwater'
  | 'EP-marine'
  | 'EP-terrestrial'
  | 'POCP'
  | 'ADPE'
  | 'ADPF'
  | 'WDP';

export interface Indicator {
  code: IndicatorCode;
  name: string;
  unit: string;
}

/** The 13 core environmental impact indicators of EN 15804+A2, with their units. */
export const INDICATORS: readonly Indicator[] = Object.freeze([
  { code: 'GWP-total', name: 'Climate change – total', unit: 'kg CO2 eq.' },
  { code: 'GWP-fossil', name: 'Climate change – fossil', unit: 'kg CO2 eq.' },
  { code: 'GWP-biogenic', name: 'Climate change – biogenic', unit: 'kg CO2 eq.' },
  { code: 'GWP-luluc', name: 'Climate change – land use and land use change', unit: 'kg CO2 eq.' },
  { code: 'ODP', name: 'Ozone depletion', unit: 'kg CFC-11 eq.' },
  { code: 'AP', name: 'Acidification', unit: 'mol H+ eq.' },
  { code: 'EP-freshwater', name: 'Eutrophication, freshwater', unit: 'kg P eq.' },
  { code: 'EP-marine', name: 'Eutrophication, marine', unit: 'kg N eq.' },
  { code: 'EP-terrestrial', name: 'Eutrophication, terrestrial', unit: 'mol N eq.' },
  { code: 'POCP', name: 'Photochemical ozone formation', unit: 'kg NMVOC eq.' },
  { code: 'ADPE', name: 'Depletion of abiotic resources – minerals and metals', unit: 'kg Sb eq.' },
  { code: 'ADPF', name: 'Depletion of abiotic resources – fossil fuels', unit: 'MJ' },
  { code: 'WDP', name: 'Water use (deprivation potential)', unit: 'm3 world eq. deprived' },
] satisfies Indicator[]);

export const INDICATOR_CODES: readonly IndicatorCode[] = Object.freeze(INDICATORS.map((i) => i.code));

const UNIT_OF: Readonly<Record<IndicatorCode, string>> = Object.freeze(
  Object.fromEntries(INDICATORS.map((i) => [i.code, i.unit])) as Record<IndicatorCode, string>,
);

/** Unit of an indicator (EN 15804+A2). */
export function indicatorUnit(code: IndicatorCode): string {
  return UNIT_OF[code];
}

/** Per kg (materials; per unit for non-KG elementaries) or per t·km (transport). */
export type ImpactFactors = Record<IndicatorCode, number>;

/** Build factors from everything but GWP-total, which is derived as fossil + biogenic + luluc. */
export function makeFactors(parts: Omit<ImpactFactors, 'GWP-total'>): ImpactFactors {
  return withDerivedTotal({ ...parts, 'GWP-total': 0 });
}

/** A copy with GWP-total set to GWP-fossil + GWP-biogenic + GWP-luluc. */
export function withDerivedTotal(f: ImpactFactors): ImpactFactors {
  return { ...f, 'GWP-total': f['GWP-fossil'] + f['GWP-biogenic'] + f['GWP-luluc'] };
}

export function zeroFactors(): ImpactFactors {
  const z = {} as ImpactFactors;
  for (const c of INDICATOR_CODES) z[c] = 0;
  return z;
}

// ---------------------------------------------------------------- transport

export type TransportRouteInput = { truck_km?: number; train_km?: number; ship_km?: number; barge_km?: number };

/**
 * Impacts per t·km (tonne-kilometre) by modality, module A4. GWP magnitudes: truck ≈ 0.1, rail ≈ 0.02,
 * sea ship ≈ 0.01, inland barge ≈ 0.035 kg CO2 eq. per t·km; the other indicators scaled to match
 * (diesel trucks: high NOx → AP/EP/POCP; sea ships: sulfur → AP; electric rail: grid-mix water/freshwater EP).
 */
export const TRANSPORT_FACTORS: Record<TransportModality, ImpactFactors> = Object.freeze({
  // lorry 16–32 t, EURO 6, average load
  truck_km: makeFactors({
    'GWP-fossil': 0.0985,
    'GWP-biogenic': 0.0003,
    'GWP-luluc': 0.0002,
    ODP: 2.0e-8,
    AP: 3.1e-4,
    'EP-freshwater': 6.0e-6,
    'EP-marine': 1.1e-4,
    'EP-terrestrial': 1.2e-3,
    POCP: 3.6e-4,
    ADPE: 3.5e-7,
    ADPF: 1.45,
    WDP: 6.0e-3,
  }),
  // freight train, German traction mix (mostly electric)
  train_km: makeFactors({
    'GWP-fossil': 0.0195,
    'GWP-biogenic': 0.0003,
    'GWP-luluc': 0.0002,
    ODP: 3.0e-9,
    AP: 9.0e-5,
    'EP-freshwater': 3.0e-6,
    'EP-marine': 2.1e-5,
    'EP-terrestrial': 2.3e-4,
    POCP: 6.5e-5,
    ADPE: 1.5e-7,
    ADPF: 0.29,
    WDP: 4.0e-3,
  }),
  // sea-going bulk carrier
  ship_km: makeFactors({
    'GWP-fossil': 0.0099,
    'GWP-biogenic': 0.00005,
    'GWP-luluc': 0.00005,
    ODP: 1.5e-9,
    AP: 1.9e-4,
    'EP-freshwater': 2.0e-7,
    'EP-marine': 4.8e-5,
    'EP-terrestrial': 5.3e-4,
    POCP: 1.5e-4,
    ADPE: 2.0e-8,
    ADPF: 0.13,
    WDP: 2.0e-4,
  }),
  // inland waterway barge (Rhine/Main class)
  barge_km: makeFactors({
    'GWP-fossil': 0.0344,
    'GWP-biogenic': 0.00005,
    'GWP-luluc': 0.00005,
    ODP: 6.0e-9,
    AP: 2.9e-4,
    'EP-freshwater': 1.0e-6,
    'EP-marine': 8.5e-5,
    'EP-terrestrial': 9.4e-4,
    POCP: 2.6e-4,
    ADPE: 5.0e-8,
    ADPF: 0.47,
    WDP: 1.0e-3,
  }),
});

function routeKm(route: TransportRouteInput | null | undefined, m: TransportModality): number {
  const km = route?.[m];
  return typeof km === 'number' && Number.isFinite(km) && km > 0 ? km : 0;
}

/** True when the route has a positive distance on some modality. */
export function hasTransport(route: TransportRouteInput | null | undefined): boolean {
  return TRANSPORT_MODALITIES.some((m) => routeKm(route, m) > 0);
}

/** Transport impacts per kg carried over the route: Σ km × factor per t·km / 1000. */
export function transportFactorsPerKg(route: TransportRouteInput | null | undefined): ImpactFactors {
  const out = zeroFactors();
  for (const m of TRANSPORT_MODALITIES) {
    const km = routeKm(route, m);
    if (km === 0) continue;
    const tf = TRANSPORT_FACTORS[m];
    for (const c of INDICATOR_CODES) out[c] += (km / 1000) * tf[c];
  }
  return withDerivedTotal(out);
}

// ---------------------------------------------------------------- per-kg impacts (resource fields)

export interface ImpactValue<M extends LcaModule = LcaModule> {
  indicator: IndicatorCode;
  unit: string;
  module: M;
  value: number;
}
export type LcaModule = 'A1-A3' | 'A4';

/** `impacts_per_kg` of a supplier product or prechain product: the material's A1-A3 factors per kg. */
export function impactsPerKg(factors: ImpactFactors): ImpactValue<'A1-A3'>[] {
  const f = withDerivedTotal(factors);
  return INDICATORS.map((i) => ({ indicator: i.code, unit: i.unit, module: 'A1-A3' as const, value: f[i.code] }));
}

/** `transport_impacts_per_kg`: the A4 impacts of carrying 1 kg over the route (zeros for no route). */
export function transportImpactsPerKg(route: ComponentInput['transport_route']): ImpactValue<'A4'>[] {
  const f = transportFactorsPerKg(route);
  return INDICATORS.map((i) => ({ indicator: i.code, unit: i.unit, module: 'A4' as const, value: f[i.code] }));
}

// ---------------------------------------------------------------- material types

/** A composite's factors: its elementaries' factors weighted by mass share (shares normalised to sum 1). */
export function compositeFactors(parts: readonly { share: number; factors: ImpactFactors }[]): ImpactFactors {
  const total = parts.reduce((s, p) => s + (p.share > 0 ? p.share : 0), 0);
  const out = zeroFactors();
  if (total <= 0) return out;
  for (const p of parts) {
    if (!(p.share > 0)) continue;
    const w = p.share / total;
    for (const c of INDICATOR_CODES) out[c] += w * p.factors[c];
  }
  return withDerivedTotal(out);
}

/** One item of a silo as the LCA needs it: its supplier product's factors and route, and yearly amounts. */
export interface SiloItemInput {
  supplier_product_id: string;
  factors_per_kg: ImpactFactors;
  transport_route: TransportRouteInput | null;
  annual_items: readonly { year: number; amount: number }[];
}

/** Weight of each silo item in `year`: its amounts that year / all amounts; equal weights when none. */
export function siloWeights(items: readonly SiloItemInput[], year: number): number[] {
  const amounts = items.map((it) =>
    it.annual_items.reduce(
      (s, a) => s + (a.year === year && Number.isFinite(a.amount) && a.amount > 0 ? a.amount : 0),
      0,
    ),
  );
  const total = amounts.reduce((s, a) => s + a, 0);
  if (total > 0) return amounts.map((a) => a / total);
  return items.map(() => (items.length > 0 ? 1 / items.length : 0));
}

/**
 * A silo's factors for one year: the annual-amount-weighted average of its items' supplier products (equal
 * weights when no amounts are given for that year). The route is the weighted average distance per modality,
 * which gives exactly the weighted average of the items' transport impacts (transport is linear in km).
 */
export function siloFactors(
  items: readonly SiloItemInput[],
  year: number,
): { factors_per_kg: ImpactFactors; transport_route: TransportRouteInput | null } {
  const weights = siloWeights(items, year);
  const f = zeroFactors();
  const route: Required<TransportRouteInput> = { truck_km: 0, train_km: 0, ship_km: 0, barge_km: 0 };
  items.forEach((it, i) => {
    const w = weights[i];
    for (const c of INDICATOR_CODES) f[c] += w * it.factors_per_kg[c];
    for (const m of TRANSPORT_MODALITIES) route[m] += w * routeKm(it.transport_route, m);
  });
  return { factors_per_kg: withDerivedTotal(f), transport_route: hasTransport(route) ? route : null };
}

// ---------------------------------------------------------------- results

/** What one BOM component contributes per unit of product (the sandbox resolves refs to this). */
export interface ComponentInput {
  type: BomComponentType;
  ref: string;
  mass_kg: number;
  /** A1-A3 cradle-to-gate per kg of the component's material. For a silo with `silo_items`: the fallback. */
  factors_per_kg: ImpactFactors;
  transport_route: TransportRouteInput | null;
  /**
   * Optional (silos only): the silo's items. When given, each result year uses siloFactors(silo_items, year)
   * instead of `factors_per_kg` / `transport_route`, so the yearly purchase volumes weight that year.
   */
  silo_items?: readonly SiloItemInput[];
}

export interface LcaInputs {
  instance: { id: string; produced_from: number; produced_to: number | null };
  components: ComponentInput[];
  /** production quantity (in the product's unit) entered for a year, undefined if none entered */
  production: (year: number) => number | undefined;
  /** sandbox clock */
  now: Date;
  /** key has view:recipes → per-source breakdown included */
  includeBreakdown: boolean;
}

export interface LcaBlocker {
  type: 'missing_input';
  kind: 'production_data';
  /** One of BLOCKER_CODES (disjoint from the API err_code namespace). */
  code: string;
  /** The same value as `code`: the spec speaks of blocker "err_code values" (a set disjoint from the API's). */
  err_code: string;
  msg: string;
}

export interface BreakdownEntry {
  component_type: string;
  ref: string;
  indicator: IndicatorCode;
  module: LcaModule;
  value: number;
}

export interface LcaResultElement {
  year: number;
  status: 'computed' | 'blocked';
  /** true for the current calendar year */
  partial_year: boolean;
  production_quantity: number | null;
  /** [] when blocked */
  values: ImpactValue[];
  blockers: LcaBlocker[];
  /** present only when includeBreakdown; [] when blocked */
  breakdown?: BreakdownEntry[];
}

/** Past or current year with no production data entered. */
export const BLOCKER_PRODUCTION_DATA_MISSING = 'blk_production_data_missing';
/** Future year (covered by an explicit produced_to): blocked until the year arrives, even if data was entered. */
export const BLOCKER_PRODUCTION_YEAR_NOT_REACHED = 'blk_production_year_not_reached';

/** Blocker codes: a set DISJOINT from the API err_code namespace (no code starts with `err_`). */
export const BLOCKER_CODES: readonly string[] = Object.freeze([
  BLOCKER_PRODUCTION_DATA_MISSING,
  BLOCKER_PRODUCTION_YEAR_NOT_REACHED,
]);

/** Calendar year of the sandbox clock (UTC). */
export function currentYearOf(now: Date): number {
  return now.getUTCFullYear();
}

/** Rule 1: produced_from … produced_to, an open-ended instance capped at the current year. Ascending. */
export function reportableYears(instance: LcaInputs['instance'], now: Date): number[] {
  const last = instance.produced_to ?? currentYearOf(now);
  const years: number[] = [];
  for (let y = instance.produced_from; y <= last; y++) years.push(y);
  return years;
}

function blocker(code: string, msg: string): LcaBlocker {
  return { type: BLOCKER_TYPE_MISSING_INPUT, kind: BLOCKER_KIND_PRODUCTION_DATA, code, err_code: code, msg };
}

interface Contribution {
  component_type: string;
  ref: string;
  a1a3: ImpactFactors;
  a4: ImpactFactors | null;
}

/** Per unit of product: mass × factor (A1-A3) and mass/1000 × km × t·km factor (A4), per component. */
function contributionsPerUnit(components: readonly ComponentInput[], year: number): Contribution[] {
  return components.map((c) => {
    const { factors_per_kg, transport_route } =
      c.silo_items && c.silo_items.length > 0 ? siloFactors(c.silo_items, year) : c;
    const mass = Number.isFinite(c.mass_kg) ? c.mass_kg : 0;
    const a1a3 = zeroFactors();
    for (const k of INDICATOR_CODES) a1a3[k] = mass * factors_per_kg[k];
    let a4: ImpactFactors | null = null;
    if (hasTransport(transport_route)) {
      const t = transportFactorsPerKg(transport_route);
      a4 = zeroFactors();
      for (const k of INDICATOR_CODES) a4[k] = mass * t[k];
    }
    return { component_type: c.type, ref: c.ref, a1a3: withDerivedTotal(a1a3), a4: a4 && withDerivedTotal(a4) };
  });
}

function computedYear(inputs: LcaInputs, year: number, partial: boolean, quantity: number): LcaResultElement {
  const contributions = contributionsPerUnit(inputs.components, year);
  const anyA4 = contributions.some((c) => c.a4 !== null);
  const totals: Record<LcaModule, ImpactFactors> = { 'A1-A3': zeroFactors(), A4: zeroFactors() };
  const breakdown: BreakdownEntry[] = [];
  for (const c of contributions) {
    const perModule: [LcaModule, ImpactFactors | null][] = [
      ['A1-A3', c.a1a3],
      ['A4', c.a4],
    ];
    for (const [module, f] of perModule) {
      if (!f) continue;
      for (const i of INDICATORS) {
        const value = f[i.code] * quantity;
        totals[module][i.code] += value;
        if (inputs.includeBreakdown) {
          breakdown.push({ component_type: c.component_type, ref: c.ref, indicator: i.code, module, value });
        }
      }
    }
  }
  const values: ImpactValue[] = [];
  const modules: LcaModule[] = anyA4 ? ['A1-A3', 'A4'] : ['A1-A3'];
  for (const module of modules) {
    const t = withDerivedTotal(totals[module]);
    for (const i of INDICATORS) values.push({ indicator: i.code, unit: i.unit, module, value: t[i.code] });
  }
  const el: LcaResultElement = {
    year,
    status: 'computed',
    partial_year: partial,
    production_quantity: quantity,
    values,
    blockers: [],
  };
  if (inputs.includeBreakdown) el.breakdown = breakdown;
  return el;
}

function blockedYear(inputs: LcaInputs, year: number, partial: boolean, b: LcaBlocker): LcaResultElement {
  const el: LcaResultElement = {
    year,
    status: 'blocked',
    partial_year: partial,
    production_quantity: null,
    values: [],
    blockers: [b],
  };
  if (inputs.includeBreakdown) el.breakdown = [];
  return el;
}

/**
 * The `results` array of GET .../lca-results, per the spec's rules 1–3, ascending by year:
 * 1. years produced_from … produced_to; open-ended capped at the current calendar year (of `now`, UTC);
 * 2. the current year is computed once its production data exists, with `partial_year: true`;
 *    a current or past year without production data is listed `blocked` (missing_input / production_data);
 * 3. a future year (covered by an explicit produced_to) is listed `blocked` even if data was entered.
 * Value of a year = Σ components (mass_kg × factor [A1-A3], mass_kg/1000 × km × t·km factor [A4]) × quantity.
 */
export function computeResults(inputs: LcaInputs): LcaResultElement[] {
  const current = currentYearOf(inputs.now);
  return reportableYears(inputs.instance, inputs.now).map((year) => {
    const partial = year === current;
    if (year > current) {
      return blockedYear(
        inputs,
        year,
        false,
        blocker(
          BLOCKER_PRODUCTION_YEAR_NOT_REACHED,
          `${year} is a future production year: its result stays blocked until ${year} arrives and its production data is entered.`,
        ),
      );
    }
    const quantity = inputs.production(year);
    if (quantity === undefined || !Number.isFinite(quantity)) {
      return blockedYear(
        inputs,
        year,
        partial,
        blocker(
          BLOCKER_PRODUCTION_DATA_MISSING,
          `No production data for ${year}: enter the production quantity of this product instance for ${year} (PUT /v2/product-instances/{id}/production-figures, or in the web interface), then recompute.`,
        ),
      );
    }
    return computedYear(inputs, year, partial, quantity);
  });
}

/**
 * Per-kg factors of a product instance's BOM, as a prechain product's `factors_per_kg`: (Σ component
 * impacts incl. their transport) / Σ masses, for the given year (silo weighting). The upstream transport is
 * part of the input's cradle-to-gate impact, so it is folded into A1-A3; the prechain product's own route to
 * the consuming plant stays its `transport_route` (A4 of the consuming product). Zeros for an empty BOM.
 */
export function prechainFactors(components: readonly ComponentInput[], year: number): ImpactFactors {
  const contributions = contributionsPerUnit(components, year);
  const mass = components.reduce((s, c) => s + (Number.isFinite(c.mass_kg) && c.mass_kg > 0 ? c.mass_kg : 0), 0);
  const out = zeroFactors();
  if (mass <= 0) return out;
  for (const c of contributions) {
    for (const k of INDICATOR_CODES) out[k] += (c.a1a3[k] + (c.a4 ? c.a4[k] : 0)) / mass;
  }
  return withDerivedTotal(out);
}
