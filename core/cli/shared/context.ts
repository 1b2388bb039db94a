/**
 * The context a command runs in: output, progress, cancellation, and the connection — made on demand, so a
 * command can check its input before anything is sent (connectContext), or by main.ts before `run` for
 * commands with needsConnection.
 */
import type { ApiClient } from '../../api/index.js';
import { secretScrubber } from '../../api/secrets.js';
import { CliUsageError } from './errors.js';
import { resolveConnection, resolveJobsDir, type ResolvedConnection } from './connection.js';
import { NO_PROGRESS, ProgressBar } from '../output/progress.js';
import type { CliContext, CliProgress } from './types.js';

export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** stderr is a terminal. */
  isTTY: boolean;
  /** Terminal width for the progress bar. */
  columns?: number;
  /** Aborted on SIGINT (set by the process entry point). */
  signal?: AbortSignal;
}

export interface GlobalValues {
  'base-url'?: string;
  'api-key-file'?: string;
  profile?: string;
  'jobs-dir'?: string;
  json?: boolean;
  debug?: boolean;
}

export interface ConnectOptions {
  /** Cap of the client's adaptive concurrency (import --concurrency). */
  maxConcurrency?: number;
  /**
   * false: no /v2/me here, the caller reads it at once beside its first reads (the planner does: one round trip
   * less before the writes). The manufacturer id is then not known to the context.
   */
  checkKey?: boolean;
}

export class RunContext implements CliContext {
  readonly json: boolean;
  readonly isTTY: boolean;
  readonly signal: AbortSignal;
  readonly debug: boolean;
  readonly jobsDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  private connection: ResolvedConnection | undefined;
  private client_: ApiClient | undefined;
  private manufacturerId_: string | undefined;
  private scrub: (s: string) => string = (s) => s;
  private readonly openBars = new Set<ProgressBar>();

  constructor(
    private readonly io: CliIO,
    readonly globals: GlobalValues,
    signal: AbortSignal,
  ) {
    this.json = globals.json === true;
    this.isTTY = io.isTTY;
    this.signal = signal;
    this.debug = globals.debug === true;
    this.env = io.env;
    this.cwd = io.cwd;
    this.jobsDir = resolveJobsDir(globals['jobs-dir'], io.env, io.cwd);
  }

  readonly stdout = (s: string): void => {
    this.io.stdout(this.scrub(s));
  };

  readonly stderr = (s: string): void => {
    this.clearBars();
    this.io.stderr(this.scrub(s));
  };

  /** A text with the key masked, as stdout/stderr write it (for files the CLI writes with its words). */
  mask(s: string): string {
    return this.scrub(s);
  }

  get connected(): boolean {
    return this.client_ !== undefined;
  }

  get client(): ApiClient {
    if (!this.client_) throw new Error('internal: the command used the connection before connecting');
    return this.client_;
  }

  get manufacturerId(): string {
    if (this.manufacturerId_ === undefined)
      throw new Error('internal: the command used the connection before connecting');
    return this.manufacturerId_;
  }

  get baseUrl(): string {
    return this.connection?.baseUrl ?? '';
  }

  get maskedKey(): string {
    return this.connection?.maskedKey ?? '';
  }

  get keySource(): string {
    return this.connection?.keySource ?? '';
  }

  /** Resolve the connection, create the client and read /v2/me (which checks the key). Idempotent. */
  async connect(o: ConnectOptions = {}): Promise<void> {
    if (this.client_) return;
    const conn = await resolveConnection(this.globals, this.io.env, this.io.cwd);
    this.connection = conn;
    const keyScrub = secretScrubber(conn.apiKey);
    this.scrub = keyScrub;
    if (o.maxConcurrency !== undefined && !(Number.isInteger(o.maxConcurrency) && o.maxConcurrency >= 1)) {
      throw new CliUsageError('--concurrency must be a whole number ≥ 1');
    }
    // Loaded here, not at the top: commands that never connect (validate, template, help) start without the
    // HTTP client (docs/cli.md, start-up).
    const { createApiClient } = await import('../../api/index.js');
    const client = createApiClient({
      baseUrl: conn.baseUrl,
      apiKey: conn.apiKey,
      ...(o.maxConcurrency !== undefined ? { maxConcurrency: o.maxConcurrency } : {}),
    });
    if (o.checkKey !== false) {
      try {
        const me = await client.me({ signal: this.signal });
        this.manufacturerId_ = me.manufacturer_id;
      } catch (e) {
        await client.close();
        throw e;
      }
    }
    this.client_ = client;
  }

  progress(total: number, label: string): CliProgress {
    if (!this.isTTY || this.json) return NO_PROGRESS;
    const bar = new ProgressBar({ write: (s) => this.io.stderr(s), total, label, columns: this.io.columns });
    this.openBars.add(bar);
    return {
      tick: (n, note) => bar.tick(n, note),
      done: () => {
        if (this.openBars.delete(bar)) bar.done();
      },
    };
  }

  /** A message while a bar is drawn goes on its own line. */
  private clearBars(): void {
    if (this.openBars.size > 0) this.io.stderr('\r\x1b[K');
  }

  /** Print a JSON document on stdout (the only thing --json prints there). */
  printJson(value: unknown): void {
    this.stdout(`${JSON.stringify(value, null, 2)}\n`);
  }

  async close(): Promise<void> {
    for (const bar of this.openBars) bar.done();
    this.openBars.clear();
    await this.client_?.close();
  }
}

/** The run context behind a CliContext given to one of our commands (main.ts always passes a RunContext). */
export function runContext(ctx: CliContext): RunContext {
  if (!(ctx instanceof RunContext)) throw new Error('internal: not a CLI run context');
  return ctx;
}

/** Connect a context for a command that checked its input first (needsConnection: false). */
export async function connectContext(ctx: CliContext, o: ConnectOptions = {}): Promise<RunContext> {
  const rc = runContext(ctx);
  await rc.connect(o);
  return rc;
}
