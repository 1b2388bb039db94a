/** Numbers and enums fixed by the API v2 spec (../shared/spec/api-v2.md). */
export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 200;
export const PAGE_LIMIT_DEFAULT = 50;

/** Idempotency-Key retention: 6 hours, scoped to the manufacturer. */
export const IDEMPOTENCY_RETENTION_MS = 6 * 60 * 60 * 1000;

export const UNITS = ['M', 'M2', 'M3', 'KG', 'T', 'L', 'KWH', 'MJ', 'UNIT', 'METRIC TON*KM'] as const;
export type Unit = (typeof UNITS)[number];

export const BOM_COMPONENT_TYPES = ['supplier_product', 'silo', 'prechain_product'] as const;
export type BomComponentType = (typeof BOM_COMPONENT_TYPES)[number];

export const MATERIAL_CATEGORIES = ['elementary', 'composite'] as const;

export const TRANSPORT_MODALITIES = ['truck_km', 'train_km', 'ship_km', 'barge_km'] as const;
export type TransportModality = (typeof TRANSPORT_MODALITIES)[number];

export const LCA_JOB_STATUSES = ['queued', 'processing', 'completed', 'failed', 'idle'] as const;
export type LcaJobStatus = (typeof LCA_JOB_STATUSES)[number];
/** Rule 5 of LCA results: poll while in flight; stop at completed, failed or idle whatever `results` holds. */
export function isLcaJobInFlight(status: string): boolean {
  return status === 'queued' || status === 'processing';
}

export const ENTITLEMENT_DIMENSIONS = ['users', 'plants', 'product_instances', 'published_epds'] as const;
export type EntitlementDimension = (typeof ENTITLEMENT_DIMENSIONS)[number];

/** Blocker vocabulary on LCA results (a set disjoint from err_code). */
export const BLOCKER_TYPE_MISSING_INPUT = 'missing_input';
export const BLOCKER_KIND_PRODUCTION_DATA = 'production_data';

export const API_KEY_PATTERN = /^svc-([A-Za-z0-9]+)-([A-Za-z0-9_]+)$/;

/** Mask a key for display, logs and reports: `svc-<key_id>-****`. Never returns the secret. */
export function maskApiKey(key: string | undefined | null): string {
  if (!key) return '(none)';
  const m = API_KEY_PATTERN.exec(key.trim());
  if (!m) return 'svc-????-****';
  return `svc-${m[1]}-****`;
}
