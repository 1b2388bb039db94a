/**
 * Errors the CLI turns into one clear line and an exit code. Anything else is "unexpected": a short message
 * and a hint to rerun with --debug (never a stack trace unless --debug is given).
 */
// The api's modules one by one, not its index: the index pulls in the HTTP client, which a CLI start
// (--version, help, validate) does not need.
import { ApiError, explainErrCode } from '../../api/errors.js';
import { isAbortError } from '../../api/backoff.js';
import { AppError } from '../../app/errors.js';
import { EXIT, type ExitCode } from './types.js';

/** Bad command line or bad input file: nothing was sent. Exit 2. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
  constructor(
    message: string,
    /** Command whose usage to point at ("run supply-loader <cmd> --help"). */
    readonly command?: string,
  ) {
    super(message);
  }
}

/** The run stopped before it was complete (auth, daily limit, cancelled, service unreachable). Exit 3. */
export class CliAbortError extends Error {
  override readonly name = 'CliAbortError';
  constructor(
    message: string,
    readonly errCode?: string,
  ) {
    super(message);
  }
}

export interface DescribedError {
  exitCode: ExitCode;
  /** One line (may wrap on screen) in words. */
  message: string;
  err_code?: string;
  /** Shown on a second line: what to do. */
  hint?: string;
  unexpected: boolean;
}

/**
 * The job engine's own refusals (running elsewhere, another manufacturer, not completed) are plain Errors in
 * words that name the job: a usage error of `command`. Anything else is thrown on as it is.
 */
export function jobRefusalAsUsage(e: unknown, command: string): never {
  if (!(e instanceof ApiError) && e instanceof Error && e.name === 'Error' && /job/i.test(e.message))
    throw new CliUsageError(e.message, command);
  throw e;
}

/** How an error that reached the top of a command is shown and which exit code it gives. */
export function describeError(e: unknown, command?: string): DescribedError {
  // The app layer's refusals (no such job, nothing to resume) are usage errors too; a busy connection or a
  // refusal of the service is a stop.
  if (e instanceof AppError && (e.code === 'unavailable' || e.code === 'api_error'))
    return { exitCode: EXIT.aborted, message: e.message, unexpected: false };
  if (e instanceof CliUsageError || e instanceof AppError) {
    const cmd = (e instanceof CliUsageError ? e.command : undefined) ?? command;
    return {
      exitCode: EXIT.usage,
      message: e.message,
      hint: cmd ? `run "supply-loader ${cmd} --help" for the usage` : 'run "supply-loader --help" for the usage',
      unexpected: false,
    };
  }
  if (e instanceof CliAbortError) {
    return {
      exitCode: EXIT.aborted,
      message: e.message,
      ...(e.errCode ? { err_code: e.errCode } : {}),
      unexpected: false,
    };
  }
  if (isAbortError(e)) {
    return { exitCode: EXIT.aborted, message: 'Cancelled.', unexpected: false };
  }
  if (e instanceof ApiError) return describeApiError(e);
  const msg = e instanceof Error ? e.message : String(e);
  const fsCode = (e as NodeJS.ErrnoException | undefined)?.code;
  if (fsCode === 'ENOENT' || fsCode === 'EACCES' || fsCode === 'EISDIR' || fsCode === 'ENOTDIR' || fsCode === 'EPERM') {
    return { exitCode: EXIT.usage, message: firstLine(msg), unexpected: false };
  }
  return {
    exitCode: EXIT.aborted,
    message: `Unexpected error: ${firstLine(msg)}`,
    hint: 'rerun with --debug for details',
    unexpected: true,
  };
}

export function describeApiError(e: ApiError): DescribedError {
  const info = explainErrCode(e.err_code);
  const status = e.status ? `HTTP ${e.status}` : 'no answer';
  const base = { err_code: e.err_code, unexpected: false } as const;
  switch (e.classification) {
    case 'auth':
      return {
        ...base,
        exitCode: EXIT.aborted,
        message: `The service refused the API key (${status}, ${e.err_code}): it is wrong, revoked or expired.`,
        hint: 'set a valid key (SUPPLY_LOADER_API_KEY, --api-key-file or --profile); an interrupted job can then be resumed',
      };
    case 'daily_limit':
      return {
        ...base,
        exitCode: EXIT.aborted,
        message: `The daily request limit of the service is reached (${e.err_code}).`,
        hint: 'try again tomorrow; an interrupted job can be resumed with "supply-loader resume JOB_ID"',
      };
    case 'network':
      return {
        ...base,
        exitCode: EXIT.aborted,
        message: `Could not reach the service (${e.err_code}): ${firstLine(e.msg)}`,
        hint: 'check --base-url and that the service is running',
      };
    default:
      return {
        ...base,
        exitCode: EXIT.aborted,
        // A busy service: the message says how it answered and how often it was asked.
        message: `${e.endpoint} failed (${status}, ${e.err_code}): ${e.err_code === 'client_service_busy' ? e.msg : info.explanation}`,
        ...(info.action ? { hint: info.action } : {}),
      };
  }
}

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}
