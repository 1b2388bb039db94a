/**
 * The CLI and the app produce identical results for the same operation. Each scenario
 * runs one operation through both adapters — the CLI's command (runCli, as `supply-loader` runs it) and the IPC
 * handler table (dispatch, as the renderer calls it) — against one sandbox (the app's embedded one, port 0),
 * reset to the same seed before each adapter's turn, and compares what the user gets: the plan's summary, the
 * validation's issues, the service's state afterwards (read back through the API) and the files' cells (ids,
 * times and job ids taken out: they differ between two runs by nature).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../core/ipc/dispatch.js';
import { JobControl } from '../../core/jobs/run.js';
import { runPlan } from '../jobs/job-folder.js';
import type { Plan } from '../../core/jobs/types.js';
import { fullWorkbook, planFile, writeTestWorkbook, type SheetData } from '../jobs/helpers.js';
import { Parity, workbookCells } from './parity.js';

let p: Parity;

beforeAll(async () => {
  p = await Parity.start();
});
afterAll(async () => {
  await p?.stop();
});

/** The import of the scenarios: every sheet filled (mapping rows, companies, plants, products, silo, instances, BOMs). */
async function fullImport(name: string): Promise<string> {
  return writeTestWorkbook(path.join(p.dir, name), fullWorkbook(await p.catalog()));
}

/** A job of `file` on the service, through the engine, paused before its first write (resumable). */
async function pausedJob(file: string): Promise<string> {
  const client = await p.client();
  try {
    const plan = await planFile(file, { client });
    const control = new JobControl();
    const r = await runPlan(plan, {
      client,
      jobsDir: p.jobsDir,
      control,
      inputPath: file,
      onStart: () => control.pause(),
    });
    expect(r.status).toBe('paused');
    return r.jobId;
  } finally {
    await client.close();
  }
}

/** A completed job of `file` on the service, through the engine. */
async function completedJob(file: string): Promise<string> {
  const client = await p.client();
  try {
    const r = await runPlan(await planFile(file, { client }), { client, jobsDir: p.jobsDir, inputPath: file });
    expect(r.status).toBe('completed');
    return r.jobId;
  } finally {
    await client.close();
  }
}

const issueKey = (i: {
  severity: string;
  code: string;
  sheet: string | null;
  cell: string | null;
  field: string | null;
}) => `${i.severity} ${i.code} ${i.sheet}!${i.cell} ${i.field}`;

describe('one operation, two adapters, one result', () => {
  it('template with reference data: the same workbook (sheets, mapping rows, products)', async () => {
    await p.reset('demo');
    const out = path.join(p.dir, 'template-cli.xlsx');
    const r = await p.cli(['template', 'all', '-o', out, '--with-reference-data']);
    expect(r.code, r.stderr).toBe(0);
    const app = await p.call('templates.generate', { sheet: 'all', withReferenceData: true });
    const cliCells = await workbookCells(out);
    expect(cliCells.plants.length).toBeGreaterThan(2); // reference data is in it
    expect(await workbookCells(Buffer.from(app.dataBase64, 'base64'))).toEqual(cliCells);
  });

  it('validate: the same issues at the same cells, the same counts', async () => {
    const data: SheetData = {
      'supplier-companies': [
        { external_id: 'PAR-V1', name: 'Valid GmbH' },
        { external_id: 'PAR-V2', name: '' },
        { external_id: 'PAR-V3', name: 'Bad Country', country: 'Germany' },
      ],
    };
    const file = await writeTestWorkbook(path.join(p.dir, 'validate.xlsx'), data);
    const c = await p.cliJson<{ errors: number; warnings: number; issues: Parameters<typeof issueKey>[0][] }>(
      ['validate', file],
      2,
    );
    const a = await p.call('import.validate', { fileId: p.fileId(file) });
    expect(c.errors).toBeGreaterThan(0);
    expect({ errors: a.errors, warnings: a.warnings, issues: a.issues.map(issueKey).sort() }).toEqual({
      errors: c.errors,
      warnings: c.warnings,
      issues: c.issues.map(issueKey).sort(),
    });
  });

  it('plan: the same summary per sheet and action (creates, an update, unchanged rows)', async () => {
    const planOf = async () => {
      await p.reset();
      await completedJob(
        await writeTestWorkbook(path.join(p.dir, 'plan-base.xlsx'), {
          'supplier-companies': [
            { external_id: 'PAR-P1', name: 'Alpha GmbH' },
            { external_id: 'PAR-P2', name: 'Beta AG' },
          ],
        }),
      );
      const data = fullWorkbook(await p.catalog());
      data['supplier-companies'] = [
        ...(data['supplier-companies'] ?? []),
        { external_id: 'PAR-P1', name: 'Alpha Renamed' },
        { external_id: 'PAR-P2', name: 'Beta AG' },
      ];
      return writeTestWorkbook(path.join(p.dir, 'plan.xlsx'), data);
    };
    const c = await p.cliJson<Plan>(['plan', await planOf()]);
    const v = await p.call('import.validate', { fileId: p.fileId(await planOf()) });
    const a = await p.call('import.plan', { importId: v.importId, createOnly: false });
    expect(c.summary.byAction).toMatchObject({ update: 1, unchanged: 1 });
    expect(c.summary.byAction.create).toBeGreaterThan(5);
    expect(a.summary).toEqual(c.summary);
    expect(a.blocked).toBe(0);
  });

  it('import: the same service state afterwards, the same results and failed-rows workbooks', async () => {
    await p.reset();
    const before = await p.serviceState();
    const file = await fullImport('import.xlsx');
    const report = path.join(p.dir, 'import-results.xlsx');
    const failed = path.join(p.dir, 'import-failed.xlsx');
    const c = await p.cliJson<{ job_id: string }>(['import', file, '--report', report, '--failed', failed]);
    const cliState = await p.serviceState();
    expect(cliState).not.toEqual(before); // the import wrote something

    await p.reset();
    const file2 = await fullImport('import.xlsx');
    const v = await p.call('import.validate', { fileId: p.fileId(file2) });
    await p.call('import.plan', { importId: v.importId, createOnly: false });
    const { jobId } = await p.call('import.run', { importId: v.importId, skipBlocked: false });
    const job = await p.settled(jobId);
    expect(job.status).toBe('completed');
    expect(await p.serviceState()).toEqual(cliState);

    const cliJob = await p.call('jobs.get', { jobId: c.job_id });
    expect(job.counts).toEqual(cliJob.counts);
    const appReport = await p.call('jobs.resultsWorkbook', { jobId });
    expect(await workbookCells(p.download(appReport.downloadId))).toEqual(await workbookCells(report));
    const appFailed = await p.call('jobs.failedWorkbook', { jobId });
    expect(await workbookCells(p.download(appFailed.downloadId))).toEqual(await workbookCells(failed));
  });

  it('resume: a paused job resumed by either adapter ends in the same state and outcomes', async () => {
    await p.reset();
    const cliJobId = await pausedJob(await fullImport('resume.xlsx'));
    const r = await p.cli(['resume', cliJobId]);
    expect(r.code, r.stderr).toBe(0);
    const cliState = await p.serviceState();
    const cliJob = await p.call('jobs.get', { jobId: cliJobId });

    await p.reset();
    const appJobId = await pausedJob(await fullImport('resume.xlsx'));
    await p.call('jobs.resume', { jobId: appJobId });
    const appJob = await p.settled(appJobId);
    expect(appJob.status).toBe('completed');
    expect(cliJob.status).toBe('completed');
    expect(appJob.counts).toEqual(cliJob.counts);
    expect(await p.serviceState()).toEqual(cliState);
  });

  it('resume and undo refuse an unknown job in the same words', async () => {
    const none = '20200101-000000-abcdef';
    const c = await p.cli(['resume', none]);
    expect(c.code).toBe(2);
    const a = await dispatch('jobs.resume', { jobId: none }, p.mode.app);
    expect(a.ok).toBe(false);
    if (!a.ok) {
      expect(a.error.code).toBe('not_found');
      expect(c.stderr).toContain(a.error.message);
    }
  });

  it('undo: the same undo plan, the same service state after it (the state before the job)', async () => {
    const base: SheetData = {
      'supplier-companies': [
        { external_id: 'PAR-U1', name: 'Alpha GmbH' },
        { external_id: 'PAR-U2', name: 'Beta AG' },
      ],
    };
    const change: SheetData = {
      'supplier-companies': [
        { external_id: 'PAR-U1', name: 'Alpha Renamed' },
        { external_id: 'PAR-U2', action: 'delete' },
        { external_id: 'PAR-U3', name: 'Gamma KG' },
      ],
    };
    const twoJobs = async () => {
      await completedJob(await writeTestWorkbook(path.join(p.dir, 'undo-base.xlsx'), base));
      const before = await p.serviceState();
      return {
        before,
        jobId: await completedJob(await writeTestWorkbook(path.join(p.dir, 'undo-change.xlsx'), change)),
      };
    };

    await p.reset();
    const c = await twoJobs();
    const dry = await p.cliJson<{ plan: Plan }>(['undo', c.jobId, '--dry-run']);
    expect(dry.plan.summary.byAction).toMatchObject({ update: 1, create: 1, delete: 1 });
    const u = await p.cliJson<{ job_id: string }>(['undo', c.jobId]);
    expect(u.job_id).toBeTruthy();
    const cliState = await p.serviceState();
    expect(cliState).toEqual(c.before);

    await p.reset();
    const a = await twoJobs();
    const plan = await p.call('jobs.undoPlan', { jobId: a.jobId });
    const { bySheet, ...totals } = dry.plan.summary; // the Jobs screen's undo view has the totals only
    expect(Object.keys(bySheet)).toEqual(['supplier-companies']);
    expect(plan.summary).toEqual(totals);
    const { jobId } = await p.call('jobs.undo', { jobId: a.jobId, skipBlocked: false });
    expect((await p.settled(jobId)).status).toBe('completed');
    expect(await p.serviceState()).toEqual(cliState);
  });

  it('export: the same workbook of every collection', async () => {
    await p.reset();
    await completedJob(await fullImport('export.xlsx'));
    const out = path.join(p.dir, 'export-cli.xlsx');
    const r = await p.cli(['export', 'all', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const a = await p.call('export.run', { collection: 'all' });
    const cliCells = await workbookCells(out);
    expect(Object.keys(cliCells).length).toBeGreaterThan(5);
    expect(await workbookCells(p.download(a.download.downloadId))).toEqual(cliCells);
  });

  it('LCA run: the same outcomes per instance and the same results workbook', async () => {
    await p.reset('demo');
    const client = await p.client();
    const codes: string[] = [];
    for await (const i of client.productInstances.walk())
      if (i.external_id && codes.length < 3) codes.push(i.external_id);
    await client.close();
    expect(codes.length).toBeGreaterThan(0);
    const out = path.join(p.dir, 'lca-cli.xlsx');
    const r = await p.cli(['lca', '--instances', codes.join(','), '-o', out]);
    expect([0, 1], r.stderr).toContain(r.code);

    const sel = await p.call('lca.select', { by: 'instances', codes });
    const { runId } = await p.call('lca.run', { selectionId: sel.selectionId, recompute: false });
    const t0 = Date.now();
    let view = await p.call('lca.report', { runId });
    while (view.state === 'running' && Date.now() - t0 < 60_000) {
      await new Promise((res) => setTimeout(res, 50));
      view = await p.call('lca.report', { runId });
    }
    expect(view.state).toBe('done');
    const ticket = await p.call('lca.export', { runId });
    const cliCells = await workbookCells(out);
    const appCells = await workbookCells(p.download(ticket.downloadId));
    expect(Object.keys(appCells)).toEqual(Object.keys(cliCells));
    expect(appCells).toEqual(cliCells);
  });

  it('mappings: a column mapping saved by either adapter is stored and listed the same', async () => {
    const mapping = {
      version: 1 as const,
      sheets: { 'supplier-companies': { columns: { Firma: 'name', Nummer: 'external_id' } } },
    };
    const file = path.join(p.dir, 'mapping.json');
    fs.writeFileSync(file, JSON.stringify(mapping));
    const configDir = path.join(p.dir, 'cli-mappings-config');
    const conn = await p.reset();
    expect((await p.cli(['profile', 'add', 'Parity', '--no-check'], { configDir })).code).toBe(0);
    const saved = await p.cli(['mapping', 'save', file, '--name', 'ERP', '--profile', 'Parity'], { configDir });
    expect(saved.code, saved.stderr).toBe(0);
    const shown = await p.cli(['mapping', 'show', 'ERP', '--profile', 'Parity'], { configDir });
    const listed = await p.cli(['mapping', 'list', '--profile', 'Parity', '--json'], { configDir });
    expect(conn.baseUrl).toBeTruthy();

    await p.call('mappings.save', { name: 'ERP', mapping });
    const profileId = p.mode.app.settings.snapshot().activeProfileId;
    expect(p.mode.app.settings.columnMappingsOf(profileId).ERP).toEqual(JSON.parse(shown.stdout));
    expect((await p.call('mappings.list', {})).mappings).toEqual(
      (JSON.parse(listed.stdout) as { mappings: unknown }).mappings,
    );
  });
});
