/**
 * `npm start` / `npm run start:web` (scripts/start.mjs) as a user runs them, in a child process: browser mode
 * prints a tokenised loopback URL that serves the app; without an Electron binary, `npm start` says so in one
 * line and falls back to browser mode. Browser mode's server applies the CLI's heap growth setting, runs from
 * its bundle (scripts/build-web.mjs) and loads the sandbox only when the sandbox starts.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonFile } from '../../core/settings/json-file.js';
import { SettingsStore } from '../../core/settings/settings.js';
// @ts-expect-error -- a plain ES module script without types
import { buildWebServer, currentWebServer } from '../../scripts/build-web.mjs';

type Found = { entry?: string; why?: string };

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

/**
 * A `--import` argument for node that writes the URL of every module the process resolves through the ES module
 * loader (its own code, the bundle's chunks, the packages they import) to `log`, one a line.
 */
function moduleLog(log: string): string[] {
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, r.url + '\\n');
  return r;
}`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  return ['--import', `data:text/javascript,${encodeURIComponent(register)}`];
}

/** Start the script and collect its output until the URL line appears. */
function launch(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  opts: { nodeArgs?: string[]; configure?: (configDir: string) => void; timeoutMs?: number } = {},
): Promise<{ out: string; url: string; child: ChildProcess }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-start-'));
  dirs.push(dir);
  opts.configure?.(dir);
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), 'scripts/start.mjs', ...args], {
    cwd: ROOT,
    env: { ...process.env, SUPPLY_LOADER_HEAP_GROWTH_PERCENT: '', ...env, SUPPLY_LOADER_CONFIG_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const ms = opts.timeoutMs ?? 60_000;
    const timer = setTimeout(() => reject(new Error(`no URL printed within ${ms / 1000} s:\n${out}`)), ms);
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

  /** The modules the server resolved while it started, from its module log. */
  async function modulesAtStart(args: string[], configure?: (configDir: string) => void, timeoutMs?: number) {
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sl-modules-')), 'modules.txt');
    dirs.push(path.dirname(log));
    const { child } = await launch(args, {}, { nodeArgs: moduleLog(log), configure, timeoutMs });
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    return fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
  }
  const typeScript = (urls: string[]) =>
    urls.filter((u) => /\.tsx?(\?|$)/.test(u) || /[\\/]node_modules[\\/]tsx[\\/]/.test(u));
  const sandboxParts = (urls: string[]) =>
    urls.filter((u) => /[\\/]dist-web[\\/][^/]+[\\/]sandbox-|[\\/]fastify[\\/]/.test(u));

  it('browser mode runs its server from the bundle (dist-web/), no TypeScript compiled at run time', async () => {
    const urls = await modulesAtStart(['--web', '--no-build']);
    expect(urls.some((u) => u === pathToFileURL((currentWebServer() as Found).entry ?? '-').href)).toBe(true);
    expect(typeScript(urls)).toEqual([]);
  });

  it('the embedded sandbox is loaded only when the active profile is the sandbox', async () => {
    expect(sandboxParts(await modulesAtStart(['--web', '--no-build'])).length).toBeGreaterThan(0);
    const urls = await modulesAtStart(['--web', '--no-build'], (dir) => {
      const settings = new SettingsStore(new JsonFile(path.join(dir, 'settings.json')));
      settings.selectProfile(settings.saveProfile({ name: 'Service', baseUrl: 'http://127.0.0.1:9' }).id);
    });
    expect(sandboxParts(urls)).toEqual([]);
  });

  it('npm run start:web builds in a child process (a server bundle of unchanged sources is kept): the server process loads neither Vite nor esbuild', async () => {
    const before = (currentWebServer() as Found).entry ?? ((await buildWebServer()) as string);
    // The renderer's build comes first: more time than a --no-build start (this test's own limit is 180 s).
    const urls = await modulesAtStart(['--web'], undefined, 170_000);
    expect(urls.filter((u) => /[\\/]node_modules[\\/](vite|esbuild|rollup)[\\/]/.test(u))).toEqual([]);
    expect(typeScript(urls)).toEqual([]);
    expect(urls).toContain(pathToFileURL(before).href);
    expect((currentWebServer() as Found).entry).toBe(before);
  }, 180_000);

  it.skipIf(electronInstalled)('without the Electron binary says so in one line and starts browser mode', async () => {
    const { out } = await launch(['--no-build']);
    const notice = out.split('\n').filter((l) => /Electron binary/.test(l));
    expect(notice).toHaveLength(1);
    expect(notice[0]).toMatch(/browser mode/);
  });
});

describe('scripts/build-web.mjs', () => {
  /** A checkout with one source file and a build of it made at `builtAt`. */
  function fakeBuild(builtAt: number): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-web-'));
    dirs.push(root);
    fs.mkdirSync(path.join(root, 'core'));
    fs.mkdirSync(path.join(root, 'dist-web', 'b-1'), { recursive: true });
    fs.writeFileSync(path.join(root, 'core', 'a.ts'), 'export {};');
    fs.utimesSync(path.join(root, 'core', 'a.ts'), new Date(builtAt - 1000), new Date(builtAt - 1000));
    fs.writeFileSync(path.join(root, 'dist-web', 'b-1', 'server.js'), '');
    fs.writeFileSync(
      path.join(root, 'dist-web', 'current.json'),
      JSON.stringify({ dir: 'b-1', entry: 'b-1/server.js', started_ms: builtAt, inputs: ['core/a.ts'] }),
    );
    return root;
  }

  it('a build is current until a source it was made of changes or goes; then the reason is said', () => {
    const at = Date.now();
    const root = fakeBuild(at);
    expect(currentWebServer(root)).toEqual({ entry: path.join(root, 'dist-web', 'b-1', 'server.js') });
    fs.utimesSync(path.join(root, 'core', 'a.ts'), new Date(at + 1000), new Date(at + 1000));
    expect((currentWebServer(root) as Found).why).toMatch(/sources changed/);
    fs.rmSync(path.join(root, 'core', 'a.ts'));
    expect((currentWebServer(root) as Found).why).toMatch(/sources changed/);
    const other = fakeBuild(at);
    fs.rmSync(path.join(other, 'dist-web', 'b-1', 'server.js'));
    expect((currentWebServer(other) as Found).why).toMatch(/missing/);
    fs.rmSync(path.join(other, 'dist-web', 'current.json'));
    expect((currentWebServer(other) as Found).why).toMatch(/no browser-mode server bundle yet/);
  });

  it("the bundle loads exceljs's parts (reader, writer, Workbook) only when first used", async () => {
    const entry = (currentWebServer() as Found).entry ?? ((await buildWebServer()) as string);
    const script = `import { createRequire } from 'node:module';
await import(${JSON.stringify(pathToFileURL(entry).href)});
console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const exceljs = (JSON.parse(r.stdout) as string[]).filter((f) => /[\\/]exceljs[\\/]/.test(f));
    expect(exceljs.some((f) => /[\\/]doc[\\/]enums\.js$/.test(f))).toBe(true);
    expect(exceljs.filter((f) => /workbook|stream/.test(f))).toEqual([]);
  });
});
