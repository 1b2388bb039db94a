/** The mapping of any value a handler throws to the contract's RpcError (the app's AppError keeps its code). */
import { ZodError } from 'zod';
import { AppError } from '../app/errors.js';
import { SettingsError } from '../settings/settings.js';
import type { RpcError } from './contract.js';

export function zodIssues(err: ZodError): { path: string; message: string }[] {
  return err.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

interface ApiErrorLike {
  status: number;
  err_code: string;
  message: string;
  classification?: string;
}

function isApiErrorLike(err: unknown): err is ApiErrorLike {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as Record<string, unknown>;
  return typeof e.err_code === 'string' && typeof e.status === 'number';
}

/** Error codes of node/undici network failures: the service could not be reached or hung up. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

function networkCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Turn anything thrown by a handler into words for the user. Only errors we raise on purpose keep their
 * message; everything else becomes `internal` and the detail goes to the log (`report`), never to the UI.
 */
export function toRpcError(err: unknown, report: (err: unknown) => void): RpcError {
  if (err instanceof AppError) return { code: err.code, message: err.message, ...err.extra };
  if (err instanceof SettingsError) return { code: 'invalid_input', message: err.message };
  if (err instanceof ZodError)
    return { code: 'invalid_input', message: 'Some values are not valid.', issues: zodIssues(err) };
  if (isApiErrorLike(err)) {
    if (err.classification === 'network')
      return { code: 'network_error', message: err.message, errCode: err.err_code, status: err.status };
    return { code: 'api_error', message: err.message, errCode: err.err_code, status: err.status };
  }
  const net = networkCode(err);
  if (net) return { code: 'network_error', message: `The service could not be reached (${net}).` };
  report(err);
  return { code: 'internal', message: 'Something went wrong inside Supply Loader. The details are in the log.' };
}

/**
 * The core (workbook, import engine, LCA, export) says what went wrong in words with a plain `Error` (a workbook
 * that cannot be read, a key of another manufacturer, a job that cannot be resumed): pass those words on.
 * Anything else (a bug: TypeError and the like) stays `internal`, its detail in the log only.
 */
export function inWords(e: unknown): unknown {
  if (e instanceof Error && Object.getPrototypeOf(e) === Error.prototype && e.message.trim() !== '') {
    return new AppError('invalid_input', e.message.split('\n')[0].slice(0, 500));
  }
  return e;
}

/** A namespace's handlers with the core's plain errors passed on in words (inWords). */
export function withWords<T extends object>(table: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, h] of Object.entries(table) as [string, (i: unknown, a: unknown) => Promise<unknown>][]) {
    out[name] = async (input: unknown, app: unknown) => {
      try {
        return await h(input, app);
      } catch (e) {
        throw inWords(e);
      }
    };
  }
  return out as T;
}
