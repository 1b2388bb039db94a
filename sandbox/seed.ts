/**
 * Sandbox seed data: the read-only catalog a manufacturer sets up in the web interface (plants, material
 * types, composites, products) and, for the demo, a few product instances with production data.
 *
 * Deterministic from (kind, now): ids are name-based UUIDs (v5 style, sha1), so they are stable across
 * restarts and test runs; years and timestamps are relative to the sandbox clock `now` (UTC).
 * Interface: /work/briefs/lca-seed-interface.md.
 */
import { createHash } from 'node:crypto';
import type { Unit } from '../electron/core/spec/constants.js';
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

export interface SeedData {
  manufacturer_id: string;
  owner_profile_id: string;
  plants: SeedPlant[];
  elementaries: SeedElementary[];
  composites: SeedComposite[];
  products: SeedProduct[];
  /** [] in 'empty' */
  product_instances: SeedInstance[];
  production: SeedProduction[];
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
 * composites, products); 'demo' adds product instances with production data, years relative to `now`.
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
      const quantity = typeof q === 'number' ? q : Math.max(1, Math.round(q.partialOfAnnual * share));
      seed.production.push({ product_instance_id: id, year: year + Number(offset), quantity });
    }
  }
  seed.production.sort((a, b) => a.product_instance_id.localeCompare(b.product_instance_id) || a.year - b.year);
  return seed;
}
