/**
 * GET/PUT /v2/product-instances/{id}/bom. PUT replaces the whole set; re-sending the same set is a no-op, so a
 * PUT is retried like a GET. Duplicates (type, ref) are refused before sending (rules.ts, the one place).
 */
import { Bom, BomPut, type BomComponent } from '../../spec/schemas.js';
import { findDuplicateBomComponents } from '../../spec/rules.js';
import { invalidRequest, ruleProblems } from '../create.js';
import { strictParser } from '../parse.js';
import type { CallOptions } from '../resource.js';
import type { Transport } from '../transport.js';

export type { BomComponent };
export type BomEntry = Bom['bom'][number];

export interface BomApi {
  get(instanceId: string, o?: CallOptions): Promise<BomEntry[]>;
  /** Replaces the BOM; returns the components after the replace (order is the service's, not the one sent). */
  put(instanceId: string, components: readonly BomComponent[], o?: CallOptions): Promise<BomEntry[]>;
}

export function bomPath(instanceId: string): string {
  if (typeof instanceId !== 'string' || instanceId.trim() === '')
    throw new TypeError('a product instance id is required');
  return `/v2/product-instances/${encodeURIComponent(instanceId)}/bom`;
}

export function bomApi(transport: Transport): BomApi {
  const parse = strictParser(Bom);
  return {
    async get(instanceId, o = {}) {
      const res = await transport.callSafe({
        method: 'GET',
        path: bomPath(instanceId),
        signal: o.signal,
        timeoutMs: o.timeoutMs,
      });
      return parse(res.body, 'GET /v2/product-instances/{id}/bom').bom;
    },
    async put(instanceId, components, o = {}) {
      const endpoint = 'PUT /v2/product-instances/{id}/bom';
      const body = BomPut.safeParse({ bom: components });
      if (!body.success) throw invalidRequest(endpoint, body.error.issues);
      const dups = findDuplicateBomComponents(body.data.bom);
      if (dups.length > 0) throw ruleProblems(endpoint, dups);
      const res = await transport.callSafe({
        method: 'PUT',
        path: bomPath(instanceId),
        body: body.data,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
      });
      return parse(res.body, endpoint).bom;
    },
  };
}
