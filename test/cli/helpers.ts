/**
 * Helpers of the CLI tests: the in-process sandbox, the CLI run in this process (runCli) or as a real child
 * process (bin/supply-loader.cjs), and reading the service state back through the API.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { cliRunners, sandboxControl, type CliEnv, type CliRun, type LoggedRequest } from '../fixtures/cli-process.js';

export { ROOT, BIN, type CliRun, type CliEnv, type Child, type LoggedRequest } from '../fixtures/cli-process.js';

export type Sandbox = RunningSandbox;

export async function sandbox(seed: 'demo' | 'empty' = 'demo'): Promise<Sandbox> {
  return startSandbox({ port: 0, seed });
}

export function tmpDir(prefix = 'sl-cli-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * `cli`: the CLI in this process with a key in SUPPLY_LOADER_API_KEY and the sandbox's --base-url;
 * `spawnCli`: the bin as a real child process (from another cwd, to prove it works from anywhere).
 */
export const { cli, spawnCli } = cliRunners('sl-cli-no-config');

export async function runChild(args: string[], o: CliEnv = {}): Promise<CliRun> {
  const c = spawnCli(args, o);
  const { code } = await c.exit;
  return { code: code ?? -1, stdout: c.stdout(), stderr: c.stderr() };
}

export function apiClient(sb: Sandbox, key = sb.ownerKey): ApiClient {
  return createApiClient({ baseUrl: sb.baseUrl, apiKey: key });
}

export function control<T = unknown>(sb: Sandbox, method: string, p: string, body?: unknown): Promise<T> {
  return sandboxControl<T>(sb.baseUrl, method, p, body);
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
