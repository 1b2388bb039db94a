/**
 * What an import does to the LCA, on the sandbox: a job that changes BOM masses, swaps a supplier product,
 * updates a silo's supplier product and adds production figures. Its impact report's after-values equal a fresh
 * LCA export of the affected instances, its before-values the export taken before the job, and its attribution
 * sums to the change for every instance, year, indicator and module; an instance the job does not affect is
 * neither listed nor recomputed; the dry run's estimates are compared with the recomputed change.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planJob, runImportJob } from '../../core/app/import-job.js';
import {
  LCA_AFFECTED_FILE,
  LCA_BEFORE_FILE,
  LCA_IMPACT_FILE,
  lcaImpact,
  prepareLcaImpact,
  readLcaImpactDryRun,
  writeLcaImpactWorkbook,
  type ImpactReport,
  type LcaImpactDryRun,
} from '../../core/app/lca-impact.js';
import { jobDir } from '../../core/jobs/job-store.js';
import { readResults, type InstanceLca } from '../../core/lca/model.js';
import { runLca } from '../../core/lca/run.js';
import { selectInstances } from '../../core/lca/select.js';
import { validateWorkbook } from '../../core/workbook/validate.js';
import { catalog, fullWorkbook, readTestWorkbook, startEnv, writeTestWorkbook, type Env } from '../jobs/helpers.js';
import type { SheetData } from '../jobs/helpers.js';
import { firstImport, secondImport } from './lca-impact-data.js';

const POLL = { pollBaseMs: 20, pollMaxMs: 100 };
let env: Env;

async function importFile(name: string, data: SheetData) {
  const file = join(env.dir, name);
  await writeTestWorkbook(file, data);
  const parsed = await readTestWorkbook(file);
  return planJob(
    env.jobsDir,
    { parsed, report: await validateWorkbook(parsed) },
    { client: env.client },
    {
      createOnly: false,
    },
  );
}

/** A fresh LCA export of instances (stored results read), by code. */
async function exportOf(codes: string[]): Promise<Map<string, InstanceLca>> {
  const sel = await selectInstances(env.client, { by: 'instances', externalIds: codes });
  const r = await runLca(env.client, sel.instances, { recompute: false, ...POLL });
  return new Map(r.instances.map((i) => [i.instance.external_id!, i]));
}

/** value per declared unit of an export, or null. */
function perUnit(i: InstanceLca | undefined, year: number, indicator: string, module: string): number | null {
  const y = readResults(i?.results ?? []).find((x) => x.year === year);
  if (!y || y.status !== 'computed' || !y.production_quantity) return null;
  const v = y.values?.find((x) => x.indicator === indicator && x.module === module)?.value;
  return v === undefined || v === null ? null : v / y.production_quantity;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

let dry: LcaImpactDryRun;
let report: ImpactReport;
let exportBefore: Map<string, InstanceLca>;
let exportAfter: Map<string, InstanceLca>;
let lcaUpdates: string[];
let jobId: string;
let first: SheetData;

beforeAll(async () => {
  env = await startEnv('empty');
  first = firstImport(fullWorkbook(await catalog(env)));
  const p1 = await importFile('first.xlsx', first);
  const r1 = await runImportJob(p1.jobId, { client: env.client, jobsDir: env.jobsDir });
  await r1.index.close();
  expect(r1.result.counts.failed ?? 0).toBe(0);
  const all = await selectInstances(env.client, { by: 'all' });
  await runLca(env.client, all.instances, { recompute: true, ...POLL });
  exportBefore = await exportOf(['PI-1', 'PI-2', 'PI-3']);

  const p2 = await importFile('second.xlsx', secondImport(first));
  jobId = p2.jobId;
  dry = await prepareLcaImpact(env.client, env.jobsDir, jobId, POLL);
  const r2 = await runImportJob(jobId, { client: env.client, jobsDir: env.jobsDir });
  await r2.index.close();
  expect(r2.result.counts.failed ?? 0).toBe(0);
  const mark = await env.requestsMark();
  report = await lcaImpact(env.client, env.jobsDir, jobId, POLL);
  lcaUpdates = (await env.requestsSince(mark))
    .filter((r) => r.method === 'POST' && r.path.endsWith('/lca-update'))
    .map((r) => r.path);
  exportAfter = await exportOf(['PI-1', 'PI-2']);
}, 120_000);
afterAll(async () => {
  await env?.close();
});

describe('the instances a job affects', () => {
  it('lists PI-1 and PI-2 with the rows that affect each, per plant; PI-3 (SP-2 unchanged) is not affected', () => {
    const codes = dry.affected.instances.map((i) => i.external_id).sort();
    expect(codes).toEqual(['PI-1', 'PI-2']);
    const pi1 = dry.affected.instances.find((i) => i.external_id === 'PI-1')!;
    expect(pi1.causes.map((c) => c.kind).sort()).toEqual(['bom', 'supplier_product']);
    expect(pi1.causes.find((c) => c.kind === 'supplier_product')!.via).toMatchObject({ type: 'silo', code: 'SILO-1' });
    expect(pi1.rows.some((r) => r.startsWith('supplier-products!'))).toBe(true);
    expect(pi1.rows.some((r) => r.startsWith('bom!'))).toBe(true);
    const pi2 = dry.affected.instances.find((i) => i.external_id === 'PI-2')!;
    expect(new Set(pi2.causes.map((c) => c.kind))).toEqual(
      new Set(['bom', 'production', 'supplier_product', 'prechain_instance']),
    );
    expect(dry.affected.byPlant.reduce((s, p) => s + p.count, 0)).toBe(2);
    expect(dry.recomputes).toBe(2);
    expect(fs.existsSync(join(jobDir(env.jobsDir, jobId), LCA_AFFECTED_FILE))).toBe(true);
    expect(
      fs
        .readFileSync(join(jobDir(env.jobsDir, jobId), LCA_BEFORE_FILE), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(2);
  });

  it('is kept in the job folder: the dry run reads back without a request', async () => {
    const kept = await readLcaImpactDryRun(env.jobsDir, jobId);
    expect(kept.affected).toEqual(dry.affected);
    expect(kept.estimates).toEqual(dry.estimates);
  });

  it('recomputes exactly the affected instances', () => {
    expect(lcaUpdates).toHaveLength(2);
    const ids = report.instances.map((i) => i.instance_id);
    for (const id of ids) expect(lcaUpdates.some((p) => p.includes(id))).toBe(true);
    expect(fs.existsSync(join(jobDir(env.jobsDir, jobId), LCA_IMPACT_FILE))).toBe(true);
  });
});

describe('the impact report', () => {
  it('has after-values equal to a fresh export and before-values equal to the export before the job', () => {
    let compared = 0;
    for (const r of report.rows) {
      if (!r.indicator) continue;
      const code = r.external_id!;
      expect(r.basis).toBe('per_declared_unit');
      const b = perUnit(exportBefore.get(code), r.year, r.indicator, r.module);
      const a = perUnit(exportAfter.get(code), r.year, r.indicator, r.module);
      if (b !== null) expect(close(r.before!, b)).toBe(true);
      else expect(r.before).toBeNull();
      if (a !== null) expect(close(r.after!, a)).toBe(true);
      else expect(r.after).toBeNull();
      compared++;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('says which years were blocked before (PI-2 2024: no production figure) and computes them after', () => {
    const rows = report.rows.filter((r) => r.external_id === 'PI-2' && r.year === 2024);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.blocked_before !== null && r.blocked_after === null && r.after !== null)).toBe(true);
    expect(rows[0].blocked_before).toMatch(/blk_production_data_missing/);
  });

  it('attributes every change: the lines sum to it and name the components and rows that moved it', () => {
    const sums = new Map<string, number>();
    for (const s of report.sources) {
      const k = `${s.instance_id}|${s.year}|${s.indicator}|${s.module}`;
      sums.set(k, (sums.get(k) ?? 0) + s.change);
    }
    let checked = 0;
    for (const r of report.rows) {
      if (r.change === null) continue;
      const k = `${r.instance_id}|${r.year}|${r.indicator}|${r.module}`;
      expect(close(sums.get(k) ?? 0, r.change)).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
    const swap = report.sources.filter(
      (s) => s.external_id === 'PI-2' && s.line === 'component' && s.code === 'SP-3' && s.module === 'A1-A3',
    );
    expect(swap.length).toBeGreaterThan(0);
    expect(swap.every((s) => s.after === 0 && s.before! > 0 && s.rows.some((w) => w.startsWith('bom!')))).toBe(true);
    const silo = report.sources.find(
      (s) => s.external_id === 'PI-1' && s.code === 'SILO-1' && s.module === 'A4' && s.indicator === 'GWP-total',
    )!;
    expect(silo.rows.some((w) => w.startsWith('supplier-products!'))).toBe(true);
    expect(silo.supplier).toMatch(/Holcim/);
  });

  it('writes the impact and impact-sources sheets', async () => {
    const file = join(env.dir, 'impact.xlsx');
    const stats = await writeLcaImpactWorkbook(report, file);
    expect(stats.rows.impact).toBe(report.rows.length);
    expect(stats.rows.sources).toBe(report.sources.length);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.getWorksheet('impact')!;
    const header = (ws.getRow(1).values as unknown[]).map(String);
    const colOf = (name: string) => header.indexOf(name);
    const gwp = ws.getRows(2, ws.rowCount - 1)!.find((r) => r.getCell(colOf('indicator')).value === 'GWP-total')!;
    expect(gwp.getCell(colOf('indicator_name_en')).value).toMatch(/Global warming potential/);
    expect(gwp.getCell(colOf('indicator_name_de')).value).toMatch(/Erwärmungspotenzial/);
    expect(gwp.getCell(colOf('before')).numFmt).toBe('0.000E+00');
    expect(gwp.getCell(colOf('change_pct')).numFmt).toBe('0.00');
    const src = wb.getWorksheet('impact-sources')!;
    expect(src.rowCount - 1).toBe(report.sources.length);
  });
});

describe('the dry run estimates', () => {
  it('estimates the mass change, the removal and the swap-in of components as the recompute moves them (A1-A3)', () => {
    const a13 = dry.estimates.estimates.filter((e) => e.module === 'A1-A3');
    let compared = 0;
    for (const e of a13) {
      const refs = new Set(e.parts.map((p) => p.ref));
      const moved = report.sources
        .filter(
          (s) =>
            s.instance_id === e.instance_id &&
            s.year === e.year &&
            s.indicator === e.indicator &&
            s.module === e.module &&
            s.ref !== null &&
            refs.has(s.ref),
        )
        .reduce((sum, s) => sum + s.change, 0);
      expect(close(e.estimated_change, moved)).toBe(true);
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
    expect(a13.some((e) => e.parts.some((p) => p.component === 'SP-2' && /seen in PI-3/.test(p.why)))).toBe(true);
    expect(a13.some((e) => e.parts.some((p) => /mass 950 → 1000 kg/.test(p.why)))).toBe(true);
  });

  it('says what it could not estimate, and misses the recomputed change by exactly those components', () => {
    expect(dry.estimates.kind).toBe('estimate');
    const why = dry.estimates.not_estimated.map((n) => n.why).join('\n');
    expect(why).toMatch(/supplier product SP-1 .*through silo SILO-1.* is updated/);
    expect(why).toMatch(/production figures change/);
    // PI-2 2022 GWP-total A1-A3: the estimate misses only PC-1 (the prechain product of PI-1, not estimated).
    const pi2 = dry.estimates.estimates.find(
      (e) => e.external_id === 'PI-2' && e.year === 2022 && e.indicator === 'GWP-total' && e.module === 'A1-A3',
    )!;
    const row = report.rows.find(
      (r) => r.external_id === 'PI-2' && r.year === 2022 && r.indicator === 'GWP-total' && r.module === 'A1-A3',
    )!;
    const pc1 = report.sources.find(
      (s) =>
        s.external_id === 'PI-2' &&
        s.year === 2022 &&
        s.indicator === 'GWP-total' &&
        s.module === 'A1-A3' &&
        s.code === 'PC-1',
    )!;
    expect(close(row.change! - pi2.estimated_change, pc1.change)).toBe(true);
  });
});

describe('what the dry run could not read', () => {
  it('is listed in words and as codes in the same order (unread_before: instance, outcome, err_code)', async () => {
    const next = secondImport(first);
    next.bom = next.bom!.map((b) => (b.product_instance_external_id === 'PI-1' ? { ...b, mass_kg: 1040 } : b));
    const p = await importFile('unread.xlsx', next);
    // Every read of the LCA results answers 500: the instances' current results cannot be read.
    await env.control('PUT', '/__sandbox/faults', { error_rate: 1, only: { path_suffix: '/lca-results' } });
    let d: LcaImpactDryRun;
    try {
      d = await prepareLcaImpact(env.client, env.jobsDir, p.jobId, POLL);
    } finally {
      await env.control('PUT', '/__sandbox/faults', {});
    }
    expect(d.before.completed).toBe(0);
    expect(d.before.problems.length).toBeGreaterThan(0);
    expect(d.before.problemCodes).toHaveLength(d.before.problems.length);
    d.before.problemCodes.forEach((c, k) => {
      expect(c.code).toBe('unread_before');
      const { instance, outcome, err_code } = c.params;
      expect(d.before.problems[k]).toBe(`${instance}: ${outcome}${err_code ? ` (${err_code})` : ''}`);
      expect(outcome).not.toBe('completed');
    });
    expect(d.before.problemCodes.map((c) => c.params.instance)).toContain('PI-1');
  });
});
