/**
 * A small rewriting HTTP proxy in front of the sandbox, for client tests of what a real service might do and the
 * sandbox never does (ignore a filter, answer 202 without a body, leave out optional fields, send a known
 * err_code with another status). Each hook sees one exchange; without hooks everything passes through as is.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  /** Path and query as received. */
  url: string;
  body: string;
}

export interface Answer {
  status: number;
  /** Sent as is; undefined = no body. */
  text?: string;
}

export interface ProxyHooks {
  /** Answer without forwarding; return undefined to forward. */
  answer?(req: Exchange): Answer | undefined;
  /** Rewrite the URL forwarded upstream. */
  url?(req: Exchange): string;
  /** Rewrite the upstream answer. */
  response?(req: Exchange, res: Answer): Answer;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface RewritingProxy {
  baseUrl: string;
  /** Every exchange received, in order. */
  seen: Exchange[];
  close(): Promise<void>;
}

export async function startProxy(target: string, hooks: ProxyHooks): Promise<RewritingProxy> {
  const seen: Exchange[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const ex: Exchange = { method: req.method ?? 'GET', url: req.url ?? '/', body: await readBody(req) };
      seen.push(ex);
      let out = hooks.answer?.(ex);
      if (!out) {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers))
          if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
        const upstream = await fetch(`${target}${hooks.url?.(ex) ?? ex.url}`, {
          method: ex.method,
          headers,
          body: ex.body.length ? ex.body : undefined,
        });
        out = { status: upstream.status, text: await upstream.text() };
        if (hooks.response) out = hooks.response(ex, out);
      }
      if (out.text === undefined || out.text === '') {
        res.writeHead(out.status);
        res.end();
      } else {
        res.writeHead(out.status, { 'content-type': 'application/json' });
        res.end(out.text);
      }
    })().catch((e: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ msg: String(e), err_code: 'err_not_defined' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
