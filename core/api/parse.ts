/**
 * Response parsing. Frozen resources: zod (loose objects, unknown fields kept); a body that does not fit is an
 * ApiError `client_invalid_response`. Preview groups (Product Instances, Prechain Products): lenient — only an
 * `id` is required; a missing, renamed or re-typed optional field is a warning in the log (once per field),
 * never a crash.
 */
import type { z } from 'zod';
import { ApiError } from './errors.js';
import type { LoggerLike } from './secrets.js';
import type { Page } from './pagination.js';

export type Parser<T> = (raw: unknown, endpoint: string) => T;

function invalid(endpoint: string, what: string): ApiError {
  return new ApiError({
    status: 200,
    err_code: 'client_invalid_response',
    msg: what,
    endpoint,
    classification: 'unknown',
    retryable: false,
  });
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');
}

export function strictParser<T>(schema: z.ZodType<T>): Parser<T> {
  return (raw, endpoint) => {
    const r = schema.safeParse(raw);
    if (r.success) return r.data;
    throw invalid(endpoint, `unexpected answer: ${describeIssues(r.error.issues)}`);
  };
}

/** Lenient parser for preview groups: `expected` are the fields we read; their absence is only logged. */
export function lenientParser<T extends { id: string }>(
  schema: z.ZodType<T>,
  expected: readonly string[],
  logger: () => LoggerLike,
  group: string,
): Parser<T> {
  const warned = new Set<string>();
  const warnOnce = (key: string, obj: Record<string, unknown>, msg: string) => {
    if (warned.has(key)) return;
    warned.add(key);
    logger().warn(obj, msg);
  };
  return (raw, endpoint) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw invalid(endpoint, 'answer is not an object');
    const o = raw as Record<string, unknown>;
    if (typeof o.id !== 'string' || o.id === '') throw invalid(endpoint, 'answer has no id');
    for (const f of expected) {
      if (!(f in o)) warnOnce(f, { group, endpoint, field: f }, 'preview API: expected field missing');
    }
    const r = schema.safeParse(raw);
    if (r.success) return r.data;
    for (const i of r.error.issues) {
      const field = i.path.join('.');
      warnOnce(field, { group, endpoint, field, issue: i.message }, 'preview API: field has another shape');
    }
    return raw as T;
  };
}

export function pageParser<T>(item: Parser<T>): Parser<Page<T>> {
  return (raw, endpoint) => {
    if (raw === null || typeof raw !== 'object') throw invalid(endpoint, 'page is not an object');
    const o = raw as Record<string, unknown>;
    if (!Array.isArray(o.data)) throw invalid(endpoint, 'page has no data array');
    const nc = o.next_cursor;
    if (nc !== null && typeof nc !== 'string') throw invalid(endpoint, 'page has no next_cursor (string or null)');
    return { data: o.data.map((x) => item(x, endpoint)), next_cursor: nc };
  };
}
