/**
 * A job on disk: `${jobsDir}/${jobId}/plan.json` (the plan it runs), `journal.jsonl` (append-only intents and
 * outcomes) and `meta.json` (status, counts, times, base URL, masked key; written atomically). No file ever
 * holds the API key: only its masked form svc-<key_id>-****.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { RESUMABLE_STATUSES, type JobMeta, type JobSummary, type Plan } from './types.js';

export const PLAN_FILE = 'plan.json';
export const JOURNAL_FILE = 'journal.jsonl';
export const META_FILE = 'meta.json';

const JOB_ID = /^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$/;

export function newJobId(now = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export function isJobId(id: string): boolean {
  return JOB_ID.test(id);
}

export function jobDir(jobsDir: string, jobId: string): string {
  if (!isJobId(jobId)) throw new Error(`"${jobId}" is not a job id (like 20260101-120000-a1b2c3)`);
  return join(jobsDir, jobId);
}

/** Write-then-rename with an fsync of the data, so a crash leaves the old or the new file, never half of one. */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(JSON.stringify(value, null, 1));
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
}

export async function createJobDir(jobsDir: string, jobId: string, plan: Plan): Promise<string> {
  const dir = jobDir(jobsDir, jobId);
  await mkdir(dir, { recursive: true });
  await writeJsonAtomic(join(dir, PLAN_FILE), plan);
  return dir;
}

export async function readPlan(jobsDir: string, jobId: string): Promise<Plan> {
  const text = await readFile(join(jobDir(jobsDir, jobId), PLAN_FILE), 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') throw new Error(`No job ${jobId} in ${jobsDir}`);
    throw e;
  });
  const plan = JSON.parse(text) as Plan;
  if (plan.format !== 'supply-loader/plan@1') throw new Error(`The plan of job ${jobId} has an unknown format`);
  return plan;
}

export async function readMeta(jobsDir: string, jobId: string): Promise<JobMeta> {
  const text = await readFile(join(jobDir(jobsDir, jobId), META_FILE), 'utf8');
  return JSON.parse(text) as JobMeta;
}

export function writeMeta(jobsDir: string, meta: JobMeta): Promise<void> {
  return writeJsonAtomic(join(jobDir(jobsDir, meta.jobId), META_FILE), meta);
}

/** True when a process with this pid exists (a job "running" in a dead process was interrupted). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The status as people should see it: `running` in a process that is gone is `interrupted`. */
export function effectiveStatus(meta: JobMeta): JobMeta['status'] {
  if (meta.status === 'running' && (meta.pid === process.pid ? false : !processAlive(meta.pid))) return 'interrupted';
  return meta.status;
}

/** Every job under jobsDir, newest first. Unreadable folders are left out. */
export async function listJobs(jobsDir: string): Promise<JobSummary[]> {
  let names: string[];
  try {
    names = await readdir(jobsDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: JobSummary[] = [];
  for (const name of names.filter(isJobId)) {
    try {
      const meta = await readMeta(jobsDir, name);
      const status = effectiveStatus(meta);
      const s: JobSummary = {
        jobId: meta.jobId,
        status,
        file: meta.file,
        baseUrl: meta.baseUrl,
        maskedKey: meta.maskedKey,
        createdAt: meta.createdAt,
        finishedAt: meta.finishedAt,
        entries: meta.entries,
        rows: meta.rows,
        counts: meta.counts,
        resumable: RESUMABLE_STATUSES.includes(status),
      };
      if (meta.reason) s.reason = meta.reason;
      out.push(s);
    } catch {
      // a folder without a readable meta.json (being created, or damaged): not a job to show
    }
  }
  return out.sort((a, b) =>
    a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.jobId < b.jobId ? 1 : -1,
  );
}
