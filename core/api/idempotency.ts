/**
 * Deterministic Idempotency-Key per (manufacturer id, entity type, external_id, canonical body hash): a re-run
 * of the same row within the service's retention (6 hours) replays instead of creating twice, and a changed
 * row gets a new key (so the service never sees one key with two bodies from us).
 */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth and undefined members dropped: equal data → equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value));
}

function canonicalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : canonicalize(x)));
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o).sort()) if (o[k] !== undefined) out[k] = canonicalize(o[k]);
    return out;
  }
  return v;
}

/** UUID-shaped (the spec's example) key derived from a SHA-256; version nibble 5, RFC 4122 variant. */
export function idempotencyKey(
  manufacturerId: string,
  entityType: string,
  externalId: string | null | undefined,
  body: unknown,
): string {
  const h = createHash('sha256')
    .update(
      `supply-loader/idem/v1\n${manufacturerId.toLowerCase()}\n${entityType}\n${externalId ?? ''}\n${canonicalJson(body)}`,
    )
    .digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}
