/**
 * `npm start` / `npm run start:web` (scripts/start.mjs) as a user runs them, in a child process: browser mode
 * prints a tokenised loopback URL that serves the app; without an Electron binary, `npm start` says so in one
 * line and falls back to browser mode. Browser mode's server applies the CLI's heap growth setting.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve('.');
const electronInstalled = (() => {
  const pathFile = path.join(ROOT, 'node_modules', 'electron', 'path.txt');
  return (
    fs.existsSync(pathFile) &&
    fs.existsSync(path.join(ROOT, 'node_modules', 'electron', 'dist', fs.readFileSync(pathFile, 'utf8').trim()))
  );
})();

let children: ChildProcess[] = [];
let dirs: string[] = [];
afterEach(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  children = [];
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** Start the script and collect its output until the URL line appears. */
function launch(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ out: string; url: string; child: ChildProcess }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-start-'));
  dirs.push(dir);
  const child = spawn(process.execPath, ['scripts/start.mjs', ...args], {
    cwd: ROOT,
    env: { ...process.env, SUPPLY_LOADER_HEAP_GROWTH_PERCENT: '', ...env, SUPPLY_LOADER_CONFIG_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed within 60 s:\n${out}`)), 60_000);
    const onData = (c: Buffer) => {
      out += c.toString('utf8');
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ out, url: m[1], child });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`start.mjs exited with ${code}:\n${out}`));
    });
  });
}

describe('scripts/start.mjs', () => {
  it('--web starts browser mode, prints the URL with the token and serves the contract', async () => {
    const { url, out, child } = await launch(['--web', '--no-build']);
    expect(out).not.toMatch(/Electron binary/);
    const { origin, searchParams } = new URL(url);
    const token = searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThanOrEqual(40);
    const r = await fetch(`${origin}/rpc/sandbox.status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supply-loader-token': token },
      body: '{}',
    });
    expect(await r.json()).toMatchObject({ ok: true, data: { state: 'running' } });
    const refused = await fetch(`${origin}/rpc/sandbox.status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it("browser mode's server takes the CLI's heap growth setting (a wrong value is said, as the CLI says it)", async () => {
    const ok = await launch(['--web', '--no-build']);
    expect(ok.out).not.toMatch(/warning|unrecognized flag/i);
    ok.child.kill('SIGTERM');
    const { out } = await launch(['--web', '--no-build'], { SUPPLY_LOADER_HEAP_GROWTH_PERCENT: 'abc' });
    expect(out).toContain(
      "supply-loader: warning: SUPPLY_LOADER_HEAP_GROWTH_PERCENT=abc is not a whole number from 0 to 1000; V8's default heap growth is used",
    );
  });

  it.skipIf(electronInstalled)('without the Electron binary says so in one line and starts browser mode', async () => {
    const { out } = await launch(['--no-build']);
    const notice = out.split('\n').filter((l) => /Electron binary/.test(l));
    expect(notice).toHaveLength(1);
    expect(notice[0]).toMatch(/browser mode/);
  });
});
