/**
 * The sandbox's error type: every failure a handler reports is an ApiFailure with an HTTP status from the
 * spec's list (200, 201, 401, 403, 409, 422, 500) and an err_code from the spec's namespace.
 */
import type { EntitlementDimension } from '../core/spec/constants.js';
import type { RuleViolation } from '../core/spec/rules.js';

export type ErrorStatus = 401 | 403 | 409 | 422 | 500;

export interface EntitlementLimit {
  dimension: EntitlementDimension;
  usage: number;
  limit: number;
}

export interface ErrorBody {
  msg: string;
  err_code: string;
  entitlement_limit?: EntitlementLimit;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly errCode: string,
    msg: string,
    readonly entitlementLimit?: EntitlementLimit,
  ) {
    super(msg);
    this.name = 'ApiFailure';
  }

  body(): ErrorBody {
    const b: ErrorBody = { msg: this.message, err_code: this.errCode };
    if (this.entitlementLimit) b.entitlement_limit = this.entitlementLimit;
    return b;
  }
}

/** The one uniform 401: it never says which check failed. */
export const notAuthenticated = () => new ApiFailure(401, 'err_not_authenticated', 'missing or invalid API key');

export const notValid = (msg: string) => new ApiFailure(422, 'err_not_valid', msg);
export const notFound = (what: string, id: string) => new ApiFailure(422, 'err_not_found', `${what} ${id} not found`);
export const plantNotFound = (id: string) => new ApiFailure(422, 'err_plant_not_found', `plant ${id} not found`);
export const permissionDenied = (scope: string) =>
  new ApiFailure(403, 'err_permission_denied', `this API key lacks the scope ${scope}`);
export const plantNoAccess = (plantId: string) =>
  new ApiFailure(403, 'err_plant_no_access', `this API key has no access to plant ${plantId}`);
export const externalIdExists = (entity: string, externalId: string) =>
  new ApiFailure(409, 'err_external_id_exists', `an active ${entity} already has external_id "${externalId}"`);

/** Status of a rule violation code (decisions recorded in docs/api-assumptions.md). */
const RULE_STATUS: Record<string, ErrorStatus> = {
  err_supplier_product_in_recipe: 409,
  err_supplier_product_in_silo: 409,
  err_prechain_product_exists: 409,
  err_external_id_exists: 409,
};

/** Turn the first violation of a rule function into a failure; the message names all of them. */
export function fromViolations(violations: readonly RuleViolation[]): ApiFailure | null {
  const first = violations[0];
  if (!first) return null;
  const shown = violations.slice(0, 5).map((v) => `${v.path}: ${v.msg}`);
  if (violations.length > 5) shown.push(`… and ${violations.length - 5} more`);
  return new ApiFailure(RULE_STATUS[first.err_code] ?? 422, first.err_code, shown.join('; '));
}
