/**
 * Generic flattening of what the service returns and the exporter does not know: nested objects become one
 * column per leaf, named by path (`extra.foo.bar`); arrays of scalars are joined with "; "; arrays of objects
 * (and empty arrays) are kept as JSON text. Nothing is dropped: a field the exporter does not understand is a
 * column, never silently lost.
 */

/** What one spreadsheet cell can hold. null = empty cell. */
export type CellValue = string | number | boolean | null;
export type FlatRecord = Record<string, CellValue>;

/** Excel's limit on the characters of one cell. */
export const MAX_CELL_CHARS = 32_767;
const MAX_DEPTH = 8;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function scalar(v: unknown): CellValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v.toString();
  return jsonText(v);
}

function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/**
 * Flatten `value` into `out` under `prefix`. A scalar at the top level is stored under `prefix` itself (or
 * `value` when there is no prefix).
 */
export function flattenInto(out: FlatRecord, value: unknown, prefix: string, depth = 0): FlatRecord {
  if (isPlainObject(value) && depth < MAX_DEPTH) {
    const keys = Object.keys(value);
    if (keys.length === 0) {
      if (prefix) out[prefix] = '{}';
      return out;
    }
    for (const k of keys) flattenInto(out, value[k], prefix ? `${prefix}.${k}` : k, depth + 1);
    return out;
  }
  const key = prefix || 'value';
  if (Array.isArray(value)) {
    out[key] =
      value.length > 0 && value.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x))
        ? value.map((x) => (x === null ? '' : String(x))).join('; ')
        : jsonText(value);
    return out;
  }
  out[key] = scalar(value);
  return out;
}

/** Fields of `obj` other than `known`, flattened by path with an optional prefix (`job.` → `job.foo.bar`). */
export function unknownFields(obj: Record<string, unknown>, known: ReadonlySet<string>, prefix = ''): FlatRecord {
  const out: FlatRecord = {};
  for (const [k, v] of Object.entries(obj)) {
    if (known.has(k)) continue;
    flattenInto(out, v, prefix ? `${prefix}${k}` : k);
  }
  return out;
}

/** Cut a string to what one Excel cell can hold; `truncated` says whether anything was cut. */
export function fitCell(v: CellValue): { value: CellValue; truncated: boolean } {
  if (typeof v === 'string' && v.length > MAX_CELL_CHARS) {
    const note = '… (cut: longer than an Excel cell holds)';
    return { value: v.slice(0, MAX_CELL_CHARS - note.length) + note, truncated: true };
  }
  return { value: v, truncated: false };
}
