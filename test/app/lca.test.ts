/**
 * The app's LCA operations the CLI's `lca` calls: selectors from codes given by kind, the verdict per instance
 * (which years wait for production data the user must enter), and the workbooks read before anything is sent
 * (instance codes of a product-instances sheet; production rows, checked as an import checks them).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceVerdicts, lcaSelector, type LcaReport } from '../../core/app/lca.js';
import { instanceCodesOfWorkbook, productionOfWorkbook } from '../../core/app/lca-workbooks.js';
import { writeTestWorkbook } from '../jobs/helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'app-lca-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('lcaSelector', () => {
  it('trims the codes, drops empties and repeats (order kept), and names no selector without a code', () => {
    expect(lcaSelector('instances', [' B ', 'A', '', 'B'])).toEqual({ by: 'instances', externalIds: ['B', 'A'] });
    expect(lcaSelector('products', ['ART1', 'ART1'])).toEqual({ by: 'products', articles: ['ART1'] });
    expect(lcaSelector('plant', ['PL-1'])).toEqual({ by: 'plant', plantCodes: ['PL-1'] });
    expect(lcaSelector('plant', [' ', ''])).toBeNull();
    expect(lcaSelector('all')).toEqual({ by: 'all' });
  });
});

describe('instanceVerdicts', () => {
  const instance = (results: unknown[]) =>
    ({
      instance: { id: 'id-1', external_id: 'PI-1' },
      outcome: 'completed',
      job_status: 'completed',
      job: { finished_at: '2030-03-01T00:00:00Z' },
      err_code: null,
      msg: null,
      explanation: null,
      action: null,
      results,
    }) as unknown as LcaReport['instances'][number];
  const blocked = (year: number) => ({
    year,
    status: 'blocked',
    blockers: [{ type: 'missing_input', kind: 'production_data', code: 'c', msg: 'm' }],
  });

  it('counts computed and blocked years; only past or current blocked years need data (the service year)', () => {
    const [v] = instanceVerdicts({
      instances: [
        instance([blocked(2028), { year: 2029, status: 'computed', blockers: [] }, blocked(2030), blocked(2031)]),
      ],
    });
    expect(v).toEqual({
      external_id: 'PI-1',
      id: 'id-1',
      outcome: 'completed',
      job_status: 'completed',
      err_code: null,
      explanation: null,
      action: null,
      years_computed: 1,
      years_blocked: 3,
      years_needing_data: [2028, 2030],
    });
  });
});

describe('the workbooks an LCA run reads', () => {
  it('instance codes of the product-instances sheet; a workbook without it is a problem in words', async () => {
    const file = await writeTestWorkbook(join(dir, 'instances.xlsx'), {
      'product-instances': [
        { external_id: 'PI-2', product_external_id: 'ART', plant_code: 'PL', produced_from: 2028 },
        { external_id: 'PI-1', product_external_id: 'ART', plant_code: 'PL', produced_from: 2028 },
        { external_id: 'PI-2', product_external_id: 'ART', plant_code: 'PL', produced_from: 2028 },
      ],
    });
    expect(await instanceCodesOfWorkbook(file)).toEqual({ codes: ['PI-2', 'PI-1'], problems: [] });
    const none = await writeTestWorkbook(join(dir, 'none.xlsx'), {
      production: [{ product_instance_external_id: 'PI-1', year: 2029, quantity: 1 }],
    });
    const r = await instanceCodesOfWorkbook(none);
    expect(r.codes).toEqual([]);
    expect(r.problems.join('\n')).toMatch(/no product-instances sheet/);
  });

  it('production rows as written; a quantity out of range is a problem at its cell (the workbook check, not the reader)', async () => {
    const good = await writeTestWorkbook(join(dir, 'prod.xlsx'), {
      production: [
        { product_instance_external_id: 'PI-1', year: 2029, quantity: 12.5 },
        { product_instance_external_id: 'PI-1', year: 2030, quantity: 4 },
      ],
    });
    expect(await productionOfWorkbook(good)).toEqual({
      rows: [
        { row: 2, product_instance_external_id: 'PI-1', year: 2029, quantity: 12.5 },
        { row: 3, product_instance_external_id: 'PI-1', year: 2030, quantity: 4 },
      ],
      problems: [],
    });
    const bad = await writeTestWorkbook(join(dir, 'prod-bad.xlsx'), {
      production: [{ product_instance_external_id: 'PI-1', year: 2029, quantity: -3 }],
    });
    expect((await productionOfWorkbook(bad)).problems.join('\n')).toMatch(/^production!C2: /);
  });
});
