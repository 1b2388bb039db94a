/**
 * What the service says about a profile's key: GET /v2/me through the client's preflight, the plants it
 * reaches (codes and names when the key may read plants), and which scopes the jobs (import, LCA, export)
 * need that the key lacks. Nothing is written.
 */
import { createApiClient } from '../api/index.js';
import { ApiError } from '../api/errors.js';
import type { PlannedOperation } from '../api/index.js';
import { ENTITY_COLLECTIONS_SPEC, IDENTIFIED_KINDS } from '../spec/entities.js';
import type { Operation } from '../spec/scopes.js';
import { OPERATION_SCOPES } from '../spec/scopes.js';
import type { ConnectionReport, JobKind } from '../contract/index.js';
import type { Connection } from './profiles.js';

/** An operation of each entity collection the import writes (spec/entities.ts), in dependency order. */
const eachCollection = (...verbs: ('list' | 'create' | 'update')[]): Operation[] =>
  IDENTIFIED_KINDS.flatMap((k) => verbs.map((verb): Operation => `${ENTITY_COLLECTIONS_SPEC[k].resource}.${verb}`));

/** The operations each job of the app performs (reads to resolve codes and diff, writes to apply). */
export const JOB_OPERATIONS: Record<JobKind, readonly Operation[]> = {
  import: [
    'plants.list',
    'elementaries.list',
    'composites.list',
    'products.list',
    ...eachCollection('list', 'create', 'update'),
    'bom.get',
    'bom.put',
  ],
  lca: ['products.list', 'plants.list', 'productInstances.list', 'lca.update', 'lca.results'],
  export: ['products.list', ...eachCollection('list'), 'bom.get'],
};

export const JOB_KINDS = Object.keys(JOB_OPERATIONS) as JobKind[];

export interface CheckOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export async function checkConnection(conn: Connection, o: CheckOptions = {}): Promise<ConnectionReport> {
  const client = createApiClient({
    baseUrl: conn.baseUrl,
    apiKey: conn.apiKey,
    timeoutMs: o.timeoutMs ?? 15_000,
    retry: { maxAttempts: 2 },
  });
  try {
    const planned: PlannedOperation[] = [...new Set(Object.values(JOB_OPERATIONS).flat())].map((operation) => ({
      operation,
    }));
    const report = await client.preflight(planned, { signal: o.signal });
    const scopes = new Set(report.scopes);

    // Which jobs need each missing scope.
    const missing = new Map<string, Set<JobKind>>();
    for (const job of JOB_KINDS) {
      for (const op of JOB_OPERATIONS[job]) {
        const scope = OPERATION_SCOPES[op];
        if (scope !== null && !scopes.has(scope)) {
          if (!missing.has(scope)) missing.set(scope, new Set());
          missing.get(scope)?.add(job);
        }
      }
    }

    // Plant codes and names, when the key may read plants (the /v2/me list has ids only).
    let plants: ConnectionReport['plants'] = report.plant_ids.map((id) => ({ id, code: null, name: null }));
    let plantsReadable = false;
    if (scopes.has('view:plants')) {
      const byId = new Map<string, { code: string | null; name: string | null }>();
      for await (const p of client.plants.walk({}, { signal: o.signal }))
        byId.set(p.id.toLowerCase(), { code: p.external_id ?? null, name: p.name ?? null });
      plants = report.plant_ids.map((id) => ({
        id,
        code: byId.get(id.toLowerCase())?.code ?? null,
        name: byId.get(id.toLowerCase())?.name ?? null,
      }));
      plantsReadable = true;
    }

    return {
      profileId: conn.profileId,
      baseUrl: conn.baseUrl,
      maskedKey: report.key,
      apiKeyId: report.api_key_id,
      manufacturerId: report.manufacturer_id,
      scopes: [...report.scopes].sort(),
      plants,
      plantsReadable,
      expiresAt: report.expires_at,
      missingScopes: [...missing.entries()].map(([scope, jobs]) => ({
        scope,
        jobs: JOB_KINDS.filter((j) => jobs.has(j)),
      })),
      keyExpired: report.problems.some((p) => p.kind === 'key_expired'),
      keyExpiringSoon: report.warnings.some((w) => w.kind === 'key_expiring'),
    };
  } finally {
    await client.close();
  }
}

/**
 * Whether the service refuses a key outright (HTTP 401 on GET /v2/me: unknown, revoked, expired or malformed).
 * Anything else — accepted, unreachable, another error — is not a refusal (null): the connection check says more.
 */
export async function keyRefusal(
  baseUrl: string,
  apiKey: string,
  o: CheckOptions = {},
): Promise<{ status: number; errCode: string } | null> {
  const client = createApiClient({ baseUrl, apiKey, timeoutMs: o.timeoutMs ?? 8_000, retry: { maxAttempts: 1 } });
  try {
    await client.me({ signal: o.signal });
    return null;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return { status: e.status, errCode: e.err_code };
    return null;
  } finally {
    await client.close();
  }
}
