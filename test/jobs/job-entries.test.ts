/**
 * A job's plan read in one pass without its index (job-store.ts forEachJobEntry, what the dry run's LCA impact
 * reads): the header and every entry in plan order, from a folder of this version or of the previous format; a
 * damaged or incomplete file refused as readJobIndex refuses it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createJobDir,
  forEachJobEntry,
  jobDir,
  newJobId,
  PLAN_ENTRIES_FILE,
  PLAN_FILE,
  readJobIndex,
} from '../../core/jobs/job-store.js';
import type { Plan, PlanEntry } from '../../core/jobs/types.js';
import { productEntry } from '../fixtures/plan-entry.js';

const jobsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-job-entries-'));
afterAll(() => fs.rmSync(jobsDir, { recursive: true, force: true }));

const entry = (i: number): PlanEntry => productEntry(i, { action: i % 2 ? 'create' : 'unchanged' });

function plan(n: number): Plan {
  return {
    format: 'supply-loader/plan@1',
    createdAt: '2026-01-01T00:00:00.000Z',
    file: 'w.xlsx',
    sheetNames: { 'supplier-products': 'supplier-products' },
    sheetColumns: {},
    baseUrl: 'http://127.0.0.1:1',
    manufacturerId: 'm',
    maskedKey: 'svc-k-****',
    options: { createOnly: false },
    entries: Array.from({ length: n }, (_, i) => entry(i)),
    summary: { bySheet: {}, byAction: {}, entries: n, rows: n },
    requests: 0,
    preflight: { ok: true, scopes: [], plant_ids: [], problems: [], warnings: [] },
  } as unknown as Plan;
}

async function read(jobId: string) {
  const seen: PlanEntry[] = [];
  const header = await forEachJobEntry(jobsDir, jobId, (e, i) => {
    expect(i).toBe(seen.length);
    seen.push(e);
  });
  return { header, seen };
}

describe("a job's entries in one pass", () => {
  it('gives the header readJobIndex gives and every entry in plan order', async () => {
    const jobId = newJobId();
    const p = plan(7);
    await createJobDir(jobsDir, jobId, p);
    const { header, seen } = await read(jobId);
    expect(seen).toEqual(p.entries);
    const indexed = await readJobIndex(jobsDir, jobId);
    await indexed.index.close();
    expect(header).toEqual(indexed.header);
  });

  it('reads a folder of the previous format (the whole plan in plan.json)', async () => {
    const jobId = newJobId();
    const p = plan(3);
    fs.mkdirSync(jobDir(jobsDir, jobId), { recursive: true });
    fs.writeFileSync(path.join(jobDir(jobsDir, jobId), PLAN_FILE), JSON.stringify(p));
    const { header, seen } = await read(jobId);
    expect(seen).toEqual(p.entries);
    expect(header).not.toHaveProperty('entries');
    expect(header.file).toBe('w.xlsx');
  });

  it('refuses a damaged or incomplete file', async () => {
    const damaged = newJobId();
    await createJobDir(jobsDir, damaged, plan(3));
    const file = path.join(jobDir(jobsDir, damaged), PLAN_ENTRIES_FILE);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    fs.writeFileSync(file, [lines[0], lines[1].slice(0, 20), lines[2], ''].join('\n'));
    await expect(read(damaged)).rejects.toThrow(`The plan of job ${damaged} is damaged`);

    const short = newJobId();
    await createJobDir(jobsDir, short, plan(3));
    const shortFile = path.join(jobDir(jobsDir, short), PLAN_ENTRIES_FILE);
    fs.writeFileSync(shortFile, fs.readFileSync(shortFile, 'utf8').split('\n').slice(0, 2).join('\n'));
    await expect(read(short)).rejects.toThrow(`${PLAN_ENTRIES_FILE} holds 2 of 3 entries`);
  });
});
