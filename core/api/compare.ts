/**
 * Compare the fields a create sent with the entity the service holds: used when a create's answer was lost and
 * the entity turns up under the same external_id (same → "already existed", different → a real conflict).
 * Only fields that were sent count; the service's own fields (id, created_at, impacts …) are ignored. Arrays
 * are compared as multisets (read order is not the order sent), strings trimmed, null ≈ absent ≈ [].
 */

export function fieldDifferences(sent: unknown, held: unknown, path = ''): string[] {
  if (sent === undefined) return [];
  if (isEmpty(sent)) return isEmpty(held) ? [] : [path || '(value)'];
  if (Array.isArray(sent)) {
    if (!Array.isArray(held) || held.length !== sent.length) return [path];
    const pool = [...held];
    for (const s of sent) {
      const i = pool.findIndex((h) => fieldDifferences(s, h).length === 0);
      if (i < 0) return [path];
      pool.splice(i, 1);
    }
    return [];
  }
  if (typeof sent === 'object') {
    if (held === null || typeof held !== 'object' || Array.isArray(held)) return [path];
    const h = held as Record<string, unknown>;
    const out: string[] = [];
    for (const [k, v] of Object.entries(sent as Record<string, unknown>)) {
      out.push(...fieldDifferences(v, h[k], path ? `${path}.${k}` : k));
    }
    return out;
  }
  if (typeof sent === 'number') {
    return typeof held === 'number' && Math.abs(sent - held) <= 1e-9 * Math.max(1, Math.abs(sent)) ? [] : [path];
  }
  if (typeof sent === 'string') {
    if (typeof held !== 'string') return [path];
    const a = sent.trim();
    const b = held.trim();
    const same = isIdLike(a) ? a.toLowerCase() === b.toLowerCase() : a === b;
    return same ? [] : [path];
  }
  return sent === held ? [] : [path];
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || (Array.isArray(v) && v.length === 0);
}

/** UUIDs compare case-insensitively. */
function isIdLike(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s.trim());
}
