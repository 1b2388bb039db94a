/**
 * The whole workbook flow, through the CLI against the in-process sandbox: the combined template from the CLI,
 * every sheet filled with exceljs, `plan --json` shows the expected actions, `import` creates exactly the
 * expected entities (checked via the API), a second plan is all unchanged, a re-import sends no write, a
 * changed name / silo yearly amount / BOM mass shows as update/replace with before → after and lands; the
 * results and failed-rows workbooks read back; the key never in any output or file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../core/api/index.js';
import type { Plan, PlanEntry } from '../../core/jobs/types.js';
import { SCOPES } from '../../core/spec/scopes.js';
import { apiClient, clearRequests, cli, control, isWrite, requests, sandbox, tmpDir, type Sandbox } from './helpers.js';
import {
  buildDataset,
  fillWorkbook,
  normalised,
  readSheet,
  serviceState,
  withCell,
  workbookText,
  type SheetData,
} from './dataset.js';

let sb: Sandbox;
let client: ApiClient;
let dir: string;
let jobsDir: string;
let data: SheetData;
let book: string;
let template: string;
let secret: string;
const P = 'FLOW';

const run = (args: string[]) => cli(args, { baseUrl: sb.baseUrl, key: sb.ownerKey, cwd: dir, jobsDir });
const planOf = async (file: string, extra: string[] = []) => {
  const r = await run(['plan', file, '--json', ...extra]);
  expect(r.stderr).not.toContain(secret);
  return { code: r.code, plan: JSON.parse(r.stdout) as Plan };
};
const actionsBySheet = (plan: Plan) => {
  const out: Record<string, Record<string, number>> = {};
  for (const e of plan.entries) {
    out[e.sheet] ??= {};
    out[e.sheet][e.action] = (out[e.sheet][e.action] ?? 0) + 1;
  }
  return out;
};
const entry = (plan: Plan, pred: (e: PlanEntry) => boolean) => {
  const found = plan.entries.filter(pred);
  expect(found).toHaveLength(1);
  return found[0];
};

beforeAll(async () => {
  sb = await sandbox('demo');
  client = apiClient(sb);
  secret = sb.ownerKey.split('-').slice(2).join('-');
  dir = tmpDir();
  jobsDir = path.join(dir, 'jobs');
  const cat = (await (await fetch(`${sb.baseUrl}/__sandbox/catalog`)).json()) as {
    plants: { id: string; external_id: string }[];
    elementaries: { id: string; external_id: string }[];
  };
  data = buildDataset({
    prefix: P,
    products: 8,
    instances: 4,
    mapping: {
      plantId: cat.plants.find((p) => p.external_id === 'PL-HEID')!.id,
      materialId: cat.elementaries.find((e) => e.external_id === 'MAT-CEM1')!.id,
    },
  });
  const tpl = await run(['template', 'all', '-o', 'template.xlsx']);
  expect(tpl.code).toBe(0);
  book = path.join(dir, 'onboarding.xlsx');
  template = path.join(dir, 'template.xlsx');
  await fillWorkbook(template, data, book);
});
afterAll(async () => {
  await client.close();
  await sb.close();
});

describe('template → fill → plan → import → plan → re-import → edit', () => {
  it('validate: the filled template has no errors (exit 0), nothing sent', async () => {
    await clearRequests(sb);
    const r = await run(['validate', 'onboarding.xlsx', '--json']);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v.ok).toBe(true);
    expect(v.errors).toBe(0);
    expect(await requests(sb)).toEqual([]);
  });

  it('plan --json: every row create, every BOM replace, in dependency order, with "after create of" references', async () => {
    const { code, plan } = await planOf('onboarding.xlsx');
    expect(code).toBe(0);
    const n = (s: keyof SheetData) => data[s]?.length ?? 0;
    expect(actionsBySheet(plan)).toEqual({
      'supplier-companies': { create: n('supplier-companies') },
      'supplier-plants': { create: n('supplier-plants') },
      'supplier-products': { create: n('supplier-products') },
      silos: { create: n('silos') },
      'product-instances': { create: n('product-instances') },
      'prechain-products': { create: n('prechain-products') },
      bom: { replace: 4 },
    });
    const levels = plan.entries.map((e) => e.level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    const plant = entry(plan, (e) => e.externalId === `${P}-SPL-000`);
    expect(plant.dependsOn).toEqual([entry(plan, (e) => e.externalId === `${P}-SC-000`).key]);
    const bom1 = entry(plan, (e) => e.kind === 'bom' && e.externalId === `${P}-PI-001`);
    expect(bom1.bomDiff?.added.map((a) => a.code).sort()).toEqual(
      data
        .bom!.filter((b) => b.product_instance_external_id === `${P}-PI-001`)
        .map((b) => b.component_external_id)
        .sort(),
    );
    expect(plan.maskedKey).toMatch(/\*\*\*\*$/);
  });

  it('import: exit 0, exactly the workbook on the service; results and failed-rows workbooks read back; no key anywhere', async () => {
    const r = await run(['import', 'onboarding.xlsx', '--report', 'results.xlsx', '--failed', 'failed.xlsx', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.result.status).toBe('completed');
    expect(out.result.counts.failed ?? 0).toBe(0);

    // Exactly the expected entities, via the API (no more, no fewer, same values).
    expect(await serviceState(client, P)).toEqual(normalised(data));

    // Results workbook: a copy of the input with _result per row; failed rows: none.
    const companies = await readSheet(path.join(dir, 'results.xlsx'), 'supplier-companies');
    expect(companies).toHaveLength(data['supplier-companies']!.length);
    for (const c of companies) {
      expect(c._result).toBe('created');
      expect(String(c._id)).toMatch(/^[0-9a-f-]{36}$/);
    }
    const bomRows = await readSheet(path.join(dir, 'results.xlsx'), 'bom');
    expect(new Set(bomRows.map((b) => b._result))).toEqual(new Set(['replaced']));
    expect((await readSheet(path.join(dir, 'results.xlsx'), 'Report')).length).toBeGreaterThan(0);
    for (const sheet of ['supplier-products', 'bom'])
      expect(await readSheet(path.join(dir, 'failed.xlsx'), sheet)).toEqual([]);
    expect(fs.readFileSync(book).equals(fs.readFileSync(book))).toBe(true);

    // The key: not in the output, the journal, the meta, the plan or the results workbook.
    expect(r.stdout).not.toContain(secret);
    const jobFiles = fs
      .readdirSync(path.join(jobsDir, out.job_id))
      .map((f) => fs.readFileSync(path.join(jobsDir, out.job_id, f), 'utf8'));
    expect(jobFiles.length).toBeGreaterThanOrEqual(3);
    for (const t of jobFiles) expect(t).not.toContain(secret);
    expect(await workbookText(path.join(dir, 'results.xlsx'))).not.toContain(secret);
  });

  it('a second plan shows everything unchanged; a re-import sends no write and exits 0', async () => {
    const { code, plan } = await planOf('onboarding.xlsx');
    expect(code).toBe(0);
    expect(new Set(plan.entries.map((e) => e.action))).toEqual(new Set(['unchanged']));
    await clearRequests(sb);
    const r = await run(['import', 'onboarding.xlsx']);
    expect(r.code).toBe(0);
    const log = await requests(sb);
    expect(log.length).toBeGreaterThan(0); // it did read
    expect(log.filter(isWrite)).toEqual([]);
    // The key is checked once, by the planner's /v2/me beside its first reads (not also one round trip before).
    expect(log.filter((q) => q.path === '/v2/me')).toHaveLength(1);
    expect(r.stdout).toMatch(/unchanged/);
  });

  it('a changed name, silo yearly amount and BOM mass: plan shows update/replace with before → after, import lands them', async () => {
    // The same workbook with three cells changed.
    let changed: SheetData = withCell(
      data,
      'supplier-companies',
      (r) => r.external_id === `${P}-SC-001`,
      'name',
      'Neuer Name AG',
    );
    changed = withCell(
      changed,
      'silo-items',
      (r) => r.silo_external_id === `${P}-SI-000` && r.year === 2025 && r.amount === 110,
      'amount',
      999,
    );
    changed = withCell(
      changed,
      'bom',
      (r) => r.product_instance_external_id === `${P}-PI-002` && r.mass_kg === 150.5,
      'mass_kg',
      175.25,
    );
    await fillWorkbook(template, changed, path.join(dir, 'edited.xlsx'), { lean: true });

    const { code, plan } = await planOf('edited.xlsx');
    expect(code).toBe(0);
    const differing = plan.entries.filter((e) => e.action !== 'unchanged');
    expect(differing.map((e) => `${e.action} ${e.externalId}`).sort()).toEqual(
      [`replace ${P}-PI-002`, `update ${P}-SC-001`, `update ${P}-SI-000`].sort(),
    );
    expect(entry(plan, (e) => e.externalId === `${P}-SC-001`).changes).toEqual([
      { field: 'name', before: `${P} Lieferant 1 GmbH`, after: 'Neuer Name AG' },
    ]);
    const silo = entry(plan, (e) => e.externalId === `${P}-SI-000`);
    expect(JSON.stringify(silo.changes)).toContain('110');
    expect(JSON.stringify(silo.changes)).toContain('999');
    const bom = entry(plan, (e) => e.kind === 'bom' && e.externalId === `${P}-PI-002`);
    expect(bom.bomDiff?.changed).toEqual([expect.objectContaining({ before: 150.5, after: 175.25 })]);
    expect(bom.bomDiff?.added).toEqual([]);
    expect(bom.bomDiff?.removed).toEqual([]);

    // The human plan shows before → after too.
    const human = await run(['plan', 'edited.xlsx']);
    expect(human.stdout).toContain(`name: "${P} Lieferant 1 GmbH" → "Neuer Name AG"`);
    expect(human.stdout).toMatch(/150\.5 → 175\.25 kg/);

    await clearRequests(sb);
    const r = await run(['import', 'edited.xlsx', '--report', 'edited-results.xlsx']);
    expect(r.code).toBe(0);
    const writes = (await requests(sb)).filter(isWrite);
    expect(writes.map((w) => w.method).sort()).toEqual(['PATCH', 'PATCH', 'PUT']);

    const state = await serviceState(client, P);
    expect(state['supplier-companies']!.find((c) => c.external_id === `${P}-SC-001`)!.name).toBe('Neuer Name AG');
    expect(
      state['silo-items']!.filter((i) => i.silo_external_id === `${P}-SI-000` && i.year === 2025)
        .map((i) => i.amount)
        .sort(),
    ).toEqual([120, 999]);
    expect(
      state
        .bom!.filter((b) => b.product_instance_external_id === `${P}-PI-002`)
        .map((b) => b.mass_kg)
        .sort(),
    ).toContain(175.25);
    const results = await readSheet(path.join(dir, 'edited-results.xlsx'), 'supplier-companies');
    expect(results.find((c) => c.external_id === `${P}-SC-001`)!._result).toBe('updated');
    expect(results.find((c) => c.external_id === `${P}-SC-000`)!._result).toBe('unchanged');

    // And now the edited workbook is in line with the service.
    expect(new Set((await planOf('edited.xlsx')).plan.entries.map((e) => e.action))).toEqual(new Set(['unchanged']));
  });

  it('--create-only leaves a differing row alone (skipped_update) and exits 0; the service keeps its value', async () => {
    await fillWorkbook(
      template,
      withCell(data, 'supplier-plants', (r) => r.external_id === `${P}-SPL-000`, 'city', 'Heidelberg'),
      path.join(dir, 'create-only.xlsx'),
      { lean: true },
    );
    const { plan } = await planOf('create-only.xlsx', ['--create-only']);
    expect(entry(plan, (e) => e.externalId === `${P}-SPL-000`).action).toBe('skipped_update');
    await clearRequests(sb);
    const r = await run(['import', 'create-only.xlsx', '--create-only']);
    expect(r.code).toBe(0);
    expect((await requests(sb)).filter(isWrite).filter((w) => w.path.includes('supplier-plants'))).toEqual([]);
    expect(
      (await serviceState(client, P))['supplier-plants']!.find((p) => p.external_id === `${P}-SPL-000`)!.city,
    ).toBe('Mannheim');
  });
});

describe('exit codes 1 and 2', () => {
  it('2: a workbook with a validation error is refused with the cell, before anything is sent', async () => {
    await fillWorkbook(
      template,
      withCell(
        data,
        'bom',
        (r) => r.product_instance_external_id === `${P}-PI-000` && r.mass_kg === 300,
        'mass_kg',
        -5,
      ),
      path.join(dir, 'bad.xlsx'),
      { lean: true },
    );
    await clearRequests(sb);
    const r = await run(['import', 'bad.xlsx']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bom!D\d+ \(mass_kg\)/);
    expect(r.stderr).toMatch(/Nothing was sent/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Only reads: the codes are checked in the same pass (every one known here), nothing is written.
    const log = await requests(sb);
    expect(log.filter(isWrite)).toEqual([]);
    expect(r.stderr).not.toMatch(/code_unknown|is not in the|Not checked/);
    const v = await run(['validate', 'bad.xlsx']);
    expect(v.code).toBe(2);
  });

  it('2: a code that exists neither in the workbook nor on the service blocks its row; import refuses without writing', async () => {
    await fillWorkbook(
      template,
      withCell(data, 'product-instances', (r) => r.external_id === `${P}-PI-003`, 'product_external_id', 'ART-NOPE'),
      path.join(dir, 'unresolved.xlsx'),
      { lean: true },
    );
    const { code, plan } = await planOf('unresolved.xlsx');
    expect(code).toBe(2);
    const blocked = entry(plan, (e) => e.kind === 'product_instance' && e.externalId === `${P}-PI-003`);
    expect(blocked.action).toBe('blocked');
    expect(blocked.problems?.[0]).toMatchObject({
      field: 'product_external_id',
      cell: expect.stringMatching(/^B\d+$/),
    });
    // Its BOM depends on it: blocked too. Everything else is still a create.
    expect(entry(plan, (e) => e.kind === 'bom' && e.externalId === `${P}-PI-003`).action).toBe('blocked');
    expect(plan.entries.filter((e) => e.action === 'blocked')).toHaveLength(2);
    await clearRequests(sb);
    const r = await run(['import', 'unresolved.xlsx']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/product-instances!B\d+ \(product_external_id\)/);
    expect(r.stderr).toMatch(/ART-NOPE/);
    expect(r.stderr).toMatch(/Nothing was sent/);
    expect((await requests(sb)).filter(isWrite)).toEqual([]);

    // --skip-blocked imports the rest and reports the blocked rows as skipped: exit 1.
    const rest = await run(['import', 'unresolved.xlsx', '--skip-blocked', '--json']);
    expect(rest.code).toBe(1);
    const skipped = JSON.parse(rest.stdout).result.entries.filter((e: { outcome: string }) => e.outcome === 'skipped');
    expect(skipped).toHaveLength(2);
    expect(skipped.every((e: { reason: string }) => e.reason === 'blocked')).toBe(true);
  });

  it('1: rows that fail on the service (entitlement limit reached) are reported with usage / limit; the rest lands', async () => {
    const d2 = buildDataset({ prefix: 'ENT', products: 4, instances: 3 });
    delete d2['prechain-products'];
    d2.bom = d2.bom!.filter((b) => b.component_type !== 'prechain_product');
    await fillWorkbook(template, d2, path.join(dir, 'ent.xlsx'), { lean: true });
    let instancesNow = 0;
    for await (const _ of client.productInstances.walk()) instancesNow++;
    await fetch(`${sb.baseUrl}/__sandbox/entitlements`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product_instances: instancesNow + 1 }),
    });
    try {
      const r = await run(['import', 'ent.xlsx', '--json']);
      expect(r.code).toBe(1);
      const out = JSON.parse(r.stdout);
      expect(out.result.status).toBe('completed');
      expect(out.result.entitlementLimits[0]).toMatchObject({
        dimension: 'product_instances',
        limit: instancesNow + 1,
      });
      const human = await run(['jobs']);
      expect(human.stdout).toContain(out.job_id);
      const state = await serviceState(client, 'ENT');
      expect(state['supplier-products']).toHaveLength(4);
      expect(state['product-instances']).toHaveLength(1);
    } finally {
      await fetch(`${sb.baseUrl}/__sandbox/entitlements`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ product_instances: null }),
      });
    }
  });
});

describe('the key checked by the planner (one round trip less before the writes)', () => {
  it('a revoked key: import exits 3 with the reason in words, never the key, no write, no job left', async () => {
    const k = await control<{ key: string; api_key_id: string }>(sb, 'POST', '/keys', {
      scopes: [...SCOPES],
      plant_ids: null,
    });
    await control(sb, 'DELETE', `/keys/${k.api_key_id}`);
    const jobs = path.join(dir, 'jobs-revoked');
    await clearRequests(sb);
    const r = await cli(['import', 'onboarding.xlsx'], { baseUrl: sb.baseUrl, key: k.key, cwd: dir, jobsDir: jobs });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/refused the API key.*err_not_authenticated/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.stderr).not.toContain(k.key.split('-').slice(2).join('-'));
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
    expect(fs.existsSync(jobs) ? fs.readdirSync(jobs).filter((n) => /^\d{8}-/.test(n)) : []).toEqual([]);
  });

  it('an unreachable service: import exits 3 with what to check', async () => {
    const r = await cli(['import', 'onboarding.xlsx'], {
      baseUrl: 'http://127.0.0.1:1',
      key: sb.ownerKey,
      cwd: dir,
      jobsDir,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Could not reach the service/);
    expect(r.stderr).toMatch(/--base-url/);
  });
});
