/**
 * Shapes the sandbox stores. Each record is the API response shape of its entity (so a row serializes as is);
 * catalog rows (plants, elementaries, composites, products) come from the seed.
 */
import type { BomComponentType, Unit } from '../core/spec/constants.js';
import type { MaterialTypeRef, SiloItem, TransportRoute } from '../core/spec/schemas.js';

export interface ImpactValue {
  indicator: string;
  unit: string;
  module: string;
  value: number;
}

export interface PlantRecord {
  id: string;
  external_id: string | null;
  name: string;
  country: string;
}

export interface ElementaryRecord {
  id: string;
  external_id: string | null;
  name: string;
  unit: string;
}

export interface CompositeRecord {
  id: string;
  external_id: string | null;
  name: string;
  parts: { elementary_id: string; share: number }[];
}

/** A product without its derived fields (product_instance_ids, plant_ids are added when serialized). */
export interface ProductRecord {
  id: string;
  external_id: string | null;
  name: string;
  description: string;
  use_case: string;
  elementary_id: string;
  unit: string;
  is_published_on_emidat: boolean;
  created_at: string;
}

export interface SupplierCompanyRecord {
  id: string;
  external_id: string | null;
  name: string;
  country: string | null;
  created_at: string;
}

export interface SupplierPlantRecord {
  id: string;
  external_id: string | null;
  name: string;
  supplier_company_id: string;
  country: string | null;
  city: string | null;
  created_at: string;
}

export interface SecondaryDataset {
  elementary_id: string;
  name: string;
  share: number;
}

export interface SupplierProductRecord {
  id: string;
  external_id: string | null;
  name: string;
  material_type: MaterialTypeRef;
  plant_id: string;
  supplier_plant_id: string | null;
  transport_route: TransportRoute | null;
  epd_id: string | null;
  hazardous_substances: { cas_number: string; mass_share: number }[];
  lifetime_years: number | null;
  secondary_percentage: number | null;
  moisture_content_percentage: number | null;
  unit: Unit;
  impacts_per_kg: ImpactValue[] | null;
  transport_impacts_per_kg: ImpactValue[] | null;
  secondary_datasets: SecondaryDataset[] | null;
  created_at: string;
}

export interface SiloRecord {
  id: string;
  external_id: string | null;
  plant_id: string;
  name: string;
  items: SiloItem[];
  created_at: string;
}

export interface ProductInstanceRecord {
  id: string;
  external_id: string | null;
  product_id: string;
  plant_id: string;
  produced_from: number;
  produced_to: number | null;
  name: string | null;
  created_at: string;
}

export interface PrechainProductRecord {
  id: string;
  external_id: string | null;
  product_instance_id: string;
  plant_id: string;
  transport_route: TransportRoute | null;
  impacts_per_kg: ImpactValue[] | null;
  transport_impacts_per_kg: ImpactValue[] | null;
  created_at: string;
}

export interface BomComponentRecord {
  type: BomComponentType;
  ref: string;
  mass_kg: number;
}

/** Read order of a BOM: by (type, ref). Stable, and not the order sent. */
export function sortBom(bom: BomComponentRecord[]): BomComponentRecord[] {
  return bom.sort((a, b) =>
    a.type === b.type ? (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0) : a.type < b.type ? -1 : 1,
  );
}

export interface RequestLogEntry {
  seq: number;
  method: string;
  path: string;
  query: string;
  status: number;
  err_code: string | null;
  idempotency_key: string | null;
  /** True when the sandbox reset the socket after committing (the client saw no response). */
  reset: boolean;
  /** Present (true) when the client closed the connection before its answer; the request still ran to its end. */
  client_gone?: true;
  /** Sandbox clock, ms (shown as an RFC 3339 `at` by GET /__sandbox/requests). */
  at_ms: number;
}
