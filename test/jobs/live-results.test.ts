/**
 * The results workbook written beside its job (the CLI's import makes it while the job waits
 * for the service): liveRowMarks waits for each row's entry to settle, and the workbook it gives is the same, cell
 * for cell and colour for colour, as the one written after the job — with failed, skipped, blocked, updated (a
 * message made from the entry's changes) and created rows, and the Report sheet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { join } from 'node:path';
import { liveRowMarks, type LiveRowMarks } from '../../core/jobs/row-marks.js';
import { writeResultsWorkbook } from '../../core/jobs/results-workbook.js';
import { EntryIndex } from '../../core/jobs/entry-index.js';
import { runPlan, marksOfJob } from './job-folder.js';
import type { JobResult, JobResultSummary, Plan, PlanEntry } from '../../core/jobs/types.js';
import { catalog, fullWorkbook, planFile, startEnv, writeTestWorkbook, type Env } from './helpers.js';

let env: Env;
afterAll(async () => {
  await env?.close();
});
beforeAll(async () => {
  env = await startEnv('demo');
});

function entry(key: string, sheet: string, rows: number[]): PlanEntry {
  return { key, sheet, rows: rows.map((row) => ({ sheet, row })), action: 'create', level: 0 } as unknown as PlanEntry;
}

describe('liveRowMarks', () => {
  it('a row waits for its entry to settle; finish() lets the rest through as pending; fail() rejects every wait', async () => {
    const index = EntryIndex.fromEntries([
      entry('supplier_company:A', 'supplier-companies', [2]),
      entry('supplier_company:B', 'supplier-companies', [3, 4]),
    ]);
    const marks = liveRowMarks(index);
    expect(marks.ready('supplier-companies', 9)).toBeNull(); // no entry: nothing to wait for
    let a = false;
    void marks.ready('supplier-companies', 2)!.then(() => (a = true));
    const b = marks.ready('supplier-companies', 4)!;
    await new Promise((r) => setTimeout(r, 5));
    expect(a).toBe(false);
    index.setOutcome(0, { key: 'supplier_company:A', outcome: 'created', id: 'id-A' });
    marks.settled(0);
    await new Promise((r) => setTimeout(r, 0));
    expect(a).toBe(true);
    expect(marks.ready('supplier-companies', 2)).toBeNull();
    expect(marks.sheet('supplier-companies').get(2)).toMatchObject({ outcome: 'created', id: 'id-A', succeeded: true });
    marks.finish();
    await b;
    expect(marks.sheet('supplier-companies').get(4)).toMatchObject({ outcome: 'pending', succeeded: false });
    expect(marks.anyNotSucceeded).toBe(true);

    const other: LiveRowMarks = liveRowMarks(
      EntryIndex.fromEntries([entry('supplier_company:C', 'supplier-companies', [2])]),
    );
    const waiting = other.ready('supplier-companies', 2)!;
    other.fail(new Error('the job could not run'));
    await expect(waiting).rejects.toThrow('the job could not run');
    await expect(other.ready('supplier-companies', 2)).rejects.toThrow('the job could not run');
  });
});

/** Every sheet's cells: value, type and fill, by address. */
async function cellsOf(path: string): Promise<Map<string, string>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const out = new Map<string, string>();
  wb.eachSheet((ws) =>
    ws.eachRow({ includeEmpty: true }, (row, r) =>
      row.eachCell({ includeEmpty: true }, (c, n) => {
        const fill = (c.fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb ?? '';
        out.set(`${ws.name}!${r}:${n}`, `${JSON.stringify(c.value)}|${c.type}|${fill}|${c.numFmt ?? ''}`);
      }),
    ),
  );
  return out;
}

describe('the results workbook written beside the job', () => {
  it('is the one written after the job, cell for cell', async () => {
    const cat = await catalog(env);
    const data = fullWorkbook(cat);
    for (const s of Object.values(data))
      for (const r of s)
        for (const k of Object.keys(r))
          if (typeof r[k] === 'string') r[k] = (r[k] as string).replace(/^(SC|SPL|SP|SILO|PI|PC)-/, 'L$1-');
    data['supplier-products']![2].material_code = 'MAT-UNKNOWN'; // blocked at plan time
    const input = join(env.dir, 'live-input.xlsx');
    await writeTestWorkbook(input, data);
    await env.client.supplierCompanies.create({ external_id: 'LSC-2', name: 'An old name' }); // LSC-2: updated
    const plan: Plan = await planFile(input, { client: env.client });
    await env.client.supplierCompanies.create({ external_id: 'LSC-1', name: 'Another name' }); // LSC-1: fails (409)

    const live = join(env.dir, 'live.xlsx');
    let marks: LiveRowMarks | null = null;
    let writing: Promise<void> | null = null;
    let settledBeforeEnd = 0;
    let give!: (r: JobResultSummary) => void;
    const summary = new Promise<JobResultSummary>((r) => (give = r));
    const result: JobResult = await runPlan(plan, {
      client: env.client,
      jobsDir: env.jobsDir,
      inputPath: input,
      concurrency: 2,
      onIndex: (index) => {
        marks = liveRowMarks(index);
        writing = writeResultsWorkbook(input, plan, summary, live, marks);
      },
      onSettled: (i) => {
        settledBeforeEnd++;
        marks!.settled(i);
      },
    });
    expect(writing).not.toBeNull();
    expect(settledBeforeEnd).toBeGreaterThan(5);
    marks!.finish();
    give(result);
    await writing;
    expect(result.entries.map((e) => e.outcome)).toEqual(
      expect.arrayContaining(['created', 'updated', 'failed', 'skipped']),
    );

    const after = join(env.dir, 'after.xlsx');
    await writeResultsWorkbook(input, plan, result, after, await marksOfJob(env.jobsDir, result.jobId));
    const [a, b] = await Promise.all([cellsOf(live), cellsOf(after)]);
    expect(a.size).toBeGreaterThan(100);
    expect([...a.entries()]).toEqual([...b.entries()]);
    expect([...a.values()].some((v) => v.includes('name: An old name'))).toBe(true); // the update's message
  });
});
