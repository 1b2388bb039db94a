/**
 * Idempotency-Key on POST /v2/silos and POST /v2/prechain-products. The check and the create run in one
 * synchronous step, so concurrent requests with the same key cannot both create. Only a 201 is recorded:
 * a create that failed is not replayed (its retry runs again).
 *
 * A replay passes the same access checks as the original request (auth rule 3: permissions are capped on
 * every request): the scope is checked by v2Route before the handler runs, and the plant of the created
 * entity (the `plant_id` the original request was checked against) must be reachable by the replaying key —
 * otherwise 403 `err_plant_no_access`, exactly as `GET /v2/{collection}/{id}` answers that key.
 */
import { ApiFailure, notValid } from '../errors.js';
import { requirePlant, type V2Call, type V2Result } from '../http.js';
import { requestHash } from '../idempotency.js';

/** The plant a stored create response names (both idempotent creates are plant-bound). */
function plantOf(responseBody: string): string | null {
  try {
    const parsed = JSON.parse(responseBody) as { plant_id?: unknown };
    return typeof parsed.plant_id === 'string' ? parsed.plant_id.toLowerCase() : null;
  } catch {
    return null;
  }
}

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
    if (rec.request_hash === hash) {
      const plantId = plantOf(rec.response_body);
      if (plantId === null) throw new ApiFailure(500, 'err_not_defined', 'stored idempotent response names no plant');
      requirePlant(call.access, plantId);
      return { status: 200, body: rec.response_body };
    }
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
