/**
 * Exported rows carry a hidden `_snapshot` (snapshotOf of the service entity at export). On re-import a row
 * whose entity changed since (or is gone) is a `conflict`, blocked, instead of being diffed silently; a row
 * whose snapshot still matches is compared as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runPlan } from './job-folder.js';
import { snapshotOf, SNAPSHOT_COLUMN } from '../../core/jobs/snapshot.js';
import { catalog, fullWorkbook, planFile, startEnv, writeTestWorkbook, type Env } from './helpers.js';

let env: Env;

beforeAll(async () => {
  env = await startEnv('demo');
  const path = join(env.dir, 'seed.xlsx');
  await writeTestWorkbook(path, fullWorkbook(await catalog(env)));
  const res = await runPlan(await planFile(path, { client: env.client }), { client: env.client, jobsDir: env.jobsDir });
  expect(res.status).toBe('completed');
});
afterAll(async () => {
  await env?.close();
});

describe('export snapshots', () => {
  it('snapshotOf is stable for equal content and changes with it', async () => {
    const sp = (await env.client.supplierProducts.findByExternalId('SP-3'))!;
    const again = (await env.client.supplierProducts.get(sp.id))!;
    expect(snapshotOf('supplier_product', again)).toBe(snapshotOf('supplier_product', sp));
    expect(snapshotOf('supplier_product', { ...sp, impacts_per_kg: [{ x: 1 }] })).toBe(
      snapshotOf('supplier_product', sp),
    ); // computed fields do not count
    expect(snapshotOf('supplier_product', { ...sp, name: 'other' })).not.toBe(snapshotOf('supplier_product', sp));
    const silo = (await env.client.silos.findByExternalId('SILO-1'))!;
    expect(snapshotOf('silo', { ...silo, items: [...silo.items].reverse() })).toBe(snapshotOf('silo', silo)); // order does not count
    expect(snapshotOf('supplier_product', sp)).toMatch(/^s1-[0-9a-f]{20}$/);
  });

  it('a row whose entity changed on the service since the export is a conflict; a matching one is compared as usual', async () => {
    const c = env.client;
    const sc1 = (await c.supplierCompanies.findByExternalId('SC-1'))!;
    const sc2 = (await c.supplierCompanies.findByExternalId('SC-2'))!;
    const pi1 = (await c.productInstances.findByExternalId('PI-1'))!;
    const exported = {
      sc1: snapshotOf('supplier_company', sc1),
      sc2: snapshotOf('supplier_company', sc2),
      bom1: snapshotOf('bom', await c.bom.get(pi1.id)),
      bom2: snapshotOf('bom', await c.bom.get((await c.productInstances.findByExternalId('PI-2'))!.id)),
    };
    // After the export: someone renames SC-2 and changes PI-1's BOM on the service.
    await c.supplierCompanies.update(sc2.id, { name: 'Renamed in the web interface' });
    const silo = (await c.silos.findByExternalId('SILO-1'))!;
    await c.bom.put(pi1.id, [{ type: 'silo', ref: silo.id, mass_kg: 999 }]);

    const path = join(env.dir, 'exported.xlsx');
    await writeTestWorkbook(
      path,
      {
        'supplier-companies': [
          { external_id: 'SC-1', name: 'Holcim AG', country: 'DE', [SNAPSHOT_COLUMN]: exported.sc1 },
          { external_id: 'SC-2', name: 'Dyckerhoff', [SNAPSHOT_COLUMN]: exported.sc2 },
          { external_id: 'SC-GONE', name: 'Gone', [SNAPSHOT_COLUMN]: exported.sc1 },
        ],
        bom: [
          {
            product_instance_external_id: 'PI-1',
            component_type: 'silo',
            component_external_id: 'SILO-1',
            mass_kg: 950,
            [SNAPSHOT_COLUMN]: exported.bom1,
          },
          {
            product_instance_external_id: 'PI-2',
            component_type: 'supplier_product',
            component_external_id: 'SP-3',
            mass_kg: 100,
            [SNAPSHOT_COLUMN]: exported.bom2,
          },
          {
            product_instance_external_id: 'PI-2',
            component_type: 'silo',
            component_external_id: 'SILO-1',
            mass_kg: 300,
            [SNAPSHOT_COLUMN]: exported.bom2,
          },
          {
            product_instance_external_id: 'PI-2',
            component_type: 'prechain_product',
            component_external_id: 'PC-1',
            mass_kg: 60,
            [SNAPSHOT_COLUMN]: exported.bom2,
          },
        ],
      },
      { 'supplier-companies': [SNAPSHOT_COLUMN], bom: [SNAPSHOT_COLUMN] },
    );
    const p = await planFile(path, { client: env.client });
    const e = new Map(p.entries.map((x) => [x.key, x]));
    expect(e.get('supplier-companies!2')).toMatchObject({
      action: 'update',
      changes: [{ field: 'name', before: 'Holcim', after: 'Holcim AG' }],
    });
    expect(e.get('supplier-companies!3')).toMatchObject({
      action: 'conflict',
      problems: [{ kind: 'conflict', field: '_snapshot', row: 3 }],
    });
    expect(e.get('supplier-companies!3')!.problems![0].message).toContain('changed on the service since the export');
    expect(e.get('supplier-companies!4')).toMatchObject({ action: 'conflict' });
    expect(e.get('supplier-companies!4')!.problems![0].message).toContain('deleted');
    expect(e.get('bom:PI-1')).toMatchObject({ action: 'conflict' });
    expect(e.get('bom:PI-2')).toMatchObject({
      action: 'replace',
      bomDiff: { changed: [{ code: 'PC-1', before: 50, after: 60 }] },
    });

    const res = await runPlan(p, { client: env.client, jobsDir: env.jobsDir });
    const o = new Map(res.entries.map((x) => [x.key, x]));
    expect(o.get('supplier-companies!3')).toMatchObject({ outcome: 'skipped', reason: 'blocked' });
    expect((await c.supplierCompanies.get(sc2.id)).name).toBe('Renamed in the web interface');
    expect((await c.bom.get(pi1.id))[0].mass_kg).toBe(999);
  });
});
