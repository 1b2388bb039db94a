/**
 * A job on disk: `${jobsDir}/${jobId}/plan.json` (the plan it runs, without its entries: format
 * `supply-loader/job-plan@2`), `plan-entries.jsonl` (the plan's entries, one JSON line each, in plan order),
 * `journal.jsonl` (append-only intents and outcomes) and `meta.json` (status, counts, times, base URL, masked
 * key; written atomically). What grows with the rows is written and read back line by line, never as one JSON
 * text (a 200,000-row plan is ~200 MB of JSON). No file ever holds the API key: only its masked form
 * svc-<key_id>-****.
 *
 * Job folders of the previous format (`plan.json` holding the whole plan, format `supply-loader/plan@1`) are
 * read as they are, so a job started by the previous version resumes; a plan of any other format is refused
 * with a message saying so.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { mkdir, open, readdir, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { StringDecoder } from 'node:string_decoder';
import { join } from 'node:path';
import { EntryIndex } from './entry-index.js';
import {
  RESUMABLE_STATUSES,
  type JobMeta,
  type JobSummary,
  type Plan,
  type PlanEntry,
  type PlanHeader,
} from './types.js';
import { writeTextAtomic } from '../fs/atomic.js';

export const PLAN_FILE = 'plan.json';
export const PLAN_ENTRIES_FILE = 'plan-entries.jsonl';
/** The format of plan.json in a job folder written by this version (entries in PLAN_ENTRIES_FILE). */
export const JOB_PLAN_FORMAT = 'supply-loader/job-plan@2';
/** The format of plan.json written by the previous version: the whole plan, entries included. */
const PREVIOUS_PLAN_FORMAT = 'supply-loader/plan@1';
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
  await writeTextAtomic(path, JSON.stringify(value, null, 1), { sync: true });
}

/** plan.json of a job folder of this version: the plan without its entries. */
export type JobPlanHeader = Omit<PlanHeader, 'format'> & {
  format: typeof JOB_PLAN_FORMAT;
  plan_format: Plan['format'];
  entries_file: string;
  entry_count: number;
};

/** A new job folder; the path its plan's entries go to (planImport writes them there as it plans). */
export async function newJobDir(jobsDir: string, jobId: string): Promise<{ dir: string; entriesPath: string }> {
  const dir = jobDir(jobsDir, jobId);
  await mkdir(dir, { recursive: true });
  return { dir, entriesPath: join(dir, PLAN_ENTRIES_FILE) };
}

/** plan.json of a job folder, written atomically once plan-entries.jsonl is complete and synced. */
export async function writePlanHeader(jobsDir: string, jobId: string, plan: PlanHeader): Promise<void> {
  const { format, ...rest } = plan;
  const header: JobPlanHeader = {
    ...rest,
    format: JOB_PLAN_FORMAT,
    plan_format: format,
    entries_file: PLAN_ENTRIES_FILE,
    entry_count: plan.summary.entries,
  };
  await writeJsonAtomic(join(jobDir(jobsDir, jobId), PLAN_FILE), header);
}

/**
 * Write the plan into a new job folder: the entries line by line into plan-entries.jsonl (buffered, with
 * backpressure, then fsynced), then plan.json atomically — its presence says the entries are complete.
 */
export async function createJobDir(jobsDir: string, jobId: string, plan: Plan): Promise<string> {
  if (plan.format !== 'supply-loader/plan@1') throw new Error('This is not a Supply Loader plan');
  const { dir, entriesPath } = await newJobDir(jobsDir, jobId);
  const fh = await open(entriesPath, 'w');
  try {
    let buf = '';
    for (const e of plan.entries) {
      buf += `${JSON.stringify(e)}\n`;
      if (buf.length >= 1 << 20) {
        await fh.write(buf);
        buf = '';
      }
    }
    if (buf) await fh.write(buf);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  const { entries, ...head } = plan;
  await writePlanHeader(jobsDir, jobId, { ...head, summary: { ...head.summary, entries: entries.length } });
  return dir;
}

/** Each JSON line of a file, in order, read as a stream (a torn or blank line is passed as null / skipped). */
export async function* jsonLines<T>(path: string): AsyncGenerator<T | null> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const raw of rl) {
      if (raw.trim() === '') continue;
      let v: T | null;
      try {
        v = JSON.parse(raw) as T;
      } catch {
        v = null;
      }
      yield v;
    }
  } finally {
    rl.close();
  }
}

/** plan.json of a job: the header of this version, or the whole plan of the previous format. */
async function readPlanFile(jobsDir: string, jobId: string): Promise<JobPlanHeader | Plan> {
  const dir = jobDir(jobsDir, jobId);
  const text = await readFile(join(dir, PLAN_FILE), 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') throw new Error(`No job ${jobId} in ${jobsDir}`);
    throw e;
  });
  let head: { format?: unknown };
  try {
    head = JSON.parse(text) as { format?: unknown };
  } catch {
    throw new Error(`The plan of job ${jobId} (${join(dir, PLAN_FILE)}) is damaged: it is not JSON`);
  }
  // The previous format: the whole plan in plan.json. Read as it is, so such a job resumes.
  if (head.format === PREVIOUS_PLAN_FORMAT) return head as Plan;
  if (head.format !== JOB_PLAN_FORMAT) {
    throw new Error(
      `Job ${jobId} was written in a plan format this version of Supply Loader does not know (${String(head.format ?? 'none')}); it cannot be resumed or shown here. Plan the workbook again and start a new import.`,
    );
  }
  return head as JobPlanHeader;
}

function headerOf(h: JobPlanHeader): PlanHeader {
  const { format: _f, plan_format, entries_file: _e, entry_count: _c, ...rest } = h;
  return { format: plan_format, ...rest };
}

/** Each entry of a plan-entries file, read synchronously in 1 MB chunks (for synchronous callers: formatPlan). */
export function* readEntriesSync(path: string): Generator<PlanEntry> {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    const utf8 = new StringDecoder('utf8'); // a character split between two chunks stays whole
    let carry = '';
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
      const lines = (carry + utf8.write(buf.subarray(0, n))).split('\n');
      carry = lines.pop() ?? '';
      for (const l of lines) if (l.trim()) yield JSON.parse(l) as PlanEntry;
    }
    if (carry.trim()) yield JSON.parse(carry) as PlanEntry;
  } finally {
    closeSync(fd);
  }
}

export async function readPlan(jobsDir: string, jobId: string): Promise<Plan> {
  const head = await readPlanFile(jobsDir, jobId);
  if (head.format === PREVIOUS_PLAN_FORMAT) return head as Plan;
  const h = head as JobPlanHeader;
  const entries: Plan['entries'] = [];
  for await (const e of jsonLines<Plan['entries'][number]>(join(jobDir(jobsDir, jobId), h.entries_file))) {
    if (e === null) throw new Error(`The plan of job ${jobId} is damaged: a line of ${h.entries_file} is not JSON`);
    entries.push(e);
  }
  if (entries.length !== h.entry_count) {
    throw new Error(
      `The plan of job ${jobId} is incomplete: ${h.entries_file} holds ${entries.length} of ${h.entry_count} entries`,
    );
  }
  return { ...headerOf(h), entries };
}

/**
 * A job's plan as its header and the compact index of its entries (read in one pass; the entries stay on disk).
 * `each` sees every entry as it passes (not to be kept). A job of the previous format is read whole, once.
 */
export async function readJobIndex(
  jobsDir: string,
  jobId: string,
  each?: (e: PlanEntry, i: number) => void,
): Promise<{ header: PlanHeader; index: EntryIndex }> {
  const head = await readPlanFile(jobsDir, jobId);
  if (head.format === PREVIOUS_PLAN_FORMAT) {
    const { entries, ...header } = head as Plan;
    entries.forEach((e, i) => each?.(e, i));
    return { header, index: EntryIndex.fromEntries(entries) };
  }
  const h = head as JobPlanHeader;
  const index = await EntryIndex.fromFile(
    join(jobDir(jobsDir, jobId), h.entries_file),
    each,
    (n) => new Error(`The plan of job ${jobId} is damaged: line ${n} of ${h.entries_file} is not JSON`),
  );
  if (index.size !== h.entry_count) {
    throw new Error(
      `The plan of job ${jobId} is incomplete: ${h.entries_file} holds ${index.size} of ${h.entry_count} entries`,
    );
  }
  return { header: headerOf(h), index };
}

/**
 * A job's plan header, and each of its entries as it passes (`each` must not keep it), in one pass over its file:
 * readJobIndex without the index, for a caller that needs only some entries (an index of every entry would be
 * built only to be dropped). A damaged or incomplete file is refused as readJobIndex refuses it.
 */
export async function forEachJobEntry(
  jobsDir: string,
  jobId: string,
  each: (e: PlanEntry, i: number) => void,
): Promise<PlanHeader> {
  const head = await readPlanFile(jobsDir, jobId);
  if (head.format === PREVIOUS_PLAN_FORMAT) {
    const { entries, ...header } = head as Plan;
    entries.forEach((e, i) => each(e, i));
    return header;
  }
  const h = head as JobPlanHeader;
  let n = 0;
  for await (const e of jsonLines<PlanEntry>(join(jobDir(jobsDir, jobId), h.entries_file))) {
    if (e === null) throw new Error(`The plan of job ${jobId} is damaged: a line of ${h.entries_file} is not JSON`);
    each(e, n++);
  }
  if (n !== h.entry_count) {
    throw new Error(`The plan of job ${jobId} is incomplete: ${h.entries_file} holds ${n} of ${h.entry_count} entries`);
  }
  return headerOf(h);
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
      if (meta.undoes) s.undoes = meta.undoes;
      out.push(s);
    } catch {
      // a folder without a readable meta.json (being created, or damaged): not a job to show
    }
  }
  return out.sort((a, b) =>
    a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.jobId < b.jobId ? 1 : -1,
  );
}
