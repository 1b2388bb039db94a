/**
 * Helpers of the CLI tests: the in-process sandbox, the CLI run in this process (runCli) or as a real child
 * process (bin/supply-loader.mjs), and reading the service state back through the API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient, type ApiClient } from '../../electron/core/api/index.js';
import { runCli } from '../../electron/core/cli/main.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin/supply-loader.mjs');

export type Sandbox = RunningSandbox;

export async function sandbox(seed: 'demo' | 'empty' = 'demo'): Promise<Sandbox> {
  return startSandbox({ port: 0, seed });
}

export function tmpDir(prefix = 'sl-cli-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliEnv {
  key?: string;
  baseUrl?: string;
  cwd?: string;
  jobsDir?: string;
  configDir?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  isTTY?: boolean;
}

/** Run the CLI in this process with a key in SUPPLY_LOADER_API_KEY and the sandbox's --base-url. */
export async function cli(args: string[], o: CliEnv = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const env: NodeJS.ProcessEnv = {
    ...(o.key ? { SUPPLY_LOADER_API_KEY: o.key } : {}),
    ...(o.jobsDir ? { SUPPLY_LOADER_JOBS_DIR: o.jobsDir } : {}),
    SUPPLY_LOADER_CONFIG_DIR: o.configDir ?? path.join(os.tmpdir(), 'sl-cli-no-config'),
    ...(o.env ?? {}),
  };
  const argv = o.baseUrl ? [...args, '--base-url', o.baseUrl] : args;
  const code = await runCli(argv, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    env,
    cwd: o.cwd ?? process.cwd(),
    isTTY: o.isTTY ?? false,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  return { code, stdout, stderr };
}

export interface Child {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Start the bin as a real child process (from another cwd, to prove it works from anywhere). */
export function spawnCli(args: string[], o: CliEnv = {}): Child {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...(o.key ? { SUPPLY_LOADER_API_KEY: o.key } : {}),
    ...(o.jobsDir ? { SUPPLY_LOADER_JOBS_DIR: o.jobsDir } : {}),
    SUPPLY_LOADER_CONFIG_DIR: o.configDir ?? path.join(os.tmpdir(), 'sl-cli-no-config'),
    ...(o.env ?? {}),
  };
  const argv = o.baseUrl ? [...args, '--base-url', o.baseUrl] : args;
  const proc = spawn(process.execPath, [BIN, ...argv], {
    cwd: o.cwd ?? os.tmpdir(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { proc, stdout: () => out, stderr: () => err, exit };
}

export async function runChild(args: string[], o: CliEnv = {}): Promise<CliRun> {
  const c = spawnCli(args, o);
  const { code } = await c.exit;
  return { code: code ?? -1, stdout: c.stdout(), stderr: c.stderr() };
}

export function apiClient(sb: Sandbox, key = sb.ownerKey): ApiClient {
  return createApiClient({ baseUrl: sb.baseUrl, apiKey: key });
}

export async function control<T = unknown>(sb: Sandbox, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sb.baseUrl}/__sandbox${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} /__sandbox${p} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
  err_code?: string | null;
}

/** The request log since the last clear (and clears it when asked). */
export async function requests(sb: Sandbox): Promise<LoggedRequest[]> {
  const r = await control<{ entries: LoggedRequest[] }>(sb, 'GET', '/requests');
  return r.entries;
}

export async function clearRequests(sb: Sandbox): Promise<void> {
  await control(sb, 'DELETE', '/requests');
}

export const isWrite = (r: LoggedRequest) => r.method !== 'GET' && !r.path.startsWith('/__sandbox');

/** Every entity of a collection, through the API. */
export async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
