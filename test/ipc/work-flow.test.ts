/**
 * The Import, Jobs, Export and LCA procedures on the main side, through dispatch() and the browser-mode HTTP
 * transport, against the in-process sandbox: validate → dry run paged and filtered → run as a job with
 * progress events → outcomes per row (a row that fails on the service, its dependent skipped) → results and
 * failed-rows workbooks downloaded with the token (refused without) → re-run of only the failed rows after
 * fixing the workbook → one job per connection, pause/resume, an interrupted job resumed → export → LCA.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../core/ipc/browser-mode.js';
import { startBrowserMode } from '../../core/ipc/browser-mode.js';
import type { ProcedureInput, ProcedureOutput } from '../../core/ipc/contract.js';
import { dispatch } from '../../core/ipc/dispatch.js';
import type { EventName, ProcedureName } from '../../core/contract/names.js';
import type { Logger } from '../../core/app/services.js';
import { jobsDirOf } from '../../core/app/sessions/sessions.js';
import { startSandbox } from '../../sandbox/index.js';
import { fullWorkbook, idOf, writeTestWorkbook, type Catalog, type SheetData } from '../jobs/helpers.js';
import { settledJob } from './helpers.js';

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };
const WRONG_MATERIAL_ID = '3f1e2d4c-0000-4000-8000-000000000001';

let mode: BrowserMode;
let dir: string;
let cat: Catalog;
let sandboxUrl: string;
const events: { name: EventName; payload: unknown }[] = [];

async function call<N extends ProcedureName>(name: N, input: ProcedureInput<N>): Promise<ProcedureOutput<N>> {
  const r = await dispatch(name, input, mode.app);
  if (!r.ok)
    throw Object.assign(new Error(`${name}: ${r.error.message} ${JSON.stringify(r.error.issues ?? [])}`), {
      rpc: r.error,
    });
  return r.data as ProcedureOutput<N>;
}

async function callError(name: ProcedureName, input: unknown) {
  const r = await dispatch(name, input, mode.app);
  expect(r.ok).toBe(false);
  return (r as { ok: false; error: { code: string; message: string } }).error;
}

async function control<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sandboxUrl}${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Wait until a job is no longer running (jobs.changed with running=false). */
const settled = (jobId: string, timeoutMs = 30_000) => settledJob(mode, jobId, timeoutMs);

/** The onboarding workbook plus a supplier product whose material is mapped to an id the service does not know. */
function workbook(materialId = WRONG_MATERIAL_ID, prefix = 'W'): SheetData {
  const d = fullWorkbook(cat);
  for (const s of Object.values(d))
    for (const r of s)
      for (const k of Object.keys(r))
        if (typeof r[k] === 'string') r[k] = (r[k] as string).replace(/^(SC|SPL|SP|SILO|PI|PC)-/, `${prefix}$1-`);
  d.materials!.push({ material_code: 'MAT-WRONG', category: 'elementary', material_type_id: materialId });
  d['supplier-products']!.push({
    external_id: `${prefix}SP-9`,
    name: 'Fließmittel',
    plant_code: 'HEID',
    material_code: 'MAT-WRONG',
    unit: 'KG',
  });
  d.bom!.push({
    product_instance_external_id: `${prefix}PI-1`,
    component_type: 'supplier_product',
    component_external_id: `${prefix}SP-9`,
    mass_kg: 2.5,
  });
  return d;
}

async function fileOf(name: string, d: SheetData) {
  const p = path.join(dir, name);
  await writeTestWorkbook(p, d);
  return mode.app.files.registerPath(p);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-work-'));
  mode = await startBrowserMode({
    port: 0,
    staticDir: null,
    configDir: path.join(dir, 'config'),
    startSandbox,
    log: quiet,
    appVersion: 'test',
  });
  mode.hub.listen((name, payload) => events.push({ name, payload }));
  sandboxUrl = mode.app.sandbox.baseUrl() ?? '';
  cat = await control<Catalog>('GET', '/__sandbox/catalog');
});

afterAll(async () => {
  await mode?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('import: validate, dry run, run, results', () => {
  let jobId: string;
  let importId: string;

  it('checks the workbook on its own and keeps it for the dry run', async () => {
    const f = await fileOf('onboarding.xlsx', workbook());
    const v = await call('import.validate', { fileId: f.fileId });
    expect(v.readable).toBe(true);
    expect(v.errors).toBe(0);
    expect(v.file.name).toBe('onboarding.xlsx');
    expect(v.sheets.find((s) => s.name === 'supplier-products')).toMatchObject({ rows: 4, blockedRows: 0 });
    expect(v.rows).toBe(24);
    expect(events.some((e) => e.name === 'import.progress' && (e.payload as { ref: string }).ref === f.fileId)).toBe(
      true,
    );
    importId = v.importId;
  });

  it('lists validation errors by cell, and an unreadable file in words', async () => {
    const d = workbook();
    d['supplier-products']![0].unit = 'BARRELS';
    delete d['supplier-companies']![1].name;
    const bad = await fileOf('bad.xlsx', d);
    const v = await call('import.validate', { fileId: bad.fileId });
    expect(v.errors).toBeGreaterThanOrEqual(2);
    const unit = v.issues.find((i) => i.field === 'unit');
    expect(unit).toMatchObject({
      severity: 'error',
      sheet: 'supplier-products',
      cell: expect.stringMatching(/^[A-Z]+2$/),
      row: 2,
    });
    expect(v.issues.find((i) => i.sheet === 'supplier-companies' && i.field === 'name')).toMatchObject({
      severity: 'error',
      row: 3,
    });
    fs.writeFileSync(path.join(dir, 'notes.xlsx'), 'just some text, not a workbook');
    const junk = mode.app.files.registerPath(path.join(dir, 'notes.xlsx'));
    const j = await call('import.validate', { fileId: junk.fileId });
    expect(j.readable).toBe(false);
    expect(j.issues[0].severity).toBe('error');
    expect(j.issues[0].message).not.toMatch(/at .*\.ts:\d+/);
    const e = await callError('import.plan', { importId: j.importId });
    expect(e.code).toBe('invalid_input');
  });

  it('makes the dry run on the main side and pages its rows with filters', async () => {
    const ov = await call('import.plan', { importId, createOnly: false });
    expect(ov.summary.byAction).toEqual({ create: 12, replace: 2 });
    expect(ov.summary.bySheet['supplier-products']).toEqual({ create: 4 });
    expect(ov.writes).toBe(14);
    expect(ov.blocked).toBe(0);
    expect(ov.profileName).toBe('Sandbox');
    expect(ov.maskedKey).toMatch(/^svc-[A-Za-z0-9]+-\*\*\*\*$/);

    const all = await call('import.planRows', { importId, offset: 0, limit: 5, filter: {} });
    expect(all.total).toBe(14);
    expect(all.rows).toHaveLength(5);
    const rest = await call('import.planRows', { importId, offset: 5, limit: 500, filter: {} });
    expect(rest.rows).toHaveLength(9);
    expect(new Set([...all.rows, ...rest.rows].map((r) => r.key)).size).toBe(14);

    const boms = await call('import.planRows', { importId, offset: 0, limit: 50, filter: { action: 'replace' } });
    expect(boms.rows.map((r) => r.key).sort()).toEqual(['bom:WPI-1', 'bom:WPI-2']);
    const pi1 = boms.rows.find((r) => r.key === 'bom:WPI-1')!;
    expect(pi1.bom?.added.map((a) => a.code).sort()).toEqual(['WSILO-1', 'WSP-9']);

    const found = await call('import.planRows', { importId, offset: 0, limit: 50, filter: { search: 'wsp-9' } });
    const sp9 = found.rows.find((r) => r.key.startsWith('supplier-products'))!;
    expect(sp9.action).toBe('create');
    expect(sp9.fields).toEqual(
      expect.arrayContaining([
        { field: 'material_code', value: 'MAT-WRONG' },
        { field: 'name', value: 'Fließmittel' },
      ]),
    );
    // A created silo shows its yearly amounts, a created supplier product its hazardous
    // substances, named as an update names them.
    const silo = (await call('import.planRows', { importId, offset: 0, limit: 50, filter: { sheet: 'silos' } }))
      .rows[0];
    expect(silo.action).toBe('create');
    expect(silo.fields).toEqual(
      expect.arrayContaining([
        { field: 'items[WSP-1][2024]', value: 1000 },
        { field: 'items[WSP-1][2025]', value: 1200 },
        { field: 'items[WSP-2][2025]', value: 800 },
      ]),
    );
    const sp3 = (
      await call('import.planRows', { importId, offset: 0, limit: 50, filter: { search: 'wsp-3' } })
    ).rows.find((r) => r.key.startsWith('supplier-products'))!;
    expect(sp3.action).toBe('create');
    expect(sp3.fields).toContainEqual({ field: 'hazardous_substances[14808-60-7].mass_share', value: 0.05 });
    const sheet = await call('import.planRows', {
      importId,
      offset: 0,
      limit: 50,
      filter: { sheet: 'supplier-companies', action: 'writes' },
    });
    expect(sheet.total).toBe(2);
  });

  it('runs the plan as a job: progress events, a row failing on the service, its dependent skipped', async () => {
    const before = events.length;
    ({ jobId } = await call('import.run', { importId, skipBlocked: false }));
    const v = await settled(jobId);
    expect(v.status).toBe('completed');
    expect(v.counts).toEqual({ created: 11, failed: 1, skipped: 1, replaced: 1 });
    expect(v.notSucceeded).toBe(2);
    expect(v.inputAvailable).toBe(true);
    expect(v.file).toBe('onboarding.xlsx');
    const mine = events.slice(before);
    expect(mine.some((e) => e.name === 'jobs.progress' && (e.payload as { jobId: string }).jobId === jobId)).toBe(true);
    expect(
      mine.filter((e) => e.name === 'jobs.changed').map((e) => (e.payload as { running: boolean }).running),
    ).toEqual([true, false]);

    const problems = await call('jobs.rows', { jobId, offset: 0, limit: 50, filter: { outcome: 'problems' } });
    expect(problems.total).toBe(2);
    const failed = problems.rows.find((r) => r.outcome === 'failed')!;
    expect(failed).toMatchObject({
      sheet: 'supplier-products',
      externalId: 'WSP-9',
      status: 422,
      errCode: 'err_material_type_not_found',
    });
    expect(failed.message).toContain(WRONG_MATERIAL_ID);
    const skipped = problems.rows.find((r) => r.outcome === 'skipped')!;
    expect(skipped).toMatchObject({ key: 'bom:WPI-1', reason: 'dependency', rowCount: 2 });

    const list = await call('jobs.list', {});
    expect(list.jobs[0]).toMatchObject({ jobId, status: 'completed', running: false, resumable: false });
  });

  it('offers the results and failed-rows workbooks as downloads guarded by the token', async () => {
    const t = await call('jobs.resultsWorkbook', { jobId });
    expect(t.fileName).toBe('onboarding-results.xlsx');
    const noToken = await fetch(`${mode.origin}/download/${t.downloadId}`);
    expect(noToken.status).toBe(401);
    const res = await fetch(`${mode.origin}/download/${t.downloadId}`, {
      headers: { 'x-supply-loader-token': mode.token },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('attachment; filename="onboarding-results.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('supplier-products')!;
    const header = (ws.getRow(1).values as unknown[]).map(String);
    const resultCol = header.indexOf('_result');
    const codeCol = header.indexOf('_err_code');
    expect(resultCol).toBeGreaterThan(0);
    expect(ws.getRow(5).getCell(resultCol).value).toBe('failed');
    expect(ws.getRow(5).getCell(codeCol).value).toBe('err_material_type_not_found');
    expect(wb.getWorksheet('Report')).toBeDefined();
    const unknown = await fetch(`${mode.origin}/download/00000000-0000-4000-8000-000000000000`, {
      headers: { 'x-supply-loader-token': mode.token },
    });
    expect(unknown.status).toBe(404);

    const f = await call('jobs.failedWorkbook', { jobId });
    expect(f.rows).toBe(3); // the supplier product and the two BOM rows of WPI-1
    // The count on the button ("Save failed rows (N)") is the count of rows the workbook holds.
    const view = await call('jobs.get', { jobId });
    expect(view.failedRows).toBe(f.rows);
    expect(view.notSucceededRows).toBe(3);
    expect(view.notSucceeded).toBe(2); // entities: the product and the BOM
    expect(f.fileName).toBe('onboarding-failed-rows.xlsx');
    // In browser mode there is no save dialog: the page downloads through /download/<id>.
    expect(await call('downloads.save', { downloadId: f.downloadId })).toEqual({
      supported: false,
      saved: false,
      fileName: null,
    });
  });

  it('re-runs only the rows that failed, after the workbook is fixed', async () => {
    const fixed = await fileOf('onboarding-fixed.xlsx', workbook(idOf(cat.elementaries, 'MAT-SUPERPL')));
    const v = await call('import.validate', { fileId: fixed.fileId });
    const ov = await call('import.plan', { importId: v.importId, createOnly: false, onlyFailedOf: jobId });
    expect(ov.onlyFailedOf).toBe(jobId);
    expect(ov.summary.entries).toBe(2);
    expect(ov.excluded).toBe(12);
    expect(ov.summary.byAction).toEqual({ create: 1, replace: 1 });
    const rows = await call('import.planRows', { importId: v.importId, offset: 0, limit: 10, filter: {} });
    expect(rows.rows.map((r) => r.key)).toEqual(['supplier-products!5', 'bom:WPI-1']);
    const bom = rows.rows[1].bom!;
    // The BOM was never written (skipped): both components are new to the service.
    expect(bom.added.map((a) => a.code).sort()).toEqual(['WSILO-1', 'WSP-9']);
    expect(bom.unchanged).toBe(0);

    const { jobId: again } = await call('import.run', { importId: v.importId, skipBlocked: false });
    const done = await settled(again);
    expect(done.counts).toEqual({ created: 1, replaced: 1 });
    expect(done.notSucceeded).toBe(0);
    // Now on the service: the product, and the BOM with it.
    const key = mode.app.sandbox.ownerKey()!;
    const sp = await fetch(`${sandboxUrl}/v2/supplier-products?external_id=WSP-9`, {
      headers: { 'x-api-key': key },
    }).then((r) => r.json() as Promise<{ data: { id: string }[] }>);
    expect(sp.data).toHaveLength(1);
  });

  it('refuses a plan with blocked rows unless the user confirms, and a second job on the same connection', async () => {
    const d = workbook(WRONG_MATERIAL_ID, 'B');
    d['product-instances']![0].product_external_id = 'ART-NOPE';
    const f = await fileOf('blocked.xlsx', d);
    const v = await call('import.validate', { fileId: f.fileId });
    const ov = await call('import.plan', { importId: v.importId, createOnly: false });
    expect(ov.blocked).toBeGreaterThan(0);
    const blocked = await call('import.planRows', {
      importId: v.importId,
      offset: 0,
      limit: 50,
      filter: { action: 'blocked' },
    });
    expect(blocked.rows[0].problems[0]).toMatchObject({
      kind: 'unresolved',
      sheet: 'product-instances',
      field: 'product_external_id',
    });
    const refused = await callError('import.run', { importId: v.importId });
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toContain('blocked');

    // Slow the service down so the job is surely still running (its first writes in flight) when a second one
    // is asked for and when the pause arrives, however slow this machine is.
    await control('PUT', '/__sandbox/faults', { latency_ms: 1500 });
    try {
      const { jobId } = await call('import.run', { importId: v.importId, skipBlocked: true });
      const busy = await callError('import.run', { importId: v.importId, skipBlocked: true });
      expect(busy.code).toBe('unavailable');
      expect((await call('jobs.pause', { jobId })).accepted).toBe(true);
      const paused = await settled(jobId);
      expect(paused.status).toBe('paused');
      expect(paused.resumable).toBe(true);
      await control('PUT', '/__sandbox/faults', {});
      await call('jobs.resume', { jobId });
      const done = await settled(jobId);
      expect(done.status).toBe('completed');
      expect(done.counts.skipped).toBeGreaterThan(0);
      expect(done.counts.pending).toBeUndefined();
    } finally {
      await control('PUT', '/__sandbox/faults', {});
    }
  });

  it('an interrupted job (its process died) is listed as such and resumed', async () => {
    const f = await fileOf('crash.xlsx', workbook(idOf(cat.elementaries, 'MAT-SUPERPL'), 'K'));
    const v = await call('import.validate', { fileId: f.fileId });
    await call('import.plan', { importId: v.importId, createOnly: false });
    await control('PUT', '/__sandbox/faults', { latency_ms: 80 });
    const { jobId } = await call('import.run', { importId: v.importId });
    await call('jobs.cancel', { jobId });
    await settled(jobId);
    await control('PUT', '/__sandbox/faults', {});
    // Make it look like the job was running in a process that is gone (a crash or a kill).
    const metaPath = path.join(jobsDirOf(mode.app), jobId, 'meta.json');
    const meta = JSON.parse(fs.readFileSync(metaPath, 'utf8')) as { status: string; pid: number };
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    fs.writeFileSync(metaPath, JSON.stringify({ ...meta, status: 'running', pid: dead }));
    const listed = (await call('jobs.list', {})).jobs.find((j) => j.jobId === jobId)!;
    expect(listed).toMatchObject({ status: 'interrupted', resumable: true, running: false });
    await call('jobs.resume', { jobId });
    const done = await settled(jobId);
    expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });
    expect(done.notSucceeded).toBe(0);
    expect(done.counts).toEqual({ created: 12, replaced: 2 });
  });
});

describe('create-only and licence limits', () => {
  it('create-only leaves changed rows alone; a licence limit shows as usage / limit', async () => {
    const d = workbook(idOf(cat.elementaries, 'MAT-SUPERPL'));
    d['supplier-companies']![0].name = 'Holcim (renamed)';
    d['product-instances']!.push({
      external_id: 'WPI-3',
      product_external_id: 'ART-10011',
      plant_code: 'HEID',
      produced_from: 2024,
    });
    const state = await control<Record<string, { active: number }>>('GET', '/__sandbox/state');
    await control('PUT', '/__sandbox/entitlements', { product_instances: state.product_instances.active });
    try {
      const f = await fileOf('limits.xlsx', d);
      const v = await call('import.validate', { fileId: f.fileId });
      const ov = await call('import.plan', { importId: v.importId, createOnly: true });
      expect(ov.createOnly).toBe(true);
      expect(ov.summary.byAction).toMatchObject({ create: 1, skipped_update: 1 });
      const { jobId } = await call('import.run', { importId: v.importId });
      const done = await settled(jobId);
      expect(done.createOnly).toBe(true);
      expect(done.entitlementLimits).toEqual([
        {
          dimension: 'product_instances',
          usage: state.product_instances.active,
          limit: state.product_instances.active,
        },
      ]);
      expect(done.notSucceeded).toBe(1); // the instance; the create-only skip was the user's choice
      const rows = await call('jobs.rows', { jobId, offset: 0, limit: 50, filter: { outcome: 'skipped' } });
      expect(rows.rows.map((r) => [r.externalId, r.reason])).toEqual([['WSC-1', 'create_only']]);
      const failed = await call('jobs.rows', { jobId, offset: 0, limit: 50, filter: { outcome: 'failed' } });
      expect(failed.rows[0]).toMatchObject({
        externalId: 'WPI-3',
        errCode: 'err_entitlement_limit_reached',
        entitlement: { dimension: 'product_instances' },
      });
    } finally {
      await control('PUT', '/__sandbox/entitlements', { product_instances: null });
    }
  });
});

describe('export and LCA', () => {
  it('exports a collection to a workbook offered for download', async () => {
    const state = await control<Record<string, { active: number }>>('GET', '/__sandbox/state');
    const r = await call('export.run', { collection: 'supplier-companies' });
    expect(r.sheets).toEqual([{ sheet: 'supplier-companies', rows: state.supplier_companies.active }]);
    expect(state.supplier_companies.active).toBeGreaterThanOrEqual(6);
    expect(r.download.fileName).toMatch(/^supply-loader-export-supplier-companies-\d{8}-\d{4}\.xlsx$/);
    const res = await fetch(`${mode.origin}/download/${r.download.downloadId}`, {
      headers: { 'x-supply-loader-token': mode.token },
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(r.download.size);
  });

  it('chooses instances, recomputes their LCA with live states, and gives chart data and a workbook', async () => {
    const opts = await call('lca.options', {});
    expect(opts.plantsReadable).toBe(true);
    expect(opts.plants.map((p) => p.code)).toContain('PL-HEID');
    expect(opts.instances.map((i) => i.externalId)).toEqual(expect.arrayContaining(['WPI-1', 'WPI-2']));
    const product = opts.products.find((p) => p.article === 'ART-10011')!;
    const sel = await call('lca.select', { by: 'products', codes: ['ART-10011', 'ART-NOPE'] });
    expect(sel.instances.length).toBe(product.instances);
    expect(sel.unknown).toEqual([{ kind: 'product', codes: ['ART-NOPE'] }]);
    const before = events.length;
    const { runId } = await call('lca.run', { selectionId: sel.selectionId, recompute: true });
    let view = await call('lca.report', { runId });
    for (let i = 0; view.state === 'running' && i < 400; i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = await call('lca.report', { runId });
    }
    expect(view.state).toBe('done');
    expect(view.summary.completed).toBe(sel.instances.length);
    const progress = events.slice(before).filter((e) => e.name === 'lca.progress');
    const states = progress.map((e) => (e.payload as { state: string }).state);
    expect(states).toContain('done');
    // The engine's event as the contract has it (camelCase both): the run's id added, nothing else.
    const done = progress.map((e) => e.payload as Record<string, unknown>).find((p) => p.state === 'done')!;
    expect(Object.keys(done).sort()).toEqual([
      'errCode',
      'externalId',
      'finished',
      'instanceId',
      'jobStatus',
      'runId',
      'state',
      'total',
    ]);
    expect(done).toMatchObject({ runId, jobStatus: 'completed', errCode: null });
    expect(sel.instances.map((i) => i.externalId)).toContain(done.externalId);
    const inst = view.instances.find((i) => i.externalId === 'PI-HEID-10011')!;
    expect(inst.outcome).toBe('completed');
    // An imported instance without production data: its years are blocked, the blocker asks the user to act.
    const imported = view.instances.find((i) => i.externalId === 'WPI-1')!;
    expect(imported.years.every((y) => y.gwp === null)).toBe(true);
    expect(imported.years[0].blockers[0]).toMatchObject({
      type: 'missing_input',
      kind: 'production_data',
      needsAction: true,
    });
    expect(inst.years.length).toBeGreaterThan(0);
    const computed = inst.years.filter((y) => y.gwp !== null);
    expect(computed.length).toBeGreaterThan(0);
    const series = view.chart.series.find((s) => s.instanceId === inst.id)!;
    expect(series.points.map((p) => p.year)).toEqual(inst.years.map((y) => y.year));
    expect(series.points.find((p) => p.year === computed[0].year)!.value).toBeCloseTo(computed[0].gwp!, 6);
    const t = await call('lca.export', { runId });
    expect(t.size).toBeGreaterThan(1000);
    const bad = await callError('lca.select', { by: 'products', codes: [] });
    expect(bad.code).toBe('invalid_input');
  });
});
