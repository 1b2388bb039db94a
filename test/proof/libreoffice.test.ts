/**
 * Workbooks written by another program import too: files saved by LibreOffice Calc
 * (test/fixtures/libreoffice, made by make-fixtures.ts with `soffice --convert-to xlsx`) go through the CLI as
 * a user runs it: the filled onboarding template imports and lands exactly; a second plan is all unchanged;
 * the empty template validates clean; a CSV turned into .xlsx by LibreOffice imports with its accents intact.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../core/api/index.js';
import type { Plan } from '../../core/jobs/types.js';
import { normalised, serviceState } from '../cli/dataset.js';
import { buildDataset } from '../fixtures/dataset.js';
import { CSV_COMPANIES, LO_PREFIX, LO_SIZE } from '../fixtures/libreoffice/make-fixtures.js';
import { cli, jsonOut, requestMark, requestsSince, ROOT, sandbox, tmp, type Sandbox } from './helpers.js';

const LO = join(ROOT, 'test/fixtures/libreoffice');
let sb: Sandbox;
let client: ApiClient;
let jobsDir: string;

beforeAll(async () => {
  sb = await sandbox({ seed: 'demo' });
  client = createApiClient({ baseUrl: sb.baseUrl, apiKey: sb.ownerKey });
  jobsDir = join(tmp('sl-lo-'), 'jobs');
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
});

describe('workbooks saved by LibreOffice Calc', () => {
  it('the filled onboarding template, saved by LibreOffice, imports every sheet exactly; a second plan is all unchanged', async () => {
    const file = join(LO, 'onboarding-filled.xlsx');
    const run = await cli(['import', file, '--json'], { key: sb.ownerKey, baseUrl: sb.baseUrl, jobsDir });
    expect(run.code, `${run.stdout.slice(0, 2000)}\n${run.stderr.slice(0, 2000)}`).toBe(0);
    const out = jsonOut<{ ok: boolean; result: { counts: Record<string, number> } }>(run);
    expect(out.ok).toBe(true);
    expect(out.result.counts.failed ?? 0).toBe(0);
    expect(out.result.counts.skipped ?? 0).toBe(0);

    const data = buildDataset(LO_SIZE, LO_PREFIX);
    expect(await serviceState(client, LO_PREFIX)).toEqual(normalised(data));

    const mark = await requestMark(sb.baseUrl);
    const again = await cli(['plan', file, '--json'], { key: sb.ownerKey, baseUrl: sb.baseUrl });
    expect(again.code).toBe(0);
    const plan = jsonOut<Plan>(again);
    const actions = new Set(plan.entries.map((e) => e.action));
    expect([...actions]).toEqual(['unchanged']);
    expect((await requestsSince(sb.baseUrl, mark)).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('the empty supplier-products template, saved by LibreOffice, validates clean but for "no data rows" (headers, notes and dropdowns survive; unfilled is never green)', async () => {
    const run = await cli(['validate', join(LO, 'template-supplier-products.xlsx'), '--json']);
    expect(run.code, run.stderr).toBe(2);
    const out = jsonOut<{
      ok: boolean;
      errors: number;
      issues: { code: string }[];
      sheets: { sheet: string; rows: number }[];
    }>(run);
    expect(out.ok).toBe(false);
    expect(out.issues.map((i) => i.code)).toEqual(['no_data_rows']);
    expect(out.sheets).toEqual([expect.objectContaining({ sheet: 'supplier-products', rows: 0 })]);
  });

  it('a CSV opened and saved as .xlsx by LibreOffice imports, with its accents intact', async () => {
    const run = await cli(['import', join(LO, 'supplier-companies-from-csv.xlsx'), '--json'], {
      key: sb.ownerKey,
      baseUrl: sb.baseUrl,
      jobsDir,
    });
    expect(run.code, `${run.stdout.slice(0, 1000)}\n${run.stderr}`).toBe(0);
    const state = await serviceState(client, 'LOCSV');
    expect(state['supplier-companies']).toEqual(
      CSV_COMPANIES.map(([external_id, name, country]) => ({ external_id, name, country })),
    );
  });
});
