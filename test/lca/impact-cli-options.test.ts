/**
 * `--lca-impact` beyond `import`, against the in-process sandbox, run the way main.ts runs a command: `plan
 * --lca-impact` shows the affected instances and the estimates (reads only: nothing recomputed, nothing
 * written), `resume` of a job imported with it recomputes and reports once the job has ended (kept in the job
 * folder), and `watch --lca-impact` writes a drop's impact workbook beside its results. The `lca_impact` part of
 * `import --lca-impact --json` and `plan --lca-impact --json`: its keys and their JSON types, down to every list's
 * elements. The tests run in order on one sandbox (each import changes the service the next one plans against).
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCommand } from '../../core/cli/commands/import.js';
import { lcaCommand } from '../../core/cli/commands/lca.js';
import { planCommand } from '../../core/cli/commands/plan.js';
import { resumeCommand } from '../../core/cli/commands/resume.js';
import { watchCommand } from '../../core/cli/commands/watch.js';
import type { CliCommand } from '../../core/cli/shared/types.js';
import { LCA_ASKED_FILE } from '../../core/lca/impact/files.js';
import { jobDir } from '../../core/jobs/job-store.js';
import { firstImport, secondImport } from '../app/lca-impact-data.js';
import { lcaUpdates, runInProcess, type Run } from './impact-cli-run.js';
import { catalog, fullWorkbook, startEnv, writeTestWorkbook, type Env, type SheetData } from '../jobs/helpers.js';

let env: Env;
let first: SheetData;

/** A command run in this process; `stopAtJobStart` cancels it once its job has started (as Ctrl+C would). */
const cli = (command: CliCommand, args: string[], o: { stopAtJobStart?: boolean } = {}) =>
  runInProcess(env, command, args, {
    ...o,
    vars: {
      SUPPLY_LOADER_WATCH_STABLE_MS: '0',
      SUPPLY_LOADER_WATCH_POLL_MS: '20',
      SUPPLY_LOADER_WATCH_ONCE_WAIT_MS: '2000',
    },
  });
const writes = (r: Run) => r.requests.filter((q) => q.method !== 'GET' && !q.path.startsWith('/__sandbox'));

beforeAll(async () => {
  env = await startEnv('empty');
  first = firstImport(fullWorkbook(await catalog(env)));
  await writeTestWorkbook(join(env.dir, 'first.xlsx'), first);
  expect((await cli(importCommand, ['first.xlsx'])).code).toBe(0);
  expect((await cli(lcaCommand, ['--all', '--recompute', '--json'])).code).toBe(1);
  await writeTestWorkbook(join(env.dir, 'second.xlsx'), secondImport(first));
}, 120_000);
afterAll(async () => {
  await env?.close();
});

describe('plan --lca-impact', () => {
  it('shows the affected instances and the estimates as import does, and says a plan recomputes nothing', async () => {
    const r = await cli(planCommand, ['second.xlsx', '--lca-impact']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/LCA impact: 2 product instances affected/);
    expect(r.stdout).toMatch(/PI-1: rows .*bom!/);
    expect(r.stdout).toMatch(/\(estimate\)/);
    expect(r.stdout).toMatch(/Not estimated: PI-1: supplier product SP-1/);
    expect(r.stdout).toMatch(
      /Current results read: 2 of 2 \(a plan keeps and recomputes nothing\)\. An import with --lca-impact keeps them and after its job starts 2 recomputes/,
    );
    expect(r.stdout).not.toMatch(/Results kept before the job/);
    expect(lcaUpdates(r)).toEqual([]);
    expect(writes(r)).toEqual([]);
  });

  it('without the flag the plan says nothing of the LCA and reads no LCA results', async () => {
    const r = await cli(planCommand, ['second.xlsx']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/LCA impact/);
    expect(r.requests.filter((q) => q.path.includes('/lca'))).toEqual([]);
  });

  it('--json carries it as lca_impact (affected, estimates)', async () => {
    const r = await cli(planCommand, ['second.xlsx', '--lca-impact', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { lca_impact: Record<string, unknown>; entries: unknown[] };
    expect(Object.keys(doc.lca_impact)).toEqual(['affected', 'estimates']);
    expect(doc.entries.length).toBeGreaterThan(0);
    expect(writes(r)).toEqual([]);
  });
});

describe('resume keeps --lca-impact', () => {
  it('a job imported with --lca-impact and stopped: its resume recomputes the affected instances and reports', async () => {
    const stopped = await cli(importCommand, ['second.xlsx', '--lca-impact'], { stopAtJobStart: true });
    expect(stopped.code, stopped.stderr).toBe(3);
    expect(stopped.stdout).toMatch(/LCA impact: 2 product instances affected/);
    expect(stopped.stdout).not.toMatch(/LCA impact of job/);
    expect(lcaUpdates(stopped)).toEqual([]);
    const jobId = /continue with: supply-loader resume (\S+)/.exec(stopped.stdout)![1];
    expect(existsSync(join(jobDir(env.jobsDir, jobId), LCA_ASKED_FILE))).toBe(true);
    expect(existsSync(join(env.dir, 'second.impact.xlsx'))).toBe(false);

    // No flag: the job folder says the import asked for it.
    const r = await cli(resumeCommand, [jobId]);
    // PI-2 still lacks the production figures of past years after the job: as `lca`, exit 1.
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`LCA impact of job ${jobId}: 2 product instances recomputed and compared`));
    expect(lcaUpdates(r)).toHaveLength(2);
    expect(existsSync(join(env.dir, 'second.impact.xlsx'))).toBe(true);

    // Run again: the report kept is the answer (nothing recomputed), in --json as import prints it.
    const again = await cli(resumeCommand, [jobId, '--json']);
    expect(again.code).toBe(1);
    expect(lcaUpdates(again)).toEqual([]);
    const doc = JSON.parse(again.stdout) as { lca_impact: { file: string; exit_code: number; report: unknown } };
    expect(doc.lca_impact).toMatchObject({ file: join(env.dir, 'second.impact.xlsx'), exit_code: 1 });
    expect(doc.lca_impact.report).not.toBeNull();
  });

  it('a job imported without it: resume says nothing of the LCA unless asked with --lca-impact', async () => {
    const third = secondImport(first);
    third.bom = third.bom!.map((b) => (b.product_instance_external_id === 'PI-1' ? { ...b, mass_kg: 1010 } : b));
    await writeTestWorkbook(join(env.dir, 'third.xlsx'), third);
    const stopped = await cli(importCommand, ['third.xlsx'], { stopAtJobStart: true });
    expect(stopped.code).toBe(3);
    const jobId = /continue with: supply-loader resume (\S+)/.exec(stopped.stdout)![1];
    expect(existsSync(join(jobDir(env.jobsDir, jobId), LCA_ASKED_FILE))).toBe(false);
    const plain = await cli(resumeCommand, [jobId, '--json']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('lca_impact');
    expect(lcaUpdates(plain)).toEqual([]);
    const asked = await cli(resumeCommand, [jobId, '--lca-impact']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(lcaUpdates(asked)).toHaveLength(1);
    expect(asked.stdout).toMatch(/no results were kept before the job/);
    expect(existsSync(join(env.dir, 'third.impact.xlsx'))).toBe(true);
  });
});

describe('watch --lca-impact', () => {
  it("imports a drop as import --lca-impact: the impact workbook is among the drop's outputs", async () => {
    const dir = join(env.dir, 'watched');
    mkdirSync(join(dir, 'inbox'), { recursive: true });
    const fourth = secondImport(first);
    fourth.bom = fourth.bom!.map((b) => (b.product_instance_external_id === 'PI-1' ? { ...b, mass_kg: 1020 } : b));
    await writeTestWorkbook(join(dir, 'inbox', 'fourth.xlsx'), fourth);
    const r = await cli(watchCommand, [dir, '--once', '--lca-impact', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(lcaUpdates(r)).toHaveLength(1);
    const doc = JSON.parse(r.stdout) as { drops: { outcome: string; folder: string; outputs: string[] }[] };
    expect(doc.drops).toHaveLength(1);
    const [drop] = doc.drops;
    expect(drop.outcome).toBe('done');
    expect(drop.outputs).toContain(join(drop.folder, 'fourth.impact.xlsx'));
    expect(readdirSync(drop.folder)).toContain('fourth.impact.xlsx');
  });
});

/** The JSON type of a value: string, number, boolean, null, array or object. */
const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * `v` has exactly the keys of `shape` (a key ending in `?` may be absent), each of one of the JSON types its
 * value lists (`string|null`).
 */
function expectShape(v: unknown, shape: Record<string, string>, where: string): void {
  expect(jsonType(v), where).toBe('object');
  const o = v as Record<string, unknown>;
  const keys = Object.keys(shape).map((k) => k.replace(/\?$/, ''));
  const required = Object.keys(shape).filter((k) => !k.endsWith('?'));
  expect(
    Object.keys(o).filter((k) => !keys.includes(k)),
    `${where}: keys not in the shape`,
  ).toEqual([]);
  for (const k of required) expect(o, where).toHaveProperty(k);
  for (const [k, types] of Object.entries(shape)) {
    const key = k.replace(/\?$/, '');
    if (key in o) expect(types.split('|'), `${where}.${key}`).toContain(jsonType(o[key]));
  }
}

const AFFECTED = { instances: 'array', byPlant: 'array', bomsRead: 'boolean', unchecked: 'array' };
const AFFECTED_INSTANCE = {
  id: 'string|null',
  external_id: 'string|null',
  plant_id: 'string|null',
  plant_code: 'string|null',
  'entryKey?': 'string',
  causes: 'array',
  rows: 'array',
};
const CAUSE = {
  kind: 'string',
  action: 'string',
  entryKey: 'string',
  label: 'string',
  code: 'string|null',
  ref: 'string|null',
  'components?': 'array',
  'via?': 'object',
  'of_kind?': 'string',
  rows: 'array',
  where: 'array',
};
const PLANT = { plant_id: 'string|null', plant_code: 'string|null', count: 'number', instances: 'array' };
const ESTIMATES = { kind: 'string', note: 'string', estimates: 'array', not_estimated: 'array' };
const CELL = {
  instance_id: 'string',
  external_id: 'string|null',
  year: 'number',
  indicator: 'string',
  module: 'string',
  unit: 'string|null',
  basis: 'string',
};
const ESTIMATE = { ...CELL, current: 'number|null', estimated_change: 'number', parts: 'array' };
const PART = { component: 'string', ref: 'string', change: 'number', why: 'string', 'why_code?': 'object' };
const NOT_ESTIMATED = {
  instance_id: 'string|null',
  external_id: 'string|null',
  why: 'string',
  'why_code?': 'object',
  rows: 'array',
};
const REPORT = {
  format: 'string',
  job_id: 'string',
  generated_at: 'string',
  base_url: 'string',
  masked_key: 'string',
  recomputed: 'boolean',
  instances: 'array',
  rows: 'array',
  sources: 'array',
  breakdown: 'object',
  aborted: 'object|null',
  notes: 'array',
  'note_codes?': 'array',
};
const REPORT_INSTANCE = {
  instance_id: 'string',
  external_id: 'string|null',
  plant_code: 'string|null',
  rows: 'array',
  before_outcome: 'string|null',
  after_outcome: 'string|null',
  problem: 'string|null',
  'problem_codes?': 'array',
  years_needing_data: 'array',
};
const REPORT_ROW = {
  ...CELL,
  plant_code: 'string|null',
  declared_unit: 'string|null',
  before: 'number|null',
  after: 'number|null',
  change: 'number|null',
  change_pct: 'number|null',
  blocked_before: 'string|null',
  blocked_after: 'string|null',
};
const SOURCE_ROW = {
  ...CELL,
  line: 'string',
  component_type: 'string|null',
  ref: 'string|null',
  code: 'string|null',
  name: 'string|null',
  supplier: 'string|null',
  before: 'number|null',
  after: 'number|null',
  change: 'number',
  rows: 'array',
};

/** The dry run's part of `lca_impact` (affected, estimates), every element of every list checked. */
function expectDryRunShape(lca: Record<string, unknown>): void {
  expectShape(lca.affected, AFFECTED, 'affected');
  const affected = lca.affected as { instances: Record<string, unknown>[]; byPlant: unknown[]; unchecked: unknown[] };
  expect(affected.instances.length).toBeGreaterThan(0);
  for (const i of affected.instances) {
    expectShape(i, AFFECTED_INSTANCE, 'affected.instances[]');
    expect((i.rows as unknown[]).map(jsonType)).not.toContain('object');
    for (const c of i.causes as unknown[]) expectShape(c, CAUSE, 'affected.instances[].causes[]');
  }
  for (const p of affected.byPlant) expectShape(p, PLANT, 'affected.byPlant[]');
  expect(affected.unchecked.map(jsonType).filter((t) => t !== 'string')).toEqual([]);
  expectShape(lca.estimates, ESTIMATES, 'estimates');
  const estimates = lca.estimates as { kind: string; estimates: Record<string, unknown>[]; not_estimated: unknown[] };
  expect(estimates.kind).toBe('estimate');
  expect(estimates.estimates.length).toBeGreaterThan(0);
  for (const e of estimates.estimates) {
    expectShape(e, ESTIMATE, 'estimates.estimates[]');
    for (const p of e.parts as unknown[]) expectShape(p, PART, 'estimates.estimates[].parts[]');
  }
  for (const x of estimates.not_estimated) expectShape(x, NOT_ESTIMATED, 'estimates.not_estimated[]');
}

describe('the lca_impact JSON of import and plan', () => {
  beforeAll(async () => {
    const fifth = secondImport(first);
    fifth.bom = fifth.bom!.map((b) => (b.product_instance_external_id === 'PI-1' ? { ...b, mass_kg: 1030 } : b));
    await writeTestWorkbook(join(env.dir, 'fifth.xlsx'), fifth);
  });

  it('plan --lca-impact --json: lca_impact is {affected, estimates} with their keys and types', async () => {
    const r = await cli(planCommand, ['fifth.xlsx', '--lca-impact', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lca = (JSON.parse(r.stdout) as { lca_impact: Record<string, unknown> }).lca_impact;
    expectShape(lca, { affected: 'object', estimates: 'object' }, 'lca_impact');
    expectDryRunShape(lca);
  });

  it('import --lca-impact --json: lca_impact is {affected, estimates, file, exit_code, report} with their keys and types', async () => {
    const r = await cli(importCommand, ['fifth.xlsx', '--lca-impact', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { job_id: string; lca_impact: Record<string, unknown> };
    const lca = doc.lca_impact;
    expectShape(
      lca,
      { affected: 'object', estimates: 'object', file: 'string', exit_code: 'number', report: 'object' },
      'lca_impact',
    );
    expectDryRunShape(lca);
    expect(lca.file).toBe(join(env.dir, 'fifth.impact.xlsx'));
    expect(lca.exit_code).toBe(0);
    expectShape(lca.report, REPORT, 'report');
    const report = lca.report as Record<string, unknown> & {
      instances: unknown[];
      rows: unknown[];
      sources: unknown[];
      notes: unknown[];
    };
    expect(report.format).toBe('supply-loader/lca-impact@1');
    expect(report.job_id).toBe(doc.job_id);
    expect(report.aborted).toBeNull();
    expectShape(report.breakdown, { before: 'boolean', after: 'boolean' }, 'report.breakdown');
    expect(report.instances.length).toBeGreaterThan(0);
    for (const i of report.instances) expectShape(i, REPORT_INSTANCE, 'report.instances[]');
    expect(report.rows.length).toBeGreaterThan(0);
    for (const x of report.rows) expectShape(x, REPORT_ROW, 'report.rows[]');
    expect(report.sources.length).toBeGreaterThan(0);
    for (const x of report.sources) expectShape(x, SOURCE_ROW, 'report.sources[]');
    expect(report.notes.map(jsonType).filter((t) => t !== 'string')).toEqual([]);
  });
});
