/**
 * Shared pieces of the issue-7 benchmarks: the sandbox in its own process (as `npm run sandbox` starts it), its
 * control API, the machine description, tables, JSON results under bench/results/, and child processes that
 * report their wall time and peak RSS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const RESULTS = join(ROOT, 'bench/results');

export interface SandboxProcess {
  child: ChildProcess;
  url: string;
  key: string;
  stop(): Promise<void>;
}

/** `tsx sandbox/cli.ts --port 0` in a separate process; resolves with its URL and demo key. */
export function startSandboxProcess(o: { seed?: 'demo' | 'empty'; data?: string } = {}): Promise<SandboxProcess> {
  const args = [
    '--import',
    'tsx',
    'sandbox/cli.ts',
    '--port',
    '0',
    '--seed',
    o.seed ?? 'demo',
    ...(o.data ? ['--data', o.data] : []),
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  // never leave the sandbox behind, even when the benchmark dies
  const kill = () => child.exitCode === null && child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${out}`)), 60_000);
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${out}`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const key = /key[^:]*: (svc-[A-Za-z0-9]+-[A-Za-z0-9_]+)/.exec(out)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolve({
          child,
          url,
          key,
          stop: () =>
            new Promise<void>((res) => {
              if (child.exitCode !== null) return res();
              child.once('exit', () => res());
              child.kill('SIGTERM');
            }),
        });
      }
    });
  });
}

export async function control<T = unknown>(url: string, method: string, path: string, body?: unknown): Promise<T> {
  const r = await fetch(`${url}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} /__sandbox${path}: ${r.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Reset to the demo seed with no faults; returns the new owner key. */
export async function resetSandbox(url: string, seed: 'demo' | 'empty' = 'demo'): Promise<string> {
  const r = await control<{ owner_key: string }>(url, 'POST', '/reset', { seed });
  await control(url, 'PUT', '/faults', { error_rate: 0, reset_after_commit_rate: 0, latency_ms: 0, jitter_ms: 0 });
  return r.owner_key;
}

export async function requestMark(url: string): Promise<number> {
  return (await control<{ last_seq: number }>(url, 'GET', '/requests?since=999999999')).last_seq;
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/** API requests since a mark (and the log cleared, so it does not grow without bound over a benchmark). */
export async function requestsSince(url: string, mark: number): Promise<LoggedRequest[]> {
  const r = await control<{ entries: LoggedRequest[] }>(url, 'GET', `/requests?since=${mark}`);
  await control(url, 'DELETE', '/requests');
  return r.entries.filter((e) => e.path.startsWith('/v2/'));
}

export function machine(): Record<string, unknown> {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    const m = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) model = m[1].trim();
  } catch {
    /* not Linux */
  }
  return {
    nproc: cpus().length,
    cpu: model,
    memory_gb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    loadavg_1m: Math.round(loadavg()[0] * 100) / 100,
  };
}

/** Print a table (first row = header) with aligned columns. */
export function table(title: string, rows: (string | number)[][]): string {
  const text = rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)));
  const widths = text[0].map((_, i) => Math.max(...text.map((r) => String(r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const out = [
    `\n${title}`,
    line(text[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...text.slice(1).map(line),
  ].join('\n');
  process.stdout.write(`${out}\n`);
  return out;
}

export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return n.toLocaleString('en');
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
}

/** Write bench/results/NAME-<timestamp>.json and NAME-latest.json; returns the latest path. */
export function writeResult(name: string, data: Record<string, unknown>): string {
  mkdirSync(RESULTS, { recursive: true });
  const body = JSON.stringify({ benchmark: name, at: new Date().toISOString(), machine: machine(), ...data }, null, 2);
  writeFileSync(join(RESULTS, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), body);
  const latest = join(RESULTS, `${name}-latest.json`);
  writeFileSync(latest, body);
  return latest;
}

export const seconds = (ms: number) => Math.round(ms) / 1000;

/** Run `node --import tsx SCRIPT ARGS` and parse the JSON it prints last on stdout. */
export function runScript<T>(
  script: string,
  args: string[],
  o: { inherit?: boolean } = {},
): Promise<{ code: number; json: T | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', o.inherit ? 'inherit' : 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (o.inherit) process.stdout.write(d);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out
        .trim()
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{'));
      let json: T | null = null;
      try {
        json = last ? (JSON.parse(last) as T) : null;
      } catch {
        json = null;
      }
      resolve({ code: code ?? -1, json, stdout: out });
    });
  });
}

/** True when the module with this URL is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && pathToFileURL(resolve(process.argv[1])).href === moduleUrl;
}
