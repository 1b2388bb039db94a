/**
 * Create semantics: idempotent retries where the service supports them, lookups before re-creating elsewhere.
 * - Every create carries a deterministic Idempotency-Key (manufacturer, entity type, external_id, body hash).
 * - Silos and prechain products honour it: a transient failure is simply retried with the same key; a 200
 *   replay is outcome 'replayed'.
 * - Other creates have no server idempotency: after an ambiguous failure (sent, then no answer: reset,
 *   timeout, 500) the client first looks the external_id up; if the earlier attempt landed, the fields are
 *   compared ('already_existed' when the same, a conflict ApiError when not); it retries only if nothing is
 *   there. A failure where the request surely was not sent is retried directly.
 * - An err_external_id_exists (409 in the sandbox; any status — classified by err_code first) after an ambiguous
 *   failure (or always, with onExisting: 'compare') means: fetch by external_id, compare, report "already
 *   existed (same)" or a real conflict.
 */
import type { z } from 'zod';
import { ApiError } from './errors.js';
import { fieldDifferences } from './compare.js';
import { idempotencyKey } from './idempotency.js';
import type { Transport } from './transport.js';
import type { Parser } from './parse.js';

export type CreateOutcome = 'created' | 'replayed' | 'already_existed';

export interface CreateResult<T> {
  entity: T;
  outcome: CreateOutcome;
  /**
   * HTTP status of the answer that settled it (201, 200; for 'already_existed' the status err_external_id_exists
   * came with, usually 409, or the lookup's 200).
   */
  status: number;
  /** True when the outcome was settled by an external_id lookup after a failed or lost answer. */
  checked?: boolean;
  idempotencyKey: string;
}

export interface CreateOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Overrides the derived key (e.g. a key the journal recorded for this row). */
  idempotencyKey?: string;
  /**
   * What a 409 err_external_id_exists means when no earlier attempt was ambiguous: 'error' (default) throws the
   * conflict; 'compare' fetches the entity and reports 'already_existed' if the fields sent are the same.
   */
  onExisting?: 'error' | 'compare';
}

export interface CreateDeps<T> {
  transport: Transport;
  path: string;
  entityType: string;
  /** True for endpoints where the service honours Idempotency-Key (silos, prechain products). */
  serverIdempotent: boolean;
  createSchema: z.ZodType;
  parse: Parser<T>;
  manufacturerId: (signal?: AbortSignal) => Promise<string>;
  findByExternalId: (code: string, o: { signal?: AbortSignal; timeoutMs?: number }) => Promise<T | null>;
}

export function invalidRequest(endpoint: string, issues: readonly z.core.$ZodIssue[]): ApiError {
  const msg = issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');
  return invalidRequestSaying(endpoint, msg);
}

/** A request the spec's rules refuse (spec/rules.ts problems: path and words each), refused before it is sent. */
export function ruleProblems(endpoint: string, problems: readonly { path: string; msg: string }[]): ApiError {
  return invalidRequestSaying(endpoint, problems.map((p) => `${p.path}: ${p.msg}`).join('; '));
}

function invalidRequestSaying(endpoint: string, msg: string): ApiError {
  return new ApiError({
    status: 0,
    err_code: 'client_invalid_request',
    msg,
    endpoint,
    classification: 'validation',
    retryable: false,
  });
}

export async function createEntity<T>(
  deps: CreateDeps<T>,
  body: unknown,
  o: CreateOptions = {},
): Promise<CreateResult<T>> {
  const { transport, path } = deps;
  const endpoint = `POST ${path}`;
  const parsed = deps.createSchema.safeParse(body);
  if (!parsed.success) throw invalidRequest(endpoint, parsed.error.issues);
  const sent = parsed.data as Record<string, unknown>;
  const externalId = typeof sent.external_id === 'string' ? sent.external_id : null;
  const key =
    o.idempotencyKey ?? idempotencyKey(await deps.manufacturerId(o.signal), deps.entityType, externalId, sent);
  const call = {
    method: 'POST' as const,
    path,
    body: sent,
    headers: { 'idempotency-key': key },
    signal: o.signal,
    timeoutMs: o.timeoutMs,
  };
  let ambiguousBefore = false;
  let settled: CreateResult<T> | undefined;

  /** Look the entity up by external_id and compare it with what was sent. */
  const settleByLookup = async (cause: ApiError): Promise<CreateResult<T> | undefined> => {
    if (externalId === null) return undefined;
    const found = await deps.findByExternalId(externalId, { signal: o.signal, timeoutMs: o.timeoutMs });
    if (found === null) return undefined;
    const differences = fieldDifferences(sent, found);
    if (differences.length > 0) {
      throw new ApiError({
        status: 409,
        err_code: 'err_external_id_exists',
        msg: `an active ${deps.entityType} with external_id "${externalId}" exists with other values (${differences.join(', ')})`,
        endpoint,
        attempts: cause.attempts,
        classification: 'conflict',
        retryable: false,
        differences,
      });
    }
    return {
      entity: found,
      outcome: 'already_existed',
      status: cause.err_code === 'err_external_id_exists' ? cause.status : 200,
      checked: true,
      idempotencyKey: key,
    };
  };

  try {
    return await transport.retryLoop(
      async (attemptNo) => {
        const res = await transport.attempt(call, attemptNo);
        const entity = deps.parse(res.body, endpoint);
        const outcome: CreateOutcome = res.status === 200 ? 'replayed' : 'created';
        return { entity, outcome, status: res.status, idempotencyKey: key };
      },
      async (e) => {
        // By err_code, whatever the status (a service may send it with 422): the code's own conflict path.
        if (e.err_code === 'err_external_id_exists' && (ambiguousBefore || o.onExisting === 'compare')) {
          settled = await settleByLookup(e);
          return false;
        }
        if (!e.retryable) return false;
        if (deps.serverIdempotent || !e.ambiguous) {
          ambiguousBefore ||= e.ambiguous;
          return true;
        }
        // Ambiguous failure of a create the service does not de-duplicate: look before sending again.
        ambiguousBefore = true;
        if (externalId === null) {
          throw new ApiError({
            status: e.status,
            err_code: 'client_ambiguous_create',
            msg: `the create may have landed (${e.err_code}) and has no external_id to check it by`,
            endpoint,
            attempts: e.attempts,
            classification: 'network',
            retryable: false,
            ambiguous: true,
          });
        }
        settled = await settleByLookup(e);
        return settled === undefined;
      },
      o.signal,
    );
  } catch (e) {
    if (settled) return settled;
    throw e;
  }
}
