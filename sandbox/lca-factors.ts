/**
 * Elementary material types of a German cement / concrete / gypsum / insulation producer, with generic
 * EN 15804+A2 A1-A3 (cradle-to-gate) factors for the 13 core indicators. Magnitudes follow typical German
 * and European EPDs and background datasets (e.g. CEM I ≈ 0.8 kg CO2 eq./kg, clinker ≈ 0.85, aggregates
 * ≈ 0.005); they are demo data for the sandbox, not certified values.
 *
 * Factors are per 1 unit of the material's `unit`: per kg for KG, per kWh for electricity, per MJ for
 * natural gas, per m3 / m2 for the product-type materials sold by volume or area. GWP-total is derived
 * (fossil + biogenic + luluc); biogenic is negative for materials that store biogenic carbon (paper, starch).
 */
import { makeFactors } from './lca.js';
import type { ImpactFactors } from './lca.js';

export type MaterialUnit = 'KG' | 'M3' | 'M2' | 'KWH' | 'MJ';

export interface MaterialFactorRow {
  /** material code, the elementary's external_id */
  code: string;
  name: string;
  unit: MaterialUnit;
  factors: ImpactFactors;
}

/** A material's A1-A3 factors: every indicator but GWP-total (derived), each by its code. */
export type MaterialFactors = Omit<ImpactFactors, 'GWP-total'>;

function row(code: string, name: string, unit: MaterialUnit, factors: MaterialFactors): MaterialFactorRow {
  return { code, name, unit, factors: makeFactors(factors) };
}

// prettier-ignore
/** One material a line; its factors by indicator code (the type requires every indicator but GWP-total). */
export const MATERIAL_FACTORS: readonly MaterialFactorRow[] = Object.freeze([
  // ---- clinker, cements, supplementary cementitious materials, binders (per kg)
  row('MAT-CLINKER', 'Portland cement clinker', 'KG', { 'GWP-fossil': 0.846, 'GWP-biogenic': 0.003, 'GWP-luluc': 0.0004, ODP: 1.6e-8, AP: 1.15e-3, 'EP-freshwater': 2.2e-6, 'EP-marine': 5.2e-4, 'EP-terrestrial': 5.8e-3, POCP: 1.45e-3, ADPE: 1.2e-7, ADPF: 3.1, WDP: 0.012 }),
  row('MAT-CEM1', 'Cement CEM I (Portland cement)', 'KG', { 'GWP-fossil': 0.795, 'GWP-biogenic': 0.003, 'GWP-luluc': 0.0004, ODP: 1.8e-8, AP: 1.1e-3, 'EP-freshwater': 3.5e-6, 'EP-marine': 5.0e-4, 'EP-terrestrial': 5.5e-3, POCP: 1.4e-3, ADPE: 1.5e-7, ADPF: 3.2, WDP: 0.018 }),
  row('MAT-CEM2', 'Cement CEM II (Portland-composite cement)', 'KG', { 'GWP-fossil': 0.675, 'GWP-biogenic': 0.003, 'GWP-luluc': 0.0004, ODP: 1.6e-8, AP: 9.5e-4, 'EP-freshwater': 3.1e-6, 'EP-marine': 4.3e-4, 'EP-terrestrial': 4.7e-3, POCP: 1.2e-3, ADPE: 1.4e-7, ADPF: 2.8, WDP: 0.016 }),
  row('MAT-CEM3', 'Cement CEM III (blast-furnace cement)', 'KG', { 'GWP-fossil': 0.405, 'GWP-biogenic': 0.002, 'GWP-luluc': 0.0003, ODP: 1.3e-8, AP: 6.5e-4, 'EP-freshwater': 2.6e-6, 'EP-marine': 2.7e-4, 'EP-terrestrial': 2.9e-3, POCP: 7.5e-4, ADPE: 1.2e-7, ADPF: 2.0, WDP: 0.014 }),
  row('MAT-GGBS', 'Ground granulated blast-furnace slag (GGBS)', 'KG', { 'GWP-fossil': 0.079, 'GWP-biogenic': 0.0005, 'GWP-luluc': 0.0001, ODP: 6.0e-9, AP: 2.1e-4, 'EP-freshwater': 1.2e-6, 'EP-marine': 5.0e-5, 'EP-terrestrial': 5.5e-4, POCP: 1.5e-4, ADPE: 4.0e-8, ADPF: 1.1, WDP: 0.006 }),
  row('MAT-FLYASH', 'Fly ash (hard coal)', 'KG', { 'GWP-fossil': 0.0098, 'GWP-biogenic': 0.0001, 'GWP-luluc': 0.00001, ODP: 9.0e-10, AP: 3.5e-5, 'EP-freshwater': 1.5e-7, 'EP-marine': 1.1e-5, 'EP-terrestrial': 1.2e-4, POCP: 3.2e-5, ADPE: 5.0e-9, ADPF: 0.14, WDP: 0.0008 }),
  row('MAT-LIMESTONE', 'Limestone, crushed and ground', 'KG', { 'GWP-fossil': 0.0097, 'GWP-biogenic': 0.0001, 'GWP-luluc': 0.00002, ODP: 1.5e-9, AP: 6.0e-5, 'EP-freshwater': 2.5e-7, 'EP-marine': 2.2e-5, 'EP-terrestrial': 2.4e-4, POCP: 6.5e-5, ADPE: 8.0e-9, ADPF: 0.13, WDP: 0.0009 }),
  row('MAT-HYDLIME', 'Hydrated lime', 'KG', { 'GWP-fossil': 0.83, 'GWP-biogenic': 0.002, 'GWP-luluc': 0.0003, ODP: 1.2e-8, AP: 7.0e-4, 'EP-freshwater': 2.0e-6, 'EP-marine': 2.5e-4, 'EP-terrestrial': 2.7e-3, POCP: 7.0e-4, ADPE: 1.0e-7, ADPF: 2.6, WDP: 0.010 }),
  row('MAT-GYPSUM', 'Gypsum (calcium sulfate dihydrate, natural and FGD)', 'KG', { 'GWP-fossil': 0.049, 'GWP-biogenic': 0.0005, 'GWP-luluc': 0.00008, ODP: 4.0e-9, AP: 1.3e-4, 'EP-freshwater': 8.0e-7, 'EP-marine': 3.5e-5, 'EP-terrestrial': 3.8e-4, POCP: 1.1e-4, ADPE: 3.0e-8, ADPF: 0.75, WDP: 0.003 }),
  row('MAT-STUCCO', 'Calcined gypsum (stucco, beta-hemihydrate)', 'KG', { 'GWP-fossil': 0.128, 'GWP-biogenic': 0.001, 'GWP-luluc': 0.0001, ODP: 1.1e-8, AP: 2.2e-4, 'EP-freshwater': 1.5e-6, 'EP-marine': 6.0e-5, 'EP-terrestrial': 6.5e-4, POCP: 1.9e-4, ADPE: 5.0e-8, ADPF: 2.1, WDP: 0.006 }),
  row('MAT-ANHYDRITE', 'Anhydrite binder', 'KG', { 'GWP-fossil': 0.058, 'GWP-biogenic': 0.0005, 'GWP-luluc': 0.00008, ODP: 5.0e-9, AP: 1.4e-4, 'EP-freshwater': 9.0e-7, 'EP-marine': 3.8e-5, 'EP-terrestrial': 4.1e-4, POCP: 1.2e-4, ADPE: 3.0e-8, ADPF: 0.85, WDP: 0.003 }),
  // ---- aggregates and water (per kg)
  row('MAT-SAND', 'Sand 0/2, washed', 'KG', { 'GWP-fossil': 0.0038, 'GWP-biogenic': 0.00005, 'GWP-luluc': 0.00002, ODP: 6.0e-10, AP: 2.6e-5, 'EP-freshwater': 1.0e-7, 'EP-marine': 9.0e-6, 'EP-terrestrial': 1.0e-4, POCP: 2.8e-5, ADPE: 1.5e-9, ADPF: 0.055, WDP: 0.0015 }),
  row('MAT-GRAVEL', 'Gravel 2/16, round', 'KG', { 'GWP-fossil': 0.0048, 'GWP-biogenic': 0.00005, 'GWP-luluc': 0.00002, ODP: 7.0e-10, AP: 3.1e-5, 'EP-freshwater': 1.2e-7, 'EP-marine': 1.1e-5, 'EP-terrestrial': 1.2e-4, POCP: 3.3e-5, ADPE: 2.0e-9, ADPF: 0.068, WDP: 0.0012 }),
  row('MAT-CRUSHED', 'Crushed aggregate 16/32', 'KG', { 'GWP-fossil': 0.0059, 'GWP-biogenic': 0.00006, 'GWP-luluc': 0.00002, ODP: 9.0e-10, AP: 3.8e-5, 'EP-freshwater': 1.5e-7, 'EP-marine': 1.4e-5, 'EP-terrestrial': 1.5e-4, POCP: 4.1e-5, ADPE: 2.5e-9, ADPF: 0.082, WDP: 0.0008 }),
  row('MAT-RCA', 'Recycled concrete aggregate', 'KG', { 'GWP-fossil': 0.0029, 'GWP-biogenic': 0.00003, 'GWP-luluc': 0.00001, ODP: 4.5e-10, AP: 2.2e-5, 'EP-freshwater': 8.0e-8, 'EP-marine': 8.0e-6, 'EP-terrestrial': 8.8e-5, POCP: 2.4e-5, ADPE: 1.2e-9, ADPF: 0.041, WDP: 0.0004 }),
  row('MAT-WATER', 'Water, tap', 'KG', { 'GWP-fossil': 0.00029, 'GWP-biogenic': 0.000005, 'GWP-luluc': 0.000001, ODP: 3.0e-11, AP: 1.5e-6, 'EP-freshwater': 4.0e-8, 'EP-marine': 5.0e-7, 'EP-terrestrial': 5.5e-6, POCP: 1.4e-6, ADPE: 1.0e-10, ADPF: 0.0045, WDP: 0.0021 }),
  // ---- admixtures and additives (per kg)
  row('MAT-SUPERPL', 'Superplasticizer (PCE)', 'KG', { 'GWP-fossil': 1.86, 'GWP-biogenic': 0.03, 'GWP-luluc': 0.004, ODP: 2.2e-7, AP: 5.5e-3, 'EP-freshwater': 6.0e-5, 'EP-marine': 1.3e-3, 'EP-terrestrial': 1.4e-2, POCP: 4.5e-3, ADPE: 3.0e-6, ADPF: 38, WDP: 0.45 }),
  row('MAT-RETARDER', 'Set retarder', 'KG', { 'GWP-fossil': 1.18, 'GWP-biogenic': 0.02, 'GWP-luluc': 0.003, ODP: 1.4e-7, AP: 4.0e-3, 'EP-freshwater': 4.0e-5, 'EP-marine': 9.0e-4, 'EP-terrestrial': 9.8e-3, POCP: 3.0e-3, ADPE: 2.0e-6, ADPF: 24, WDP: 0.30 }),
  row('MAT-AIRENT', 'Air-entraining agent', 'KG', { 'GWP-fossil': 0.52, 'GWP-biogenic': 0.01, 'GWP-luluc': 0.001, ODP: 6.0e-8, AP: 1.8e-3, 'EP-freshwater': 1.8e-5, 'EP-marine': 4.0e-4, 'EP-terrestrial': 4.4e-3, POCP: 1.3e-3, ADPE: 8.0e-7, ADPF: 11, WDP: 0.12 }),
  row('MAT-CELLETHER', 'Cellulose ether (plaster additive)', 'KG', { 'GWP-fossil': 3.1, 'GWP-biogenic': -1.28, 'GWP-luluc': 0.02, ODP: 2.5e-7, AP: 1.2e-2, 'EP-freshwater': 2.0e-4, 'EP-marine': 2.4e-3, 'EP-terrestrial': 2.6e-2, POCP: 7.0e-3, ADPE: 2.0e-6, ADPF: 58, WDP: 0.60 }),
  row('MAT-PERLITE', 'Expanded perlite', 'KG', { 'GWP-fossil': 0.48, 'GWP-biogenic': 0.002, 'GWP-luluc': 0.0003, ODP: 4.0e-8, AP: 1.1e-3, 'EP-freshwater': 8.0e-6, 'EP-marine': 2.6e-4, 'EP-terrestrial': 2.8e-3, POCP: 8.0e-4, ADPE: 1.0e-7, ADPF: 7.2, WDP: 0.020 }),
  // ---- reinforcement (per kg)
  row('MAT-REBAR', 'Reinforcing steel B500B', 'KG', { 'GWP-fossil': 1.19, 'GWP-biogenic': 0.005, 'GWP-luluc': 0.002, ODP: 5.0e-8, AP: 4.5e-3, 'EP-freshwater': 1.1e-4, 'EP-marine': 9.0e-4, 'EP-terrestrial': 9.5e-3, POCP: 4.5e-3, ADPE: 3.0e-6, ADPF: 13, WDP: 0.15 }),
  row('MAT-STEELFIBRE', 'Steel fibres for concrete', 'KG', { 'GWP-fossil': 1.48, 'GWP-biogenic': 0.006, 'GWP-luluc': 0.002, ODP: 6.5e-8, AP: 5.6e-3, 'EP-freshwater': 1.3e-4, 'EP-marine': 1.1e-3, 'EP-terrestrial': 1.2e-2, POCP: 5.4e-3, ADPE: 3.5e-6, ADPF: 17, WDP: 0.18 }),
  // ---- gypsum board components (per kg)
  row('MAT-PAPER', 'Liner board paper (recycled fibre)', 'KG', { 'GWP-fossil': 0.74, 'GWP-biogenic': -1.36, 'GWP-luluc': 0.003, ODP: 7.0e-8, AP: 3.2e-3, 'EP-freshwater': 1.2e-4, 'EP-marine': 9.0e-4, 'EP-terrestrial': 9.0e-3, POCP: 2.6e-3, ADPE: 5.0e-7, ADPF: 11, WDP: 0.12 }),
  row('MAT-STARCH', 'Starch', 'KG', { 'GWP-fossil': 0.58, 'GWP-biogenic': -1.58, 'GWP-luluc': 0.06, ODP: 5.0e-8, AP: 4.0e-3, 'EP-freshwater': 2.5e-4, 'EP-marine': 3.5e-3, 'EP-terrestrial': 1.6e-2, POCP: 1.5e-3, ADPE: 4.0e-7, ADPF: 7.5, WDP: 0.90 }),
  row('MAT-GLASSFIBRE', 'Glass fibre (chopped strands)', 'KG', { 'GWP-fossil': 2.15, 'GWP-biogenic': 0.01, 'GWP-luluc': 0.002, ODP: 1.2e-7, AP: 1.1e-2, 'EP-freshwater': 1.2e-4, 'EP-marine': 2.2e-3, 'EP-terrestrial': 2.4e-2, POCP: 6.0e-3, ADPE: 1.5e-6, ADPF: 32, WDP: 0.20 }),
  // ---- insulation materials (per kg)
  row('MAT-GLASSWOOL', 'Glass wool', 'KG', { 'GWP-fossil': 1.27, 'GWP-biogenic': 0.02, 'GWP-luluc': 0.003, ODP: 8.0e-8, AP: 7.0e-3, 'EP-freshwater': 7.0e-5, 'EP-marine': 1.6e-3, 'EP-terrestrial': 1.7e-2, POCP: 4.5e-3, ADPE: 1.5e-5, ADPF: 19, WDP: 0.25 }),
  row('MAT-STONEWOOL', 'Stone wool', 'KG', { 'GWP-fossil': 1.18, 'GWP-biogenic': 0.015, 'GWP-luluc': 0.002, ODP: 6.0e-8, AP: 7.5e-3, 'EP-freshwater': 5.0e-5, 'EP-marine': 1.8e-3, 'EP-terrestrial': 1.9e-2, POCP: 5.0e-3, ADPE: 2.0e-6, ADPF: 16, WDP: 0.12 }),
  row('MAT-EPS', 'Expanded polystyrene (EPS)', 'KG', { 'GWP-fossil': 3.26, 'GWP-biogenic': 0.03, 'GWP-luluc': 0.004, ODP: 1.1e-7, AP: 1.1e-2, 'EP-freshwater': 1.5e-4, 'EP-marine': 2.6e-3, 'EP-terrestrial': 2.8e-2, POCP: 1.2e-2, ADPE: 5.0e-7, ADPF: 88, WDP: 0.35 }),
  row('MAT-PFBINDER', 'Phenol-formaldehyde binder', 'KG', { 'GWP-fossil': 2.6, 'GWP-biogenic': 0.02, 'GWP-luluc': 0.003, ODP: 1.8e-7, AP: 8.0e-3, 'EP-freshwater': 1.1e-4, 'EP-marine': 1.8e-3, 'EP-terrestrial': 1.9e-2, POCP: 6.5e-3, ADPE: 1.2e-6, ADPF: 62, WDP: 0.40 }),
  row('MAT-PEFILM', 'PE film (packaging)', 'KG', { 'GWP-fossil': 2.05, 'GWP-biogenic': 0.003, 'GWP-luluc': 0.001, ODP: 4.0e-8, AP: 6.0e-3, 'EP-freshwater': 5.0e-5, 'EP-marine': 1.2e-3, 'EP-terrestrial': 1.3e-2, POCP: 6.0e-3, ADPE: 3.0e-7, ADPF: 75, WDP: 0.08 }),
  // ---- energy carriers
  row('MAT-ELEC', 'Electricity, grid mix Germany', 'KWH', { 'GWP-fossil': 0.42, 'GWP-biogenic': 0.004, 'GWP-luluc': 0.003, ODP: 1.4e-8, AP: 6.5e-4, 'EP-freshwater': 3.2e-5, 'EP-marine': 1.5e-4, 'EP-terrestrial': 1.6e-3, POCP: 4.2e-4, ADPE: 1.8e-7, ADPF: 6.1, WDP: 0.055 }),
  row('MAT-NATGAS', 'Natural gas, thermal energy', 'MJ', { 'GWP-fossil': 0.0665, 'GWP-biogenic': 0.0001, 'GWP-luluc': 0.00003, ODP: 1.0e-9, AP: 5.0e-5, 'EP-freshwater': 3.0e-7, 'EP-marine': 1.6e-5, 'EP-terrestrial': 1.7e-4, POCP: 4.5e-5, ADPE: 8.0e-10, ADPF: 1.18, WDP: 0.0004 }),
  row('MAT-DIESEL', 'Diesel, burned in construction machinery', 'KG', { 'GWP-fossil': 3.72, 'GWP-biogenic': 0.002, 'GWP-luluc': 0.0008, ODP: 5.5e-7, AP: 1.8e-2, 'EP-freshwater': 1.3e-5, 'EP-marine': 8.0e-3, 'EP-terrestrial': 8.8e-2, POCP: 2.5e-2, ADPE: 4.0e-7, ADPF: 48.5, WDP: 0.03 }),
  // ---- product types (generic datasets, per unit the product is sold in)
  row('MAT-RMC', 'Ready-mixed concrete (generic)', 'M3', { 'GWP-fossil': 235, 'GWP-biogenic': 0.9, 'GWP-luluc': 0.12, ODP: 6.0e-6, AP: 0.45, 'EP-freshwater': 1.6e-3, 'EP-marine': 0.17, 'EP-terrestrial': 1.85, POCP: 0.50, ADPE: 9.0e-5, ADPF: 1250, WDP: 12 }),
  row('MAT-SCREED-CT', 'Cement screed (CT)', 'KG', { 'GWP-fossil': 0.148, 'GWP-biogenic': 0.0007, 'GWP-luluc': 0.0001, ODP: 4.0e-9, AP: 2.3e-4, 'EP-freshwater': 9.0e-7, 'EP-marine': 9.0e-5, 'EP-terrestrial': 9.8e-4, POCP: 2.6e-4, ADPE: 3.5e-8, ADPF: 0.75, WDP: 0.006 }),
  row('MAT-SCREED-CA', 'Calcium sulfate screed (CA)', 'KG', { 'GWP-fossil': 0.082, 'GWP-biogenic': 0.0006, 'GWP-luluc': 0.0001, ODP: 6.0e-9, AP: 1.9e-4, 'EP-freshwater': 1.1e-6, 'EP-marine': 5.0e-5, 'EP-terrestrial': 5.4e-4, POCP: 1.6e-4, ADPE: 4.0e-8, ADPF: 1.2, WDP: 0.004 }),
  row('MAT-GKB', 'Gypsum plasterboard, 12.5 mm', 'M2', { 'GWP-fossil': 2.35, 'GWP-biogenic': -0.55, 'GWP-luluc': 0.004, ODP: 1.5e-7, AP: 4.5e-3, 'EP-freshwater': 7.0e-5, 'EP-marine': 1.1e-3, 'EP-terrestrial': 1.2e-2, POCP: 3.2e-3, ADPE: 6.0e-7, ADPF: 36, WDP: 0.25 }),
  row('MAT-GYPPLASTER', 'Gypsum plaster', 'KG', { 'GWP-fossil': 0.148, 'GWP-biogenic': 0.001, 'GWP-luluc': 0.0002, ODP: 1.2e-8, AP: 2.8e-4, 'EP-freshwater': 2.0e-6, 'EP-marine': 7.5e-5, 'EP-terrestrial': 8.0e-4, POCP: 2.3e-4, ADPE: 6.0e-8, ADPF: 2.3, WDP: 0.008 }),
  row('MAT-MW-INSUL', 'Mineral wool insulation (glass wool, 20 kg/m3)', 'M3', { 'GWP-fossil': 25.4, 'GWP-biogenic': 0.4, 'GWP-luluc': 0.06, ODP: 1.6e-6, AP: 0.14, 'EP-freshwater': 1.4e-3, 'EP-marine': 3.2e-2, 'EP-terrestrial': 0.34, POCP: 0.09, ADPE: 3.0e-4, ADPF: 380, WDP: 5.0 }),
  row('MAT-EPS-INSUL', 'EPS insulation board (15 kg/m3)', 'M3', { 'GWP-fossil': 49.5, 'GWP-biogenic': 0.45, 'GWP-luluc': 0.06, ODP: 1.7e-6, AP: 0.165, 'EP-freshwater': 2.2e-3, 'EP-marine': 3.9e-2, 'EP-terrestrial': 0.42, POCP: 0.18, ADPE: 7.5e-6, ADPF: 1320, WDP: 5.3 }),
]);
