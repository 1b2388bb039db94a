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

type Numbers12 = [
  gwpFossil: number,
  gwpBiogenic: number,
  gwpLuluc: number,
  odp: number,
  ap: number,
  epFreshwater: number,
  epMarine: number,
  epTerrestrial: number,
  pocp: number,
  adpe: number,
  adpf: number,
  wdp: number,
];

function row(code: string, name: string, unit: MaterialUnit, n: Numbers12): MaterialFactorRow {
  const [fossil, biogenic, luluc, odp, ap, epFw, epMar, epTer, pocp, adpe, adpf, wdp] = n;
  return {
    code,
    name,
    unit,
    factors: makeFactors({
      'GWP-fossil': fossil,
      'GWP-biogenic': biogenic,
      'GWP-luluc': luluc,
      ODP: odp,
      AP: ap,
      'EP-freshwater': epFw,
      'EP-marine': epMar,
      'EP-terrestrial': epTer,
      POCP: pocp,
      ADPE: adpe,
      ADPF: adpf,
      WDP: wdp,
    }),
  };
}

// prettier-ignore
/** Columns: GWP-fossil, GWP-biogenic, GWP-luluc, ODP, AP, EP-freshwater, EP-marine, EP-terrestrial, POCP, ADPE, ADPF, WDP. */
export const MATERIAL_FACTORS: readonly MaterialFactorRow[] = Object.freeze([
  // ---- clinker, cements, supplementary cementitious materials, binders (per kg)
  row('MAT-CLINKER', 'Portland cement clinker', 'KG', [0.846, 0.003, 0.0004, 1.6e-8, 1.15e-3, 2.2e-6, 5.2e-4, 5.8e-3, 1.45e-3, 1.2e-7, 3.1, 0.012]),
  row('MAT-CEM1', 'Cement CEM I (Portland cement)', 'KG', [0.795, 0.003, 0.0004, 1.8e-8, 1.1e-3, 3.5e-6, 5.0e-4, 5.5e-3, 1.4e-3, 1.5e-7, 3.2, 0.018]),
  row('MAT-CEM2', 'Cement CEM II (Portland-composite cement)', 'KG', [0.675, 0.003, 0.0004, 1.6e-8, 9.5e-4, 3.1e-6, 4.3e-4, 4.7e-3, 1.2e-3, 1.4e-7, 2.8, 0.016]),
  row('MAT-CEM3', 'Cement CEM III (blast-furnace cement)', 'KG', [0.405, 0.002, 0.0003, 1.3e-8, 6.5e-4, 2.6e-6, 2.7e-4, 2.9e-3, 7.5e-4, 1.2e-7, 2.0, 0.014]),
  row('MAT-GGBS', 'Ground granulated blast-furnace slag (GGBS)', 'KG', [0.079, 0.0005, 0.0001, 6.0e-9, 2.1e-4, 1.2e-6, 5.0e-5, 5.5e-4, 1.5e-4, 4.0e-8, 1.1, 0.006]),
  row('MAT-FLYASH', 'Fly ash (hard coal)', 'KG', [0.0098, 0.0001, 0.00001, 9.0e-10, 3.5e-5, 1.5e-7, 1.1e-5, 1.2e-4, 3.2e-5, 5.0e-9, 0.14, 0.0008]),
  row('MAT-LIMESTONE', 'Limestone, crushed and ground', 'KG', [0.0097, 0.0001, 0.00002, 1.5e-9, 6.0e-5, 2.5e-7, 2.2e-5, 2.4e-4, 6.5e-5, 8.0e-9, 0.13, 0.0009]),
  row('MAT-HYDLIME', 'Hydrated lime', 'KG', [0.83, 0.002, 0.0003, 1.2e-8, 7.0e-4, 2.0e-6, 2.5e-4, 2.7e-3, 7.0e-4, 1.0e-7, 2.6, 0.010]),
  row('MAT-GYPSUM', 'Gypsum (calcium sulfate dihydrate, natural and FGD)', 'KG', [0.049, 0.0005, 0.00008, 4.0e-9, 1.3e-4, 8.0e-7, 3.5e-5, 3.8e-4, 1.1e-4, 3.0e-8, 0.75, 0.003]),
  row('MAT-STUCCO', 'Calcined gypsum (stucco, beta-hemihydrate)', 'KG', [0.128, 0.001, 0.0001, 1.1e-8, 2.2e-4, 1.5e-6, 6.0e-5, 6.5e-4, 1.9e-4, 5.0e-8, 2.1, 0.006]),
  row('MAT-ANHYDRITE', 'Anhydrite binder', 'KG', [0.058, 0.0005, 0.00008, 5.0e-9, 1.4e-4, 9.0e-7, 3.8e-5, 4.1e-4, 1.2e-4, 3.0e-8, 0.85, 0.003]),
  // ---- aggregates and water (per kg)
  row('MAT-SAND', 'Sand 0/2, washed', 'KG', [0.0038, 0.00005, 0.00002, 6.0e-10, 2.6e-5, 1.0e-7, 9.0e-6, 1.0e-4, 2.8e-5, 1.5e-9, 0.055, 0.0015]),
  row('MAT-GRAVEL', 'Gravel 2/16, round', 'KG', [0.0048, 0.00005, 0.00002, 7.0e-10, 3.1e-5, 1.2e-7, 1.1e-5, 1.2e-4, 3.3e-5, 2.0e-9, 0.068, 0.0012]),
  row('MAT-CRUSHED', 'Crushed aggregate 16/32', 'KG', [0.0059, 0.00006, 0.00002, 9.0e-10, 3.8e-5, 1.5e-7, 1.4e-5, 1.5e-4, 4.1e-5, 2.5e-9, 0.082, 0.0008]),
  row('MAT-RCA', 'Recycled concrete aggregate', 'KG', [0.0029, 0.00003, 0.00001, 4.5e-10, 2.2e-5, 8.0e-8, 8.0e-6, 8.8e-5, 2.4e-5, 1.2e-9, 0.041, 0.0004]),
  row('MAT-WATER', 'Water, tap', 'KG', [0.00029, 0.000005, 0.000001, 3.0e-11, 1.5e-6, 4.0e-8, 5.0e-7, 5.5e-6, 1.4e-6, 1.0e-10, 0.0045, 0.0021]),
  // ---- admixtures and additives (per kg)
  row('MAT-SUPERPL', 'Superplasticizer (PCE)', 'KG', [1.86, 0.03, 0.004, 2.2e-7, 5.5e-3, 6.0e-5, 1.3e-3, 1.4e-2, 4.5e-3, 3.0e-6, 38, 0.45]),
  row('MAT-RETARDER', 'Set retarder', 'KG', [1.18, 0.02, 0.003, 1.4e-7, 4.0e-3, 4.0e-5, 9.0e-4, 9.8e-3, 3.0e-3, 2.0e-6, 24, 0.30]),
  row('MAT-AIRENT', 'Air-entraining agent', 'KG', [0.52, 0.01, 0.001, 6.0e-8, 1.8e-3, 1.8e-5, 4.0e-4, 4.4e-3, 1.3e-3, 8.0e-7, 11, 0.12]),
  row('MAT-CELLETHER', 'Cellulose ether (plaster additive)', 'KG', [3.1, -1.28, 0.02, 2.5e-7, 1.2e-2, 2.0e-4, 2.4e-3, 2.6e-2, 7.0e-3, 2.0e-6, 58, 0.60]),
  row('MAT-PERLITE', 'Expanded perlite', 'KG', [0.48, 0.002, 0.0003, 4.0e-8, 1.1e-3, 8.0e-6, 2.6e-4, 2.8e-3, 8.0e-4, 1.0e-7, 7.2, 0.020]),
  // ---- reinforcement (per kg)
  row('MAT-REBAR', 'Reinforcing steel B500B', 'KG', [1.19, 0.005, 0.002, 5.0e-8, 4.5e-3, 1.1e-4, 9.0e-4, 9.5e-3, 4.5e-3, 3.0e-6, 13, 0.15]),
  row('MAT-STEELFIBRE', 'Steel fibres for concrete', 'KG', [1.48, 0.006, 0.002, 6.5e-8, 5.6e-3, 1.3e-4, 1.1e-3, 1.2e-2, 5.4e-3, 3.5e-6, 17, 0.18]),
  // ---- gypsum board components (per kg)
  row('MAT-PAPER', 'Liner board paper (recycled fibre)', 'KG', [0.74, -1.36, 0.003, 7.0e-8, 3.2e-3, 1.2e-4, 9.0e-4, 9.0e-3, 2.6e-3, 5.0e-7, 11, 0.12]),
  row('MAT-STARCH', 'Starch', 'KG', [0.58, -1.58, 0.06, 5.0e-8, 4.0e-3, 2.5e-4, 3.5e-3, 1.6e-2, 1.5e-3, 4.0e-7, 7.5, 0.90]),
  row('MAT-GLASSFIBRE', 'Glass fibre (chopped strands)', 'KG', [2.15, 0.01, 0.002, 1.2e-7, 1.1e-2, 1.2e-4, 2.2e-3, 2.4e-2, 6.0e-3, 1.5e-6, 32, 0.20]),
  // ---- insulation materials (per kg)
  row('MAT-GLASSWOOL', 'Glass wool', 'KG', [1.27, 0.02, 0.003, 8.0e-8, 7.0e-3, 7.0e-5, 1.6e-3, 1.7e-2, 4.5e-3, 1.5e-5, 19, 0.25]),
  row('MAT-STONEWOOL', 'Stone wool', 'KG', [1.18, 0.015, 0.002, 6.0e-8, 7.5e-3, 5.0e-5, 1.8e-3, 1.9e-2, 5.0e-3, 2.0e-6, 16, 0.12]),
  row('MAT-EPS', 'Expanded polystyrene (EPS)', 'KG', [3.26, 0.03, 0.004, 1.1e-7, 1.1e-2, 1.5e-4, 2.6e-3, 2.8e-2, 1.2e-2, 5.0e-7, 88, 0.35]),
  row('MAT-PFBINDER', 'Phenol-formaldehyde binder', 'KG', [2.6, 0.02, 0.003, 1.8e-7, 8.0e-3, 1.1e-4, 1.8e-3, 1.9e-2, 6.5e-3, 1.2e-6, 62, 0.40]),
  row('MAT-PEFILM', 'PE film (packaging)', 'KG', [2.05, 0.003, 0.001, 4.0e-8, 6.0e-3, 5.0e-5, 1.2e-3, 1.3e-2, 6.0e-3, 3.0e-7, 75, 0.08]),
  // ---- energy carriers
  row('MAT-ELEC', 'Electricity, grid mix Germany', 'KWH', [0.42, 0.004, 0.003, 1.4e-8, 6.5e-4, 3.2e-5, 1.5e-4, 1.6e-3, 4.2e-4, 1.8e-7, 6.1, 0.055]),
  row('MAT-NATGAS', 'Natural gas, thermal energy', 'MJ', [0.0665, 0.0001, 0.00003, 1.0e-9, 5.0e-5, 3.0e-7, 1.6e-5, 1.7e-4, 4.5e-5, 8.0e-10, 1.18, 0.0004]),
  row('MAT-DIESEL', 'Diesel, burned in construction machinery', 'KG', [3.72, 0.002, 0.0008, 5.5e-7, 1.8e-2, 1.3e-5, 8.0e-3, 8.8e-2, 2.5e-2, 4.0e-7, 48.5, 0.03]),
  // ---- product types (generic datasets, per unit the product is sold in)
  row('MAT-RMC', 'Ready-mixed concrete (generic)', 'M3', [235, 0.9, 0.12, 6.0e-6, 0.45, 1.6e-3, 0.17, 1.85, 0.50, 9.0e-5, 1250, 12]),
  row('MAT-SCREED-CT', 'Cement screed (CT)', 'KG', [0.148, 0.0007, 0.0001, 4.0e-9, 2.3e-4, 9.0e-7, 9.0e-5, 9.8e-4, 2.6e-4, 3.5e-8, 0.75, 0.006]),
  row('MAT-SCREED-CA', 'Calcium sulfate screed (CA)', 'KG', [0.082, 0.0006, 0.0001, 6.0e-9, 1.9e-4, 1.1e-6, 5.0e-5, 5.4e-4, 1.6e-4, 4.0e-8, 1.2, 0.004]),
  row('MAT-GKB', 'Gypsum plasterboard, 12.5 mm', 'M2', [2.35, -0.55, 0.004, 1.5e-7, 4.5e-3, 7.0e-5, 1.1e-3, 1.2e-2, 3.2e-3, 6.0e-7, 36, 0.25]),
  row('MAT-GYPPLASTER', 'Gypsum plaster', 'KG', [0.148, 0.001, 0.0002, 1.2e-8, 2.8e-4, 2.0e-6, 7.5e-5, 8.0e-4, 2.3e-4, 6.0e-8, 2.3, 0.008]),
  row('MAT-MW-INSUL', 'Mineral wool insulation (glass wool, 20 kg/m3)', 'M3', [25.4, 0.4, 0.06, 1.6e-6, 0.14, 1.4e-3, 3.2e-2, 0.34, 0.09, 3.0e-4, 380, 5.0]),
  row('MAT-EPS-INSUL', 'EPS insulation board (15 kg/m3)', 'M3', [49.5, 0.45, 0.06, 1.7e-6, 0.165, 2.2e-3, 3.9e-2, 0.42, 0.18, 7.5e-6, 1320, 5.3]),
]);
