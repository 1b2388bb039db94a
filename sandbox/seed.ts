/**
 * Sandbox seed data: the read-only catalog a manufacturer sets up in the web interface (plants, material
 * types, composites, products) and, for the demo, a few product instances with production data, the supplier
 * set behind them (supplier companies, supplier plants, supplier products, a cement silo), their BOMs and one
 * completed LCA job per instance (its results are computed by the store when it loads the seed).
 *
 * Deterministic from (kind, now): ids are name-based UUIDs (v5 style, sha1), so they are stable across
 * restarts and test runs; years and timestamps are relative to the sandbox clock `now` (UTC).
 * Interface: /work/briefs/lca-seed-interface.md.
 */
import { createHash } from 'node:crypto';
import type { BomComponentType, Unit } from '../core/spec/constants.js';
import type { TransportRoute } from '../core/spec/schemas.js';
import type { ImpactFactors } from './lca.js';
import { MATERIAL_FACTORS } from './lca-factors.js';
import type { MaterialUnit } from './lca-factors.js';

export type SeedKind = 'demo' | 'empty';

export interface SeedPlant {
  id: string;
  /** plant code, e.g. 'PL-HEID' */
  external_id: string;
  name: string;
  /** ISO 3166 alpha-2 */
  country: string;
}

export interface SeedElementary {
  id: string;
  /** material code, e.g. 'MAT-CEM1' */
  external_id: string;
  name: string;
  unit: MaterialUnit;
  /** A1-A3 factors per 1 `unit` (per kg for KG) */
  factors: ImpactFactors;
}

export interface SeedComposite {
  id: string;
  external_id: string;
  name: string;
  /** mass shares, summing to 1 */
  parts: { elementary_id: string; share: number }[];
}

export interface SeedProduct {
  id: string;
  /** article number */
  external_id: string;
  name: string;
  description: string;
  use_case: string;
  elementary_id: string;
  unit: Unit;
  is_published_on_emidat: boolean;
  created_at: string;
}

export interface SeedInstance {
  id: string;
  external_id: string;
  product_id: string;
  plant_id: string;
  produced_from: number;
  produced_to: number | null;
  name: string;
  created_at: string;
}

export interface SeedProduction {
  product_instance_id: string;
  year: number;
  quantity: number;
}

export interface SeedSupplierCompany {
  id: string;
  /** supplier code, e.g. 'SUP-SZK' */
  external_id: string;
  name: string;
  country: string;
  created_at: string;
}

export interface SeedSupplierPlant {
  id: string;
  external_id: string;
  name: string;
  supplier_company_id: string;
  country: string;
  city: string;
  created_at: string;
}

/** A supplier product as created through POST /v2/supplier-products (the store adds the computed fields). */
export interface SeedSupplierProduct {
  id: string;
  external_id: string;
  name: string;
  material_type: { category: 'elementary'; elementary_id: string };
  /** the seed plant (one of `plants`) it is delivered to */
  plant_id: string;
  /** null: no supplier plant (own well water) */
  supplier_plant_id: string | null;
  transport_route: TransportRoute | null;
  unit: Unit;
  secondary_percentage: number | null;
  moisture_content_percentage: number | null;
  created_at: string;
}

export interface SeedSilo {
  id: string;
  external_id: string;
  plant_id: string;
  name: string;
  /** annual purchase volumes in kg (docs/api-assumptions.md row 1) */
  items: { supplier_product_id: string; annual_items: { year: number; amount: number }[] }[];
  created_at: string;
}

export interface SeedBom {
  product_instance_id: string;
  /** per unit of the instance's product (per t of cement, per m3 of concrete, per m2 of board) */
  components: { type: BomComponentType; ref: string; mass_kg: number }[];
}

/** A completed LCA recompute of an instance; the store computes and stores its results when it loads the seed. */
export interface SeedLcaJob {
  id: string;
  product_instance_id: string;
  queued_at: string;
  started_at: string;
  finished_at: string;
}

export interface SeedData {
  manufacturer_id: string;
  owner_profile_id: string;
  plants: SeedPlant[];
  elementaries: SeedElementary[];
  composites: SeedComposite[];
  products: SeedProduct[];
  /** [] in 'empty' (so are all the lists below) */
  product_instances: SeedInstance[];
  production: SeedProduction[];
  supplier_companies: SeedSupplierCompany[];
  supplier_plants: SeedSupplierPlant[];
  supplier_products: SeedSupplierProduct[];
  silos: SeedSilo[];
  boms: SeedBom[];
  lca_jobs: SeedLcaJob[];
}

/** Name-based UUID (RFC 4122 version 5 layout over sha1 of a fixed namespace + name): stable across runs. */
export function seedUuid(name: string): string {
  const b = createHash('sha1').update(`supply-loader-sandbox/${name}`).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

const MANUFACTURER_ID = seedUuid('manufacturer/demo');
const OWNER_PROFILE_ID = seedUuid('profile/owner');

const plantId = (code: string) => seedUuid(`plant/${code}`);
const elementaryId = (code: string) => seedUuid(`elementary/${code}`);
const compositeId = (code: string) => seedUuid(`composite/${code}`);
const productId = (article: string) => seedUuid(`product/${article}`);
const instanceId = (code: string) => seedUuid(`product-instance/${code}`);
const supplierCompanyId = (code: string) => seedUuid(`supplier-company/${code}`);
const supplierPlantId = (code: string) => seedUuid(`supplier-plant/${code}`);
const supplierProductId = (code: string) => seedUuid(`supplier-product/${code}`);
const siloId = (code: string) => seedUuid(`silo/${code}`);
const lcaJobId = (instanceCode: string) => seedUuid(`lca-job/${instanceCode}`);

// ---------------------------------------------------------------- catalog

const PLANTS: readonly Omit<SeedPlant, 'id'>[] = [
  { external_id: 'PL-HEID', name: 'Zementwerk Heidelberg-Leimen', country: 'DE' },
  { external_id: 'PL-MUC', name: 'Transportbetonwerk München-Nord', country: 'DE' },
  { external_id: 'PL-OSTR', name: 'Gips- und Dämmstoffwerk Osterode am Harz', country: 'DE' },
];

const COMPOSITES: readonly { external_id: string; name: string; parts: [material: string, share: number][] }[] = [
  {
    external_id: 'CMP-CEM2B-S',
    name: 'Cement blend CEM II/B-S (clinker, GGBS, gypsum)',
    parts: [
      ['MAT-CLINKER', 0.66],
      ['MAT-GGBS', 0.3],
      ['MAT-GYPSUM', 0.04],
    ],
  },
  {
    external_id: 'CMP-AGG-0-16',
    name: 'Concrete aggregate mix 0/16 (sand, gravel, recycled)',
    parts: [
      ['MAT-SAND', 0.38],
      ['MAT-GRAVEL', 0.5],
      ['MAT-RCA', 0.12],
    ],
  },
  {
    external_id: 'CMP-PLASTER-PREMIX',
    name: 'Gypsum plaster premix (stucco, limestone, lime, perlite, cellulose ether)',
    parts: [
      ['MAT-STUCCO', 0.7],
      ['MAT-LIMESTONE', 0.25],
      ['MAT-HYDLIME', 0.03],
      ['MAT-PERLITE', 0.015],
      ['MAT-CELLETHER', 0.005],
    ],
  },
];

interface ProductRow {
  article: string;
  name: string;
  description: string;
  use_case: string;
  material: string;
  unit: Unit;
  published: boolean;
}

// prettier-ignore
const PRODUCTS: readonly ProductRow[] = [
  // cements (bulk in tonnes, bagged in kg)
  { article: 'ART-10011', name: 'CEM I 42,5 R', description: 'Portland cement, high early strength, bulk', use_case: 'Precast elements, high early strength concrete', material: 'MAT-CEM1', unit: 'T', published: true },
  { article: 'ART-10012', name: 'CEM I 52,5 R', description: 'Portland cement, strength class 52.5, bulk', use_case: 'High-strength and prestressed concrete', material: 'MAT-CEM1', unit: 'T', published: true },
  { article: 'ART-10021', name: 'CEM II/A-LL 42,5 N', description: 'Portland-limestone cement, bulk', use_case: 'General ready-mixed concrete', material: 'MAT-CEM2', unit: 'T', published: true },
  { article: 'ART-10022', name: 'CEM II/B-S 42,5 N', description: 'Portland-slag cement, bulk', use_case: 'Structural concrete, reduced clinker', material: 'MAT-CEM2', unit: 'T', published: false },
  { article: 'ART-10031', name: 'CEM III/A 42,5 N', description: 'Blast-furnace cement, bulk', use_case: 'Low-carbon concrete, massive elements', material: 'MAT-CEM3', unit: 'T', published: true },
  { article: 'ART-10032', name: 'CEM III/B 32,5 N-LH/SR', description: 'Blast-furnace cement, low heat, sulfate resisting, bulk', use_case: 'Foundations, hydraulic structures', material: 'MAT-CEM3', unit: 'T', published: false },
  { article: 'ART-10041', name: 'CEM II/A-LL 32,5 R, 25 kg bag', description: 'Portland-limestone cement in 25 kg paper bags', use_case: 'DIY and small building sites', material: 'MAT-CEM2', unit: 'KG', published: false },
  // ready-mixed concrete (per m3)
  { article: 'ART-20020', name: 'Transportbeton C20/25 XC1 F3 16', description: 'Ready-mixed concrete C20/25, max. aggregate 16 mm', use_case: 'Interior components, blinding', material: 'MAT-RMC', unit: 'M3', published: false },
  { article: 'ART-20025', name: 'Transportbeton C25/30 XC2 F3 16', description: 'Ready-mixed concrete C25/30, max. aggregate 16 mm', use_case: 'Foundations, basement walls', material: 'MAT-RMC', unit: 'M3', published: true },
  { article: 'ART-20030', name: 'Transportbeton C30/37 XC4 XF1 F3 16', description: 'Ready-mixed concrete C30/37, frost resistant', use_case: 'External walls, slabs', material: 'MAT-RMC', unit: 'M3', published: true },
  { article: 'ART-20035', name: 'Transportbeton C35/45 XD2 F4 16', description: 'Ready-mixed concrete C35/45, chloride resistant', use_case: 'Car parks, swimming pools', material: 'MAT-RMC', unit: 'M3', published: false },
  { article: 'ART-20045', name: 'Transportbeton C45/55 XA2 F4 16', description: 'Ready-mixed concrete C45/55, chemical attack class XA2', use_case: 'Sewage plants, agricultural buildings', material: 'MAT-RMC', unit: 'M3', published: false },
  { article: 'ART-20050', name: 'Transportbeton C50/60 F5 16', description: 'High-strength ready-mixed concrete C50/60', use_case: 'Columns, high-rise cores', material: 'MAT-RMC', unit: 'M3', published: false },
  { article: 'ART-20060', name: 'Transportbeton C30/37 XC4 CEM III (low carbon)', description: 'Ready-mixed concrete C30/37 with blast-furnace cement', use_case: 'Low-carbon structural concrete', material: 'MAT-RMC', unit: 'M3', published: true },
  // screeds (dry mix, per kg)
  { article: 'ART-21001', name: 'Zementestrich CT-C25-F4, 40 kg', description: 'Cement screed dry mix in 40 kg bags', use_case: 'Floating and bonded screeds', material: 'MAT-SCREED-CT', unit: 'KG', published: false },
  { article: 'ART-21002', name: 'Calciumsulfat-Fließestrich CAF-C30-F6, silo', description: 'Calcium sulfate flowing screed, silo dry mix', use_case: 'Heated floor screeds in residential buildings', material: 'MAT-SCREED-CA', unit: 'KG', published: true },
  { article: 'ART-21003', name: 'Schnellestrich CT-C40-F7, 25 kg', description: 'Fast-curing cement screed in 25 kg bags', use_case: 'Renovation with short drying times', material: 'MAT-SCREED-CT', unit: 'KG', published: false },
  // gypsum boards (per m2)
  { article: 'ART-30101', name: 'Gipsplatte GKB 12,5 mm (Typ A)', description: 'Gypsum plasterboard type A, 12.5 mm', use_case: 'Drywall partitions and ceilings', material: 'MAT-GKB', unit: 'M2', published: true },
  { article: 'ART-30102', name: 'Feuerschutzplatte GKF 12,5 mm (Typ DF)', description: 'Fire-protection gypsum board type DF, 12.5 mm', use_case: 'Fire-rated partitions and shaft walls', material: 'MAT-GKB', unit: 'M2', published: true },
  { article: 'ART-30103', name: 'Imprägnierte Platte GKBI 12,5 mm (Typ H2)', description: 'Moisture-resistant gypsum board type H2, 12.5 mm', use_case: 'Bathrooms and kitchens', material: 'MAT-GKB', unit: 'M2', published: false },
  // plasters (per kg)
  { article: 'ART-30201', name: 'Gips-Maschinenputz MP 75, 30 kg', description: 'Gypsum machine plaster in 30 kg bags', use_case: 'Interior wall and ceiling plaster', material: 'MAT-GYPPLASTER', unit: 'KG', published: true },
  { article: 'ART-30202', name: 'Gips-Kalk-Putz, 30 kg', description: 'Gypsum-lime plaster in 30 kg bags', use_case: 'Interior plaster for humid rooms', material: 'MAT-GYPPLASTER', unit: 'KG', published: false },
  { article: 'ART-30203', name: 'Leichtputz mit Perlite, 30 kg', description: 'Lightweight gypsum plaster with perlite', use_case: 'Thick-layer interior plaster', material: 'MAT-GYPPLASTER', unit: 'KG', published: false },
  // insulation (per m3)
  { article: 'ART-40101', name: 'Glaswolle-Klemmfilz WLG 035', description: 'Glass wool insulation roll, thermal conductivity 0.035 W/(m·K)', use_case: 'Pitched roofs and timber-frame walls', material: 'MAT-MW-INSUL', unit: 'M3', published: true },
  { article: 'ART-40201', name: 'EPS-Fassadendämmplatte 035 DEO', description: 'EPS insulation board, thermal conductivity 0.035 W/(m·K)', use_case: 'External thermal insulation composite systems (ETICS)', material: 'MAT-EPS-INSUL', unit: 'M3', published: true },
];

// ---------------------------------------------------------------- demo instances and production data

interface InstanceRow {
  code: string;
  article: string;
  plant: string;
  name: string;
  /** years relative to the current year of `now` */
  from: number;
  to: number | null;
  /** production quantities in the product's unit, by year offset; 'partial' = share of `annual` so far */
  production: Partial<Record<number, number | { partialOfAnnual: number }>>;
}

const INSTANCES: readonly InstanceRow[] = [
  {
    // open-ended, started 3 years ago; the current year partial
    code: 'PI-HEID-10011',
    article: 'ART-10011',
    plant: 'PL-HEID',
    name: 'CEM I 42,5 R – Zementwerk Heidelberg-Leimen',
    from: -3,
    to: null,
    production: { [-3]: 412_300, [-2]: 398_750, [-1]: 405_100, 0: { partialOfAnnual: 404_000 } },
  },
  {
    // open-ended, started 2 years ago; the current year partial
    code: 'PI-HEID-10022',
    article: 'ART-10022',
    plant: 'PL-HEID',
    name: 'CEM II/B-S 42,5 N – Zementwerk Heidelberg-Leimen',
    from: -2,
    to: null,
    production: { [-2]: 186_400, [-1]: 221_900, 0: { partialOfAnnual: 236_000 } },
  },
  {
    // a future produced_to; a planned quantity for next year stays blocked until that year arrives
    code: 'PI-MUC-20030',
    article: 'ART-20030',
    plant: 'PL-MUC',
    name: 'C30/37 XC4 XF1 – Transportbetonwerk München-Nord',
    from: -1,
    to: 2,
    production: { [-1]: 48_250, 0: { partialOfAnnual: 50_000 }, 1: 51_000 },
  },
  {
    // finished in the past; one past year without production data
    code: 'PI-OSTR-30101',
    article: 'ART-30101',
    plant: 'PL-OSTR',
    name: 'GKB 12,5 mm – Gipswerk Osterode (line 1, closed)',
    from: -5,
    to: -2,
    production: { [-5]: 18_400_000, [-3]: 19_100_000, [-2]: 19_650_000 },
  },
  {
    // open-ended; no production data for the current year yet
    code: 'PI-OSTR-40201',
    article: 'ART-40201',
    plant: 'PL-OSTR',
    name: 'EPS 035 DEO – Dämmstoffwerk Osterode',
    from: -1,
    to: null,
    production: { [-1]: 62_500 },
  },
];

// ---------------------------------------------------------------- demo supplier set, silo, BOMs

// prettier-ignore
const SUPPLIER_COMPANIES: readonly { code: string; name: string; country: string }[] = [
  { code: 'SUP-SZK', name: 'Süddeutsche Zement- und Kalkwerke GmbH', country: 'DE' },
  { code: 'SUP-DZA', name: 'Donau Zement GmbH', country: 'AT' },
  { code: 'SUP-HSR', name: 'Hütten- und Kraftwerksprodukte Rhein-Saar GmbH', country: 'DE' },
  { code: 'SUP-IKS', name: 'Isar-Kieswerke GmbH & Co. KG', country: 'DE' },
  { code: 'SUP-RNC', name: 'Rhein-Neckar Chemie AG', country: 'DE' },
  { code: 'SUP-HKP', name: 'Harzer Karton- und Papierfabrik GmbH', country: 'DE' },
];

// prettier-ignore
const SUPPLIER_PLANTS: readonly { code: string; name: string; company: string; country: string; city: string }[] = [
  { code: 'SPL-SZK-SCHELKLINGEN', name: 'Zement- und Klinkerwerk Schelklingen', company: 'SUP-SZK', country: 'DE', city: 'Schelklingen' },
  { code: 'SPL-DZA-KIRCHDORF', name: 'Zementwerk Kirchdorf', company: 'SUP-DZA', country: 'AT', city: 'Kirchdorf an der Krems' },
  { code: 'SPL-HSR-VOELKLINGEN', name: 'Aufbereitung Völklingen (Hüttensand, Flugasche, REA-Gips)', company: 'SUP-HSR', country: 'DE', city: 'Völklingen' },
  { code: 'SPL-IKS-ECHING', name: 'Kieswerk Eching', company: 'SUP-IKS', country: 'DE', city: 'Eching' },
  { code: 'SPL-RNC-LUDWIGSHAFEN', name: 'Werk Ludwigshafen', company: 'SUP-RNC', country: 'DE', city: 'Ludwigshafen am Rhein' },
  { code: 'SPL-HKP-HERZBERG', name: 'Kartonfabrik Herzberg', company: 'SUP-HKP', country: 'DE', city: 'Herzberg am Harz' },
];

interface SupplierProductRow {
  code: string;
  name: string;
  material: string;
  plant: string;
  /** null: no supplier plant (the plant's own well) */
  supplierPlant: string | null;
  /** km from the supplier plant to the seed plant's gate */
  route: TransportRoute | null;
  secondary: number | null;
  moisture: number | null;
}

// prettier-ignore
const SUPPLIER_PRODUCTS: readonly SupplierProductRow[] = [
  // cement grinding at Heidelberg-Leimen: clinker and limestone by rail from Schelklingen, GGBS and FGD gypsum by truck
  { code: 'SP-HEID-CLINKER', name: 'Portlandzementklinker', material: 'MAT-CLINKER', plant: 'PL-HEID', supplierPlant: 'SPL-SZK-SCHELKLINGEN', route: { train_km: 195, truck_km: 12 }, secondary: null, moisture: null },
  { code: 'SP-HEID-GGBS', name: 'Hüttensandmehl (GGBS)', material: 'MAT-GGBS', plant: 'PL-HEID', supplierPlant: 'SPL-HSR-VOELKLINGEN', route: { truck_km: 165 }, secondary: 100, moisture: null },
  { code: 'SP-HEID-LIMESTONE', name: 'Kalksteinmehl', material: 'MAT-LIMESTONE', plant: 'PL-HEID', supplierPlant: 'SPL-SZK-SCHELKLINGEN', route: { train_km: 195, truck_km: 12 }, secondary: null, moisture: 1 },
  { code: 'SP-HEID-GYPSUM', name: 'REA-Gips (Abbinderegler)', material: 'MAT-GYPSUM', plant: 'PL-HEID', supplierPlant: 'SPL-HSR-VOELKLINGEN', route: { truck_km: 170 }, secondary: 100, moisture: 8 },
  // ready-mixed concrete at München-Nord: cement from two suppliers into one silo, local sand and gravel
  { code: 'SP-MUC-CEM2-SZK', name: 'CEM II/A-LL 42,5 N lose (Schelklingen)', material: 'MAT-CEM2', plant: 'PL-MUC', supplierPlant: 'SPL-SZK-SCHELKLINGEN', route: { truck_km: 165 }, secondary: null, moisture: null },
  { code: 'SP-MUC-CEM2-DZA', name: 'CEM II/A-LL 42,5 N lose (Kirchdorf)', material: 'MAT-CEM2', plant: 'PL-MUC', supplierPlant: 'SPL-DZA-KIRCHDORF', route: { truck_km: 225 }, secondary: null, moisture: null },
  { code: 'SP-MUC-FLYASH', name: 'Steinkohlenflugasche', material: 'MAT-FLYASH', plant: 'PL-MUC', supplierPlant: 'SPL-HSR-VOELKLINGEN', route: { train_km: 440, truck_km: 15 }, secondary: 100, moisture: null },
  { code: 'SP-MUC-SAND-0-2', name: 'Sand 0/2, gewaschen', material: 'MAT-SAND', plant: 'PL-MUC', supplierPlant: 'SPL-IKS-ECHING', route: { truck_km: 18 }, secondary: null, moisture: 4.5 },
  { code: 'SP-MUC-GRAVEL-2-8', name: 'Kies 2/8', material: 'MAT-GRAVEL', plant: 'PL-MUC', supplierPlant: 'SPL-IKS-ECHING', route: { truck_km: 18 }, secondary: null, moisture: 2 },
  { code: 'SP-MUC-GRAVEL-8-16', name: 'Kies 8/16', material: 'MAT-GRAVEL', plant: 'PL-MUC', supplierPlant: 'SPL-IKS-ECHING', route: { truck_km: 18 }, secondary: null, moisture: 1.5 },
  { code: 'SP-MUC-SUPERPL', name: 'Fließmittel PCE', material: 'MAT-SUPERPL', plant: 'PL-MUC', supplierPlant: 'SPL-RNC-LUDWIGSHAFEN', route: { truck_km: 345 }, secondary: null, moisture: null },
  { code: 'SP-MUC-WATER', name: 'Anmachwasser (eigener Brunnen)', material: 'MAT-WATER', plant: 'PL-MUC', supplierPlant: null, route: null, secondary: null, moisture: null },
  // gypsum boards and EPS at Osterode
  { code: 'SP-OSTR-GYPSUM', name: 'REA-Gips für Gipsplatten', material: 'MAT-GYPSUM', plant: 'PL-OSTR', supplierPlant: 'SPL-HSR-VOELKLINGEN', route: { train_km: 410, truck_km: 25 }, secondary: 100, moisture: 9 },
  { code: 'SP-OSTR-PAPER', name: 'Gipskartonpapier (Recyclingfaser)', material: 'MAT-PAPER', plant: 'PL-OSTR', supplierPlant: 'SPL-HKP-HERZBERG', route: { truck_km: 14 }, secondary: 95, moisture: 7 },
  { code: 'SP-OSTR-EPS', name: 'EPS-Rohstoff (expandierbares Polystyrol)', material: 'MAT-EPS', plant: 'PL-OSTR', supplierPlant: 'SPL-RNC-LUDWIGSHAFEN', route: { truck_km: 330 }, secondary: null, moisture: null },
];

/** Silos: same-type supplier products of different suppliers; annual purchase volumes in kg by year offset. */
const SILOS: readonly {
  code: string;
  name: string;
  plant: string;
  items: { product: string; annual: Partial<Record<number, number | { partialOfAnnual: number }>> }[];
}[] = [
  {
    code: 'SILO-MUC-CEM2',
    name: 'Zementsilo 1 – CEM II/A-LL 42,5 N',
    plant: 'PL-MUC',
    items: [
      { product: 'SP-MUC-CEM2-SZK', annual: { [-1]: 8_450_000, 0: { partialOfAnnual: 9_100_000 } } },
      { product: 'SP-MUC-CEM2-DZA', annual: { [-1]: 6_020_000, 0: { partialOfAnnual: 5_300_000 } } },
    ],
  },
];

/** BOMs per unit of product: per t of cement, per m3 of concrete, per m2 of board, per m3 of insulation. */
const BOMS: readonly {
  instance: string;
  components: [type: 'supplier_product' | 'silo', code: string, massKg: number][];
}[] = [
  {
    instance: 'PI-HEID-10011', // CEM I: 93 % clinker, set regulator, minor constituent
    components: [
      ['supplier_product', 'SP-HEID-CLINKER', 930],
      ['supplier_product', 'SP-HEID-GYPSUM', 45],
      ['supplier_product', 'SP-HEID-LIMESTONE', 25],
    ],
  },
  {
    instance: 'PI-HEID-10022', // CEM II/B-S: 30 % GGBS
    components: [
      ['supplier_product', 'SP-HEID-CLINKER', 640],
      ['supplier_product', 'SP-HEID-GGBS', 300],
      ['supplier_product', 'SP-HEID-LIMESTONE', 20],
      ['supplier_product', 'SP-HEID-GYPSUM', 40],
    ],
  },
  {
    instance: 'PI-MUC-20030', // C30/37 XC4 XF1, w/c ≈ 0.55
    components: [
      ['silo', 'SILO-MUC-CEM2', 300],
      ['supplier_product', 'SP-MUC-FLYASH', 40],
      ['supplier_product', 'SP-MUC-SAND-0-2', 780],
      ['supplier_product', 'SP-MUC-GRAVEL-2-8', 400],
      ['supplier_product', 'SP-MUC-GRAVEL-8-16', 600],
      ['supplier_product', 'SP-MUC-WATER', 170],
      ['supplier_product', 'SP-MUC-SUPERPL', 2.1],
    ],
  },
  {
    instance: 'PI-OSTR-30101', // GKB 12.5 mm, ≈ 8.5 kg/m2 after calcining and drying
    components: [
      ['supplier_product', 'SP-OSTR-GYPSUM', 9.4],
      ['supplier_product', 'SP-OSTR-PAPER', 0.42],
    ],
  },
  {
    instance: 'PI-OSTR-40201', // EPS 035 at ≈ 15 kg/m3
    components: [['supplier_product', 'SP-OSTR-EPS', 15.3]],
  },
];

/** Timing of the seeded LCA jobs: queued → processing → completed, finished this long before `now`. */
const SEED_JOB_QUEUED_MS = 100;
const SEED_JOB_PROCESSING_MS = 400;
const SEED_JOB_FINISHED_BEFORE_NOW_MS = 15 * 60_000;

/** Share of the current UTC year elapsed at `now`, in (0, 1]. */
function elapsedShareOfYear(now: Date): number {
  const y = now.getUTCFullYear();
  const start = Date.UTC(y, 0, 1);
  const end = Date.UTC(y + 1, 0, 1);
  return Math.min(1, Math.max(0, (now.getTime() - start) / (end - start)));
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The seed for `kind` at sandbox time `now`. 'empty' = the read-only catalog only (plants, elementaries,
 * composites, products); 'demo' adds product instances with production data, years relative to `now`, and
 * the supply side behind them (supplier set, silo, BOMs, a completed LCA job per instance).
 */
export function seedData(kind: SeedKind, now: Date): SeedData {
  if (kind !== 'demo' && kind !== 'empty') throw new Error(`unknown seed "${String(kind)}": use demo or empty`);
  if (Number.isNaN(now.getTime())) throw new Error('seed needs a valid date for now');
  const year = now.getUTCFullYear();
  const nowMs = now.getTime();

  const plants: SeedPlant[] = PLANTS.map((p) => ({ id: plantId(p.external_id), ...p }));
  const elementaries: SeedElementary[] = MATERIAL_FACTORS.map((m) => ({
    id: elementaryId(m.code),
    external_id: m.code,
    name: m.name,
    unit: m.unit,
    factors: { ...m.factors },
  }));
  const known = new Set(elementaries.map((e) => e.external_id));
  const material = (code: string): string => {
    if (!known.has(code)) throw new Error(`seed: unknown material ${code}`);
    return elementaryId(code);
  };
  const composites: SeedComposite[] = COMPOSITES.map((c) => ({
    id: compositeId(c.external_id),
    external_id: c.external_id,
    name: c.name,
    parts: c.parts.map(([code, share]) => ({ elementary_id: material(code), share })),
  }));
  // catalog entries were set up in the web interface some years before `now`, one a week
  const catalogStart = Date.UTC(year - 6, 2, 1, 9, 0, 0);
  const products: SeedProduct[] = PRODUCTS.map((p, i) => ({
    id: productId(p.article),
    external_id: p.article,
    name: p.name,
    description: p.description,
    use_case: p.use_case,
    elementary_id: material(p.material),
    unit: p.unit,
    is_published_on_emidat: p.published,
    created_at: iso(Math.min(nowMs, catalogStart + i * 7 * 86_400_000)),
  }));

  const seed: SeedData = {
    manufacturer_id: MANUFACTURER_ID,
    owner_profile_id: OWNER_PROFILE_ID,
    plants,
    elementaries,
    composites,
    products,
    product_instances: [],
    production: [],
    supplier_companies: [],
    supplier_plants: [],
    supplier_products: [],
    silos: [],
    boms: [],
    lca_jobs: [],
  };
  if (kind === 'empty') return seed;

  const share = elapsedShareOfYear(now);
  for (const row of INSTANCES) {
    const id = instanceId(row.code);
    const from = year + row.from;
    seed.product_instances.push({
      id,
      external_id: row.code,
      product_id: productId(row.article),
      plant_id: plantId(row.plant),
      produced_from: from,
      produced_to: row.to === null ? null : year + row.to,
      name: row.name,
      created_at: iso(Math.min(nowMs, Date.UTC(from, 0, 15, 8, 0, 0))),
    });
    for (const [offset, q] of Object.entries(row.production)) {
      if (q === undefined) continue;
      seed.production.push({ product_instance_id: id, year: year + Number(offset), quantity: yearQuantity(q, share) });
    }
  }
  seed.production.sort((a, b) => a.product_instance_id.localeCompare(b.product_instance_id) || a.year - b.year);
  addSupplySide(seed, now, material);
  return seed;
}

/** Quantity of a year: a fixed figure, or for the current year the share of the annual figure elapsed so far. */
function yearQuantity(q: number | { partialOfAnnual: number }, share: number): number {
  return typeof q === 'number' ? q : Math.max(1, Math.round(q.partialOfAnnual * share));
}

/**
 * The demo's supplier set (companies, plants, supplier products at the seed plants), the cement silo, the BOMs
 * of the demo instances and one completed LCA job per instance with a BOM. Years and times relative to `now`.
 */
function addSupplySide(seed: SeedData, now: Date, material: (code: string) => string): void {
  const year = now.getUTCFullYear();
  const nowMs = now.getTime();
  const share = elapsedShareOfYear(now);
  const at = (ms: number) => iso(Math.min(nowMs, ms));
  const plantCodes = new Set(PLANTS.map((p) => p.external_id));
  const need = (ok: boolean, what: string) => {
    if (!ok) throw new Error(`seed: unknown ${what}`);
  };

  // the supplier set was entered some years ago, after the catalog: one company a day, then plants and products
  const suppliersStart = Date.UTC(year - 6, 9, 1, 9, 0, 0);
  const day = 86_400_000;
  const companies = new Set(SUPPLIER_COMPANIES.map((c) => c.code));
  seed.supplier_companies = SUPPLIER_COMPANIES.map((c, i) => ({
    id: supplierCompanyId(c.code),
    external_id: c.code,
    name: c.name,
    country: c.country,
    created_at: at(suppliersStart + i * day),
  }));
  const supplierPlants = new Set(SUPPLIER_PLANTS.map((p) => p.code));
  seed.supplier_plants = SUPPLIER_PLANTS.map((p, i) => {
    need(companies.has(p.company), `supplier company ${p.company}`);
    return {
      id: supplierPlantId(p.code),
      external_id: p.code,
      name: p.name,
      supplier_company_id: supplierCompanyId(p.company),
      country: p.country,
      city: p.city,
      created_at: at(suppliersStart + 10 * day + i * day),
    };
  });
  const products = new Set(SUPPLIER_PRODUCTS.map((p) => p.code));
  seed.supplier_products = SUPPLIER_PRODUCTS.map((p, i) => {
    need(plantCodes.has(p.plant), `plant ${p.plant}`);
    need(p.supplierPlant === null || supplierPlants.has(p.supplierPlant), `supplier plant ${p.supplierPlant}`);
    return {
      id: supplierProductId(p.code),
      external_id: p.code,
      name: p.name,
      material_type: { category: 'elementary', elementary_id: material(p.material) },
      plant_id: plantId(p.plant),
      supplier_plant_id: p.supplierPlant === null ? null : supplierPlantId(p.supplierPlant),
      transport_route: p.route === null ? null : { ...p.route },
      unit: 'KG',
      secondary_percentage: p.secondary,
      moisture_content_percentage: p.moisture,
      created_at: at(suppliersStart + 20 * day + i * 3_600_000),
    };
  });
  const silos = new Set(SILOS.map((s) => s.code));
  seed.silos = SILOS.map((s) => ({
    id: siloId(s.code),
    external_id: s.code,
    plant_id: plantId(s.plant),
    name: s.name,
    items: s.items.map((it) => {
      need(products.has(it.product), `supplier product ${it.product}`);
      const annual: { year: number; amount: number }[] = [];
      for (const [offset, q] of Object.entries(it.annual))
        if (q !== undefined) annual.push({ year: year + Number(offset), amount: yearQuantity(q, share) });
      annual.sort((a, b) => a.year - b.year);
      return { supplier_product_id: supplierProductId(it.product), annual_items: annual };
    }),
    created_at: at(Date.UTC(year - 1, 0, 8, 7, 30, 0)),
  }));

  const instances = new Map(seed.product_instances.map((i) => [i.external_id, i]));
  seed.boms = BOMS.map((b) => {
    const inst = instances.get(b.instance);
    need(inst !== undefined, `product instance ${b.instance}`);
    return {
      product_instance_id: instanceId(b.instance),
      components: b.components.map(([type, code, mass_kg]) => {
        need(type === 'silo' ? silos.has(code) : products.has(code), `${type} ${code}`);
        return { type, ref: type === 'silo' ? siloId(code) : supplierProductId(code), mass_kg };
      }),
    };
  });

  // the last recompute finished a little before `now`, within the current year (its results are this year's)
  const finished = Math.max(Date.UTC(year, 0, 1), nowMs - SEED_JOB_FINISHED_BEFORE_NOW_MS);
  seed.lca_jobs = BOMS.map((b, i) => {
    const end = Math.min(nowMs, finished + i * 1_000);
    const started = end - SEED_JOB_PROCESSING_MS;
    return {
      id: lcaJobId(b.instance),
      product_instance_id: instanceId(b.instance),
      queued_at: iso(started - SEED_JOB_QUEUED_MS),
      started_at: iso(started),
      finished_at: iso(end),
    };
  });
}
