/**
 * The installed CLI runs a bundle (scripts/build-cli.mjs, dist-cli/), never a stale one: currentBundle() tells
 * a current build from a missing or outdated one by the sources' modification times, and the bin runs it.
 */
import { spawnSync } from 'node:child_process';
import fs, {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
// @ts-expect-error -- a plain ES module script without types
import { HTTP2_STUB_MESSAGE, VENDOR_CHUNKS } from '../../scripts/build-cli.mjs';
// @ts-expect-error -- a plain CommonJS script without types
import { currentBuild, currentBundle, sourcesChangedSince } from '../../scripts/cli-bundle.cjs';
import { BIN } from '../fixtures/cli-process.js';
import { buildDataset, sizeForRows } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { runChild, sandbox } from './helpers.js';

const check = currentBundle as (root: string) => { entry?: string; why?: string };
const build = currentBuild as (root: string) => { entry?: string; startedMs?: number; why?: string };
const changedSince = sourcesChangedSince as (root: string, startedMs: number) => Promise<boolean>;
const root = mkdtempSync(join(tmpdir(), 'sl-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function at(file: string, ms: number, text = 'x'): void {
  writeFileSync(file, text);
  utimesSync(file, ms / 1000, ms / 1000);
}

describe('CLI bundle staleness', () => {
  const built = Date.now() - 60_000;
  mkdirSync(join(root, 'core/cli'), { recursive: true });
  mkdirSync(join(root, 'sandbox'), { recursive: true });

  it('no build yet: not current, in words', () => {
    expect(check(root)).toEqual({ why: 'there is no CLI bundle yet' });
  });

  it('a build newer than every source is current; a newer source under core or sandbox makes it stale', () => {
    at(join(root, 'core/cli/main.ts'), built - 10_000);
    at(join(root, 'sandbox/index.ts'), built - 10_000);
    mkdirSync(join(root, 'dist-cli/b-1'), { recursive: true });
    writeFileSync(join(root, 'dist-cli/b-1/cli-fn.js'), '');
    writeFileSync(
      join(root, 'dist-cli/current.json'),
      JSON.stringify({ dir: 'b-1', entry: 'b-1/cli-fn.js', started_ms: built }),
    );
    expect(check(root)).toEqual({ entry: join(root, 'dist-cli/b-1/cli-fn.js') });

    at(join(root, 'sandbox/index.ts'), built + 5_000);
    expect(check(root).why).toBe('the sources changed since the CLI bundle was built');
    at(join(root, 'sandbox/index.ts'), built - 10_000);
    at(join(root, 'core/cli/new-file.ts'), built + 1);
    expect(check(root).why).toBe('the sources changed since the CLI bundle was built');
    rmSync(join(root, 'core/cli/new-file.ts'));
    expect(check(root).entry).toBeDefined();
  });

  it("the bin's check while it compiles: every source's stat asked at once, the verdicts of currentBundle", async () => {
    expect(build(root)).toEqual({ entry: join(root, 'dist-cli/b-1/cli-fn.js'), startedMs: built });
    const stat = vi.spyOn(fs, 'stat');
    try {
      const pending = changedSince(root, built);
      // both sources asked before it returned: the stats run while the caller compiles the bundle
      expect(stat).toHaveBeenCalledTimes(2);
      expect(await pending).toBe(false);
    } finally {
      stat.mockRestore();
    }
    at(join(root, 'sandbox/index.ts'), built + 5_000);
    expect(await changedSince(root, built)).toBe(true);
    at(join(root, 'sandbox/index.ts'), built - 10_000);
    at(join(root, 'core/cli/new-file.ts'), built + 1);
    expect(await changedSince(root, built)).toBe(true);
    rmSync(join(root, 'core/cli/new-file.ts'));
    expect(await changedSince(root, built)).toBe(false);
    expect(check(root).entry).toBeDefined();
  });

  it('a build of an earlier kind (ES modules, or a cli.cjs the loader wrapped) is rebuilt, never run as the function script', () => {
    for (const entry of ['main.mjs', 'cli.cjs']) {
      writeFileSync(join(root, 'dist-cli/b-1', entry), '');
      writeFileSync(
        join(root, 'dist-cli/current.json'),
        JSON.stringify({ dir: 'b-1', entry: `b-1/${entry}`, started_ms: built }),
      );
      expect(check(root), entry).toEqual({ why: 'the CLI bundle is of an older kind' });
    }
    writeFileSync(
      join(root, 'dist-cli/current.json'),
      JSON.stringify({ dir: 'b-1', entry: 'b-1/cli-fn.js', started_ms: built }),
    );
    expect(check(root).entry).toBeDefined();
  });

  it('a build named but gone is missing', () => {
    rmSync(join(root, 'dist-cli/b-1'), { recursive: true });
    expect(check(root)).toEqual({ why: 'the CLI bundle is missing' });
  });

  it('the bin runs the current bundle of this checkout without a notice (built by the global setup)', () => {
    expect(check(join(BIN, '../..')).entry).toMatch(/dist-cli[\\/]b-[^\\/]+[\\/]cli-fn\.js$/);
    const r = spawnSync(process.execPath, [BIN, '--version'], { cwd: tmpdir(), encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^supply-loader \d+\.\d+\.\d+\n$/);
    expect(r.stderr).toBe('');
  });

  it("a start loads no ES module, so Node's ES module loader is never started (~30 ms of a start); the .mjs bin runs the same CLI", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-esm-'));
    try {
      // Told at exit which of Node's ES module loader parts were loaded (internal/modules/esm/*).
      const probe = join(dir, 'probe.cjs');
      writeFileSync(
        probe,
        "process.on('exit', () => process.stderr.write('esm: ' + process.moduleLoadList.filter((m) => /esm\\/(module_job|translators|resolve)$/.test(m)).length + '\\n'));",
      );
      const run = (bin: string, args: string[]) =>
        spawnSync(process.execPath, ['--require', probe, bin, ...args], { cwd: tmpdir(), encoding: 'utf8' });
      for (const args of [['--version'], ['validate', join(dir, 'absent.xlsx')]]) {
        const r = run(BIN, args);
        expect(r.stderr, args.join(' ')).toMatch(/esm: 0\n$/);
      }
      const viaMjs = run(join(BIN, '../supply-loader.mjs'), ['--version']);
      expect(viaMjs.status).toBe(0);
      expect(viaMjs.stdout).toMatch(/^supply-loader \d+\.\d+\.\d+\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the bundle carries undici's Pool and request() only, not its entry (fetch, WebSocket, cookies, caches: ~20 ms of every start)", () => {
    const code = readFileSync(check(join(BIN, '../..')).entry!, 'utf8');
    expect(code).toContain('node_modules/undici/lib/dispatcher/pool.js');
    expect(code).toContain('node_modules/undici/lib/api/api-request.js');
    for (const left of [
      'node_modules/undici/index.js',
      'node_modules/undici/lib/web/fetch/index.js',
      'node_modules/undici/lib/web/cookies/index.js',
    ])
      expect(code).not.toContain(left);
  });

  it("the bundle leaves out undici's HTTP/2 client, so no command that talks to the service loads Node's http2 (~6 ms)", () => {
    const code = readFileSync(check(join(BIN, '../..')).entry!, 'utf8');
    const at = code.indexOf('node_modules/undici/lib/dispatcher/client-h2.js"');
    expect(at).toBeGreaterThan(0);
    const body = code.slice(at, code.indexOf('__commonJS(', at));
    expect(body).toContain(HTTP2_STUB_MESSAGE);
    expect(body).not.toContain('node:http2');
  });
});

/** The body of a bundled package module (up to the next module), by the end of its path. */
function moduleBody(code: string, pathEnd: string): string {
  const at = code.indexOf(`${pathEnd}"(`);
  expect(at, pathEnd).toBeGreaterThan(0);
  return code.slice(at, code.indexOf('__commonJS(', at));
}

describe('what a start reads: the bundle carries what commands load at start, in one byte a character', () => {
  const entry = () => check(join(BIN, '../..')).entry!;

  it('SheetJS and fastify are scripts of their own beside the bundle, required from there on first use', () => {
    const code = readFileSync(entry(), 'utf8');
    expect(code).not.toContain('node_modules/@e965/xlsx/');
    expect(code).not.toContain('node_modules/fastify/');
    expect(code).not.toContain('node_modules/ajv/');
    for (const name of Object.values(VENDOR_CHUNKS) as string[]) {
      expect(existsSync(join(dirname(entry()), `${name}.cjs`)), name).toBe(true);
      expect(code).toContain(`"./${name}.cjs"`);
    }
  });

  it("iconv-lite's double-byte tables are files beside the bundle, not part of it", () => {
    const code = readFileSync(entry(), 'utf8');
    expect(code).not.toContain('iconv-lite/encodings/tables/cp936.json"');
    const cp936 = readdirSync(dirname(entry())).find((n) => /^cp936-.*\.json$/.test(n));
    expect(cp936).toBeDefined();
    expect(code).toContain(`require("./${cp936}")`);
  });

  it('zod carries its English messages only (the CLI sets no other locale)', () => {
    const code = readFileSync(entry(), 'utf8');
    expect(code).toContain('node_modules/zod/v4/locales/en.js');
    expect(code).not.toContain('node_modules/zod/v4/locales/de.js');
    expect(code).not.toContain('node_modules/zod/v4/locales/index.js');
  });

  it('the bundle is ASCII only (V8 would hold it as two bytes a character otherwise), inside the function a CommonJS module runs in', () => {
    const bytes = readFileSync(entry());
    expect(bytes.every((b) => b < 0x80)).toBe(true);
    const code = bytes.toString('latin1');
    expect(code.startsWith('(function (exports, require, module, __filename, __dirname) {')).toBe(true);
    expect(code.endsWith('\n})')).toBe(true);
  });

  it("exceljs's reader, writer and Workbook, unzipper's other parts and binary's chainsaw are required on first use, not with the package", () => {
    const code = readFileSync(entry(), 'utf8');
    const excel = moduleBody(code, 'node_modules/exceljs/lib/exceljs.nodejs.js');
    for (const part of ['workbook_writer', 'workbook_reader', 'workbook'])
      expect(excel, part).toMatch(new RegExp(`=>require_${part}\\d*\\(\\)`));
    expect(excel).not.toMatch(/[:=]require_workbook(_reader|_writer)?\(\)/);
    const unzip = moduleBody(code, 'node_modules/unzipper/unzip.js');
    for (const part of ['parse', 'parseOne', 'extract', 'Open'])
      expect(unzip, part).toMatch(new RegExp(`=>require_${part}\\d*\\(\\)`));
    const binary = moduleBody(code, 'node_modules/binary/index.js');
    expect(binary).not.toMatch(/Chainsaw=require_chainsaw\(\)/);
    expect(binary).toContain('require_chainsaw()');
  });
});

describe('the bundled CLI as a process', () => {
  it('an import with both results workbooks prints nothing on stderr but the job line (no warning of bundled packages)', async () => {
    const sb = await sandbox('demo');
    try {
      const file = join(root, 'small.xlsx');
      await writeDataWorkbook(file, buildDataset(sizeForRows(40), 'BNDL'));
      const r = await runChild(
        ['import', file, '--report', join(root, 'report.xlsx'), '--failed', join(root, 'failed.xlsx')],
        { baseUrl: sb.baseUrl, key: sb.ownerKey, jobsDir: join(root, 'jobs') },
      );
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^job \S+ \(journal in .*\); if it stops, continue with: supply-loader resume \S+\n$/);
      expect(r.stdout).toContain('results workbook:');
    } finally {
      await sb.close();
    }
  });
});
