/**
 * Spec rules as single functions, used by the sandbox (to enforce) and by the client/workbook validation (to
 * warn before sending). One rule, one function: do not re-implement these elsewhere.
 */
import type { BomComponent } from './schemas.js';

export interface RuleViolation {
  /** Path of the offending field, e.g. `bom[3]` or `secondary_percentage`. */
  path: string;
  err_code: string;
  msg: string;
}

/** Canonical key of a BOM component: the spec's uniqueness is per (type, ref). */
export function bomKey(c: Pick<BomComponent, 'type' | 'ref'>): string {
  return `${c.type}:${c.ref.toLowerCase()}`;
}

/** BOM uniqueness: each (type, ref) pair appears at most once. Returns the indices of repeats. */
export function findDuplicateBomComponents(bom: readonly Pick<BomComponent, 'type' | 'ref'>[]): RuleViolation[] {
  const seen = new Map<string, number>();
  const out: RuleViolation[] = [];
  bom.forEach((c, i) => {
    const k = bomKey(c);
    const first = seen.get(k);
    if (first !== undefined) {
      out.push({
        path: `bom[${i}]`,
        err_code: 'err_not_valid',
        msg: `component ${c.type} ${c.ref} repeats bom[${first}]`,
      });
    } else seen.set(k, i);
  });
  return out;
}

/** Compare two BOMs as sets of (type, ref) with masses: read order is stable but not the order sent. */
export function sameBom(
  a: readonly Pick<BomComponent, 'type' | 'ref' | 'mass_kg'>[],
  b: readonly Pick<BomComponent, 'type' | 'ref' | 'mass_kg'>[],
): boolean {
  if (a.length !== b.length) return false;
  const m = new Map(a.map((c) => [bomKey(c), c.mass_kg]));
  return b.every((c) => m.has(bomKey(c)) && m.get(bomKey(c)) === c.mass_kg);
}

export interface SiloItemFacts {
  supplier_product_id: string;
  /** Undefined when the supplier product does not exist (or is deleted). */
  product?: { plant_id: string; material_key: string; supplier_plant_id: string | null };
}

/**
 * Silo items: at least 1; all supplier products of one material type, at the silo's plant, each at most once;
 * a supplier product without supplier plant gives err_supplier_product_missing_supplier_plant.
 */
export function checkSiloItems(plantId: string, items: readonly SiloItemFacts[]): RuleViolation[] {
  const out: RuleViolation[] = [];
  if (items.length === 0) {
    out.push({ path: 'items', err_code: 'err_not_valid', msg: 'a silo needs at least 1 item' });
    return out;
  }
  const seen = new Set<string>();
  let material: string | undefined;
  items.forEach((it, i) => {
    const path = `items[${i}]`;
    const id = it.supplier_product_id.toLowerCase();
    if (seen.has(id))
      out.push({ path, err_code: 'err_not_valid', msg: `supplier product ${id} appears more than once` });
    seen.add(id);
    if (!it.product) {
      out.push({ path, err_code: 'err_not_found', msg: `supplier product ${id} not found` });
      return;
    }
    if (it.product.plant_id !== plantId)
      out.push({ path, err_code: 'err_not_valid', msg: `supplier product ${id} is not at the silo's plant` });
    if (it.product.supplier_plant_id === null)
      out.push({
        path,
        err_code: 'err_supplier_product_missing_supplier_plant',
        msg: `supplier product ${id} has no supplier plant`,
      });
    if (material === undefined) material = it.product.material_key;
    else if (material !== it.product.material_key)
      out.push({
        path,
        err_code: 'err_not_valid',
        msg: 'all supplier products of a silo must have the same material type',
      });
  });
  return out;
}

/** Material-property ranges, with the spec's own codes. */
export function checkMaterialProperties(p: {
  secondary_percentage?: number | null;
  moisture_content_percentage?: number | null;
  lifetime_years?: number | null;
  hazardous_substances?: readonly { cas_number: string; mass_share: number }[] | null;
}): RuleViolation[] {
  const out: RuleViolation[] = [];
  const pct = (v: number | null | undefined) => v !== null && v !== undefined && (v < 0 || v > 100);
  if (pct(p.secondary_percentage))
    out.push({
      path: 'secondary_percentage',
      err_code: 'err_invalid_secondary_percentage_range',
      msg: 'secondary_percentage must be between 0 and 100',
    });
  if (pct(p.moisture_content_percentage))
    out.push({
      path: 'moisture_content_percentage',
      err_code: 'err_invalid_moisture_content_range',
      msg: 'moisture_content_percentage must be between 0 and 100',
    });
  if (p.lifetime_years !== null && p.lifetime_years !== undefined && !(p.lifetime_years > 0))
    out.push({
      path: 'lifetime_years',
      err_code: 'err_invalid_lifetime_years',
      msg: 'lifetime_years must be greater than 0',
    });
  (p.hazardous_substances ?? []).forEach((h, i) => {
    if (!CAS_NUMBER.test(h.cas_number))
      out.push({
        path: `hazardous_substances[${i}].cas_number`,
        err_code: 'err_not_valid',
        msg: `"${h.cas_number}" is not a CAS number (e.g. 7732-18-5)`,
      });
    if (!(h.mass_share > 0 && h.mass_share <= 1))
      out.push({
        path: `hazardous_substances[${i}].mass_share`,
        err_code: 'err_not_valid',
        msg: 'mass_share is a fraction: greater than 0, at most 1',
      });
  });
  return out;
}

export const CAS_NUMBER = /^\d{2,7}-\d{2}-\d$/;

/** BOM masses: every mass_kg must be > 0. */
export function checkBomMasses(bom: readonly Pick<BomComponent, 'mass_kg'>[]): RuleViolation[] {
  return bom.flatMap((c, i) =>
    c.mass_kg > 0
      ? []
      : [{ path: `bom[${i}].mass_kg`, err_code: 'err_not_valid', msg: 'mass_kg must be greater than 0' }],
  );
}

/** produced_to ≥ produced_from when given. */
export function checkProductionYears(from: number, to: number | null | undefined): RuleViolation[] {
  return to !== null && to !== undefined && to < from
    ? [{ path: 'produced_to', err_code: 'err_not_valid', msg: 'produced_to must not be before produced_from' }]
    : [];
}

/**
 * Years of production figures against an instance's production period (assumed, docs/api-assumptions.md): a
 * figure must lie within produced_from … produced_to (open-ended: from produced_from on); a year sent twice in
 * one request is refused.
 */
export function checkProductionFigureYears(
  instance: { produced_from: number; produced_to: number | null },
  figures: readonly { year: number }[],
): RuleViolation[] {
  const out: RuleViolation[] = [];
  const seen = new Set<number>();
  figures.forEach((f, i) => {
    if (seen.has(f.year))
      out.push({
        path: `production_figures[${i}].year`,
        err_code: 'err_not_valid',
        msg: `year ${f.year} is given twice`,
      });
    seen.add(f.year);
    if (f.year < instance.produced_from || (instance.produced_to !== null && f.year > instance.produced_to))
      out.push({
        path: `production_figures[${i}].year`,
        err_code: 'err_not_valid',
        msg: `year ${f.year} lies outside the production period of the instance (${instance.produced_from}–${instance.produced_to ?? 'open'})`,
      });
  });
  return out;
}
