/**
 * Preflight: before anything is sent, /v2/me tells which planned operations the key cannot do — a missing
 * scope (OPERATION_SCOPES, the one table), a plant the key does not reach, a key that expires soon (when the
 * service tells the expiry; the spec's /v2/me does not list it, so this is used only if present).
 */
import { OPERATION_SCOPES, type Operation, type Scope } from '../spec/scopes.js';
import type { Me } from '../spec/schemas.js';

export interface PlannedOperation {
  operation: Operation;
  /** The plant the operation's entity sits at (silo, supplier product, product instance, prechain product). */
  plant_id?: string | null;
  /** Further plants it touches (e.g. the plants of a BOM's components: all must be reachable). */
  plant_ids?: readonly string[];
  /** How many such operations are planned (rows); default 1. */
  count?: number;
}

export type PreflightProblemKind = 'missing_scope' | 'plant_unreachable' | 'key_expired' | 'key_expiring';

export interface PreflightProblem {
  kind: PreflightProblemKind;
  operation?: Operation;
  scope?: Scope;
  plant_id?: string;
  /** Planned operations affected. */
  count: number;
  message: string;
}

export interface PreflightReport {
  /** True when nothing planned is blocked (warnings like key_expiring do not block). */
  ok: boolean;
  /** Masked key, for display: svc-<key_id>-****. */
  key: string;
  manufacturer_id: string;
  api_key_id: string;
  scopes: string[];
  plant_ids: string[];
  expires_at: string | null;
  /** Blocking: the service would answer 403. */
  problems: PreflightProblem[];
  /** Not blocking. */
  warnings: PreflightProblem[];
}

export interface PreflightOptions {
  /** Warn when the key expires within this time; default 3 days. */
  expiringWithinMs?: number;
  now?: Date;
}

/** Operations whose plant restriction does not apply (products are listed whatever the key's plants). */
const PLANT_FREE = new Set<Operation>([
  'me.get',
  'products.list',
  'elementaries.list',
  'composites.list',
  'composites.get',
]);

export function preflightReport(
  me: Me,
  maskedKey: string,
  operations: readonly PlannedOperation[],
  o: PreflightOptions = {},
): PreflightReport {
  const scopes = new Set(me.scopes);
  const plants = new Set(me.plant_ids.map((p) => p.toLowerCase()));
  const problems = new Map<string, PreflightProblem>();
  const add = (key: string, p: Omit<PreflightProblem, 'count'>, count: number) => {
    const prev = problems.get(key);
    if (prev) prev.count += count;
    else problems.set(key, { ...p, count });
  };
  for (const op of operations) {
    if (!(op.operation in OPERATION_SCOPES)) throw new TypeError(`unknown planned operation ${String(op.operation)}`);
    const count = op.count ?? 1;
    const scope = OPERATION_SCOPES[op.operation];
    if (scope !== null && !scopes.has(scope)) {
      add(
        `scope:${op.operation}`,
        {
          kind: 'missing_scope',
          operation: op.operation,
          scope,
          message: `the key lacks ${scope}, needed for ${op.operation}`,
        },
        count,
      );
    }
    if (PLANT_FREE.has(op.operation)) continue;
    const touched = [...(op.plant_id ? [op.plant_id] : []), ...(op.plant_ids ?? [])];
    for (const plant of new Set(touched.map((p) => p.toLowerCase()))) {
      if (!plants.has(plant)) {
        add(
          `plant:${op.operation}:${plant}`,
          {
            kind: 'plant_unreachable',
            operation: op.operation,
            plant_id: plant,
            message: `the key does not reach plant ${plant} (${op.operation})`,
          },
          count,
        );
      }
    }
  }
  const warnings: PreflightProblem[] = [];
  const rawExpiry = (me as Record<string, unknown>).expires_at;
  const expires_at = typeof rawExpiry === 'string' ? rawExpiry : null;
  if (expires_at) {
    const now = (o.now ?? new Date()).getTime();
    const t = Date.parse(expires_at);
    const within = o.expiringWithinMs ?? 3 * 24 * 3600_000;
    if (!Number.isNaN(t) && t <= now) {
      problems.set('expired', {
        kind: 'key_expired',
        count: operations.length,
        message: `the key expired at ${expires_at}`,
      });
    } else if (!Number.isNaN(t) && t - now <= within) {
      warnings.push({ kind: 'key_expiring', count: operations.length, message: `the key expires at ${expires_at}` });
    }
  }
  const list = [...problems.values()];
  return {
    ok: list.length === 0,
    key: maskedKey,
    manufacturer_id: me.manufacturer_id,
    // The public key_id is also the middle of the key itself (svc-{key_id}-…) when /v2/me leaves it out.
    api_key_id: me.api_key_id ?? /^svc-(.+)-\*{4}$/.exec(maskedKey)?.[1] ?? '(unknown)',
    scopes: [...me.scopes],
    plant_ids: [...me.plant_ids],
    expires_at,
    problems: list,
    warnings,
  };
}
