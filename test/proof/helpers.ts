/**
 * Helpers of the proof tests: the in-process sandbox and its control API, the CLI run in this process
 * or as a real child process, request-log marks (to count what a step sent), a bound on time and memory for a
 * step, and a scan of files and output for a secret.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { cliRunners, sandboxControl, type CliRun, type LoggedRequest } from '../fixtures/cli-process.js';
import { readZipEntries } from '../fixtures/zip-writer.js';

export { ROOT, BIN, type CliRun, type CliEnv, type Child, type LoggedRequest } from '../fixtures/cli-process.js';

export type Sandbox = RunningSandbox;

export function tmp(prefix = 'sl-proof-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function sandbox(o: { seed?: 'demo' | 'empty'; dataFile?: string } = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, seed: o.seed ?? 'demo', ...(o.dataFile ? { dataFile: o.dataFile } : {}) });
}

export const control = sandboxControl;

/** The request log's position now: pass it to `requestsSince` to get what was sent after. */
export async function requestMark(baseUrl: string): Promise<number> {
  return (await control<{ last_seq: number }>(baseUrl, 'GET', '/requests?since=999999999')).last_seq;
}

/** API requests (/v2/…) logged after a mark. */
export async function requestsSince(baseUrl: string, mark: number): Promise<LoggedRequest[]> {
  const r = await control<{ entries: LoggedRequest[] }>(baseUrl, 'GET', `/requests?since=${mark}`);
  return r.entries.filter((e) => e.path.startsWith('/v2/'));
}

export type SandboxState = Record<string, { active: number; deleted: number }>;
export const sandboxState = (baseUrl: string) => control<SandboxState>(baseUrl, 'GET', '/state');

/** The CLI in this process (the same code path as the bin), and the bin as a real child process. */
export const { cli, spawnCli } = cliRunners('sl-proof-no-config');

/** Parse the JSON a `--json` command printed (the last JSON document on stdout). */
export function jsonOut<T = Record<string, unknown>>(run: CliRun): T {
  const s = run.stdout.trim();
  try {
    return JSON.parse(s) as T;
  } catch {
    const at = s.lastIndexOf('\n{');
    return JSON.parse(at >= 0 ? s.slice(at + 1) : s) as T;
  }
}

/**
 * Run a step with bounds: it must settle within `ms` (else "hang") and the process's resident memory must not
 * grow by more than `maxRssGrowthBytes` while it runs (sampled every 25 ms). Returns the step's value and the
 * peak growth seen. Bounds, not timings: generous enough for a slow machine, small enough to catch a zip bomb
 * or an endless loop.
 */
export async function bounded<T>(
  ms: number,
  maxRssGrowthBytes: number,
  step: () => Promise<T>,
): Promise<{ value: T; peakGrowth: number }> {
  const base = process.memoryUsage().rss;
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss - base);
  }, 25);
  let timer: NodeJS.Timeout | undefined;
  try {
    const value = await Promise.race([
      step(),
      new Promise<never>((_, rej) => {
        timer = setTimeout(() => rej(new Error(`no answer within ${ms} ms (hang)`)), ms);
      }),
    ]);
    peak = Math.max(peak, process.memoryUsage().rss - base);
    if (peak > maxRssGrowthBytes)
      throw new Error(`memory grew by ${Math.round(peak / 1e6)} MB (bound ${Math.round(maxRssGrowthBytes / 1e6)} MB)`);
    return { value, peakGrowth: peak };
  } finally {
    clearInterval(sampler);
    if (timer) clearTimeout(timer);
  }
}

/** Every file under a directory (recursively). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** A file's text as a scan must see it: a zip (an .xlsx) inflated part by part, anything else as UTF-8. */
export async function scannableText(path: string): Promise<string> {
  const raw = readFileSync(path);
  if (raw.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    const parts = await readZipEntries(path);
    return parts.map((p) => `${p.name}\n${p.data.toString('utf8')}`).join('\n');
  }
  return raw.toString('utf8');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The one job folder under jobsDir (if any) and the number of outcome lines its journal holds. */
export function journalProgress(jobsDir: string): { jobId: string | null; outcomes: number } {
  let jobId: string | undefined;
  try {
    [jobId] = readdirSync(jobsDir);
  } catch {
    return { jobId: null, outcomes: 0 };
  }
  if (!jobId) return { jobId: null, outcomes: 0 };
  let text = '';
  try {
    text = readFileSync(join(jobsDir, jobId, 'journal.jsonl'), 'utf8');
  } catch {
    /* not yet written */
  }
  return { jobId, outcomes: (text.match(/"t":"outcome"/g) ?? []).length };
}

/** Wait until the job under jobsDir has at least `n` outcomes on disk; returns its id. */
export async function waitForOutcomes(
  jobsDir: string,
  n: number,
  o: { timeoutMs?: number; until?: () => boolean } = {},
): Promise<string> {
  const end = Date.now() + (o.timeoutMs ?? 60_000);
  while (Date.now() < end) {
    const j = journalProgress(jobsDir);
    if (j.jobId && j.outcomes >= n) return j.jobId;
    if (o.until?.()) throw new Error(`the job stopped before ${n} outcomes (it has ${j.outcomes})`);
    await sleep(10);
  }
  throw new Error(`no ${n} outcomes in ${jobsDir} within ${o.timeoutMs ?? 60_000} ms`);
}

/** A seeded PRNG (mulberry32, the sandbox's own) for reproducible "random" points. */
export { mulberry32 as prng } from '../../sandbox/faults.js';
