/**
 * The workbook's `production` sheet through the import engine against the sandbox: dry run (diff per year,
 * the note that a future year stays blocked), run (journal, outcomes, figures on the service), and the LCA
 * afterwards — the figures unblock exactly the years the spec's rules 2–3 allow.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPlan } from '../jobs/job-folder.js';
import { readResults } from '../../core/lca/model.js';
import { DATA_SHEETS } from '../../core/workbook/registry.js';
import { catalog, idOf, planFile, startEnv, writeTestWorkbook, type Env } from '../jobs/helpers.js';

let env: Env;
let instanceId: string;
const Y = new Date().getUTCFullYear(); // the sandbox runs on the real clock here

beforeAll(async () => {
  env = await startEnv('empty');
  const cat = await catalog(env);
  const created = await env.client.productInstances.create({
    external_id: 'PROD-PI',
    product_id: cat.products[0].id,
    plant_id: idOf(cat.plants, cat.plants[0].external_id),
    produced_from: Y - 2,
    produced_to: Y + 1,
  });
  instanceId = created.entity.id;
  await env.control('PUT', '/__sandbox/lca', { queued_ms: 0, processing_ms: 20 });
});
afterAll(() => env?.close());

const plan = async (name: string, rows: Record<string, unknown>[]) =>
  planFile(await writeTestWorkbook(join(env.dir, name), { production: rows }), { client: env.client });

describe('production sheet', () => {
  it('is a data sheet of the registry (so part of template all)', () => {
    const def = DATA_SHEETS.find((d) => d.name === 'production');
    expect(Object.keys(def!.columns)).toEqual(['product_instance_external_id', 'year', 'quantity']);
  });

  it('dry run diffs per year and notes that a future year stays blocked; the run writes it (journal, results)', async () => {
    const p = await plan('prod1.xlsx', [
      { product_instance_external_id: 'PROD-PI', year: Y - 2, quantity: 1000 },
      { product_instance_external_id: 'PROD-PI', year: Y, quantity: 250.5 },
      { product_instance_external_id: 'PROD-PI', year: Y + 1, quantity: 1200 },
    ]);
    const e = p.entries.find((x) => x.kind === 'production')!;
    expect(e).toMatchObject({ action: 'create', id: instanceId, externalId: 'PROD-PI' });
    expect(e.rows).toHaveLength(3);
    expect(e.changes).toEqual([
      { field: `production_figures[${Y - 2}]`, before: null, after: 1000 },
      { field: `production_figures[${Y}]`, before: null, after: 250.5 },
      { field: `production_figures[${Y + 1}]`, before: null, after: 1200 },
    ]);
    expect(e.notes?.join(' ')).toMatch(new RegExp(`${Y + 1} is a future year.*stays blocked until ${Y + 1} arrives`));

    const res = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    expect(res.status).toBe('completed');
    expect(res.bySheet.production).toEqual({ created: 3 });
    expect(await env.client.productionFigures.get(instanceId)).toEqual([
      { year: Y - 2, quantity: 1000 },
      { year: Y, quantity: 250.5 },
      { year: Y + 1, quantity: 1200 },
    ]);

    // The LCA: exactly the past and current years with a figure are computed; the missing past year and the
    // future year stay blocked.
    const lca = await env.client.lca.recomputeAndWait(instanceId, { pollBaseMs: 20, pollMaxMs: 100 });
    const years = readResults(lca.results).map((y) => [y.year, y.status, y.blockers[0]?.code ?? null]);
    expect(years).toEqual([
      [Y - 2, 'computed', null],
      [Y - 1, 'blocked', 'blk_production_data_missing'],
      [Y, 'computed', null],
      [Y + 1, 'blocked', 'blk_production_year_not_reached'],
    ]);
  });

  it('a second dry run: unchanged years are not sent, a changed one is an update with before → after', async () => {
    const same = await plan('prod2.xlsx', [{ product_instance_external_id: 'PROD-PI', year: Y - 2, quantity: 1000 }]);
    expect(same.entries.find((x) => x.kind === 'production')?.action).toBe('unchanged');
    const changed = await plan('prod3.xlsx', [
      { product_instance_external_id: 'PROD-PI', year: Y - 2, quantity: 1000 },
      { product_instance_external_id: 'PROD-PI', year: Y - 1, quantity: 990 },
      { product_instance_external_id: 'PROD-PI', year: Y, quantity: 300 },
    ]);
    const e = changed.entries.find((x) => x.kind === 'production')!;
    expect(e.action).toBe('update');
    expect(e.changes).toEqual([
      { field: `production_figures[${Y - 1}]`, before: null, after: 990 },
      { field: `production_figures[${Y}]`, before: 250.5, after: 300 },
    ]);
    expect(e.body).toEqual({
      production_figures: [
        { year: Y - 1, quantity: 990 },
        { year: Y, quantity: 300 },
      ],
    });
    const res = await runPlan(changed, { client: env.client, jobsDir: env.jobsDir });
    expect(res.bySheet.production).toEqual({ updated: 3 });
    const lca = await env.client.lca.recomputeAndWait(instanceId, { pollBaseMs: 20, pollMaxMs: 100 });
    expect(readResults(lca.results).map((y) => y.status)).toEqual(['computed', 'computed', 'computed', 'blocked']);
  });

  it('blocks a year outside the production period at its cell, and an unknown instance', async () => {
    const p = await plan('prod4.xlsx', [
      { product_instance_external_id: 'PROD-PI', year: Y + 5, quantity: 1 },
      { product_instance_external_id: 'NO-SUCH-PI', year: Y, quantity: 1 },
    ]);
    const bad = p.entries.find((x) => x.key === 'production:PROD-PI')!;
    expect(bad.action).toBe('blocked');
    expect(bad.problems?.[0]).toMatchObject({ field: 'year', cell: 'B2' });
    expect(bad.problems?.[0].message).toMatch(/outside the production period/);
    const unknown = p.entries.find((x) => x.key === 'production:NO-SUCH-PI')!;
    expect(unknown.action).toBe('blocked');
    expect(unknown.problems?.[0].message).toMatch(/NO-SUCH-PI/);
  });
});
