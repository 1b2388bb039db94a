/**
 * The installed CLI runs a bundle (scripts/build-cli.mjs, dist-cli/), never a stale one: currentBundle() tells
 * a current build from a missing or outdated one by the sources' modification times, and the bin runs it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without types
import { HTTP2_STUB_MESSAGE, currentBundle } from '../../scripts/build-cli.mjs';
import { BIN } from '../fixtures/cli-process.js';
import { buildDataset, sizeForRows } from '../fixtures/dataset.js';
import { writeDataWorkbook } from '../fixtures/workbook.js';
import { runChild, sandbox } from './helpers.js';

const check = currentBundle as (root: string) => { entry?: string; why?: string };
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
    writeFileSync(join(root, 'dist-cli/b-1/cli.cjs'), '');
    writeFileSync(
      join(root, 'dist-cli/current.json'),
      JSON.stringify({ dir: 'b-1', entry: 'b-1/cli.cjs', started_ms: built }),
    );
    expect(check(root)).toEqual({ entry: join(root, 'dist-cli/b-1/cli.cjs') });

    at(join(root, 'sandbox/index.ts'), built + 5_000);
    expect(check(root).why).toBe('the sources changed since the CLI bundle was built');
    at(join(root, 'sandbox/index.ts'), built - 10_000);
    at(join(root, 'core/cli/new-file.ts'), built + 1);
    expect(check(root).why).toBe('the sources changed since the CLI bundle was built');
    rmSync(join(root, 'core/cli/new-file.ts'));
    expect(check(root).entry).toBeDefined();
  });

  it('a build of the ES-module kind (before the code cache) is rebuilt, never run as a script', () => {
    writeFileSync(join(root, 'dist-cli/b-1/main.mjs'), '');
    writeFileSync(
      join(root, 'dist-cli/current.json'),
      JSON.stringify({ dir: 'b-1', entry: 'b-1/main.mjs', started_ms: built }),
    );
    expect(check(root)).toEqual({ why: 'the CLI bundle is of an older kind' });
    writeFileSync(
      join(root, 'dist-cli/current.json'),
      JSON.stringify({ dir: 'b-1', entry: 'b-1/cli.cjs', started_ms: built }),
    );
    expect(check(root).entry).toBeDefined();
  });

  it('a build named but gone is missing', () => {
    rmSync(join(root, 'dist-cli/b-1'), { recursive: true });
    expect(check(root)).toEqual({ why: 'the CLI bundle is missing' });
  });

  it('the bin runs the current bundle of this checkout without a notice (built by the global setup)', () => {
    expect(check(join(BIN, '../..')).entry).toMatch(/dist-cli[\\/]b-[^\\/]+[\\/]cli\.cjs$/);
    const r = spawnSync(process.execPath, [BIN, '--version'], { cwd: tmpdir(), encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^supply-loader \d+\.\d+\.\d+\n$/);
    expect(r.stderr).toBe('');
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
