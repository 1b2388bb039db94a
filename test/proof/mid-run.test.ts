/**
 * Things that change on the service while an import runs, through the CLI as a user runs it: the
 * key revoked, the member's plant access withdrawn, the daily request limit reached, the entitlement limit
 * reached. Each ends in the state docs/workbook-format.md documents, says so in words (with the err_code), and
 * is resumable where it should be; once the cause is fixed the data ends exact.
 *   - revoked key → `aborted`, exit 3, resumable; resumed with a new key → exact
 *   - plant access withdrawn → the rows at the lost plants fail with 403 err_plant_no_access (their dependents
 *     skipped), the rest goes on: `completed`, exit 1; access restored, the same workbook again → exact
 *   - daily limit → `paused`, exit 3, resumable; limit lifted and resumed → exact
 *   - entitlement → the refused instance fails with dimension/usage/limit, the remaining instance creates are
 *     skipped with the same numbers, the rest goes on: exit 1; entitlement raised, imported again → exact
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import type { EntryOutcome, JobResult, JobSummary } from '../../core/jobs/types.js';
import { SCOPES } from '../../core/spec/scopes.js';
import { normalised, serviceState } from '../cli/dataset.js';
import { buildDataset, sizeForRows, type SheetData } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import {
  cli,
  control,
  jsonOut,
  sandbox,
  sandboxState,
  tmp,
  waitForOutcomes,
  type CliRun,
  type Sandbox,
} from './helpers.js';

let sb: Sandbox;
let owner: ApiClient;
let dir: string;

beforeAll(async () => {
  sb = await sandbox({ seed: 'demo' });
  owner = createApiClient({ baseUrl: sb.baseUrl, apiKey: sb.ownerKey });
  dir = tmp('sl-midrun-');
});
afterAll(async () => {
  await owner?.close();
  await sb?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface ImportOut {
  ok: boolean;
  exit_code: number;
  job_id: string;
  result: JobResult;
}

async function newKey(): Promise<{ key: string; api_key_id: string; owner_profile_id: string }> {
  return control(sb.baseUrl, 'POST', '/keys', { scopes: [...SCOPES], plant_ids: null });
}

async function workbook(prefix: string, rows = 120): Promise<{ file: string; data: SheetData; jobsDir: string }> {
  const data = buildDataset(sizeForRows(rows), prefix);
  const file = join(dir, `${prefix}.xlsx`);
  await writeDataWorkbook(file, data);
  return { file, data, jobsDir: join(dir, `jobs-${prefix}`) };
}

/** Start an import, do `action` once `after` outcomes are on disk, and wait for the import to end. */
async function importWith(
  file: string,
  key: string,
  jobsDir: string,
  after: number,
  action: () => Promise<unknown>,
): Promise<{ run: CliRun; out: ImportOut }> {
  await control(sb.baseUrl, 'PUT', '/faults', { latency_ms: 10, jitter_ms: 5, seed: 5 });
  try {
    let done = false;
    const running = cli(['import', file, '--concurrency', '4', '--json'], {
      key,
      baseUrl: sb.baseUrl,
      jobsDir,
    }).finally(() => (done = true));
    await waitForOutcomes(jobsDir, after, { until: () => done });
    await action();
    const run = await running;
    return { run, out: jsonOut<ImportOut>(run) };
  } finally {
    await control(sb.baseUrl, 'PUT', '/faults', { latency_ms: 0, jitter_ms: 0 });
  }
}

const outcomes = (r: JobResult) => r.entries.filter((e): e is EntryOutcome => e.outcome !== 'pending');

async function expectExact(prefix: string, data: SheetData): Promise<void> {
  expect(await serviceState(owner, prefix)).toEqual(normalised(data));
}

async function jobsList(jobsDir: string): Promise<JobSummary[]> {
  const r = await cli(['jobs', '--json'], { jobsDir });
  return jsonOut<{ jobs: JobSummary[] }>(r).jobs;
}

describe('changes on the service while an import runs', () => {
  it('the key revoked mid-run: aborted (exit 3) with the reason in words, resumable; resumed with a new key → exact', async () => {
    const { file, data, jobsDir } = await workbook('REVOKE');
    const k1 = await newKey();
    const { run, out } = await importWith(file, k1.key, jobsDir, 25, () =>
      control(sb.baseUrl, 'DELETE', `/keys/${k1.api_key_id}`),
    );
    expect(run.code).toBe(3);
    expect(out.result.status).toBe('aborted');
    expect(out.result.message).toMatch(/401|revoked|key/i);
    expect(out.result.message).toMatch(/resume/i);
    expect(outcomes(out.result).some((e) => e.outcome === 'failed')).toBe(false); // nothing blamed on a row
    expect((await jobsList(jobsDir))[0]).toMatchObject({ jobId: out.job_id, status: 'aborted', resumable: true });

    const k2 = await newKey();
    const resumed = await cli(['resume', out.job_id, '--json'], { key: k2.key, baseUrl: sb.baseUrl, jobsDir });
    expect(resumed.code, resumed.stderr).toBe(0);
    await expectExact('REVOKE', data);
  });

  it("the member's plant access withdrawn mid-run: rows at the lost plants fail with err_plant_no_access (403), the rest lands (exit 1); access restored, imported again → exact", async () => {
    const { file, data, jobsDir } = await workbook('PLANT', 150);
    const k = await newKey();
    const catalog = await control<{ plants: { id: string; external_id: string }[] }>(sb.baseUrl, 'GET', '/catalog');
    const heid = catalog.plants.find((p) => p.external_id === 'PL-HEID')!.id;
    // withdraw before the supplier products (level 2) start: companies and plants are not at a plant of ours
    const firstLevels = (data['supplier-companies']?.length ?? 0) + (data['supplier-plants']?.length ?? 0);
    const { run, out } = await importWith(file, k.key, jobsDir, Math.max(1, firstLevels - 2), () =>
      control(sb.baseUrl, 'PUT', `/members/${k.owner_profile_id}`, { plant_ids: [heid] }),
    );
    try {
      expect(run.code, run.stderr).toBe(1);
      expect(out.result.status).toBe('completed');
      const failed = outcomes(out.result).filter((e) => e.outcome === 'failed');
      expect(failed.length).toBeGreaterThan(0);
      for (const f of failed) {
        expect(f.status).toBe(403);
        expect(f.err_code).toBe('err_plant_no_access');
        expect(f.explanation ?? '', 'the catalog explains the code in words').toMatch(/plant/i);
      }
      const skipped = outcomes(out.result).filter((e) => e.outcome === 'skipped');
      expect(skipped.every((s) => s.reason === 'dependency' || s.reason === 'blocked')).toBe(true);
      // the rows at PL-HEID landed
      const heidCodes = (data['supplier-products'] ?? [])
        .filter((r) => r.plant_code === 'PL-HEID')
        .map((r) => r.external_id);
      for (const c of heidCodes)
        expect(await owner.supplierProducts.findByExternalId(String(c)), String(c)).not.toBeNull();
      expect((await jobsList(jobsDir))[0]?.resumable).toBe(false); // completed: the failed rows are re-imported, not resumed
    } finally {
      await control(sb.baseUrl, 'PUT', `/members/${k.owner_profile_id}`, { plant_ids: null });
    }
    const again = await cli(['import', file, '--json'], { key: k.key, baseUrl: sb.baseUrl, jobsDir });
    expect(again.code, again.stderr).toBe(0);
    await expectExact('PLANT', data);
  });

  it('the daily request limit reached mid-run: paused (exit 3) with err_svc_daily_limit_reached in words, resumable; lifted and resumed → exact', async () => {
    const { file, data, jobsDir } = await workbook('DAILY');
    const { run, out } = await importWith(file, sb.ownerKey, jobsDir, 25, () =>
      control(sb.baseUrl, 'PUT', '/daily-limit', { requests: 1 }),
    );
    try {
      expect(run.code).toBe(3);
      expect(out.result.status).toBe('paused');
      expect(out.result.message).toMatch(/daily/i);
      expect(out.result.message).toMatch(/err_svc_daily_limit_reached/);
      expect(outcomes(out.result).some((e) => e.outcome === 'failed')).toBe(false);
      expect((await jobsList(jobsDir))[0]).toMatchObject({ status: 'paused', resumable: true });
    } finally {
      await control(sb.baseUrl, 'PUT', '/daily-limit', { requests: null });
    }
    const resumed = await cli(['resume', out.job_id, '--json'], { key: sb.ownerKey, baseUrl: sb.baseUrl, jobsDir });
    expect(resumed.code, resumed.stderr).toBe(0);
    await expectExact('DAILY', data);
  });

  it('the entitlement limit reached mid-run: the refused instance fails with usage/limit, the other instance creates are skipped with the same numbers, the rest lands (exit 1); raised and imported again → exact', async () => {
    const { file, data, jobsDir } = await workbook('ENTL', 150);
    const instances = data['product-instances']?.length ?? 0;
    expect(instances).toBeGreaterThan(4);
    const active = (await sandboxState(sb.baseUrl)).product_instances.active;
    const limit = active + 2;
    await control(sb.baseUrl, 'PUT', '/entitlements', { product_instances: limit });
    let out: ImportOut;
    try {
      const r = await importWith(file, sb.ownerKey, jobsDir, 1, async () => undefined);
      out = r.out;
      expect(r.run.code, r.run.stderr).toBe(1);
      expect(out.result.status).toBe('completed');
      const all = outcomes(out.result);
      const refused = all.filter((e) => e.outcome === 'failed');
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const f of refused) {
        expect(f.err_code).toBe('err_entitlement_limit_reached');
        expect(f.entitlement_limit).toEqual({ dimension: 'product_instances', usage: limit, limit });
      }
      const skippedByLimit = all.filter((e) => e.outcome === 'skipped' && e.reason === 'entitlement');
      expect(refused.length + skippedByLimit.length).toBe(instances - 2);
      for (const s of skippedByLimit)
        expect(s.entitlement_limit).toEqual({ dimension: 'product_instances', usage: limit, limit });
      expect(out.result.entitlementLimits).toEqual([{ dimension: 'product_instances', usage: limit, limit }]);
      // everything not depending on the refused instances landed: all supplier products and silos
      expect((await serviceState(owner, 'ENTL'))['supplier-products']).toEqual(normalised(data)['supplier-products']);
    } finally {
      await control(sb.baseUrl, 'PUT', '/entitlements', { product_instances: null });
    }
    const again = await cli(['import', file, '--json'], { key: sb.ownerKey, baseUrl: sb.baseUrl, jobsDir });
    expect(again.code, again.stderr).toBe(0);
    await expectExact('ENTL', data);
  });
});
