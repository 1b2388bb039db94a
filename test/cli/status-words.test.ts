/**
 * The CLI names what happened, once: a completed job with a failed row is not printed as
 * plain success ("completed with 1 failed, …"), in the import's result line and in `jobs`; a cancelled job says
 * "cancelled", never "cancelled (cancelled)"; an LCA whose job completed but computed no year is not counted as
 * "completed". Against the sandbox, through the CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../fixtures/dataset.js';
import { lcaTiming, makeInstance, makeMaterials, setClock, startLcaFixture } from '../lca/fixture.js';
import { writeTestWorkbook } from '../jobs/helpers.js';
import { cli, control, sandbox, tmpDir, type Sandbox } from './helpers.js';

let sb: Sandbox;
let dir: string;
beforeAll(async () => {
  sb = await sandbox('demo');
  dir = tmpDir('sl-status-');
});
afterAll(async () => {
  await sb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function workbook(prefix: string, instances: number, products = 2): Promise<string> {
  const file = path.join(dir, `${prefix}.xlsx`);
  const data = buildDataset({ companies: 1, products, silos: 0, instances, prechain: 0 }, prefix);
  await writeTestWorkbook(file, data);
  return file;
}

/** Outcomes journaled so far by the (only) job in `jobsDir`. */
function outcomes(jobsDir: string): number {
  const [jobId] = fs.existsSync(jobsDir) ? fs.readdirSync(jobsDir) : [];
  const file = jobId ? path.join(jobsDir, jobId, 'journal.jsonl') : '';
  return file && fs.existsSync(file) ? (fs.readFileSync(file, 'utf8').match(/"t":"outcome"/g) ?? []).length : 0;
}

describe('job status words of the CLI', () => {
  it('a completed job with a failed row says so in the result line and in `jobs`, never plain "completed"', async () => {
    const file = await workbook('SWF', 3, 6); // BOMs of 2 rows: rows and entries differ
    const jobsDir = path.join(dir, 'jobs-failed');
    const state = await control<Record<string, { active: number }>>(sb, 'GET', '/state');
    await control(sb, 'PUT', '/entitlements', { product_instances: state.product_instances.active + 1 });
    let run;
    try {
      run = await cli(['import', file, '--concurrency', '1'], { baseUrl: sb.baseUrl, key: sb.ownerKey, jobsDir });
    } finally {
      await control(sb, 'PUT', '/entitlements', { product_instances: null });
    }
    expect(run.code, run.stderr).toBe(1);
    const lines = run.stdout.split('\n');
    const line = lines.find((l) => l.startsWith('Job '));
    // Counted in worksheet rows, as the table under it: the skipped BOMs count with all their rows.
    const m = /^Job \S+: completed with 1 failed, (\d+) skipped rows \(/.exec(line ?? '');
    expect(m, line).not.toBeNull();
    const head = lines.findIndex((l) => l.trim().startsWith('rows by sheet'));
    const cols = lines[head].trim().split(/\s{2,}/);
    const rowsOf = (outcome: string) =>
      lines
        .slice(head + 2)
        .filter((l) => /^ {2}\S/.test(l) && !/^ {2}(failed|skipped|entitlement)/.test(l))
        .map((l) => Number(l.trim().split(/\s{2,}/)[cols.indexOf(outcome)] ?? 0))
        .reduce((a, b) => a + b, 0);
    expect(Number(m![1])).toBe(rowsOf('skipped'));
    expect(rowsOf('failed')).toBe(1);
    expect(Number(m![1])).toBeGreaterThan(2); // more rows than the 2 skipped entries

    const listed = await cli(['jobs'], { jobsDir });
    expect(listed.code).toBe(0);
    const row = listed.stdout.split('\n').find((l) => l.includes(path.basename(file)));
    expect(row).toMatch(/ completed with 1 failed, \d+ skipped /);
  });

  it('a job without a failed row is "completed"', async () => {
    const file = await workbook('SWOK', 1);
    const jobsDir = path.join(dir, 'jobs-ok');
    const run = await cli(['import', file], { baseUrl: sb.baseUrl, key: sb.ownerKey, jobsDir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Job \S+: completed \(/m);
    const listed = await cli(['jobs'], { jobsDir });
    expect(listed.stdout.split('\n').find((l) => l.includes(path.basename(file)))).toMatch(/ completed /);
  });

  it('a cancelled job says "cancelled" once: no "cancelled (cancelled)"', async () => {
    const file = await workbook('SWC', 4, 24);
    const jobsDir = path.join(dir, 'jobs-cancel');
    const abort = new AbortController();
    await control(sb, 'PUT', '/faults', { latency_ms: 40 });
    let run;
    try {
      const running = cli(['import', file, '--concurrency', '2'], {
        baseUrl: sb.baseUrl,
        key: sb.ownerKey,
        jobsDir,
        signal: abort.signal,
      });
      for (let i = 0; i < 4000 && outcomes(jobsDir) < 3; i++) await sleep(15);
      abort.abort();
      run = await running;
    } finally {
      await control(sb, 'PUT', '/faults', { latency_ms: 0 });
    }
    expect(run.code, run.stderr).toBe(3);
    const line = run.stdout.split('\n').find((l) => l.startsWith('Job '));
    expect(line).toMatch(/^Job \S+: cancelled \(/);
    expect(run.stdout).not.toMatch(/cancelled \(cancelled\)/);

    const listed = await cli(['jobs'], { jobsDir });
    const row = listed.stdout.split('\n').find((l) => l.includes(path.basename(file)));
    expect(row).toMatch(/ cancelled \(resumable\) /);
    expect(listed.stdout).not.toMatch(/cancelled \(cancelled\)/);
  });
});

describe('LCA status words of the CLI', () => {
  it('an instance whose LCA job completed with no year computed is said so, not counted as completed', async () => {
    const f = await startLcaFixture('empty');
    try {
      await setClock(f, '2030-06-15T12:00:00Z');
      await lcaTiming(f, { queued_ms: 0, processing_ms: 20 });
      const m = await makeMaterials(f, 'PL-HEID', 'SW');
      const bom = [{ ref: m.cement, mass_kg: 300 }];
      // computed: production data for its year; none: a future year only, without production data (blocked)
      await makeInstance(f, {
        external_id: 'SW-LCA-OK',
        article: 'ART-20030',
        plantCode: 'PL-HEID',
        from: 2029,
        to: 2029,
        bom,
        production: { 2029: 5 },
      });
      await makeInstance(f, {
        external_id: 'SW-LCA-NONE',
        article: 'ART-20030',
        plantCode: 'PL-HEID',
        from: 2031,
        to: 2031,
        bom,
      });
      const run = await cli(
        ['lca', '--instances', 'SW-LCA-OK,SW-LCA-NONE', '--recompute', '-o', path.join(dir, 'lca.xlsx')],
        {
          baseUrl: f.baseUrl,
          key: f.ownerKey,
        },
      );
      expect(run.stdout).toMatch(/: 1 completed, 1 with no year computed\./);
      expect(run.stdout).toMatch(/SW-LCA-NONE: the LCA job completed but computed no year \(1 year blocked\)/);
      const json = await cli(['lca', '--instances', 'SW-LCA-NONE', '--json'], { baseUrl: f.baseUrl, key: f.ownerKey });
      expect(JSON.parse(json.stdout).instances[0]).toMatchObject({
        outcome: 'completed',
        years_computed: 0,
        years_blocked: 1,
      });
    } finally {
      await f.close();
    }
  });
});
