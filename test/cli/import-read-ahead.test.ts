/**
 * `import` reads the service as `plan` does: the walks of the collections the fed sheets ask codes of, the plant
 * and material-type catalogs among them, start before the rows are read and run while they are read and validated
 * (cli/shared/workbook.ts loadForPlan). No timing: when reading and validating returned, had the walk of supplier
 * products been asked for, and were the catalogs read after it? A re-sync imported this way writes nothing, and a
 * workbook with errors is still refused with nothing written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildDataset } from '../fixtures/dataset.js';
import { heldWalk } from '../fixtures/held-walk.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { clearRequests, cli, isWrite, requests, sandbox, tmpDir, type Sandbox } from './helpers.js';

vi.mock('../../core/api/index.js', async (original) =>
  (await import('../fixtures/held-walk.js')).withWatchedWalks(await original()),
);
vi.mock('../../core/app/validate.js', async (original) =>
  (await import('../fixtures/held-walk.js')).withWatchedRead(await original()),
);

let sb: Sandbox;
let dir: string;
let file: string;
beforeAll(async () => {
  sb = await sandbox('demo');
  dir = tmpDir('sl-import-ahead-');
  file = path.join(dir, 'resync.xlsx');
  // Every sheet, 450 supplier products (3 pages of 200); the sheets declare their sizes, as Excel writes them.
  await writeDataWorkbook(
    file,
    buildDataset({ companies: 30, products: 450, silos: 12, instances: 9, prechain: 4 }, 'IA'),
  );
  const first = await cli(['import', file, '--concurrency', '16'], {
    baseUrl: sb.baseUrl,
    key: sb.ownerKey,
    jobsDir: path.join(dir, 'jobs'),
  });
  expect(first.code, first.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await sb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('import walks the service while the workbook is read', () => {
  it('the walks of supplier products and of the catalogs were asked for before reading and validating returned; a re-sync writes nothing', async () => {
    heldWalk.reset();
    await clearRequests(sb);
    const r = await cli(['import', file, '--concurrency', '8', '--json'], {
      baseUrl: sb.baseUrl,
      key: sb.ownerKey,
      jobsDir: path.join(dir, 'jobs'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(heldWalk.walkedWhenRead.map((n) => n > 0)).toEqual([true]);
    const log = await requests(sb);
    expect(log.filter(isWrite)).toEqual([]);
    // one walk of 3 pages, not one lookup per row, and not walked a second time after the read
    expect(log.filter((q) => q.path === '/v2/supplier-products').length).toBeLessThanOrEqual(3);
    // the plant and elementary catalogs walked beside the read too, and not asked again after it (every material
    // code is an elementary: no composite is asked)
    expect(heldWalk.catalogReads.sort((a, b) => a.read.localeCompare(b.read))).toEqual([
      { read: 'elementaries.walk', afterRead: false },
      { read: 'plants.walk', afterRead: false },
    ]);
    expect(log.filter((q) => q.path === '/v2/plants' || q.path === '/v2/elementaries').length).toBe(2);
  }, 120_000);

  it('a workbook with errors: read beside the walks, refused with nothing written', async () => {
    const bad = path.join(dir, 'bad.xlsx');
    const data = buildDataset({ companies: 30, products: 450, silos: 12, instances: 9, prechain: 4 }, 'IA');
    data['supplier-products']![3].name = '';
    await writeDataWorkbook(bad, data);
    heldWalk.reset();
    await clearRequests(sb);
    const r = await cli(['import', bad, '--json'], {
      baseUrl: sb.baseUrl,
      key: sb.ownerKey,
      jobsDir: path.join(dir, 'jobs'),
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, stage: 'validation' });
    expect(heldWalk.walkedWhenRead.map((n) => n > 0)).toEqual([true]);
    expect((await requests(sb)).filter(isWrite)).toEqual([]);
  }, 120_000);
});
