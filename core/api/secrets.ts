/**
 * The API key never appears in a log line, an error text, a report or a snapshot: everything the client logs
 * goes through a scrubber that replaces the key (and its secret part on its own) with the masked form
 * `svc-<key_id>-****`.
 */
import { API_KEY_PATTERN, maskApiKey } from '../spec/constants.js';

export type LogFn = (obj: Record<string, unknown>, msg?: string) => void;
/** The subset of pino's Logger the client uses; a pino.Logger fits it. */
export interface LoggerLike {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

const noop: LogFn = () => {};
export const silentLogger: LoggerLike = { debug: noop, info: noop, warn: noop, error: noop };

export type Scrubber = (text: string) => string;

export function secretScrubber(apiKey: string): Scrubber {
  const key = apiKey.trim();
  const masked = maskApiKey(key);
  const m = API_KEY_PATTERN.exec(key);
  const needles = [key, ...(m && m[2].length >= 6 ? [m[2]] : [])].filter((n) => n.length > 0);
  return (text: string) => {
    let out = text;
    for (const n of needles) if (out.includes(n)) out = out.split(n).join(n === key ? masked : '****');
    return out;
  };
}

export function scrubDeep(value: unknown, scrub: Scrubber, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub, depth + 1));
  if (value instanceof Error) return scrub(value.message);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubDeep(v, scrub, depth + 1);
  return out;
}

/** A logger whose every field and message passes the scrubber. A level that logs nothing is not scrubbed for. */
export function scrubbingLogger(base: LoggerLike, scrub: Scrubber): LoggerLike {
  const wrap = (fn: LogFn): LogFn =>
    fn === noop
      ? noop
      : (obj, msg) => {
          const clean = scrubDeep(obj, scrub) as Record<string, unknown>;
          if (msg === undefined) fn.call(base, clean);
          else fn.call(base, clean, scrub(msg));
        };
  return { debug: wrap(base.debug), info: wrap(base.info), warn: wrap(base.warn), error: wrap(base.error) };
}
