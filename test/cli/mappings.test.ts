/**
 * Mapping memory: a plant or material code the workbook does not map is looked up in the profile's
 * saved mappings, then on the service. Against the in-process sandbox, through the CLI with a saved profile:
 * `profile mappings save/show/clear`, plan blocked at the cell without the mapping, import with it, the
 * workbook's own mapping sheet winning over the profile's, and a bad id in a mapping sheet refused.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestWorkbook, idOf, type Catalog } from '../jobs/helpers.js';
import { all, apiClient, cli, control, sandbox, tmpDir, type Sandbox } from './helpers.js';

let sb: Sandbox;
let dir: string;
let configDir: string;
let cat: Catalog;

// Codes the sandbox does not know: its plants are PL-…, its elementaries MAT-….
const PLANT = 'WERK-7';
const MATERIAL = 'ZEMENT-1';

const run = (args: string[]) => cli(args, { cwd: dir, configDir, jobsDir: path.join(dir, 'jobs') });

function productRow(externalId: string) {
  return {
    external_id: externalId,
    name: `Zement ${externalId}`,
    plant_code: PLANT,
    material_code: MATERIAL,
    unit: 'KG',
  };
}

beforeAll(async () => {
  sb = await sandbox('demo');
  dir = tmpDir('sl-mappings-');
  configDir = path.join(dir, 'config');
  cat = await control<Catalog>(sb, 'GET', '/catalog');
  expect(cat.plants.some((p) => p.external_id === PLANT)).toBe(false);
  expect(cat.elementaries.some((e) => e.external_id === MATERIAL)).toBe(false);
  const added = await cli(['profile', 'add', 'werk', '--base-url', sb.baseUrl], {
    cwd: dir,
    configDir,
    key: sb.ownerKey,
  });
  expect(added.code, added.stderr).toBe(0);
});
afterAll(async () => {
  await sb.close();
});

describe('profile mappings', () => {
  it('without a mapping the code is blocked at its cell; with the profile’s mapping it imports', async () => {
    const wb = await writeTestWorkbook(path.join(dir, 'products.xlsx'), { 'supplier-products': [productRow('SP-M1')] });

    const blocked = await run(['plan', wb, '--profile', 'werk', '--json']);
    expect(blocked.code).toBe(2);
    const entry = JSON.parse(blocked.stdout).entries.find((e: { externalId: string }) => e.externalId === 'SP-M1');
    expect(entry.action).toBe('blocked');
    const cells = entry.problems.map((p: { cell?: string; message: string }) => `${p.cell} ${p.message}`).join('\n');
    expect(cells).toMatch(/C2 .*plant code "WERK-7"/);
    expect(cells).toMatch(/D2 .*material code "ZEMENT-1"/);

    const mapWb = await writeTestWorkbook(path.join(dir, 'map.xlsx'), {
      plants: [{ plant_code: PLANT, plant_id: idOf(cat.plants, 'PL-HEID') }],
      materials: [
        { material_code: MATERIAL, category: 'elementary', material_type_id: idOf(cat.elementaries, 'MAT-CEM1') },
      ],
    });
    const saved = await run(['profile', 'mappings', 'save', mapWb, '--profile', 'werk', '--json']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(JSON.parse(saved.stdout)).toMatchObject({ ok: true, added: 2, changed: 0, plants: 1, materials: 1 });

    const planned = await run(['plan', wb, '--profile', 'werk', '--json']);
    expect(planned.code, planned.stdout).toBe(0);
    const create = JSON.parse(planned.stdout).entries.find((e: { externalId: string }) => e.externalId === 'SP-M1');
    expect(create.action).toBe('create');

    const imported = await run(['import', wb, '--profile', 'werk']);
    expect(imported.code, imported.stderr).toBe(0);
    const client = apiClient(sb);
    try {
      const sp = (await all(client.supplierProducts.walk())).find((p) => p.external_id === 'SP-M1');
      expect(sp?.plant_id).toBe(idOf(cat.plants, 'PL-HEID'));
      expect(sp?.material_type).toMatchObject({
        category: 'elementary',
        elementary_id: idOf(cat.elementaries, 'MAT-CEM1'),
      });
    } finally {
      await client.close();
    }
  });

  it('a mapping in the workbook wins over the profile’s', async () => {
    const other = cat.plants.find((p) => p.external_id !== 'PL-HEID')!;
    const wb = await writeTestWorkbook(path.join(dir, 'override.xlsx'), {
      plants: [{ plant_code: PLANT, plant_id: other.id }],
      'supplier-products': [productRow('SP-M2')],
    });
    const imported = await run(['import', wb, '--profile', 'werk']);
    expect(imported.code, imported.stderr).toBe(0);
    const client = apiClient(sb);
    try {
      const sp = (await all(client.supplierProducts.walk())).find((p) => p.external_id === 'SP-M2');
      expect(sp?.plant_id).toBe(other.id);
      // the material came from the profile
      expect(sp?.material_type).toMatchObject({ elementary_id: idOf(cat.elementaries, 'MAT-CEM1') });
    } finally {
      await client.close();
    }
  });

  it('show, save again (merge), clear: a round trip', async () => {
    const shown = await run(['profile', 'mappings', 'show', '--profile', 'werk', '--json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({
      profile: 'werk',
      plants: { [PLANT]: idOf(cat.plants, 'PL-HEID') },
      materials: { [MATERIAL]: { category: 'elementary', id: idOf(cat.elementaries, 'MAT-CEM1') } },
    });
    const text = await run(['profile', 'mappings', 'show', '--profile', 'werk']);
    expect(text.stdout).toContain(`plant\t${PLANT}\t${idOf(cat.plants, 'PL-HEID')}`);

    // Saving again merges: a changed id replaces the saved one, a new code is added, the others stay.
    const composite = cat.composites[0];
    const more = await writeTestWorkbook(path.join(dir, 'map2.xlsx'), {
      plants: [{ plant_code: PLANT, plant_id: idOf(cat.plants, 'PL-MUC') }, { plant_code: 'WERK-9' }],
      materials: [{ material_code: 'MIX-1', category: 'composite', material_type_id: composite.id }],
    });
    const merged = await run(['profile', 'mappings', 'save', more, '--profile', 'werk', '--json']);
    expect(merged.code, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({ added: 1, changed: 1, without_id: 1, plants: 1, materials: 2 });
    const after = JSON.parse((await run(['profile', 'mappings', 'show', '--profile', 'werk', '--json'])).stdout);
    expect(after.plants).toEqual({ [PLANT]: idOf(cat.plants, 'PL-MUC') });
    expect(Object.keys(after.materials).sort()).toEqual(['MIX-1', MATERIAL]);

    // Without --profile: the only saved profile.
    const cleared = await run(['profile', 'mappings', 'clear']);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('1 plant(s), 2 material(s)');
    const empty = await run(['profile', 'mappings', 'show', '--profile', 'werk']);
    expect(empty.stdout).toContain('has no saved mappings');

    // Cleared: the code is blocked again.
    const wb = await writeTestWorkbook(path.join(dir, 'again.xlsx'), { 'supplier-products': [productRow('SP-M3')] });
    expect((await run(['plan', wb, '--profile', 'werk'])).code).toBe(2);
  });

  it('a bad id or category in a mapping sheet is refused at its cell and nothing is saved', async () => {
    const bad = await writeTestWorkbook(path.join(dir, 'bad.xlsx'), {
      plants: [{ plant_code: PLANT, plant_id: 'not-an-id' }],
      materials: [
        { material_code: 'OK-1', category: 'elementary', material_type_id: idOf(cat.elementaries, 'MAT-CEM1') },
        { material_code: 'BAD-2', category: 'mineral', material_type_id: idOf(cat.elementaries, 'MAT-CEM1') },
      ],
    });
    const r = await run(['profile', 'mappings', 'save', bad, '--profile', 'werk']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/plants!B2 \(plant_id\): .*expected a service id/);
    expect(r.stderr).toMatch(/materials!B3 \(category\): .*elementary, composite/);
    expect(r.stderr).toMatch(/Nothing was saved/);
    const shown = JSON.parse((await run(['profile', 'mappings', 'show', '--profile', 'werk', '--json'])).stdout);
    expect(shown).toMatchObject({ plants: {}, materials: {} });

    const unknown = await run(['profile', 'mappings', 'save', bad, '--profile', 'nobody']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no saved profile "nobody"/);
  });
});
