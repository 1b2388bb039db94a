/**
 * `supply-loader import … --lca-impact` and `supply-loader lca impact JOB_ID [-o FILE] [--json] [--no-recompute]`
 * against the in-process sandbox, run the way main.ts runs a command: the dry run's affected instances and
 * estimates, the impact workbook beside the source, and the exit codes of the LCA commands (0, 1 a past year
 * lacks production data, 2 no such job, 3 the daily request limit reached).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCommand } from '../../core/cli/commands/import.js';
import { lcaCommand } from '../../core/cli/commands/lca.js';
import { planJob } from '../../core/app/import-job.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import type { CliCommand } from '../../core/cli/shared/types.js';
import { firstImport, secondImport } from '../app/lca-impact-data.js';
import { lcaUpdates, runInProcess } from './impact-cli-run.js';
import {
  catalog,
  fullWorkbook,
  readTestWorkbook,
  startEnv,
  writeTestWorkbook,
  type Env,
  type SheetData,
} from '../jobs/helpers.js';

let env: Env;
let first: SheetData;

const cli = (command: CliCommand, args: string[]) => runInProcess(env, command, args);

beforeAll(async () => {
  env = await startEnv('empty');
  first = firstImport(fullWorkbook(await catalog(env)));
  await writeTestWorkbook(join(env.dir, 'first.xlsx'), first);
  expect((await cli(importCommand, ['first.xlsx'])).code).toBe(0);
  expect((await cli(lcaCommand, ['--all', '--recompute', '--json'])).code).toBe(1);
}, 120_000);
afterAll(async () => {
  await env?.close();
});

describe('import --lca-impact', () => {
  let jobId: string;
  it('lists the affected instances and estimates before the job, recomputes them after and writes the workbook', async () => {
    await writeTestWorkbook(join(env.dir, 'second.xlsx'), secondImport(first));
    const r = await cli(importCommand, ['second.xlsx', '--lca-impact']);
    // PI-2 still lacks the production figures of past years after the job: as `lca`, exit 1.
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/LCA impact: 2 product instances affected/);
    expect(r.stdout).toMatch(/PI-1: rows .*bom!/);
    expect(r.stdout).toMatch(/\(estimate\)/);
    expect(r.stdout).toMatch(/Not estimated: PI-1: supplier product SP-1/);
    expect(r.stdout).toMatch(/LCA impact of job \S+: 2 product instances recomputed and compared/);
    expect(lcaUpdates(r)).toHaveLength(2);
    const file = join(env.dir, 'second.impact.xlsx');
    expect(existsSync(file)).toBe(true);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect(wb.getWorksheet('impact')!.rowCount).toBeGreaterThan(10);
    expect(wb.getWorksheet('impact-sources')!.getRow(1).values).toContain('component_external_id');
    jobId = /LCA impact of job (\S+):/.exec(r.stdout)![1];
  });

  it('lca impact JOB_ID --no-recompute --json reads the stored results (no recompute) and prints the report', async () => {
    const r = await cli(lcaCommand, ['impact', jobId, '--no-recompute', '--json', '-o', 'again.xlsx']);
    expect(r.code).toBe(1);
    expect(lcaUpdates(r)).toHaveLength(0);
    const doc = JSON.parse(r.stdout) as { report: { recomputed: boolean; rows: unknown[] }; output: string };
    expect(doc.report.recomputed).toBe(false);
    expect(doc.report.rows.length).toBeGreaterThan(10);
    expect(doc.output).toBe(join(env.dir, 'again.xlsx'));
    expect(existsSync(join(env.dir, 'again.xlsx'))).toBe(true);
  });

  it('lca impact of a job that affects only complete instances exits 0 (recomputed by default)', async () => {
    const third = secondImport(first);
    third.bom = third.bom!.map((b) => (b.product_instance_external_id === 'PI-1' ? { ...b, mass_kg: 1010 } : b));
    await writeTestWorkbook(join(env.dir, 'third.xlsx'), third);
    const imp = await cli(importCommand, ['third.xlsx', '--json']);
    expect(imp.code).toBe(0);
    const id = (JSON.parse(imp.stdout) as { job_id: string }).job_id;
    const r = await cli(lcaCommand, ['impact', id]);
    expect(r.code).toBe(0);
    expect(lcaUpdates(r)).toHaveLength(1);
    expect(r.stdout).toMatch(/no results were kept before the job/);
    expect(existsSync(join(env.dir, 'third.impact.xlsx'))).toBe(true);
  });

  it('exit 2 for an unknown job, a job only planned (nothing sent) and for --no-recompute without impact', async () => {
    const r = await cli(lcaCommand, ['impact', '20200101-000000-abcdef']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no job 20200101-000000-abcdef/i);
    expect(r.requests.filter((q) => !q.path.startsWith('/__sandbox'))).toHaveLength(0);
    const parsed = await readTestWorkbook(join(env.dir, 'third.xlsx'));
    const planned = await planJob(
      env.jobsDir,
      { parsed, report: await validateWorkbook(parsed) },
      { client: env.client },
      { createOnly: false },
    );
    const p = await cli(lcaCommand, ['impact', planned.jobId]);
    expect(p.code).toBe(2);
    expect(p.stderr).toMatch(/no job/i);
    expect(p.requests.filter((q) => !q.path.startsWith('/__sandbox'))).toHaveLength(0);
    expect((await cli(lcaCommand, ['--all', '--no-recompute', '-o', 'x.xlsx'])).code).toBe(2);
  });

  it('exit 3 when the daily request limit is reached during the impact run', async () => {
    await env.control('PUT', '/__sandbox/daily-limit', { requests: 4 });
    try {
      const r = await cli(lcaCommand, ['impact', jobId, '-o', 'limited.xlsx']);
      expect(r.code).toBe(3);
    } finally {
      await env.control('PUT', '/__sandbox/daily-limit', { requests: null });
    }
  });
});
