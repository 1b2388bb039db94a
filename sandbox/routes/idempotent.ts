/**
 * Idempotency-Key on POST /v2/silos and POST /v2/prechain-products. The check and the create run in one
 * synchronous step, so concurrent requests with the same key cannot both create. Only a 201 is recorded:
 * a create that failed is not replayed (its retry runs again).
 */
import { ApiFailure, notValid } from '../errors.js';
import type { V2Call, V2Result } from '../http.js';
import { requestHash } from '../idempotency.js';

export function idempotentCreate(call: V2Call, endpoint: string, create: () => V2Result): V2Result {
  const raw = call.request.headers['idempotency-key'];
  if (raw === undefined) return create();
  if (typeof raw !== 'string' || raw.trim() === '' || raw.length > 255)
    throw notValid('Idempotency-Key must be a non-empty string of at most 255 characters');
  const { store } = call;
  const now = store.clock.now();
  const hash = requestHash(endpoint, call.body);
  const rec = store.idempotency.get(raw, now);
  if (rec) {
    if (rec.request_hash === hash) return { status: 200, body: rec.response_body };
    throw new ApiFailure(
      409,
      'err_not_valid',
      'this Idempotency-Key was already used with a different request; use a new key for a different create',
    );
  }
  const result = create();
  const body =
    typeof result.body === 'string'
      ? result.body
      : Buffer.isBuffer(result.body)
        ? result.body.toString('utf8')
        : JSON.stringify(result.body);
  store.idempotency.put(raw, { request_hash: hash, response_body: body, created_at_ms: now }, now);
  store.changed();
  return { status: result.status, body };
}
