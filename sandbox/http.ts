/**
 * The HTTP pipeline of /v2: faults (latency, injected 500) → authentication (uniform 401) → daily limit →
 * due LCA jobs completed → scope (403) → handler → optional socket reset after commit; every request is
 * logged for GET /__sandbox/requests. Only the spec's statuses are ever sent.
 *
 * A client that goes away before its answer does not undo its request, as with a real server: the body is read
 * as it arrives (also while a latency fault holds the request), the request runs to its end, and its log entry
 * carries the status it would have been answered with and `client_gone: true`.
 */
import { PassThrough, type Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import { OPERATION_SCOPES, type Operation } from '../core/spec/scopes.js';
import { authenticate, canReachPlant, type Access } from './auth.js';
import { ApiFailure, notValid, permissionDenied, plantNoAccess } from './errors.js';
import type { FaultDecision } from './faults.js';
import { completeDueJobs } from './lca-jobs.js';
import { isUuid } from './pagination.js';
import type { Store } from './store.js';

export interface RequestContext {
  store: Store;
  api: boolean;
  access: Access | null;
  decision: FaultDecision | null;
  errCode: string | null;
  logged: boolean;
  /** The client closed the connection before the whole answer was sent. */
  clientGone: boolean;
  /** The status the request is answered with, once decided (null while it runs). */
  answered: number | null;
  /** The body, read from the moment the request arrives (while a latency fault holds the request). */
  early: PassThrough | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    sb: RequestContext;
  }
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The largest request body the sandbox reads. */
export const BODY_LIMIT_BYTES = 16 * 1024 * 1024;

export interface V2Call {
  store: Store;
  access: Access;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  request: FastifyRequest;
}

export interface V2Result {
  status: 200 | 201;
  /** JSON as a string or UTF-8 buffer (sent as is), or a value to serialize. */
  body: string | Buffer | object;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Longest a stalled answer (the stall_after_commit fault) keeps its socket open. */
const STALL_MS = 60_000;
/** Sockets held by the stall_after_commit fault, per sandbox: closed with the server. */
const STALLED = new WeakMap<Store, Set<Duplex>>();
function stalledOf(store: Store): Set<Duplex> {
  let s = STALLED.get(store);
  if (!s) STALLED.set(store, (s = new Set()));
  return s;
}

export function isLoopback(addr: string | undefined): boolean {
  return addr !== undefined && (LOOPBACK.has(addr) || addr.startsWith('127.'));
}

function pathOf(url: string): [string, string] {
  const q = url.indexOf('?');
  return q < 0 ? [url, ''] : [url.slice(0, q), url.slice(q + 1)];
}

function header(req: FastifyRequest, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' ? v : null;
}

function logRequest(store: Store, req: FastifyRequest, status: number, reset: boolean): void {
  const ctx = req.sb;
  if (!ctx?.api || ctx.logged) return;
  ctx.logged = true;
  const [path, query] = pathOf(req.url);
  store.logRequest({
    method: req.method,
    path,
    query,
    status,
    err_code: ctx.errCode,
    idempotency_key: header(req, 'idempotency-key'),
    reset,
    ...(ctx.clientGone ? { client_gone: true } : {}),
    at_ms: store.clock.now(),
  });
}

/**
 * The answer of a request is decided: logged at once when its client has gone (no response will finish), else
 * when the response has been sent (onResponse).
 */
function answered(store: Store, req: FastifyRequest, status: number): void {
  const ctx = req.sb;
  if (!ctx) return;
  ctx.answered = status;
  if (ctx.clientGone) logRequest(store, req, status, false);
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function checkDailyLimit(store: Store): void {
  if (store.dailyLimit === null) return;
  const day = utcDay(store.clock.now());
  if (store.dailyCount.day !== day) store.dailyCount = { day, count: 0 };
  if (store.dailyCount.count >= store.dailyLimit)
    throw new ApiFailure(
      403,
      'err_svc_daily_limit_reached',
      `the daily request limit of ${store.dailyLimit} requests is reached; it resets at 00:00 UTC`,
    );
  store.dailyCount.count++;
}

export function failureOf(err: unknown): ApiFailure {
  if (err instanceof ApiFailure) return err;
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (e && typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return notValid('request body too large');
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return notValid('request body must be application/json');
    return notValid(`request is not valid: ${e.message ?? 'bad request'}`);
  }
  return new ApiFailure(500, 'err_not_defined', 'unexpected sandbox error');
}

export function sendFailure(req: FastifyRequest, reply: FastifyReply, f: ApiFailure): void {
  if (req.sb) {
    req.sb.errCode = f.errCode;
    answered(req.sb.store, req, f.status);
  }
  void reply.code(f.status).header('content-type', JSON_TYPE).send(JSON.stringify(f.body()));
}

/**
 * Errors Node's HTTP parser raises before a request exists (malformed request line, headers too large,
 * timeouts): answered with 422 err_not_valid on the raw socket, never with Node's 400/408/431.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const what = err.code === 'HPE_HEADER_OVERFLOW' ? 'request headers too large' : 'malformed HTTP request';
    const body = JSON.stringify({ msg: what, err_code: 'err_not_valid' });
    socket.write(
      `HTTP/1.1 422 Unprocessable Entity\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: ${JSON_TYPE}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Errors the router raises before hooks run (undecodable URL, over-long path parameter). */
export function frameworkErrors(err: Error & { code?: string }, req: FastifyRequest, reply: FastifyReply): void {
  const msg = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is too long' : 'the URL is not valid';
  sendFailure(req, reply, notValid(msg));
}

/** Hooks, error and not-found handlers for the whole server. */
export function installPipeline(app: FastifyInstance, store: Store): void {
  app.decorateRequest('sb', null as unknown as RequestContext);

  app.addHook('onRequest', (req, reply, done) => {
    const ctx: RequestContext = {
      store,
      api: true,
      access: null,
      decision: null,
      errCode: null,
      logged: false,
      clientGone: false,
      answered: null,
      early: null,
    };
    req.sb = ctx;
    if (req.url.startsWith('/__sandbox')) {
      ctx.api = false;
      if (!isLoopback(req.socket.remoteAddress))
        return done(new ApiFailure(403, 'err_permission_denied', 'the sandbox control API answers on loopback only'));
      return done();
    }
    reply.raw.once('close', () => {
      if (reply.raw.writableFinished) return; // answered in full: logged by onResponse
      ctx.clientGone = true;
      // Gone while its answer was being sent: logged now; before it was decided: logged once it is (answered).
      if (ctx.answered !== null) logRequest(store, req, ctx.answered, false);
    });
    const proceed = () => {
      try {
        if (ctx.decision?.error) throw new ApiFailure(500, 'err_not_defined', 'injected server error (sandbox fault)');
        ctx.access = authenticate(req.headers['x-api-key'], store.keys, store.members, store.clock.now());
        checkDailyLimit(store);
        completeDueJobs(store);
        done();
      } catch (e) {
        done(e as Error);
      }
    };
    if (store.faults.active) {
      ctx.decision = store.faults.decide(req.method, pathOf(req.url)[0]);
      if (ctx.decision.delayMs > 0) {
        // The body is read meanwhile: a client that goes away while the request is held has still sent it.
        if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
          const early = new PassThrough({ highWaterMark: BODY_LIMIT_BYTES });
          ctx.early = early;
          req.raw.pipe(early);
          // A body cut short destroys the stream: the request is answered 422 (never left waiting for the rest).
          // (Not stream.pipeline: its AbortController and the AbortError it makes at the end cost ~0.15 ms of
          // every write request.)
          req.raw.once('close', () => {
            if (!req.raw.complete) early.destroy();
          });
          req.raw.once('error', () => early.destroy());
        }
        setTimeout(proceed, ctx.decision.delayMs);
        return;
      }
    }
    proceed();
  });

  app.addHook('preClose', (done) => {
    for (const socket of stalledOf(store)) socket.destroy();
    done();
  });

  app.addHook('preParsing', (req, _reply, payload, done) => {
    const early = req.sb?.early;
    if (!early) return done(null, payload);
    // Cut short while the request was held: its error was told before anyone listened.
    if (early.destroyed)
      return done(notValid('the request body did not arrive whole: the client closed the connection'));
    done(null, early);
  });

  app.addHook('onResponse', (req, reply, done) => {
    logRequest(store, req, reply.statusCode, false);
    done();
  });

  app.setErrorHandler((err, req, reply) => {
    const f = failureOf(err);
    if (f.status === 500 && !(err instanceof ApiFailure)) console.error('[sandbox] unexpected error:', err);
    sendFailure(req, reply, f);
  });

  app.setNotFoundHandler((req, reply) => {
    sendFailure(req, reply, new ApiFailure(422, 'err_not_found', `no endpoint ${req.method} ${pathOf(req.url)[0]}`));
  });
}

/** Register one /v2 endpoint: the scope of `op` is checked before the handler runs. */
export function v2Route(
  app: FastifyInstance,
  store: Store,
  method: HTTPMethods,
  url: string,
  op: Operation,
  handler: (call: V2Call) => V2Result,
): void {
  const scope = OPERATION_SCOPES[op];
  app.route({
    method,
    url,
    handler: (req, reply) => {
      const ctx = req.sb;
      const access = ctx.access;
      if (!access) throw new ApiFailure(500, 'err_not_defined', 'request reached a handler unauthenticated');
      if (scope !== null && !access.scopes.has(scope)) throw permissionDenied(scope);
      const result = handler({
        store,
        access,
        params: req.params as Record<string, string>,
        query: req.query as Record<string, unknown>,
        body: req.body,
        request: req,
      });
      if (ctx.decision?.resetAfterCommit) {
        // The write is committed; the client never hears about it.
        logRequest(store, req, result.status, true);
        reply.hijack();
        req.raw.socket.destroy();
        return;
      }
      if (ctx.decision?.stallAfterCommit && req.method !== 'GET') {
        // The write is committed; its answer never comes (reads are answered). The socket stays open until the
        // client closes it (it was killed, or gave up), or for STALL_MS at most.
        logRequest(store, req, result.status, false);
        reply.hijack();
        const socket = req.raw.socket;
        const t = setTimeout(() => socket.destroy(), STALL_MS);
        t.unref();
        socket.once('close', () => clearTimeout(t));
        stalledOf(store).add(socket);
        socket.once('close', () => stalledOf(store).delete(socket));
        return;
      }
      answered(store, req, result.status);
      if (ctx.clientGone) {
        reply.hijack(); // nobody to answer
        return;
      }
      void reply
        .code(result.status)
        .header('content-type', JSON_TYPE)
        .send(
          typeof result.body === 'string' || Buffer.isBuffer(result.body) ? result.body : JSON.stringify(result.body),
        );
    },
  });
}

/** A path id: must be a UUID (422 err_not_valid). Returned lower-case. */
export function idParam(params: Record<string, string>, name = 'id'): string {
  const v = params[name];
  if (typeof v !== 'string' || !isUuid(v)) throw notValid(`${name} must be a UUID`);
  return v.toLowerCase();
}

export function requirePlant(access: Access, plantId: string): void {
  if (!canReachPlant(access, plantId)) throw plantNoAccess(plantId);
}

export function requireBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw notValid('the request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** Validate a body with a strict zod schema; 422 err_not_valid naming the fields. */
export function validate<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const r = schema.safeParse(requireBody(body));
  if (r.success) return r.data;
  const msgs = r.error.issues.slice(0, 8).map((i) => {
    const path = i.path.map(String).join('.') || '(body)';
    if (i.code === 'unrecognized_keys') return `${path}: unknown field(s) ${i.keys.join(', ')}`;
    return `${path}: ${i.message}`;
  });
  throw notValid(msgs.join('; '));
}
