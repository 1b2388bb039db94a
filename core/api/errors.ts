/**
 * ApiError: the one error type of the client. Carries the HTTP status, err_code, msg, entitlement_limit (only
 * when the service sent it), the endpoint ('POST /v2/silos') and a classification. Callers branch on err_code
 * or classification, never on msg.
 */
import {
  CLIENT_ERROR_CODES,
  type ClientErrorCode,
  type ErrCodeClass,
  type ErrCodeInfo,
  errCodeInfo,
} from '../spec/err-codes.js';
import { ENTITLEMENT_DIMENSIONS } from '../spec/constants.js';

/** The catalog's classes (spec/err-codes.ts ERR_CODE_CLASSES), plus 'network' (no answer) and 'unknown'. */
export type ErrorClassification = ErrCodeClass | 'network' | 'unknown';

export interface EntitlementLimit {
  /** Kept verbatim: an unrecognized dimension is shown as is and treated like the generic limit error. */
  dimension: string;
  usage: number;
  limit: number;
  [k: string]: unknown;
}

export interface ApiErrorInit {
  status: number;
  err_code: string;
  msg: string;
  endpoint: string;
  entitlement_limit?: EntitlementLimit;
  /** Overrides the derived classification (client-side failures). */
  classification?: ErrorClassification;
  /** Overrides the derived retryability. */
  retryable?: boolean;
  /** Number of attempts made before giving up. */
  attempts?: number;
  /** For network failures: true when the request may have reached the service (sent, then no answer). */
  ambiguous?: boolean;
  /** For a create conflict: the fields that differ between what was sent and what the service holds. */
  differences?: string[];
  /** A server's Retry-After, in ms. */
  retryAfterMs?: number;
}

/**
 * By err_code first: a code of the spec's catalog has its class there (spec/err-codes.ts), whatever the status
 * it came with (err_external_id_exists with 422 is a conflict, err_entitlement_limit_reached with 409 an
 * entitlement error). The status decides only for codes outside the catalog (unknown or client-side codes).
 */
export function classify(status: number, errCode: string): ErrorClassification {
  const info = errCodeInfo(errCode);
  if (info) return info.classification;
  if (status === 0) return errCode === 'client_invalid_request' ? 'validation' : 'network';
  if (status === 401) return 'auth';
  if (status === 403) return 'permission';
  if (status === 409) return 'conflict';
  if (status === 422) return 'validation';
  if (status >= 500) return 'server';
  return 'unknown';
}

/** True for a code of the spec's catalog or of the client's own disjoint set. */
export function isKnownErrCode(code: string): boolean {
  return errCodeInfo(code) !== undefined || code in CLIENT_ERROR_CODES;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly err_code: string;
  readonly msg: string;
  /** Present only when the service sent it (check for presence, not for null). */
  declare readonly entitlement_limit?: EntitlementLimit;
  readonly endpoint: string;
  readonly classification: ErrorClassification;
  /**
   * Whether the same request may succeed when sent again unchanged: 500s and network failures with a known (or
   * no) err_code. An unrecognized err_code is never retryable (spec, Errors rule 1).
   */
  readonly retryable: boolean;
  readonly catalog: ErrCodeInfo | undefined;
  readonly attempts: number;
  readonly ambiguous: boolean;
  declare readonly differences?: string[];
  declare readonly retryAfterMs?: number;

  constructor(init: ApiErrorInit) {
    super(`${init.endpoint} → ${init.status || 'no answer'} ${init.err_code}: ${init.msg}`);
    this.status = init.status;
    this.err_code = init.err_code;
    this.msg = init.msg;
    if (init.entitlement_limit !== undefined) this.entitlement_limit = init.entitlement_limit;
    this.endpoint = init.endpoint;
    this.classification = init.classification ?? classify(init.status, init.err_code);
    this.catalog = errCodeInfo(init.err_code);
    const transient = this.classification === 'server' || this.classification === 'network';
    this.retryable = init.retryable ?? (transient && isKnownErrCode(init.err_code));
    this.attempts = init.attempts ?? 1;
    this.ambiguous = init.ambiguous ?? false;
    if (init.differences) this.differences = init.differences;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  /** True when the service's entitlement dimension is one the spec names (others are kept verbatim). */
  get knownEntitlementDimension(): boolean {
    return (
      this.entitlement_limit !== undefined &&
      (ENTITLEMENT_DIMENSIONS as readonly string[]).includes(this.entitlement_limit.dimension)
    );
  }

  /** A plain object for journals, reports and IPC (no stack, no secrets). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      status: this.status,
      err_code: this.err_code,
      msg: this.msg,
      endpoint: this.endpoint,
      classification: this.classification,
      retryable: this.retryable,
      attempts: this.attempts,
      ...(this.entitlement_limit ? { entitlement_limit: this.entitlement_limit } : {}),
      ...(this.differences ? { differences: this.differences } : {}),
    };
  }
}

export interface ErrCodeExplanation {
  known: boolean;
  /** The spec's group, 'client' for the client's own codes, 'unknown' for a code nobody listed. */
  group: string;
  explanation: string;
  explanation_de: string;
  action?: string;
  action_de?: string;
  retryable: boolean;
}

/** Human explanation of an err_code. Unknown codes are kept verbatim, non-retryable, for the operator. */
export function explainErrCode(code: string): ErrCodeExplanation {
  const info = errCodeInfo(code);
  if (info) {
    const out: ErrCodeExplanation = {
      known: true,
      group: info.group,
      explanation: info.explanation,
      explanation_de: info.explanation_de,
      retryable: info.retryable,
    };
    if (info.action) out.action = info.action;
    if (info.action_de) out.action_de = info.action_de;
    return out;
  }
  if (code in CLIENT_ERROR_CODES) {
    const c = CLIENT_ERROR_CODES[code as ClientErrorCode];
    return { known: true, group: 'client', ...c };
  }
  return {
    known: false,
    group: 'unknown',
    explanation: `The service reported an error code this version does not know: ${code}.`,
    explanation_de: `Der Dienst meldete einen Fehlercode, den diese Version nicht kennt: ${code}.`,
    action: 'Show this code to an operator or support; do not retry automatically.',
    action_de: 'Diesen Code einem Betreuer oder dem Support zeigen; nicht automatisch wiederholen.',
    retryable: false,
  };
}
