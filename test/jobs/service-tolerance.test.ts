/**
 * Tolerance of a service that differs from the sandbox (optional fields missing from answers, err_code before
 * status) at the level of a job's rows, against the sandbox behind a rewriting proxy (a real
 * service may differ from the sandbox): a create whose answer lacks optional fields ends `created`, not failed;
 * err_external_id_exists sent with 422 instead of 409 takes the same path as a 409 (lookup, compare) — the row
 * ends `already_existed` when the service holds the same values, `failed` with the conflict when not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createApiClient } from '../../core/api/index.js';
import { runPlan } from './job-folder.js';
import type { EntryOutcome, JobResult } from '../../core/jobs/types.js';
import { startProxy, type ProxyHooks } from '../api/proxy.js';
import {
  catalog,
  idOf,
  planFile,
  startEnv,
  writeTestWorkbook,
  type Catalog,
  type Env,
  type SheetData,
} from './helpers.js';

let env: Env;
let cat: Catalog;
let n = 0;

beforeAll(async () => {
  env = await startEnv('demo');
  cat = await catalog(env);
});
afterAll(async () => {
  await env?.close();
});

const outcomes = (r: JobResult) => new Map(r.entries.map((o) => [o.key, o as EntryOutcome]));

/** Plan with the plain client, run through the proxy (what the service answers to the writes differs). */
async function planAndRun(d: SheetData, hooks: ProxyHooks, between?: () => Promise<void>): Promise<JobResult> {
  const path = join(env.dir, `tol-${++n}.xlsx`);
  await writeTestWorkbook(path, d);
  const p = await planFile(path, { client: env.client });
  await between?.();
  const proxy = await startProxy(env.sb.baseUrl, hooks);
  const c = createApiClient({
    baseUrl: proxy.baseUrl,
    apiKey: env.sb.ownerKey,
    retry: { baseMs: 5, maxTotalMs: 5_000 },
  });
  try {
    return await runPlan(p, { client: c, jobsDir: env.jobsDir, concurrency: 2 });
  } finally {
    await c.close();
    await proxy.close();
  }
}

describe('job rows against a service that differs from the sandbox', () => {
  it('creates whose answers lack optional fields (epd_id, external_id, country, …) end created', async () => {
    const drop = [
      'epd_id',
      'hazardous_substances',
      'secondary_datasets',
      'external_id',
      'country',
      'city',
      'created_at',
    ];
    const res = await planAndRun(
      {
        plants: [{ plant_code: 'HEID', plant_id: idOf(cat.plants, 'PL-HEID') }],
        materials: [
          { material_code: 'CEM1', category: 'elementary', material_type_id: idOf(cat.elementaries, 'MAT-CEM1') },
        ],
        'supplier-companies': [{ external_id: 'OPTJ-SC', name: 'Optional Co', country: 'DE' }],
        'supplier-plants': [
          {
            external_id: 'OPTJ-SPL',
            name: 'Optional plant',
            supplier_company_external_id: 'OPTJ-SC',
            country: 'DE',
            city: 'Ulm',
          },
        ],
        'supplier-products': [
          {
            external_id: 'OPTJ-SP',
            name: 'Optional product',
            plant_code: 'HEID',
            material_code: 'CEM1',
            supplier_plant_external_id: 'OPTJ-SPL',
            unit: 'KG',
          },
        ],
      },
      {
        response: (req, r) => {
          if (req.method !== 'POST' || r.status >= 300 || !r.text) return r;
          const body = JSON.parse(r.text) as Record<string, unknown>;
          return {
            status: r.status,
            text: JSON.stringify(Object.fromEntries(Object.entries(body).filter(([k]) => !drop.includes(k)))),
          };
        },
      },
    );
    expect(res.status).toBe('completed');
    const o = outcomes(res);
    for (const key of ['supplier-companies!2', 'supplier-plants!2', 'supplier-products!2'])
      expect(o.get(key), key).toMatchObject({ outcome: 'created' });
    expect(res.counts.failed ?? 0).toBe(0);
  });

  it('err_external_id_exists with 422 ends already_existed (same values) or failed as a conflict, as with 409', async () => {
    const to422: ProxyHooks = {
      response: (req, r) =>
        req.method === 'POST' && r.status === 409 && r.text?.includes('err_external_id_exists')
          ? { status: 422, text: r.text }
          : r,
    };
    const res = await planAndRun(
      {
        'supplier-companies': [
          { external_id: 'E422-SAME', name: 'Same Co', country: 'DE' },
          { external_id: 'E422-DIFF', name: 'Our name' },
        ],
      },
      to422,
      // Between plan and run someone else creates both: one with the same values, one with another name.
      async () => {
        await env.client.supplierCompanies.create({ external_id: 'E422-SAME', name: 'Same Co', country: 'DE' });
        await env.client.supplierCompanies.create({ external_id: 'E422-DIFF', name: 'Their name' });
      },
    );
    expect(res.status).toBe('completed');
    const o = outcomes(res);
    expect(o.get('supplier-companies!2')).toMatchObject({ outcome: 'already_existed' });
    expect(o.get('supplier-companies!3')).toMatchObject({ outcome: 'failed', err_code: 'err_external_id_exists' });
    expect(o.get('supplier-companies!3')!.msg).toContain('name');
  });
});
