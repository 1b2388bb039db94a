/**
 * The impact files of a job folder (docs/lca-export.md, "Import impact"): the affected set decided at plan
 * time, the affected instances' LCA results before the job and after it (one JSON line per instance, written as
 * they come), the dry run's estimates, and the report.
 */
import { createWriteStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jobDir, jsonLines, writeJsonAtomic } from '../../jobs/job-store.js';
import type { BreakdownContext, InstanceLca } from '../model.js';
import type { AffectedSet, ImpactEstimates, ImpactReport } from './types.js';

export const LCA_AFFECTED_FILE = 'lca-affected.json';
export const LCA_BEFORE_FILE = 'lca-before.jsonl';
export const LCA_AFTER_FILE = 'lca-after.jsonl';
export const LCA_ESTIMATES_FILE = 'lca-estimates.json';
export const LCA_IMPACT_FILE = 'lca-impact.json';
/**
 * The import was asked for its LCA impact after the job (`--lca-impact`): kept so that a resume of the job
 * recomputes the affected instances and writes the report as the import would have.
 */
export const LCA_ASKED_FILE = 'lca-impact-asked.json';

const pathOf = (jobsDir: string, jobId: string, file: string) => join(jobDir(jobsDir, jobId), file);

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

export const writeJobJson = (jobsDir: string, jobId: string, file: string, v: unknown): Promise<void> =>
  writeJsonAtomic(pathOf(jobsDir, jobId, file), v);

export const readAffected = (jobsDir: string, jobId: string) =>
  readJson<AffectedSet>(pathOf(jobsDir, jobId, LCA_AFFECTED_FILE));
export const readEstimates = (jobsDir: string, jobId: string) =>
  readJson<ImpactEstimates>(pathOf(jobsDir, jobId, LCA_ESTIMATES_FILE));
export const readImpactReport = (jobsDir: string, jobId: string) =>
  readJson<ImpactReport>(pathOf(jobsDir, jobId, LCA_IMPACT_FILE));
export const readImpactAsked = (jobsDir: string, jobId: string) =>
  readJson<{ recompute_after: boolean }>(pathOf(jobsDir, jobId, LCA_ASKED_FILE));

/** Instances' LCA outcomes, one JSON line each, streamed to the file (replacing it). */
export async function writeInstanceLines(
  jobsDir: string,
  jobId: string,
  file: typeof LCA_BEFORE_FILE | typeof LCA_AFTER_FILE,
  instances: Iterable<InstanceLca>,
): Promise<void> {
  const out = createWriteStream(pathOf(jobsDir, jobId, file), { encoding: 'utf8' });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  for (const i of instances)
    if (!out.write(`${JSON.stringify(i)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  out.end();
  await done;
}

/** The instance lines of a file by instance id; null when the file is not there. */
export async function readInstanceLines(
  jobsDir: string,
  jobId: string,
  file: typeof LCA_BEFORE_FILE | typeof LCA_AFTER_FILE,
): Promise<Map<string, InstanceLca> | null> {
  const p = pathOf(jobsDir, jobId, file);
  try {
    await access(p);
  } catch {
    return null;
  }
  const m = new Map<string, InstanceLca>();
  for await (const l of jsonLines<InstanceLca>(p)) if (l) m.set(l.instance.id.toLowerCase(), l);
  return m;
}

/** The names of the breakdown's components as they were before the job (a component the job deletes keeps its name). */
export const LCA_BEFORE_CONTEXT_FILE = 'lca-before-names.json';
export const readBeforeContext = (jobsDir: string, jobId: string) =>
  readJson<BreakdownContext>(pathOf(jobsDir, jobId, LCA_BEFORE_CONTEXT_FILE));
