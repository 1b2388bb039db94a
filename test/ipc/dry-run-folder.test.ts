/**
 * The app's dry run plans into the folder of the job that will run it. The session keeps the plan's
 * header and a compact index, no entries: pages, filters and searches are read back from plan-entries.jsonl
 * (shown by changing the file under the session), `import.run` starts the job in that very folder (no second
 * planning), and a dry run no job adopted is removed when it is made again or its session is closed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import { PLAN_ENTRIES_FILE, PLAN_FILE, META_FILE } from '../../core/jobs/job-store.js';
import type { PlanEntry } from '../../core/jobs/types.js';
import { fullWorkbook, writeTestWorkbook, type Catalog } from '../jobs/helpers.js';
import { rpc, startTestApp, stopTestApp } from './helpers.js';

let mode: BrowserMode;
let dir: string;
let cat: Catalog;

beforeAll(async () => {
  ({ mode, dir } = await startTestApp('sl-dry-'));
  const res = await fetch(`${mode.app.sandbox.baseUrl() ?? ''}/__sandbox/catalog`);
  cat = (await res.json()) as Catalog;
});

afterAll(() => stopTestApp(mode, dir));

async function openImport(name: string): Promise<string> {
  const p = path.join(dir, name);
  await writeTestWorkbook(p, fullWorkbook(cat));
  const { fileId } = mode.app.files.registerPath(p);
  return (await rpc(mode, 'import.validate', { fileId })).importId;
}

const entriesOf = (file: string): PlanEntry[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as PlanEntry);

async function keys(importId: string, filter: Parameters<typeof mode.app.sessions.imports.rows>[1]): Promise<string[]> {
  const r = await rpc(mode, 'import.planRows', { importId, offset: 0, limit: 500, filter });
  expect(r.total).toBe(r.rows.length);
  return r.rows.map((x) => x.key);
}

describe('the dry run in a job folder', () => {
  it('holds no entries, pages and filters from the file, and the run uses its folder', async () => {
    const importId = await openImport('onboarding.xlsx');
    const ov = await rpc(mode, 'import.plan', { importId, createOnly: false });
    const s = mode.app.sessions.imports.get(importId);
    // Only the header and the compact index: no entry array anywhere in the session's plan.
    expect(s.plan).not.toBeNull();
    expect(s.plan).not.toHaveProperty('entries');
    const planned = s.planned!;
    expect(planned.index.size).toBe(ov.summary.entries);
    const folder = path.join(mode.app.sessions.jobs.jobsDir, planned.jobId);
    const file = path.join(folder, PLAN_ENTRIES_FILE);
    expect(fs.existsSync(path.join(folder, PLAN_FILE))).toBe(true);
    // Not a job yet: no meta.json, not listed on the Jobs screen.
    expect(fs.existsSync(path.join(folder, META_FILE))).toBe(false);
    expect((await rpc(mode, 'jobs.list', {})).jobs.map((j) => j.jobId)).not.toContain(planned.jobId);

    // Pages in plan order, as the file holds them.
    const onDisk = entriesOf(file);
    expect(onDisk).toHaveLength(ov.summary.entries);
    const first = await rpc(mode, 'import.planRows', { importId, offset: 0, limit: 3, filter: {} });
    const rest = await rpc(mode, 'import.planRows', { importId, offset: 3, limit: 500, filter: {} });
    expect([...first.rows, ...rest.rows].map((r) => r.key)).toEqual(onDisk.map((e) => e.key));
    expect(await keys(importId, { sheet: 'supplier-products', action: 'writes' })).toEqual(
      onDisk.filter((e) => e.sheet === 'supplier-products' && e.action === 'create').map((e) => e.key),
    );

    // Change an entry in the file under the session (same length, so the index's offsets hold): the rows and a
    // search see the file's text, not a copy in memory.
    const sp = onDisk.find((e) => e.externalId === 'SP-2')!;
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const at = onDisk.indexOf(sp);
    lines[at] = lines[at].replaceAll('SP-2', 'SQ-2');
    const changed = lines.join('\n');
    expect(changed).not.toBe(text);
    fs.writeFileSync(file, changed);
    expect(await keys(importId, { search: 'sq-2' })).toEqual([sp.key]);
    expect(await keys(importId, { search: 'sp-2', sheet: 'supplier-products' })).toEqual([]);
    const row = (await rpc(mode, 'import.planRows', { importId, offset: 0, limit: 1, filter: { search: 'sq-2' } }))
      .rows[0];
    expect(row.externalId).toBe('SQ-2');
    // The filter's matches are kept as positions in the file.
    expect(s.filterCache?.indices).toEqual([onDisk.indexOf(sp)]);
    fs.writeFileSync(file, text);

    // The run starts the job in the dry run's folder, from the same file (no second plan).
    const ino = fs.statSync(file).ino;
    const { jobId } = await rpc(mode, 'import.run', { importId, skipBlocked: false });
    expect(jobId).toBe(planned.jobId);
    for (let t0 = Date.now(); (await rpc(mode, 'jobs.get', { jobId })).running;) {
      if (Date.now() - t0 > 30_000) throw new Error('the job is still running');
      await new Promise((r) => setTimeout(r, 50));
    }
    const job = await rpc(mode, 'jobs.get', { jobId });
    expect(job.status).toBe('completed');
    expect(fs.statSync(file).ino).toBe(ino);
    expect((await rpc(mode, 'jobs.list', {})).jobs.map((j) => j.jobId)).toContain(jobId);
    // The job stays when its import is closed; paging the dry run still works until then.
    expect((await rpc(mode, 'import.planRows', { importId, offset: 0, limit: 2, filter: {} })).rows).toHaveLength(2);
    await rpc(mode, 'import.close', { importId });
    await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(path.join(folder, META_FILE))).toBe(true);
  });

  it('removes a dry run no job adopted when it is made again or its import is closed', async () => {
    const importId = await openImport('again.xlsx');
    await rpc(mode, 'import.plan', { importId, createOnly: false });
    const jobsDir = mode.app.sessions.jobs.jobsDir;
    const firstId = mode.app.sessions.imports.get(importId).planned!.jobId;
    await rpc(mode, 'import.plan', { importId, createOnly: true });
    const secondId = mode.app.sessions.imports.get(importId).planned!.jobId;
    expect(secondId).not.toBe(firstId);
    const gone = async (id: string) => {
      for (let t0 = Date.now(); fs.existsSync(path.join(jobsDir, id));) {
        if (Date.now() - t0 > 5_000) return false;
        await new Promise((r) => setTimeout(r, 20));
      }
      return true;
    };
    expect(await gone(firstId)).toBe(true);
    expect(fs.existsSync(path.join(jobsDir, secondId, PLAN_ENTRIES_FILE))).toBe(true);
    await rpc(mode, 'import.close', { importId });
    expect(await gone(secondId)).toBe(true);
  });
});
