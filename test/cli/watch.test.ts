/**
 * `supply-loader watch` against the in-process sandbox: `--once` over an inbox with a good drop, a
 * bad drop and files still being written (the .ready marker and the stability rule); a watcher killed with
 * SIGKILL mid-import and restarted resumes its job with no duplicate; one watcher per folder (the lock).
 * Timings are made small through the SUPPLY_LOADER_WATCH_* variables.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../core/api/index.js';
import {
  apiClient,
  clearRequests,
  cli,
  control,
  requests,
  sandbox,
  spawnCli,
  tmpDir,
  type CliEnv,
  type Sandbox,
} from './helpers.js';
import {
  buildDataset,
  fillWorkbook,
  normalised,
  readSheet,
  serviceState,
  withCell,
  type SheetData,
} from './dataset.js';

let sb: Sandbox;
let client: ApiClient;
let dir: string;
let template: string;

beforeAll(async () => {
  sb = await sandbox('demo');
  client = apiClient(sb);
  dir = tmpDir('sl-watch-');
  expect((await cli(['template', '-o', 'template.xlsx'], { cwd: dir })).code).toBe(0);
  template = path.join(dir, 'template.xlsx');
});
afterAll(async () => {
  await client.close();
  await sb.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Timing {
  stable: number;
  poll?: number;
  onceWait?: number;
}
const timingEnv = (t: Timing): NodeJS.ProcessEnv => ({
  SUPPLY_LOADER_WATCH_STABLE_MS: String(t.stable),
  SUPPLY_LOADER_WATCH_POLL_MS: String(t.poll ?? 20),
  SUPPLY_LOADER_WATCH_ONCE_WAIT_MS: String(t.onceWait ?? 10_000),
});

function env(watchDir: string, t: Timing): CliEnv {
  return { baseUrl: sb.baseUrl, key: sb.ownerKey, jobsDir: path.join(watchDir, 'jobs'), env: timingEnv(t) };
}

/** A new watch folder with an inbox. */
function watchDir(name: string): string {
  const d = path.join(dir, name);
  fs.mkdirSync(path.join(d, 'inbox'), { recursive: true });
  return d;
}

async function workbook(data: SheetData, file: string): Promise<string> {
  await fillWorkbook(template, data, file, { lean: true });
  return file;
}

interface DropJson {
  drop: string;
  files: string[];
  outcome: 'done' | 'failed' | 'interrupted';
  exit_code: number;
  job_id: string | null;
  resumed: boolean;
  counts: Record<string, number> | null;
  folder: string;
  outputs: string[];
}
interface WatchJson {
  ok: boolean;
  exit_code: number;
  drops: DropJson[];
  not_taken: string[];
}

const dropOf = (out: WatchJson, file: string): DropJson => {
  const found = out.drops.filter((d) => d.files.includes(file));
  expect(found).toHaveLength(1);
  return found[0];
};

describe('watch --once', () => {
  it('a good drop goes to done/, a bad one (validation error) and a .csv of no known sheet to failed/ with their messages; exit 2', async () => {
    const w = watchDir('mixed');
    const data = buildDataset({ prefix: 'WGOOD', products: 4, instances: 2 });
    await workbook(data, path.join(w, 'inbox', 'good.xlsx'));
    const bad = buildDataset({ prefix: 'WBAD', products: 4, instances: 2 });
    await workbook(
      withCell(bad, 'bom', (r) => r.product_instance_external_id === 'WBAD-PI-000' && r.mass_kg === 300, 'mass_kg', -5),
      path.join(w, 'inbox', 'bad.xlsx'),
    );
    fs.writeFileSync(path.join(w, 'inbox', 'erp.csv'), 'external_id,name\nX-1,Something\n');
    // Already complete: a marker makes these three be taken without waiting for the stable time.
    for (const f of ['good.xlsx', 'bad.xlsx', 'erp.csv']) fs.writeFileSync(path.join(w, 'inbox', `${f}.ready`), '');

    await clearRequests(sb);
    const r = await cli(['watch', w, '--once', '--json'], env(w, { stable: 60_000, onceWait: 200 }));
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as WatchJson;
    expect(out.exit_code).toBe(2);
    expect(out.drops).toHaveLength(3);

    // The good drop: imported, in done/<stamp>/ with its results and failed-rows workbooks and its marker.
    const good = dropOf(out, 'good.xlsx');
    expect(good).toMatchObject({ outcome: 'done', exit_code: 0, resumed: false });
    expect(good.job_id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(path.dirname(good.folder)).toBe(path.join(w, 'done'));
    expect(fs.readdirSync(good.folder)).toEqual(
      expect.arrayContaining(['good.messages.txt', 'good.results.xlsx', 'good.xlsx', 'good.xlsx.ready']),
    );
    expect(good.outputs).toContain(path.join(good.folder, 'good.results.xlsx'));
    expect(good.counts?.created).toBeGreaterThan(0);
    // The messages name the outputs where they are now, not in the watcher's work folder.
    const goodMessages = fs.readFileSync(path.join(good.folder, 'good.messages.txt'), 'utf8');
    expect(goodMessages).toContain(`results workbook: ${path.join(good.folder, 'good.results.xlsx')}`);
    expect(goodMessages).not.toContain('.supply-loader-watch');
    expect(goodMessages).toContain(`svc-${sb.ownerKey.split('-')[1]}-****`); // the key only masked
    expect(goodMessages).not.toContain(sb.ownerKey.split('-').slice(2).join('-'));
    const results = await readSheet(path.join(good.folder, 'good.results.xlsx'), 'supplier-companies');
    expect(results.map((x) => x._result)).toEqual(results.map(() => 'created'));
    expect(await serviceState(client, 'WGOOD')).toEqual(normalised(data));

    // The bad drop: nothing sent, in failed/<stamp>/ with the cell of the error in its messages file.
    const badDrop = dropOf(out, 'bad.xlsx');
    expect(badDrop).toMatchObject({ outcome: 'failed', exit_code: 2, job_id: null });
    expect(path.dirname(badDrop.folder)).toBe(path.join(w, 'failed'));
    expect(fs.existsSync(path.join(badDrop.folder, 'bad.xlsx'))).toBe(true);
    expect(fs.existsSync(path.join(badDrop.folder, 'bad.xlsx.ready'))).toBe(true);
    const badMessages = fs.readFileSync(path.join(badDrop.folder, 'bad.messages.txt'), 'utf8');
    expect(badMessages).toMatch(/bom!D\d+ \(mass_kg\)/);
    expect(badMessages).toMatch(/Nothing was sent/);
    expect((await serviceState(client, 'WBAD'))['supplier-companies']).toEqual([]);

    // The .csv named after no sheet: not ignored — failed/ with a message saying why.
    const csv = dropOf(out, 'erp.csv');
    expect(csv).toMatchObject({ outcome: 'failed', exit_code: 2, job_id: null });
    expect(fs.readFileSync(path.join(csv.folder, 'erp.messages.txt'), 'utf8')).toMatch(/erp\.csv/);
    expect(fs.readFileSync(path.join(csv.folder, 'erp.messages.txt'), 'utf8')).toMatch(/Nothing was sent/);

    expect(fs.readdirSync(path.join(w, 'inbox'))).toEqual([]);
    // Only the good drop wrote anything.
    const writes = (await requests(sb)).filter((q) => q.method !== 'GET');
    expect(writes.length).toBeGreaterThan(0);
    expect(r.stdout).not.toContain(sb.ownerKey.split('-').slice(2).join('-'));
  });

  it('a file still being written is not taken; one with a .ready marker is taken at once (the marker moves with it)', async () => {
    const w = watchDir('partial');
    await workbook(buildDataset({ prefix: 'WMARK', products: 4, instances: 2 }), path.join(w, 'inbox', 'marked.xlsx'));
    fs.writeFileSync(path.join(w, 'inbox', 'marked.xlsx.ready'), '');
    // A file that keeps growing for the whole run (a slow copy): never stable, so never taken.
    const growing = path.join(w, 'inbox', 'growing.xlsx');
    fs.writeFileSync(growing, 'PK');
    const timer = setInterval(() => fs.appendFileSync(growing, 'x'), 30);
    let r;
    try {
      r = await cli(['watch', w, '--once', '--json'], env(w, { stable: 1000, onceWait: 1500 }));
    } finally {
      clearInterval(timer);
    }
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as WatchJson;
    expect(out.drops.map((d) => d.files)).toEqual([['marked.xlsx', 'marked.xlsx.ready']]);
    expect(out.drops[0]).toMatchObject({ outcome: 'done', exit_code: 0 });
    expect(fs.existsSync(path.join(out.drops[0].folder, 'marked.xlsx.ready'))).toBe(true);
    expect(out.not_taken).toEqual(['growing.xlsx']);
    expect(r.stderr).toMatch(/not taken \(still being written after the wait\): growing\.xlsx/);
    expect(fs.readdirSync(path.join(w, 'inbox'))).toEqual(['growing.xlsx']);
    expect(fs.readdirSync(path.join(w, 'failed'))).toEqual([]);
  });

  it('a file written in parts is taken once its size and mtime have stayed unchanged for the stable time', async () => {
    const w = watchDir('settle');
    const data = buildDataset({ prefix: 'WSETL', products: 4, instances: 2 });
    const full = await workbook(data, path.join(dir, 'settle-source.xlsx'));
    const bytes = fs.readFileSync(full);
    const target = path.join(w, 'inbox', 'slow.xlsx');
    // The first half now, the rest in pieces: a workbook taken before the end would be unreadable (→ failed/).
    const half = Math.floor(bytes.length / 2);
    fs.writeFileSync(target, bytes.subarray(0, half));
    const writer = (async () => {
      const step = Math.ceil((bytes.length - half) / 4);
      for (let at = half; at < bytes.length; at += step) {
        await sleep(100);
        fs.appendFileSync(target, bytes.subarray(at, Math.min(at + step, bytes.length)));
      }
    })();
    const r = await cli(['watch', w, '--once', '--json'], env(w, { stable: 1000, onceWait: 20_000 }));
    await writer;
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as WatchJson;
    expect(out.drops).toHaveLength(1);
    expect(out.drops[0]).toMatchObject({ files: ['slow.xlsx'], outcome: 'done', exit_code: 0 });
    expect(fs.readFileSync(path.join(out.drops[0].folder, 'slow.xlsx')).equals(bytes)).toBe(true);
    expect(out.not_taken).toEqual([]);
    expect(await serviceState(client, 'WSETL')).toEqual(normalised(data));
  });

  it('--profile NAME: a scheduled run with a saved profile (no key in the environment) imports the drop', async () => {
    const configDir = tmpDir('sl-watch-config-');
    const add = await cli(['profile', 'add', 'erp', '--base-url', sb.baseUrl], { key: sb.ownerKey, configDir });
    expect(add.code).toBe(0);
    const w = watchDir('profile');
    const data = buildDataset({ prefix: 'WPROF', products: 4, instances: 2 });
    await workbook(data, path.join(w, 'inbox', 'nightly.xlsx'));
    const r = await cli(['watch', w, '--once', '--profile', 'erp'], {
      configDir,
      jobsDir: path.join(w, 'jobs'),
      env: timingEnv({ stable: 50, onceWait: 5_000 }),
    });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/drop \S+ done: .*done.* — exit 0, job \d{8}-\d{6}-[0-9a-f]{6}/);
    expect(await serviceState(client, 'WPROF')).toEqual(normalised(data));
  });

  it('CSV drops: a template-named CSV alone, and with --mapping the files matching its sources as one drop, each with <name>.results.csv', async () => {
    const w = watchDir('csv');
    fs.writeFileSync(
      path.join(w, 'inbox', 'supplier-companies.csv'),
      'external_id;name;country\nWCSV-C1;Kalkwerk Süd;DE\n',
    );
    fs.writeFileSync(path.join(w, 'inbox', 'supplier-companies.csv.ready'), '');
    const first = await cli(['watch', w, '--once', '--json'], env(w, { stable: 60_000, onceWait: 200 }));
    expect(first.code, first.stderr).toBe(0);
    const one = dropOf(JSON.parse(first.stdout) as WatchJson, 'supplier-companies.csv');
    expect(one).toMatchObject({ outcome: 'done', exit_code: 0 });
    expect(fs.readdirSync(one.folder)).toContain('supplier-companies.results.csv');
    expect(fs.readFileSync(path.join(one.folder, 'supplier-companies.results.csv'), 'utf8')).toMatch(
      /_result.*\n.*WCSV-C1.*created/s,
    );

    // An ERP pair (companies and their plants, own headers) mapped and grouped by the mapping's sources.
    const mapping = path.join(w, 'erp-mapping.json');
    fs.writeFileSync(
      mapping,
      JSON.stringify({
        version: 1,
        name: 'ERP pair',
        sheets: {
          'supplier-companies': { source: 'firmen_*.csv', columns: { Nr: 'external_id', Bezeichnung: 'name' } },
          'supplier-plants': {
            source: 'werke_*.csv',
            columns: { Werk: 'external_id', Name: 'name', Firma: 'supplier_company_external_id' },
          },
        },
      }),
    );
    fs.writeFileSync(path.join(w, 'inbox', 'firmen_11.csv'), 'Nr;Bezeichnung\nWCSV-C2;Sandgrube West\n');
    fs.writeFileSync(path.join(w, 'inbox', 'werke_11.csv'), 'Werk;Name;Firma\nWCSV-P2;Grube 1;WCSV-C2\n');
    for (const f of ['firmen_11.csv', 'werke_11.csv']) fs.writeFileSync(path.join(w, 'inbox', `${f}.ready`), '');
    const r = await cli(
      ['watch', w, '--once', '--json', '--mapping', mapping],
      env(w, { stable: 60_000, onceWait: 200 }),
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as WatchJson;
    expect(out.drops).toHaveLength(1);
    expect(
      out.drops[0].files
        .map((f) => path.basename(f))
        .filter((f) => !f.endsWith('.ready'))
        .sort(),
    ).toEqual(['firmen_11.csv', 'werke_11.csv']);
    expect(fs.readdirSync(out.drops[0].folder)).toEqual(
      expect.arrayContaining(['firmen_11.results.csv', 'werke_11.results.csv']),
    );
    const plants = await client.supplierPlants.findByExternalId('WCSV-P2');
    const company = await client.supplierCompanies.findByExternalId('WCSV-C2');
    expect(plants?.supplier_company_id).toBe(company?.id);
  });

  it('an empty inbox: nothing to do, exit 0; an unknown --mapping is refused (exit 2)', async () => {
    const w = watchDir('empty');
    const r = await cli(['watch', w, '--once'], env(w, { stable: 50, onceWait: 100 }));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no drop in/);
    const m = await cli(['watch', w, '--once', '--mapping', 'erp'], env(w, { stable: 50 }));
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/no mapping file or saved mapping "erp"|no saved profile/);
    const missing = await cli(['watch', path.join(w, 'nope'), '--once'], env(w, { stable: 50 }));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does not exist/);
  });
});

/** Outcome lines in the journal of the one job under jobsDir. */
function journalOutcomes(jobsDir: string): { jobId: string | null; outcomes: number } {
  if (!fs.existsSync(jobsDir)) return { jobId: null, outcomes: 0 };
  const [jobId] = fs.readdirSync(jobsDir);
  if (!jobId) return { jobId: null, outcomes: 0 };
  const file = path.join(jobsDir, jobId, 'journal.jsonl');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  return { jobId, outcomes: (text.match(/"t":"outcome"/g) ?? []).length };
}

/** Every file under a folder (recursively), as paths. */
function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(root, f))
    .filter((f) => {
      try {
        return fs.statSync(f).isFile();
      } catch {
        return false; // gone meanwhile
      }
    });
}

async function until<T>(what: string, f: () => T | undefined | null | false, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const v = f();
    if (v) return v;
    await sleep(15);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('watch: interrupted and concurrent watchers', () => {
  it('a watcher killed (SIGKILL) mid-import and restarted resumes the same job: exact state, no duplicate create', async () => {
    const w = watchDir('kill');
    const jobsDir = path.join(w, 'jobs');
    const data = buildDataset({ prefix: 'WKILL', products: 40, instances: 6 });
    await workbook(data, path.join(w, 'inbox', 'big.xlsx'));
    fs.writeFileSync(path.join(w, 'inbox', 'big.xlsx.ready'), '');
    await clearRequests(sb);
    await control(sb, 'PUT', '/faults', { latency_ms: 30, jitter_ms: 10, seed: 7 });
    const child = spawnCli(['watch', w, '--concurrency', '2'], env(w, { stable: 60_000 }));
    let jobId: string;
    try {
      jobId = await until('20 outcomes', () => {
        const j = journalOutcomes(jobsDir);
        return j.outcomes >= 20 && j.jobId;
      });
    } finally {
      child.proc.kill('SIGKILL');
      await control(sb, 'PUT', '/faults', { latency_ms: 0, jitter_ms: 0 });
    }
    expect((await child.exit).signal).toBe('SIGKILL');

    // Killed midway: the drop is in the watcher's work folder and its state names the job.
    const state = JSON.parse(fs.readFileSync(path.join(w, '.supply-loader-watch', 'state.json'), 'utf8'));
    expect(state.drops).toHaveLength(1);
    expect(state.drops[0].jobId).toBe(jobId);
    expect(fs.readdirSync(path.join(w, 'inbox'))).toEqual([]);
    expect((await serviceState(client, 'WKILL')).bom).toEqual([]);

    // Restarted (the lock of the killed pid is stale and taken over): the job is resumed, not started again.
    const r = await cli(['watch', w, '--once', '--json'], env(w, { stable: 60_000, onceWait: 100 }));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/took over the lock of a watcher that is gone \(pid \d+\)/);
    const out = JSON.parse(r.stdout) as WatchJson;
    expect(out.drops).toHaveLength(1);
    expect(out.drops[0]).toMatchObject({ job_id: jobId, resumed: true, outcome: 'done', exit_code: 0 });
    expect(fs.readdirSync(jobsDir)).toEqual([jobId]);
    expect(fs.readdirSync(out.drops[0].folder)).toEqual(
      expect.arrayContaining(['big.xlsx', 'big.xlsx.ready', 'big.results.xlsx', 'big.messages.txt']),
    );
    expect(JSON.parse(fs.readFileSync(path.join(w, '.supply-loader-watch', 'state.json'), 'utf8')).drops).toEqual([]);

    expect(await serviceState(client, 'WKILL')).toEqual(normalised(data));
    // Every entity was created exactly once (a replayed create answers 200, not 201).
    const creates = (await requests(sb)).filter((q) => q.method === 'POST' && q.status === 201);
    const expected = (
      [
        'supplier-companies',
        'supplier-plants',
        'supplier-products',
        'silos',
        'product-instances',
        'prechain-products',
      ] as const
    ).reduce((n, s) => n + (data[s]?.length ?? 0), 0);
    expect(creates).toHaveLength(expected);
  });

  it('a watcher killed (SIGKILL) while it writes the results workbook leaves no partial or temporary file in done/; the restart writes it whole', async () => {
    const w = watchDir('kill-write');
    const jobsDir = path.join(w, 'jobs');
    const stateDir = path.join(w, '.supply-loader-watch');
    const data = buildDataset({ prefix: 'WKWR', products: 24, instances: 4 });
    await workbook(data, path.join(w, 'inbox', 'part.xlsx'));
    fs.writeFileSync(path.join(w, 'inbox', 'part.xlsx.ready'), '');
    await control(sb, 'PUT', '/faults', { latency_ms: 30, jitter_ms: 10, seed: 11 });
    const child = spawnCli(['watch', w, '--concurrency', '2'], env(w, { stable: 60_000 }));
    try {
      // The results workbook is written while the job runs: killed once its temporary file is there.
      await until('the results workbook being written', () => {
        const partial = filesUnder(stateDir).filter((f) => path.basename(f).startsWith('.part.results.xlsx'));
        return partial.length > 0 && journalOutcomes(jobsDir).outcomes >= 4;
      });
    } finally {
      child.proc.kill('SIGKILL');
      await control(sb, 'PUT', '/faults', { latency_ms: 0, jitter_ms: 0 });
    }
    expect((await child.exit).signal).toBe('SIGKILL');

    const r = await cli(['watch', w, '--once', '--json'], env(w, { stable: 60_000, onceWait: 100 }));
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as WatchJson;
    expect(out.drops).toEqual([expect.objectContaining({ resumed: true, outcome: 'done' })]);
    // done/ holds the drop with complete files only: no hidden or temporary file came along.
    expect(fs.readdirSync(out.drops[0].folder).sort()).toEqual([
      'part.failed.xlsx',
      'part.messages.txt',
      'part.results.xlsx',
      'part.xlsx',
      'part.xlsx.ready',
    ]);
    const visible = ['done', 'failed', 'inbox'].flatMap((x) => filesUnder(path.join(w, x)));
    expect(visible.filter((f) => path.basename(f).startsWith('.') || f.endsWith('.tmp'))).toEqual([]);
    const results = await readSheet(path.join(out.drops[0].folder, 'part.results.xlsx'), 'supplier-companies');
    // Every row has its outcome (one created by the killed run and not yet journaled is found as existing).
    expect(results).toHaveLength(data['supplier-companies']?.length ?? -1);
    for (const x of results) expect(x._result).toMatch(/^(created|already_existed)$/);
    // Nothing of the killed run is left in the watcher's own folder either.
    expect(filesUnder(stateDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(await serviceState(client, 'WKWR')).toEqual(normalised(data));
  });

  it('SIGINT stops the running watcher cleanly: exit 3, the drop stays resumable; the next run finishes it', async () => {
    const w = watchDir('sigint');
    const jobsDir = path.join(w, 'jobs');
    const data = buildDataset({ prefix: 'WINT', products: 24, instances: 4 });
    await workbook(data, path.join(w, 'inbox', 'int.xlsx'));
    fs.writeFileSync(path.join(w, 'inbox', 'int.xlsx.ready'), '');
    await control(sb, 'PUT', '/faults', { latency_ms: 40 });
    const child = spawnCli(['watch', w, '--concurrency', '2'], env(w, { stable: 60_000 }));
    let jobId: string;
    try {
      jobId = await until('8 outcomes', () => {
        const j = journalOutcomes(jobsDir);
        return j.outcomes >= 8 && j.jobId;
      });
      child.proc.kill('SIGINT');
      expect((await child.exit).code).toBe(3);
    } finally {
      child.proc.kill('SIGKILL');
      await control(sb, 'PUT', '/faults', { latency_ms: 0 });
    }
    expect(child.stdout()).toMatch(/stopped, resumable/);
    expect(JSON.parse(fs.readFileSync(path.join(jobsDir, jobId, 'meta.json'), 'utf8')).status).toBe('cancelled');
    expect(fs.existsSync(path.join(w, '.supply-loader-watch', 'lock'))).toBe(false);
    expect(fs.readdirSync(path.join(w, 'done'))).toEqual([]);

    const r = await cli(['watch', w, '--once', '--json'], env(w, { stable: 60_000, onceWait: 100 }));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as WatchJson;
    expect(out.drops).toEqual([expect.objectContaining({ job_id: jobId, resumed: true, outcome: 'done' })]);
    expect(fs.readdirSync(jobsDir)).toEqual([jobId]);
    expect(await serviceState(client, 'WINT')).toEqual(normalised(data));
  });

  it('one watcher per folder: a second one is refused (exit 2) while the first runs; SIGTERM stops the first', async () => {
    const w = watchDir('lock');
    const child = spawnCli(['watch', w], env(w, { stable: 60_000 }));
    const lock = path.join(w, '.supply-loader-watch', 'lock');
    try {
      await until('the lock', () => fs.existsSync(lock) && child.stderr().includes('watching'));
      const pid = JSON.parse(fs.readFileSync(lock, 'utf8')).pid as number;
      expect(pid).toBe(child.proc.pid);
      const second = await cli(['watch', w, '--once'], env(w, { stable: 50 }));
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`another watcher (pid ${pid}) is running on this folder`);
      child.proc.kill('SIGTERM');
      const exit = await child.exit;
      expect(exit.code).toBe(0);
    } finally {
      child.proc.kill('SIGKILL');
    }
    expect(fs.existsSync(lock)).toBe(false);
  });
});
