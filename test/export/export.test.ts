/**
 * Collection export through the CLI against the in-process sandbox: export → import round trip
 * plans all unchanged; an edited export plans the diff; a service change after the export is a conflict;
 * codes come from walks (request count bounded, not per row); text never becomes a formula; entities without
 * external_id are left out with a warning.
 */
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../core/api/index.js';
import type { Plan } from '../../core/jobs/types.js';
import {
  apiClient,
  clearRequests,
  cli,
  control,
  isWrite,
  requests,
  sandbox,
  tmpDir,
  type Sandbox,
} from '../cli/helpers.js';
import { buildDataset, editCell, fillWorkbook, normalised, readSheet, serviceState } from '../cli/dataset.js';

let sb: Sandbox;
let client: ApiClient;
let dir: string;
const P = 'EXP';
let data: ReturnType<typeof buildDataset>;

const run = (args: string[]) =>
  cli(args, { baseUrl: sb.baseUrl, key: sb.ownerKey, cwd: dir, jobsDir: path.join(dir, 'jobs') });
const planOf = async (file: string) => {
  const r = await run(['plan', file, '--json']);
  return { code: r.code, plan: JSON.parse(r.stdout) as Plan };
};
const mine = (plan: Plan) => plan.entries.filter((e) => (e.externalId ?? '').startsWith(`${P}-`));

beforeAll(async () => {
  sb = await sandbox('demo');
  client = apiClient(sb);
  dir = tmpDir('sl-export-');
  expect((await run(['template', '-o', 'template.xlsx'])).code).toBe(0);
  data = buildDataset({ prefix: P, products: 8, instances: 4 });
  await fillWorkbook(path.join(dir, 'template.xlsx'), data, path.join(dir, 'in.xlsx'), { lean: true });
  expect((await run(['import', 'in.xlsx'])).code).toBe(0);
  expect(await serviceState(client, P)).toEqual(normalised(data));
});
afterAll(async () => {
  await client.close();
  await sb.close();
});

describe('export → import', () => {
  it('export all: every sheet of the format, codes instead of ids, a hidden _snapshot column; re-import plans all unchanged and writes nothing', async () => {
    const r = await run(['export', 'all', '-o', 'all.xlsx', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.sheets.map((s: { sheet: string }) => s.sheet)).toEqual([
      'products',
      'supplier-companies',
      'supplier-plants',
      'supplier-products',
      'hazardous-substances',
      'silos',
      'silo-items',
      'product-instances',
      'prechain-products',
      'bom',
      'production',
    ]);
    const file = path.join(dir, 'all.xlsx');
    const products = await readSheet(file, 'supplier-products');
    const sp0 = products.find((p) => p.external_id === `${P}-SP-000`)!;
    expect(sp0).toMatchObject({
      plant_code: 'PL-HEID',
      material_code: 'MAT-CEM1',
      supplier_plant_external_id: `${P}-SPL-000`,
      unit: 'T',
      truck_km: 10,
    });
    expect(String(sp0._snapshot)).toMatch(/\S{10,}/);
    const bom = (await readSheet(file, 'bom')).filter((b) => b.product_instance_external_id === `${P}-PI-001`);
    expect(bom.map((b) => `${b.component_type}:${b.component_external_id}:${b.mass_kg}`).sort()).toEqual(
      data
        .bom!.filter((b) => b.product_instance_external_id === `${P}-PI-001`)
        .map((b) => `${b.component_type}:${b.component_external_id}:${b.mass_kg}`)
        .sort(),
    );
    expect(new Set(bom.map((b) => b._snapshot)).size).toBe(1); // one snapshot of the whole BOM
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.getWorksheet('silos')!;
    const snapCol = (ws.getRow(1).values as unknown[]).indexOf('_snapshot');
    expect(snapCol).toBeGreaterThan(0);
    expect(ws.getColumn(snapCol).hidden).toBe(true);
    // explained where it appears: the header cell's note says what it is and what clearing it does
    const note = ws.getRow(1).getCell(snapCol).note;
    expect(typeof note === 'string' ? note : JSON.stringify(note)).toContain('held back as a conflict');

    // The reader keeps the snapshot per row, without calling it an unknown column.
    const v = await run(['validate', 'all.xlsx', '--json']);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout).issues.filter((i: { message: string }) => i.message.includes('_snapshot'))).toEqual([]);

    const { code, plan } = await planOf('all.xlsx');
    expect(code).toBe(0);
    expect(mine(plan).length).toBeGreaterThan(20);
    expect(new Set(plan.entries.map((e) => e.action))).toEqual(new Set(['unchanged']));
    await clearRequests(sb);
    expect((await run(['import', 'all.xlsx'])).code).toBe(0);
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
  });

  it('an edited export shows the diff (before → after) and only that', async () => {
    expect((await run(['export', 'supplier-products', '-o', 'sp.xlsx'])).code).toBe(0);
    await editCell(
      path.join(dir, 'sp.xlsx'),
      'supplier-products',
      (g) => g('external_id') === `${P}-SP-002`,
      'name',
      'Zement, neu',
    );
    await editCell(
      path.join(dir, 'sp.xlsx'),
      'supplier-products',
      (g) => g('external_id') === `${P}-SP-003`,
      'truck_km',
      77,
    );
    const { plan } = await planOf('sp.xlsx');
    const changed = plan.entries.filter((e) => e.action !== 'unchanged');
    expect(changed.map((e) => e.externalId).sort()).toEqual([`${P}-SP-002`, `${P}-SP-003`]);
    expect(changed.find((e) => e.externalId === `${P}-SP-002`)!.changes).toEqual([
      { field: 'name', before: `${P} Sand 2`, after: 'Zement, neu' },
    ]);
    expect(changed.find((e) => e.externalId === `${P}-SP-003`)!.changes).toEqual([
      expect.objectContaining({ field: expect.stringMatching(/truck_km/), before: 13, after: 77 }),
    ]);
    expect(changed.every((e) => e.action === 'update')).toBe(true);
  });

  it('a change on the service after the export makes that row a conflict (blocked), not a silent diff', async () => {
    expect((await run(['export', 'silos', '-o', 'silos.xlsx'])).code).toBe(0);
    expect((await run(['export', 'bom', '-o', 'bom.xlsx'])).code).toBe(0);
    const silo = (await client.silos.findByExternalId(`${P}-SI-000`))!;
    await client.silos.update(silo.id, { name: 'Renamed on the service' });
    const inst = (await client.productInstances.findByExternalId(`${P}-PI-000`))!;
    const comps = await client.bom.get(inst.id);
    await client.bom.put(
      inst.id,
      comps.map((c, i) => ({ type: c.type as 'silo', ref: c.ref, mass_kg: i === 0 ? c.mass_kg + 1 : c.mass_kg })),
    );

    const s = await planOf('silos.xlsx');
    expect(s.code).toBe(2);
    const conflicts = s.plan.entries.filter((e) => e.action === 'conflict');
    expect(conflicts.map((e) => e.externalId)).toEqual([`${P}-SI-000`]);
    expect(conflicts[0].problems?.[0]).toMatchObject({ kind: 'conflict', field: '_snapshot' });
    expect(s.plan.entries.filter((e) => e.externalId !== `${P}-SI-000`).every((e) => e.action === 'unchanged')).toBe(
      true,
    );

    const b = await planOf('bom.xlsx');
    expect(b.plan.entries.filter((e) => e.action === 'conflict').map((e) => e.externalId)).toEqual([`${P}-PI-000`]);

    await clearRequests(sb);
    const r = await run(['import', 'silos.xlsx']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/conflict/);
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
    expect((await client.silos.get(silo.id)).name).toBe('Renamed on the service');
  });
});

describe('export details', () => {
  it('codes come from one walk per referenced collection: requests do not grow with the rows', async () => {
    await control(sb, 'POST', '/bulk/supplier-products', {
      count: 450,
      external_id_prefix: 'BULK-',
      with_supplier_plant: true,
    });
    await clearRequests(sb);
    const r = await run(['export', 'supplier-products', '-o', 'bulk.xlsx', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const rows = out.sheets.find((s: { sheet: string }) => s.sheet === 'supplier-products').rows;
    expect(rows).toBeGreaterThanOrEqual(458);
    const log = (await requests(sb)).filter((q) => q.path.startsWith('/v2/'));
    // me + ⌈rows/200⌉ supplier-product pages + one walk each of plants, elementaries, composites, supplier plants
    expect(log.length).toBeLessThanOrEqual(1 + Math.ceil(rows / 200) + 1 + 4 + 4);
    expect(log.every((q) => q.method === 'GET' && !/\/v2\/[a-z-]+\/[0-9a-f-]{36}/.test(q.path))).toBe(true);
    expect(out.requests).toBe(log.length - 1); // the export's own count (without /v2/me)
  });

  it('server text that looks like a formula is written as text; entities without external_id are left out with a warning', async () => {
    const names = ['=HYPERLINK("http://x","y")', '+49 621 000', '-minus', '@SUM(A1)'];
    for (const [i, name] of names.entries())
      await client.supplierCompanies.create({ external_id: `${P}-F-${i}`, name });
    await client.supplierCompanies.create({ name: 'No code GmbH' });
    let withoutCode = 0;
    for await (const c of client.supplierCompanies.walk()) if (!c.external_id) withoutCode++;
    expect(withoutCode).toBeGreaterThanOrEqual(1);
    const r = await run(['export', 'supplier-companies', '-o', 'companies.xlsx']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${withoutCode} supplier companies without external_id left out`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(dir, 'companies.xlsx'));
    const ws = wb.getWorksheet('supplier-companies')!;
    const seen: string[] = [];
    ws.eachRow((row, n) => {
      if (n === 1) return;
      const c = row.getCell(2);
      if (String(row.getCell(1).value).startsWith(`${P}-F-`)) {
        expect(c.type).toBe(ExcelJS.ValueType.String);
        expect(c.formula).toBeUndefined();
        seen.push(String(c.value));
      }
      expect(row.getCell(2).value).not.toBe('No code GmbH');
    });
    expect(seen.sort()).toEqual([...names].sort());
  });

  it('usage errors: unknown collection, missing -o, a non-.xlsx output — exit 2, nothing sent', async () => {
    await clearRequests(sb);
    for (const args of [
      ['export', 'widgets', '-o', 'x.xlsx'],
      ['export', 'silos'],
      ['export', 'silos', '-o', 'x.csv'],
      ['export', 'silos', '-o', 'no/such/dir/x.xlsx'],
    ]) {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/^supply-loader: /);
    }
    expect(await requests(sb)).toEqual([]);
  });
});
