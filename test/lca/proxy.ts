/**
 * A small local HTTP proxy in front of the sandbox, for the export tests only: it rewrites lca-results answers
 * with a transform hook, to produce what the sandbox has no control for (unknown extra fields in result
 * elements, a changed shape, server strings that look like formulas). Everything else passes through as is.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LcaTransform = (body: Record<string, unknown>, instanceId: string) => Record<string, unknown>;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startLcaProxy(
  target: string,
  transform: LcaTransform,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const upstream = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        body: body.length ? new Uint8Array(body) : undefined,
      });
      let text = await upstream.text();
      const m = /^\/v2\/product-instances\/([^/]+)\/lca-results/.exec(req.url ?? '');
      if (m && upstream.ok) text = JSON.stringify(transform(JSON.parse(text) as Record<string, unknown>, m[1]));
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    })().catch((e: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ msg: String(e), err_code: 'err_not_defined' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
