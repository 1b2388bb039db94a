/**
 * The shape of a `supply-loader` CLI command. main.ts parses argv, builds the context (connection, output,
 * progress, cancellation) and calls `run`, whose return value is the process exit code (see EXIT below).
 */
import type { ParseArgsConfig } from 'node:util';
import type { ApiClient } from '../../api/index.js';

export interface CliProgress {
  tick(n?: number, note?: string): void;
  done(): void;
}

export interface CliContext {
  client: ApiClient;
  manufacturerId: string;
  baseUrl: string;
  /** The key as shown to people: svc-<key_id>-****. */
  maskedKey: string;
  /** --json: print machine-readable output on stdout (and nothing else there). */
  json: boolean;
  /** stderr is a terminal: a progress bar may be drawn. */
  isTTY: boolean;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Aborted on SIGINT / SIGTERM: stop gracefully, leave the job resumable, return EXIT.aborted. */
  signal: AbortSignal;
  /** A progress bar on stderr when it is a terminal (and not --json); a no-op otherwise. */
  progress(total: number, label: string): CliProgress;
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  options: ParseArgsConfig['options'];
  /** false: the command runs without a connection (template, validate, jobs, sandbox); ctx.client then throws. */
  needsConnection: boolean;
  run(values: Record<string, unknown>, positionals: string[], ctx: CliContext): Promise<number>;
}

/** Exit codes of every command (docs/cli.md "Exit codes"). */
export const EXIT = {
  /** Every row succeeded or was unchanged. */
  ok: 0,
  /** Some rows failed or were skipped. */
  partial: 1,
  /** Usage or validation errors: nothing was sent. */
  usage: 2,
  /** Aborted: authentication, daily limit, cancelled. */
  aborted: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
