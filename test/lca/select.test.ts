/**
 * Selecting product instances for an LCA, against the demo sandbox: by instance codes, by product article
 * numbers, by plant code, from a workbook's product-instances sheet (read with the workbook reader), or all.
 * Unknown codes are reported; selecting sends GETs only, and a product with many instances costs a walk, not
 * one request per instance.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../core/workbook/reader.js';
import { instanceCodesFromWorkbook, selectInstances } from '../../core/lca/index.js';
import type { ProductInstance } from '../../core/api/index.js';
import { type LcaFixture, byCode, requestsSince, startLcaFixture } from './fixture.js';

let f: LcaFixture;
let dir: string;
let all: ProductInstance[];

beforeAll(async () => {
  f = await startLcaFixture('demo');
  dir = await mkdtemp(join(tmpdir(), 'lca-select-'));
  all = [];
  for await (const pi of f.client.productInstances.walk()) all.push(pi);
});
afterAll(async () => {
  await f?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const codesOf = (xs: { external_id: string | null }[]) => xs.map((x) => x.external_id);

describe('selecting product instances', () => {
  it('all: one walk, sorted by external_id, with plant codes, article numbers and product names', async () => {
    const sel = await selectInstances(f.client, { by: 'all' });
    expect(sel.unknown).toEqual([]);
    expect(sel.instances).toHaveLength(all.length);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(codesOf(sel.instances)).toEqual(all.map((i) => i.external_id).sort());
    for (const s of sel.instances) {
      const pi = all.find((x) => x.id === s.id)!;
      const plant = f.catalog.plants.find((p) => p.id === pi.plant_id)!;
      const product = f.catalog.products.find((p) => p.id === pi.product_id)!;
      expect(s).toMatchObject({
        plant_code: plant.external_id,
        product_article: product.external_id,
        product_name: product.name,
        produced_from: pi.produced_from,
      });
    }
  });

  it('by instance codes: the order given, unknown codes reported', async () => {
    const [a, b] = all.map((i) => i.external_id!).sort();
    const sel = await selectInstances(f.client, { by: 'instances', externalIds: [b, ' ', a, b, 'PI-NOPE'] });
    expect(codesOf(sel.instances)).toEqual([b, a]);
    expect(sel.unknown).toEqual([{ kind: 'instance', codes: ['PI-NOPE'] }]);
  });

  it('by product article numbers: the instances of those products, unknown articles reported', async () => {
    const pi = all[0];
    const article = f.catalog.products.find((p) => p.id === pi.product_id)!.external_id;
    const expected = all.filter((x) => x.product_id === pi.product_id).map((x) => x.external_id);
    const sel = await selectInstances(f.client, { by: 'products', articles: [article, 'ART-NOPE'] });
    expect(codesOf(sel.instances).sort()).toEqual(expected.sort());
    expect(sel.unknown).toEqual([{ kind: 'product', codes: ['ART-NOPE'] }]);
    // a product nobody makes: nothing selected, nothing unknown
    const unused = f.catalog.products.find((p) => !all.some((x) => x.product_id === p.id))!;
    expect(await selectInstances(f.client, { by: 'products', articles: [unused.external_id] })).toMatchObject({
      instances: [],
      unknown: [],
    });
  });

  it('by plant code: every instance at that plant, unknown plant codes reported', async () => {
    const plant =
      f.catalog.plants.find((p) => all.filter((x) => x.plant_id === p.id).length >= 2) ?? f.catalog.plants[0];
    const expected = all.filter((x) => x.plant_id === plant.id).map((x) => x.external_id);
    const sel = await selectInstances(f.client, { by: 'plant', plantCodes: [plant.external_id, 'PL-NOPE'] });
    expect(codesOf(sel.instances)).toEqual(expected.sort());
    expect(sel.instances.every((i) => i.plant_code === plant.external_id)).toBe(true);
    expect(sel.unknown).toEqual([{ kind: 'plant', codes: ['PL-NOPE'] }]);
  });

  it("from a workbook's product-instances sheet (read with the workbook reader)", async () => {
    const path = join(dir, 'instances.xlsx');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('product-instances');
    ws.addRow(['external_id', 'product_external_id', 'plant_code', 'produced_from', 'produced_to', 'name']);
    const picked = all.slice(0, 2);
    for (const pi of picked) {
      const product = f.catalog.products.find((p) => p.id === pi.product_id)!;
      const plant = f.catalog.plants.find((p) => p.id === pi.plant_id)!;
      ws.addRow([
        pi.external_id,
        product.external_id,
        plant.external_id,
        pi.produced_from,
        pi.produced_to ?? null,
        'x',
      ]);
    }
    await wb.xlsx.writeFile(path);
    const { codes, problems } = instanceCodesFromWorkbook(await readWorkbook(path));
    expect(problems).toEqual([]);
    expect(codes).toEqual(picked.map((p) => p.external_id));
    const sel = await selectInstances(f.client, { by: 'instances', externalIds: codes });
    expect(sel.instances.map((i) => i.id)).toEqual(picked.map((p) => p.id));

    // a workbook without that sheet is a problem in words
    const other = join(dir, 'other.xlsx');
    const wb2 = new ExcelJS.Workbook();
    wb2.addWorksheet('silos').addRow(['external_id', 'name', 'plant_code']);
    await wb2.xlsx.writeFile(other);
    expect(instanceCodesFromWorkbook(await readWorkbook(other)).problems.join(' ')).toMatch(
      /no product-instances sheet/,
    );
  });

  it('sends GETs only, and a product with many instances costs a walk, not one request per instance', async () => {
    const product = byCode(f.catalog.products, 'ART-10012');
    const plant = f.catalog.plants[0];
    await Promise.all(
      Array.from({ length: 30 }, (_, k) =>
        f.client.productInstances.create({
          external_id: `SEL-${String(k).padStart(2, '0')}`,
          product_id: product.id,
          plant_id: plant.id,
          produced_from: 2020,
        }),
      ),
    );
    const { last_seq } = await requestsSince(f, 0);
    const sel = await selectInstances(f.client, { by: 'products', articles: ['ART-10012'] });
    expect(codesOf(sel.instances)).toEqual(Array.from({ length: 30 }, (_, k) => `SEL-${String(k).padStart(2, '0')}`));
    const log = (await requestsSince(f, last_seq)).entries;
    expect(log.every((e) => e.method === 'GET')).toBe(true);
    expect(log.length).toBe(sel.requests);
    expect(sel.requests).toBeLessThanOrEqual(4); // product lookup + one instance walk + one plant walk (+1 spare)
  });

  it('a key without view:plants still selects, with plant codes left empty', async () => {
    const k = await f.ctl<{ key: string }>('POST', '/__sandbox/keys', {
      scopes: ['view:products', 'edit:products'],
      plant_ids: null,
    });
    const { createApiClient } = await import('../../core/api/index.js');
    const client = createApiClient({ baseUrl: f.baseUrl, apiKey: k.key });
    try {
      const sel = await selectInstances(client, { by: 'all' });
      expect(sel.instances.length).toBeGreaterThan(0);
      expect(sel.instances.every((i) => i.plant_code === null && i.product_article !== null)).toBe(true);
      await expect(selectInstances(client, { by: 'plant', plantCodes: ['PL-HEID'] })).rejects.toMatchObject({
        classification: 'permission',
      });
    } finally {
      await client.close();
    }
  });
});
