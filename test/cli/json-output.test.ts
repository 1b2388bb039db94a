/**
 * `--json` means exactly one parseable JSON document on stdout, for EVERY command and
 * subcommand, run as the real bin (bin/supply-loader.cjs, a child process) against the sandbox — successes,
 * refusals (exit 1/2) and errors alike; human messages and warnings go to stderr. Also the documented
 * `npm run --silent cli -- …` form (plain `npm run cli` prints npm's banner on stdout, see docs/cli.md).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../core/cli/commands/index.js';
import { buildDataset } from '../fixtures/dataset.js';
import { idOf, writeTestWorkbook, type Catalog } from '../jobs/helpers.js';
import {
  control,
  ROOT,
  runChild,
  sandbox,
  spawnCli,
  tmpDir,
  type CliEnv,
  type CliRun,
  type Sandbox,
} from './helpers.js';

let sb: Sandbox;
let dir: string;
let env: CliEnv;
let file: string;
let mapFile: string;
const covered = new Set<string>();

beforeAll(async () => {
  sb = await sandbox('demo');
  dir = tmpDir('sl-json-');
  env = {
    baseUrl: sb.baseUrl,
    key: sb.ownerKey,
    jobsDir: path.join(dir, 'jobs'),
    configDir: path.join(dir, 'config'),
    cwd: dir,
  };
  file = await writeTestWorkbook(
    path.join(dir, 'data.xlsx'),
    buildDataset({ companies: 1, products: 2, silos: 1, instances: 2, prechain: 0 }, 'JSON'),
  );
  const cat = await control<Catalog>(sb, 'GET', '/catalog');
  mapFile = await writeTestWorkbook(path.join(dir, 'map.xlsx'), {
    plants: [{ plant_code: 'WERK-J', plant_id: idOf(cat.plants, 'PL-HEID') }],
    materials: [
      { material_code: 'ZEMENT-J', category: 'elementary', material_type_id: idOf(cat.elementaries, 'MAT-CEM1') },
    ],
  });
});
afterAll(async () => {
  await sb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** stdout is one JSON document (and a final newline) and nothing else. */
function oneDocument(run: CliRun, what: string): Record<string, unknown> {
  expect(run.stdout.endsWith('\n'), `${what}: stdout ends with a newline`).toBe(true);
  let doc: unknown;
  try {
    doc = JSON.parse(run.stdout);
  } catch (e) {
    throw new Error(
      `${what}: stdout is not exactly one JSON document (${String(e)}):\n${run.stdout.slice(0, 500)}\nstderr: ${run.stderr.slice(0, 500)}`,
    );
  }
  expect(doc !== null && typeof doc === 'object' && !Array.isArray(doc), `${what}: a JSON object`).toBe(true);
  return doc as Record<string, unknown>;
}

async function json(args: string[], exit: number, o: CliEnv = env): Promise<Record<string, unknown>> {
  covered.add(args[0]);
  const run = await runChild([...args, '--json'], o);
  expect(run.code, `${args.join(' ')} exit code; stderr: ${run.stderr.slice(0, 800)}`).toBe(exit);
  return oneDocument(run, args.join(' '));
}

// Every case starts the bin as a child process (~2–4 s each on a busy machine).
describe('--json: one JSON document on stdout, for every command', { timeout: 300_000 }, () => {
  it('template, validate', async () => {
    expect(await json(['template', 'all', '-o', path.join(dir, 'template.xlsx')], 0)).toBeTypeOf('object');
    expect(
      await json(['template', 'supplier-companies', '-o', path.join(dir, 'tpl-ref.xlsx'), '--with-reference-data'], 0),
    ).toBeTypeOf('object');
    expect(await json(['validate', file], 0)).toMatchObject({ ok: true });
  });

  it('plan, import, jobs, resume, export, lca, me', async () => {
    expect(await json(['plan', file], 0)).toHaveProperty('entries');
    const imported = await json(
      ['import', file, '--report', path.join(dir, 'report.xlsx'), '--failed', path.join(dir, 'failed.xlsx')],
      0,
    );
    expect(imported).toMatchObject({ ok: true, exit_code: 0 });
    const jobId = String(imported.job_id);
    expect(await json(['jobs'], 0)).toMatchObject({ jobs: [expect.objectContaining({ jobId })] });
    expect(await json(['resume', jobId], 0)).toMatchObject({ job_id: jobId });
    expect(await json(['export', 'supplier-companies', '-o', path.join(dir, 'export.xlsx')], 0)).toHaveProperty('file');
    // No LCA computed yet for the new instance: exit 1, still one document.
    expect(await json(['lca', '--instances', 'JSON-PI-00000'], 1)).toHaveProperty('instances');
    expect(await json(['me'], 0)).toBeTypeOf('object');
    expect(await json(['undo', jobId, '--dry-run'], 0)).toMatchObject({ dry_run: true, undoes: jobId });
    expect(await json(['undo', jobId], 0)).toMatchObject({ ok: true, undoes: jobId });
  });

  it('refusals and errors are one document too (bad workbook, blocked plan, unknown file, bad usage)', async () => {
    const bad = await writeTestWorkbook(path.join(dir, 'bad.xlsx'), {
      'supplier-companies': [{ external_id: 'JSON-BAD', name: null }],
    });
    expect(await json(['validate', bad], 2)).toMatchObject({ ok: false });
    expect(await json(['import', bad], 2)).toMatchObject({ ok: false, stage: 'validation' });
    const blocked = await writeTestWorkbook(path.join(dir, 'blocked.xlsx'), {
      'supplier-products': [
        { external_id: 'JSON-SPX', name: 'x', plant_code: 'NOPE', material_code: 'MAT-CEM1', unit: 'KG' },
      ],
    });
    expect(await json(['plan', blocked], 2)).toHaveProperty('entries');
    expect(await json(['import', blocked], 2)).toMatchObject({ ok: false, stage: 'plan' });
    expect(await json(['plan', path.join(dir, 'missing.xlsx')], 2)).toMatchObject({
      ok: false,
      error: expect.anything(),
    });
    expect(await json(['resume', 'not-a-job'], 2)).toMatchObject({ ok: false });
    expect(await json(['undo', 'not-a-job'], 2)).toMatchObject({ ok: false });
    expect(await json(['me'], 3, { ...env, key: 'svc-nope-nope' })).toMatchObject({ ok: false });
  });

  it('profile add / list / mappings save, show, clear / remove', async () => {
    expect(await json(['profile', 'add', 'jp', '--base-url', sb.baseUrl], 0)).toMatchObject({ name: 'jp' });
    const listed = await json(['profile', 'list'], 0);
    expect(JSON.stringify(listed)).not.toContain(sb.ownerKey);
    expect(await json(['profile', 'mappings', 'save', mapFile, '--profile', 'jp'], 0)).toMatchObject({ ok: true });
    expect(await json(['profile', 'mappings', 'show', '--profile', 'jp'], 0)).toMatchObject({ profile: 'jp' });
    expect(await json(['profile', 'mappings', 'clear', '--profile', 'jp'], 0)).toMatchObject({ ok: true });
    expect(await json(['profile', 'remove', 'jp'], 0)).toMatchObject({ removed: 'jp' });
  });

  it('mapping suggest / save / list / show / remove', async () => {
    const csv = path.join(dir, 'firmen.csv');
    fs.writeFileSync(csv, 'external_id;name;country\nJSON-MC-1;Kalkwerk Nord;DE\n');
    const draft = path.join(dir, 'draft.json');
    expect(await json(['mapping', 'suggest', csv, '-o', draft], 0)).toMatchObject({ ok: true });
    expect(await json(['profile', 'add', 'jm', '--base-url', sb.baseUrl, '--no-check'], 0)).toMatchObject({
      name: 'jm',
    });
    const mapFileJson = path.join(dir, 'mapping.json');
    fs.writeFileSync(
      mapFileJson,
      JSON.stringify({ version: 1, name: 'jm-map', sheets: { 'supplier-companies': { source: 'firmen.csv' } } }),
    );
    expect(await json(['mapping', 'save', mapFileJson, '--profile', 'jm'], 0)).toMatchObject({ ok: true });
    expect(await json(['mapping', 'list', '--profile', 'jm'], 0)).toMatchObject({ profile: 'jm' });
    expect(await json(['mapping', 'show', 'jm-map', '--profile', 'jm'], 0)).toBeTypeOf('object');
    expect(await json(['mapping', 'remove', 'jm-map', '--profile', 'jm'], 0)).toMatchObject({ ok: true });
    expect(await json(['mapping', 'show', 'jm-map', '--profile', 'jm'], 2)).toMatchObject({ ok: false });
  });

  it('watch --once over an empty inbox', async () => {
    const w = path.join(dir, 'watch');
    fs.mkdirSync(path.join(w, 'inbox'), { recursive: true });
    expect(await json(['watch', w, '--once'], 0)).toMatchObject({ ok: true, drops: [] });
  });

  it('sandbox --json: one line with the base URL and key, nothing more on stdout after Ctrl+C', async () => {
    covered.add('sandbox');
    const child = spawnCli(['sandbox', '--port', '0', '--json'], { cwd: dir });
    try {
      for (let i = 0; i < 2000 && !child.stdout().includes('\n'); i++) await new Promise((r) => setTimeout(r, 15));
      child.proc.kill('SIGINT');
      const { code } = await child.exit;
      expect(code).toBe(0);
    } finally {
      child.proc.kill('SIGKILL');
    }
    expect(oneDocument({ code: 0, stdout: child.stdout(), stderr: child.stderr() }, 'sandbox')).toHaveProperty(
      'base_url',
    );
  });

  it('covers every command of the CLI', async () => {
    expect([...covered].sort()).toEqual((await loadCommands()).map((c) => c.name).sort());
  });

  it('docs/cli.md and the README show no `npm run cli` form that puts npm’s banner on stdout', () => {
    for (const doc of ['docs/cli.md', 'README.md']) {
      const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
      const code = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
      const commandLines = [...code.split('\n'), ...text.split('\n').filter((l) => l.startsWith('| `'))];
      const banner = commandLines.filter((l) => /^\s*(\| `)?npm run cli\b/.test(l));
      expect(banner, doc).toEqual([]);
      expect(text, doc).toMatch(/npm run --silent cli --/);
    }
  });

  it('the documented `npm run --silent cli -- … --json` gives the document alone on stdout', async () => {
    const run = await new Promise<CliRun>((resolve) => {
      const p = spawn('npm', ['run', '--silent', 'cli', '--', 'plan', file, '--json', '--base-url', sb.baseUrl], {
        cwd: ROOT,
        env: { ...process.env, SUPPLY_LOADER_API_KEY: sb.ownerKey, SUPPLY_LOADER_CONFIG_DIR: path.join(dir, 'config') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    expect(run.code, run.stderr).toBe(0);
    expect(oneDocument(run, 'npm run --silent cli -- plan')).toHaveProperty('entries');
  });
});
