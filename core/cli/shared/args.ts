/**
 * Command-line parsing on node:util parseArgs: global options (accepted before or after the command name),
 * the command's own options, and the refusal of a key given as a flag value.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliUsageError } from './errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export const GLOBAL_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key-file': { type: 'string' },
  profile: { type: 'string' },
  'jobs-dir': { type: 'string' },
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const satisfies Options;

export const GLOBAL_HELP = `Connection (commands that talk to the service):
  --base-url URL        the service, e.g. https://api.example.com (or SUPPLY_LOADER_BASE_URL)
  --api-key-file FILE   a file holding the API key (one line); or set SUPPLY_LOADER_API_KEY
  --profile NAME        a saved profile (base URL + key): see "supply-loader profile"
  A key is never accepted as a flag value (--api-key): it would end up in the shell history.
Other options:
  --jobs-dir DIR        where import jobs are journaled (or SUPPLY_LOADER_JOBS_DIR; default: user config dir/jobs)
  --json                machine-readable output on stdout
  --debug               details (stack traces) for unexpected errors
  -h, --help            help for a command`;

/** Refuse `--api-key VALUE` / `--api-key=VALUE` before anything else; the value is never repeated. */
export function refuseKeyFlag(argv: readonly string[]): void {
  for (const a of argv) {
    if (a === '--') return;
    if (a === '--api-key' || a.startsWith('--api-key=')) {
      throw new CliUsageError(
        'The API key cannot be given as a flag value (--api-key): it would be kept in the shell history and be visible in the process list. ' +
          'Set SUPPLY_LOADER_API_KEY, pass --api-key-file FILE, or use a saved profile (--profile NAME).',
      );
    }
  }
}

/** The command name: the first argument that is neither an option nor the value of a global string option. */
export function splitCommand(argv: readonly string[]): { command: string | undefined; rest: string[] } {
  const takesValue = new Set(
    Object.entries(GLOBAL_OPTIONS)
      .filter(([, o]) => o.type === 'string')
      .map(([n]) => `--${n}`),
  );
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (takesValue.has(a)) i++;
      continue;
    }
    return { command: a, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
  }
  return { command: undefined, rest: [...argv] };
}

export interface ParsedArgs {
  values: Record<string, unknown>;
  positionals: string[];
}

export function parseCommandArgs(
  rest: readonly string[],
  commandOptions: Options | undefined,
  command?: string,
): ParsedArgs {
  const options: Options = { ...GLOBAL_OPTIONS, ...(commandOptions ?? {}) };
  try {
    const args = negativeValues(rest, options);
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as Record<string, unknown>, positionals };
  } catch (e) {
    throw new CliUsageError(parseArgsMessage(e), command);
  }
}

/**
 * `--opt -1`: a value that looks like a negative number is the option's value (as `--opt=-1`), so the option's
 * own check words what is wrong with it (parseArgs would take it for an option).
 */
function negativeValues(rest: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const next = rest[i + 1];
    const o = a.startsWith('--') && !a.includes('=') ? options[a.slice(2)] : undefined;
    if (o?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

function parseArgsMessage(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const msg = err instanceof Error ? err.message : String(e);
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const m = /Unknown option '([^']+)'/.exec(msg);
    return `unknown option ${m ? m[1] : ''}`.trim();
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const m = /Option '([^']+)'/.exec(msg);
    if (m && /argument missing/.test(msg)) return `option ${m[1].replace(/ <value>$/, '')} needs a value`;
    if (m) return `option ${m[1].replace(/ <value>$/, '')} does not take a value`;
  }
  return msg.split('\n')[0];
}

/** An option value as a string, if given. */
export function str(values: Record<string, unknown>, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

export function flag(values: Record<string, unknown>, name: string): boolean {
  return values[name] === true;
}

/** A whole number ≥ min from an option, or undefined when not given. */
export function intOption(
  values: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  command?: string,
): number | undefined {
  const v = str(values, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\s*\d+\s*$/.test(v) || !Number.isInteger(n) || n < min || n > max) {
    throw new CliUsageError(`--${name} must be a whole number from ${min} to ${max} (got "${v}")`, command);
  }
  return n;
}

/** Exactly `count` positionals (names used in the message). */
export function expectPositionals(positionals: string[], names: string[], command: string, optional = 0): string[] {
  const min = names.length - optional;
  if (positionals.length < min)
    throw new CliUsageError(`missing ${names.slice(positionals.length).join(' ')}`, command);
  if (positionals.length > names.length) {
    throw new CliUsageError(
      `unexpected argument${positionals.length - names.length > 1 ? 's' : ''}: ${positionals.slice(names.length).join(' ')}`,
      command,
    );
  }
  return positionals;
}
