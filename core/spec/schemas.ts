/**
 * zod schemas of API v2 bodies: one schema per thing, composed. Create/update payloads are strict (the
 * sandbox rejects extra fields with 422 err_not_valid, the client never sends them); response schemas are
 * loose (unknown fields kept) because the real service may add fields at any time.
 */
import { z } from 'zod';
import { BOM_COMPONENT_TYPES, LCA_JOB_STATUSES, UNITS } from './constants.js';

/** Lenient UUID (any 8-4-4-4-12 hex): the service's ids are UUIDs, but we do not insist on a version nibble. */
export const Uuid = z.guid();
export const ExternalId = z.string().trim().min(1).max(255);
export const DateTime = z.string();

export const Unit = z.enum(UNITS);
export const Year = z.number().int().min(1900).max(2200);
const km = z.number().finite().min(0);

export const TransportRoute = z
  .object({ truck_km: km.optional(), train_km: km.optional(), ship_km: km.optional(), barge_km: km.optional() })
  .strict();
export type TransportRoute = z.infer<typeof TransportRoute>;

export const MaterialTypeRef = z.discriminatedUnion('category', [
  z.object({ category: z.literal('elementary'), elementary_id: Uuid }).strict(),
  z.object({ category: z.literal('composite'), composite_id: Uuid }).strict(),
]);
export type MaterialTypeRef = z.infer<typeof MaterialTypeRef>;

export const HazardousSubstance = z.object({ cas_number: z.string().trim().min(1), mass_share: z.number() }).strict();
export type HazardousSubstance = z.infer<typeof HazardousSubstance>;

export const AnnualItem = z.object({ year: Year, amount: z.number().finite() }).strict();
export const SiloItem = z.object({ supplier_product_id: Uuid, annual_items: z.array(AnnualItem) }).strict();
export type SiloItem = z.infer<typeof SiloItem>;

export const BomComponent = z
  .object({ type: z.enum(BOM_COMPONENT_TYPES), ref: Uuid, mass_kg: z.number().finite() })
  .strict();
export type BomComponent = z.infer<typeof BomComponent>;

// ---------- create payloads (strict) ----------
export const SupplierCompanyCreate = z
  .object({
    external_id: ExternalId.nullable().optional(),
    name: z.string().trim().min(1),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'ISO 3166 alpha-2 country code')
      .nullable()
      .optional(),
  })
  .strict();
export type SupplierCompanyCreate = z.infer<typeof SupplierCompanyCreate>;

export const SupplierPlantCreate = z
  .object({
    external_id: ExternalId.nullable().optional(),
    name: z.string().trim().min(1),
    supplier_company_id: Uuid,
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'ISO 3166 alpha-2 country code')
      .nullable()
      .optional(),
    city: z.string().nullable().optional(),
  })
  .strict();
export type SupplierPlantCreate = z.infer<typeof SupplierPlantCreate>;

export const SupplierProductCreate = z
  .object({
    external_id: ExternalId.nullable().optional(),
    name: z.string().trim().min(1),
    plant_id: Uuid,
    material_type: MaterialTypeRef,
    supplier_plant_id: Uuid.nullable().optional(),
    transport_route: TransportRoute.nullable().optional(),
    epd_id: Uuid.nullable().optional(),
    hazardous_substances: z.array(HazardousSubstance).optional(),
    lifetime_years: z.number().finite().nullable().optional(),
    secondary_percentage: z.number().finite().nullable().optional(),
    moisture_content_percentage: z.number().finite().nullable().optional(),
    unit: Unit,
  })
  .strict();
export type SupplierProductCreate = z.infer<typeof SupplierProductCreate>;

export const SiloCreate = z
  .object({
    external_id: ExternalId.nullable().optional(),
    plant_id: Uuid,
    name: z.string().trim().min(1),
    items: z.array(SiloItem),
  })
  .strict();
export type SiloCreate = z.infer<typeof SiloCreate>;

export const ProductInstanceCreate = z
  .object({
    external_id: ExternalId.nullable().optional(),
    product_id: Uuid,
    plant_id: Uuid,
    produced_from: Year,
    produced_to: Year.nullable().optional(),
    name: z.string().nullable().optional(),
  })
  .strict();
export type ProductInstanceCreate = z.infer<typeof ProductInstanceCreate>;

export const PrechainProductCreate = z
  .object({
    product_instance_id: Uuid,
    plant_id: Uuid,
    external_id: ExternalId.nullable().optional(),
    transport_route: TransportRoute.nullable().optional(),
  })
  .strict();
export type PrechainProductCreate = z.infer<typeof PrechainProductCreate>;

export const BomPut = z.object({ bom: z.array(BomComponent) }).strict();
export type BomPut = z.infer<typeof BomPut>;

/** One production figure of a product instance: the quantity produced in a year, in the product's `unit`. */
export const ProductionFigure = z.object({ year: Year, quantity: z.number().finite().min(0) }).strict();
export type ProductionFigure = z.infer<typeof ProductionFigure>;
/**
 * PUT /v2/product-instances/{id}/production-figures (assumed, docs/api-assumptions.md): the years sent are set,
 * other years are left as they are.
 */
export const ProductionFiguresPut = z.object({ production_figures: z.array(ProductionFigure).min(1) }).strict();
export type ProductionFiguresPut = z.infer<typeof ProductionFiguresPut>;

/** PATCH (assumed): a partial update of the create fields, same validation. */
export const SupplierCompanyPatch = SupplierCompanyCreate.partial();
export const SupplierPlantPatch = SupplierPlantCreate.partial();
export const SupplierProductPatch = SupplierProductCreate.partial();
export const SiloPatch = SiloCreate.partial();
export const ProductInstancePatch = ProductInstanceCreate.partial();
export const PrechainProductPatch = PrechainProductCreate.partial();

// ---------- responses (loose: unknown fields kept) ----------
export const ErrorBody = z.looseObject({
  msg: z.string(),
  err_code: z.string(),
  entitlement_limit: z.looseObject({ dimension: z.string(), usage: z.number(), limit: z.number() }).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Page = <T extends z.ZodType>(item: T) =>
  z.looseObject({ data: z.array(item), next_cursor: z.string().nullable() });

/**
 * Response schemas: a field is required exactly when the spec's table marks it required ("yes", or "response"
 * for a field the service assigns); everything else is optional, and unknown fields are kept (loose objects).
 * Where the spec gives no table or a table without a Required column (plants, elementaries, composites, supplier
 * companies, supplier plants, supplier products, the key introspection), only what the client cannot work
 * without is required: the entity's `id`; for /v2/me `manufacturer_id` (Idempotency-Keys), `scopes` and
 * `plant_ids` (preflight) (docs/api-assumptions.md, "Response shapes").
 */
export const Me = z.looseObject({
  manufacturer_id: Uuid,
  api_key_id: z.string().optional(),
  owner_profile_id: Uuid.optional(),
  scopes: z.array(z.string()),
  plant_ids: z.array(Uuid),
});
export type Me = z.infer<typeof Me>;

/** Every field marked required ("yes") in the spec's Product table. */
export const Product = z.looseObject({
  id: Uuid,
  external_id: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  use_case: z.string(),
  elementary_id: Uuid,
  unit: z.string(),
  is_published_on_emidat: z.boolean(),
  product_instance_ids: z.array(Uuid),
  plant_ids: z.array(Uuid),
  created_at: DateTime,
});
export type Product = z.infer<typeof Product>;

/** What every entity in an answer carries: the service id and, when set, your code. */
const IDENTIFIED = { id: Uuid, external_id: z.string().nullable().optional() };
/** ... and its name (optional in an answer). */
const NAMED = { ...IDENTIFIED, name: z.string().optional() };

export const Plant = z.looseObject(NAMED);
export type Plant = z.infer<typeof Plant>;

export const Elementary = z.looseObject({
  ...NAMED,
  unit: z.string().optional(),
});
export type Elementary = z.infer<typeof Elementary>;

export const Composite = z.looseObject(NAMED);
export type Composite = z.infer<typeof Composite>;

export const SupplierCompany = z.looseObject({
  ...NAMED,
  country: z.string().nullable().optional(),
  created_at: DateTime.optional(),
});
export type SupplierCompany = z.infer<typeof SupplierCompany>;

export const SupplierPlant = z.looseObject({
  ...NAMED,
  supplier_company_id: Uuid.optional(),
  country: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  created_at: DateTime.optional(),
});
export type SupplierPlant = z.infer<typeof SupplierPlant>;

/** The spec's Supplier product table has no Required column: only `id` is required. */
export const SupplierProduct = z.looseObject({
  ...NAMED,
  material_type: z.looseObject({ category: z.string() }).optional(),
  plant_id: Uuid.optional(),
  supplier_plant_id: Uuid.nullable().optional(),
  transport_route: z.record(z.string(), z.unknown()).nullable().optional(),
  epd_id: Uuid.nullable().optional(),
  hazardous_substances: z.array(z.record(z.string(), z.unknown())).optional(),
  lifetime_years: z.number().nullable().optional(),
  secondary_percentage: z.number().nullable().optional(),
  moisture_content_percentage: z.number().nullable().optional(),
  unit: z.string().optional(),
  impacts_per_kg: z.array(z.unknown()).nullable().optional(),
  transport_impacts_per_kg: z.array(z.unknown()).nullable().optional(),
  secondary_datasets: z.array(z.unknown()).nullable().optional(),
  created_at: DateTime.optional(),
});
export type SupplierProduct = z.infer<typeof SupplierProduct>;

/** Silo table: id and created_at "response", plant_id, name, items "yes"; external_id optional. */
export const Silo = z.looseObject({
  ...IDENTIFIED,
  plant_id: Uuid,
  name: z.string(),
  items: z.array(
    z.looseObject({
      supplier_product_id: Uuid,
      annual_items: z.array(z.looseObject({ year: z.number(), amount: z.number() })),
    }),
  ),
  created_at: DateTime,
});
export type Silo = z.infer<typeof Silo>;

/** Preview group: parsed leniently (everything but id optional; the client warns on missing fields). */
export const ProductInstance = z.looseObject({
  ...IDENTIFIED,
  product_id: Uuid.optional(),
  plant_id: Uuid.optional(),
  produced_from: z.number().optional(),
  produced_to: z.number().nullable().optional(),
  name: z.string().nullable().optional(),
  created_at: DateTime.optional(),
});
export type ProductInstance = z.infer<typeof ProductInstance>;

/** Preview group: parsed leniently. */
export const PrechainProduct = z.looseObject({
  ...IDENTIFIED,
  product_instance_id: Uuid.optional(),
  plant_id: Uuid.optional(),
  transport_route: z.record(z.string(), z.unknown()).nullable().optional(),
  impacts_per_kg: z.array(z.unknown()).nullable().optional(),
  transport_impacts_per_kg: z.array(z.unknown()).nullable().optional(),
});
export type PrechainProduct = z.infer<typeof PrechainProduct>;

export const Bom = z.looseObject({
  bom: z.array(z.looseObject({ type: z.string(), ref: Uuid, mass_kg: z.number() })),
});
export type Bom = z.infer<typeof Bom>;

/** Answer of GET/PUT …/production-figures (assumed): loose, unknown fields kept. */
export const ProductionFigures = z.looseObject({
  production_figures: z.array(z.looseObject({ year: z.number().int(), quantity: z.number().nullable() })),
});
export type ProductionFigures = z.infer<typeof ProductionFigures>;

/** job.status is the one field the spec names (rule 5 branches on it); results is what the answer is for. */
export const LcaJob = z.looseObject({ status: z.string() });
export const LcaResults = z.looseObject({
  product_instance_id: Uuid.optional(),
  job: LcaJob,
  results: z.array(z.unknown()),
});
export type LcaResults = z.infer<typeof LcaResults>;

export const LCA_JOB_STATUS = z.enum(LCA_JOB_STATUSES);
