/**
 * Idempotency-Key records of POST /v2/silos and POST /v2/prechain-products: scoped to the manufacturer (one
 * sandbox = one manufacturer), kept 6 hours on the sandbox clock. A record holds the hash of the endpoint and
 * the canonical body, and the original 201 response body, which a replay returns unchanged with 200.
 */
import { createHash } from 'node:crypto';
import { IDEMPOTENCY_RETENTION_MS } from '../core/spec/constants.js';

export interface IdempotencyRecord {
  request_hash: string;
  response_body: string;
  created_at_ms: number;
}

/** JSON with object keys sorted at every level: two bodies that differ only in key order are the same body. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

export function requestHash(endpoint: string, body: unknown): string {
  return createHash('sha256').update(endpoint).update('\n').update(canonicalJson(body)).digest('hex');
}

export class IdempotencyStore {
  private records = new Map<string, IdempotencyRecord>();
  private sweptAt = 0;

  /** The live record of a key, or undefined (unknown or older than 6 hours). */
  get(key: string, nowMs: number): IdempotencyRecord | undefined {
    const r = this.records.get(key);
    if (!r) return undefined;
    if (nowMs - r.created_at_ms >= IDEMPOTENCY_RETENTION_MS) {
      this.records.delete(key);
      return undefined;
    }
    return r;
  }

  put(key: string, rec: IdempotencyRecord, nowMs: number): void {
    this.records.set(key, rec);
    if (nowMs - this.sweptAt > 60_000) this.sweep(nowMs);
  }

  private sweep(nowMs: number): void {
    this.sweptAt = nowMs;
    for (const [k, r] of this.records) if (nowMs - r.created_at_ms >= IDEMPOTENCY_RETENTION_MS) this.records.delete(k);
  }

  clear(): void {
    this.records.clear();
  }

  dump(): [string, IdempotencyRecord][] {
    return [...this.records.entries()];
  }

  load(entries: readonly [string, IdempotencyRecord][]): void {
    this.records = new Map(entries);
  }
}
