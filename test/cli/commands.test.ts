/**
 * The smaller commands: template (combined, one sheet, with reference data from the service), jobs and resume
 * on an unknown job, sandbox (a real child process: starts, answers with its demo key, stops on SIGINT),
 * `npm run cli`, and how an unexpected error is shown.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeError } from '../../core/cli/shared/errors.js';
import { cli, ROOT, sandbox, spawnCli, tmpDir, type Sandbox } from './helpers.js';
import { readSheet } from './dataset.js';

let sb: Sandbox;
let dir: string;

beforeAll(async () => {
  sb = await sandbox('demo');
  dir = tmpDir();
});
afterAll(async () => {
  await sb.close();
});

describe('template', () => {
  it('all sheets, or one sheet; an unknown sheet is exit 2; no connection needed', async () => {
    const all = await cli(['template', '-o', 'all.xlsx', '--json'], { cwd: dir });
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout).sheets).toContain('bom');
    expect(await readSheet(path.join(dir, 'all.xlsx'), 'supplier-products')).toEqual([]);
    const one = await cli(['template', 'silo-items', '-o', 'silo-items.xlsx'], { cwd: dir });
    expect(one.code).toBe(0);
    const wbSheets = await import('exceljs').then(async ({ default: ExcelJS }) => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(path.join(dir, 'silo-items.xlsx'));
      return wb.worksheets.filter((w) => w.state !== 'hidden').map((w) => w.name);
    });
    expect(wbSheets).toEqual(['Instructions', 'silo-items']);
    const bad = await cli(['template', 'widgets', '-o', 'x.xlsx'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown sheet "widgets"/);
  });

  it('--with-reference-data pre-fills plants, materials and products from the service', async () => {
    const r = await cli(['template', '-o', 'ref.xlsx', '--with-reference-data', '--json'], {
      cwd: dir,
      baseUrl: sb.baseUrl,
      key: sb.ownerKey,
    });
    expect(r.code).toBe(0);
    const cat = (await (await fetch(`${sb.baseUrl}/__sandbox/catalog`)).json()) as {
      plants: { id: string; external_id: string }[];
      products: unknown[];
    };
    const plants = await readSheet(path.join(dir, 'ref.xlsx'), 'plants');
    expect(plants.map((p) => [p.plant_code, p.plant_id]).sort()).toEqual(
      cat.plants.map((p) => [p.external_id, p.id]).sort(),
    );
    const materials = await readSheet(path.join(dir, 'ref.xlsx'), 'materials');
    expect(materials.find((m) => m.material_code === 'MAT-CEM1')).toMatchObject({ category: 'elementary' });
    expect(await readSheet(path.join(dir, 'ref.xlsx'), 'products')).toHaveLength(cat.products.length);
    expect(JSON.parse(r.stdout).reference_data).toEqual({
      plants: plants.length,
      materials: materials.length,
      products: cat.products.length,
      skipped: [],
      notes: [],
    });
  });
});

describe('jobs and resume', () => {
  it('an empty jobs directory lists nothing; resume of an unknown job is exit 2 before connecting', async () => {
    const jobsDir = path.join(dir, 'no-jobs');
    const j = await cli(['jobs', '--json'], { jobsDir });
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({ jobs_dir: jobsDir, jobs: [] });
    const r = await cli(['resume', '20250101-000000-abcdef'], { jobsDir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/there is no job 20250101-000000-abcdef/i);
    const bad = await cli(['resume', '../../etc'], { jobsDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not a job id/);
  });
});

describe('sandbox and the bin', () => {
  it('supply-loader sandbox: starts on the given port, its key works, SIGINT stops it with exit 0', async () => {
    const child = spawnCli(['sandbox', '--port', '0', '--seed', 'empty', '--json']);
    try {
      const until = Date.now() + 30_000;
      while (!child.stdout().includes('\n') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      const info = JSON.parse(child.stdout().split('\n')[0]) as { base_url: string; api_key: string };
      const me = await cli(['me', '--json'], { baseUrl: info.base_url, key: info.api_key });
      expect(me.code).toBe(0);
      expect(JSON.parse(me.stdout).scopes).toContain('edit:materials');
      // The empty seed: the catalog (plants, materials, products) but no product instances (the demo has some).
      const ex = await cli(['export', 'product-instances', '-o', 'pi.xlsx', '--json'], {
        cwd: dir,
        baseUrl: info.base_url,
        key: info.api_key,
      });
      expect(JSON.parse(ex.stdout).sheets).toEqual([{ sheet: 'product-instances', rows: 0 }]);
      child.proc.kill('SIGINT');
      expect((await child.exit).code).toBe(0);
    } finally {
      child.proc.kill('SIGKILL');
    }
  });

  it('npm run cli -- … works from the repository', async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'cli', '--', '--version'], { cwd: ROOT });
    expect(stdout.trim()).toMatch(/^supply-loader \d+\.\d+\.\d+$/);
  });
});

describe('errors', () => {
  it('an unexpected error is a short message with the --debug hint (exit 3); a bad path is a usage error', () => {
    const d = describeError(new TypeError("Cannot read properties of undefined (reading 'x')\n    at somewhere"));
    expect(d).toMatchObject({ exitCode: 3, unexpected: true, hint: 'rerun with --debug for details' });
    expect(d.message).toBe("Unexpected error: Cannot read properties of undefined (reading 'x')");
    const enoent = Object.assign(new Error('ENOENT: no such file or directory, open /x'), { code: 'ENOENT' });
    expect(describeError(enoent)).toMatchObject({ exitCode: 2, unexpected: false });
  });
});
