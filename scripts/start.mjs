#!/usr/bin/env node
/**
 * `npm start`: build the renderer (Vite) and the main process + preload (esbuild) and launch Electron.
 * Where the Electron binary is missing (build machines: `npm install` cannot download it), say so in one line
 * and start browser mode instead. `npm run start:web` (`--web`) starts browser mode directly.
 *
 * Browser mode: the embedded sandbox + the contract and the built UI on http://127.0.0.1:PORT, guarded by a
 * random per-launch token; the URL with the token is printed, nothing is opened. The server runs in this process
 * from its bundle (dist-web/, scripts/build-web.mjs: plain JavaScript, no TypeScript compiled at run time; the
 * sandbox loaded only when it starts), built beforehand in a child process together with the renderer. The
 * server's process takes the CLI's heap growth (core/settings/heap-growth.ts, SUPPLY_LOADER_HEAP_GROWTH_PERCENT).
 *
 * Options: --web, --port N (browser mode; default: a free port), --no-build (reuse dist-renderer/, dist-electron/
 * and dist-web/ from an earlier build; the server bundle is still rebuilt when a source of it changed since),
 * --build-only (build everything the installer contains and the browser-mode server, start nothing; see
 * docs/packaging.md).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildRenderer, buildWebServer, currentWebServer, NODE_BUNDLE } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const web = args.includes('--web');
const noBuild = args.includes('--no-build');
const buildOnly = args.includes('--build-only');
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? Number(args[portArg + 1]) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('--port needs a number between 0 and 65535');
  process.exit(2);
}

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const rendererDir = path.join(root, 'dist-renderer');

/** Path of the Electron executable, or null when it was never downloaded. Never triggers a download. */
function electronBinary() {
  const dir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const exe = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(exe) ? exe : null;
}

async function buildElectron() {
  const esbuild = await import('esbuild');
  try {
    await esbuild.build({
      ...NODE_BUNDLE,
      entryPoints: ['electron/main/index.ts'],
      outfile: 'dist-electron/main/index.js',
      target: 'node22',
      // electron-builder ships the runtime dependencies in node_modules; Electron itself is the host.
      external: ['electron', ...NODE_BUNDLE.external],
    });
    await esbuild.build({
      ...NODE_BUNDLE,
      entryPoints: ['electron/preload/index.ts'],
      outfile: 'dist-electron/preload/index.cjs',
      target: 'node22',
      format: 'cjs',
      external: ['electron'],
      banner: undefined,
    });
  } finally {
    await esbuild.stop();
  }
}

/**
 * Build the renderer and browser mode's server bundle in a child process (`node scripts/build-web.mjs
 * --with-renderer`), so that the server, which runs in this process, does not keep Vite's and Rollup's modules and
 * heap (~300 MiB resident) beside it.
 */
function buildForBrowser() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'build-web.mjs'), '--with-renderer'], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`the build failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/**
 * Browser mode's server: its bundle (scripts/build-web.mjs) while no source of it changed since it was built, else
 * rebuilt first (with a notice). Only when it cannot be built (esbuild missing) do the TypeScript sources run
 * through tsx, also with a notice. Each way the sandbox is loaded only when it starts.
 */
async function loadServer() {
  const found = currentWebServer();
  if (found.entry) return import(pathToFileURL(found.entry).href);
  let entry;
  try {
    const t0 = performance.now();
    entry = await buildWebServer();
    console.error(`supply-loader: ${found.why}; built it (${Math.round(performance.now() - t0)} ms)`);
  } catch (e) {
    const reason = `${found.why} and it could not be built (${e instanceof Error ? e.message.split('\n')[0] : e})`;
    console.error(`supply-loader: ${reason}; running the TypeScript sources through tsx (slower start)`);
    const { tsImport } = await import('tsx/esm/api');
    const here = pathToFileURL(path.join(root, 'scripts', 'start.mjs')).href;
    const { applyHeapGrowth } = await tsImport('../core/settings/heap-growth.ts', here);
    const { startBrowserMode } = await tsImport('../core/ipc/browser-mode.ts', here);
    const startSandbox = async (opts) => (await tsImport('../sandbox/index.ts', here)).startSandbox(opts);
    return { applyHeapGrowth, startBrowserMode, startSandbox };
  }
  return import(pathToFileURL(entry).href);
}

async function startBrowser() {
  const { applyHeapGrowth, startBrowserMode, startSandbox } = await loadServer();
  // The server plans and runs in this process: the CLI's heap growth keeps its peak as low as the CLI's.
  applyHeapGrowth();
  const mode = await startBrowserMode({
    port,
    staticDir: fs.existsSync(path.join(rendererDir, 'index.html')) ? rendererDir : null,
    startSandbox,
    appVersion: pkg.version,
  });
  const stop = async () => {
    await mode.close();
    process.exit(0);
  };
  // Before the URL is out: a signal that comes as soon as it is seen must find the handlers there (with no
  // handler yet, SIGTERM ends the process at once, not through close()).
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  console.log(`Supply Loader (browser mode) is running. Open this URL in your browser:\n\n  ${mode.url}\n`);
  console.log('The link carries the access token of this launch; keep it to yourself. Stop with Ctrl+C.');
}

async function main() {
  if (buildOnly) {
    await buildRenderer();
    await buildElectron();
    await buildWebServer();
    console.log('Built dist-renderer/, dist-electron/ and dist-web/.');
    return;
  }
  const exe = web ? null : electronBinary();
  if (!web && !exe)
    console.log(
      'The Electron binary is not installed (node_modules/electron/dist is missing), so Supply Loader starts in browser mode instead.',
    );
  if (!exe) {
    if (!noBuild) await buildForBrowser();
    return startBrowser();
  }
  if (!noBuild) {
    await buildRenderer();
    await buildElectron();
  }
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(exe, [root], { stdio: 'inherit', env });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => child.kill(sig));
}

main().catch((err) => {
  console.error(`Supply Loader could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
