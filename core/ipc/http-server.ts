/**
 * Browser mode's transport: the contract over loopback HTTP (POST /rpc/<procedure>) with server-sent events
 * (GET /events), and the built renderer on the same origin.
 *
 * Who may talk to it:
 * - it listens on 127.0.0.1 only;
 * - every request carries the per-launch random token, as the `X-Supply-Loader-Token` header or as the
 *   HttpOnly SameSite=Strict cookie set when the page is first opened with `?token=`;
 * - the Host header must be 127.0.0.1:PORT or localhost:PORT (a DNS-rebinding page has another Host);
 * - an Origin header, when present, must be this server's own origin; a `Sec-Fetch-Site: cross-site`
 *   request is refused too. So a page on another origin can neither read nor drive it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { RpcError, RpcResult } from './contract.js';
import { RENDERER_CSP_HEADER } from './csp.js';
import { dispatch } from './dispatch.js';
import type { HandlerTable } from './contract.js';
import type { AppServices } from '../app/services.js';
import type { EventHub } from './services.js';

export const TOKEN_HEADER = 'x-supply-loader-token';
const DEFAULT_MAX_BODY = 50 * 1024 * 1024;
const SSE_HEARTBEAT_MS = 20_000;

export interface HttpTransportOptions {
  app: AppServices;
  hub: EventHub;
  /** the built renderer (dist-renderer); null serves only the contract */
  staticDir?: string | null;
  port?: number;
  /** defaults to a fresh random token */
  token?: string;
  maxBodyBytes?: number;
  handlers?: HandlerTable<AppServices>;
}

export interface HttpTransport {
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  token: string;
  /** the URL to open: origin + /?token=… */
  url: string;
  cookieName: string;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const COMMON_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return out;
}

function sendJson(res: http.ServerResponse, status: number, body: RpcResult | { ok: false; error: RpcError }) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A refusal: words on a page for a person opening a link, the RpcError envelope for a program. */
function refuse(res: http.ServerResponse, status: number, message: string, req?: http.IncomingMessage) {
  const wantsPage = req?.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
  if (wantsPage) {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Supply Loader</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;line-height:1.5"><h1>Supply Loader</h1><p>${escapeHtml(message)}</p></body></html>`;
    res.writeHead(status, {
      ...COMMON_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'content-length': Buffer.byteLength(html),
    });
    res.end(html);
    return;
  }
  sendJson(res, status, { ok: false, error: { code: 'forbidden', message } });
}

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? 'too_large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startHttpTransport(opts: HttpTransportOptions): Promise<HttpTransport> {
  const token = opts.token ?? randomBytes(32).toString('base64url');
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const staticDir = opts.staticDir ? path.resolve(opts.staticDir) : null;
  const sse = new Set<http.ServerResponse>();
  let port = 0;
  let cookieName = 'sl_token';

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  function tokenOf(req: http.IncomingMessage): string | undefined {
    const h = req.headers[TOKEN_HEADER];
    if (typeof h === 'string' && h !== '') return h;
    return parseCookies(req.headers.cookie).get(cookieName);
  }

  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, pathname: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed.');
    if (!staticDir) {
      res.writeHead(404, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
      return res.end('The user interface is not built. Run `npm start` (it builds it) or `npx vite build`.');
    }
    const rel = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
    const file = path.resolve(staticDir, rel);
    if (file !== staticDir && !file.startsWith(staticDir + path.sep)) return refuse(res, 403, 'Outside the app.');
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      res.writeHead(404, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Not found.');
    }
    if (!stat.isFile()) {
      res.writeHead(404, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Not found.');
    }
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    const headers: Record<string, string | number> = {
      ...COMMON_HEADERS,
      'content-type': type,
      'content-length': stat.size,
    };
    if (type.startsWith('text/html')) headers['content-security-policy'] = RENDERER_CSP_HEADER;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') return res.end();
    fs.createReadStream(file).pipe(res);
  }

  async function handleRpc(req: http.IncomingMessage, res: http.ServerResponse, name: string) {
    if (req.method !== 'POST') return refuse(res, 405, 'Use POST.');
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    // application/json cannot be sent cross-origin without a CORS preflight, which this server never grants.
    if (type !== 'application/json') {
      return sendJson(res, 415, {
        ok: false,
        error: { code: 'invalid_input', message: 'Send the request body as application/json.' },
      });
    }
    const body = await readBody(req, maxBody);
    if (body === 'too_large') {
      return sendJson(res, 413, { ok: false, error: { code: 'invalid_input', message: 'The request is too large.' } });
    }
    let input: unknown = undefined;
    if (body.length > 0) {
      try {
        input = JSON.parse(body.toString('utf8'));
      } catch {
        return sendJson(res, 400, {
          ok: false,
          error: { code: 'invalid_input', message: 'The request body is not valid JSON.' },
        });
      }
    }
    const result = await dispatch(name, input, opts.app, opts.handlers);
    const status = !result.ok && result.error.code === 'unknown_procedure' ? 404 : 200;
    sendJson(res, status, result);
  }

  /** A file the app made (results, failed rows, export, LCA), by its opaque download id: saved by the browser. */
  function handleDownload(req: http.IncomingMessage, res: http.ServerResponse, id: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Use GET.');
    const d = opts.app.sessions.downloads.lookup(id);
    if (!d) {
      res.writeHead(404, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
      return res.end('That file is no longer available. Make it again in Supply Loader.');
    }
    const ascii = d.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'content-type': d.mimeType,
      'content-length': fs.statSync(d.path).size,
      'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(d.fileName)}`,
    });
    if (req.method === 'HEAD') return res.end();
    fs.createReadStream(d.path).pipe(res);
  }

  function handleEvents(req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.method !== 'GET') return refuse(res, 405, 'Use GET.');
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    res.write('retry: 2000\n: connected\n\n');
    sse.add(res);
    const stop = opts.hub.listen((event, payload) => {
      res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
    });
    const beat = setInterval(() => res.write(': keep-alive\n\n'), SSE_HEARTBEAT_MS);
    beat.unref();
    const end = () => {
      clearInterval(beat);
      stop();
      sse.delete(res);
    };
    req.on('close', end);
    res.on('close', end);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    // 1. DNS-rebinding guard: the Host must be this loopback server.
    const host = req.headers.host ?? '';
    if (!allowedHosts().has(host.toLowerCase())) return refuse(res, 403, 'Wrong Host header.', req);
    // 2. Cross-origin guard.
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin.toLowerCase()))
      return refuse(res, 403, 'Requests from another origin are refused.');
    if (req.headers['sec-fetch-site'] === 'cross-site')
      return refuse(res, 403, 'Requests from another site are refused.');

    const url = new URL(req.url ?? '/', `http://${host}`);
    const pathname = url.pathname;

    // 3. Opening the page with ?token= trades the token for the session cookie and drops it from the address bar.
    const queryToken = url.searchParams.get('token');
    if (queryToken !== null && req.method === 'GET' && (pathname === '/' || pathname === '/index.html')) {
      if (!sameSecret(queryToken, token)) {
        return refuse(
          res,
          401,
          'This link is not valid (any more). Open the URL that Supply Loader printed when it started this time.',
          req,
        );
      }
      res.writeHead(303, {
        ...COMMON_HEADERS,
        location: '/',
        'set-cookie': `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      });
      return res.end();
    }

    // 4. Every other request needs the token (header or cookie).
    const presented = tokenOf(req);
    if (presented === undefined || !sameSecret(presented, token)) {
      return refuse(
        res,
        401,
        'Missing or wrong access token. Open the URL that Supply Loader printed when it started (it carries the access token of this launch).',
        req,
      );
    }

    if (pathname.startsWith('/rpc/')) return handleRpc(req, res, decodeURIComponent(pathname.slice('/rpc/'.length)));
    if (pathname === '/events') return handleEvents(req, res);
    if (pathname.startsWith('/download/'))
      return handleDownload(req, res, decodeURIComponent(pathname.slice('/download/'.length)));
    return serveStatic(req, res, pathname);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      opts.app.log.error({ err }, 'browser-mode request failed');
      if (!res.headersSent)
        sendJson(res, 500, {
          ok: false,
          error: { code: 'internal', message: 'Something went wrong inside Supply Loader.' },
        });
      else res.destroy();
    });
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = 0; // SSE responses stay open

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  // Cookies are not port-scoped: name the cookie after the port so two launches do not overwrite each other.
  cookieName = `sl_token_${port}`;
  const origin = `http://127.0.0.1:${port}`;

  return {
    port,
    origin,
    token,
    url: `${origin}/?token=${token}`,
    cookieName,
    close: async () => {
      for (const res of sse) res.end();
      sse.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
