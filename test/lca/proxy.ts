/**
 * The export tests' proxy in front of the sandbox: the rewriting proxy of the client tests (test/api/proxy.ts)
 * with one hook that rewrites lca-results answers, to produce what the sandbox has no control for (unknown extra
 * fields in result elements, a changed shape, server strings that look like formulas). Everything else passes
 * through as is.
 */
import { startProxy } from '../api/proxy.js';

export type LcaTransform = (body: Record<string, unknown>, instanceId: string) => Record<string, unknown>;

export async function startLcaProxy(
  target: string,
  transform: LcaTransform,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  return startProxy(target, {
    response(req, res) {
      const m = /^\/v2\/product-instances\/([^/]+)\/lca-results/.exec(req.url);
      if (!m || res.status < 200 || res.status >= 300 || !res.text) return res;
      return { ...res, text: JSON.stringify(transform(JSON.parse(res.text) as Record<string, unknown>, m[1])) };
    },
  });
}
