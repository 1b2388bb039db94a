#!/usr/bin/env node
/**
 * `npm start`: build the renderer (Vite) and the main process + preload (esbuild) and launch Electron.
 * Where the Electron binary is missing (build machines: `npm install` cannot download it), say so in one line
 * and start browser mode instead. `npm run start:web` (`--web`) starts browser mode directly.
 *
 * Browser mode: the embedded sandbox + the contract and the built UI on http://127.0.0.1:PORT, guarded by a
 * random per-launch token; the URL with the token is printed, nothing is opened. The server's process takes the
 * CLI's heap growth (core/settings/heap-growth.ts, SUPPLY_LOADER_HEAP_GROWTH_PERCENT).
 *
 * Options: --web, --port N (browser mode; default: a free port), --no-build (reuse dist-renderer/ and
 * dist-electron/ from an earlier build), --build-only (build everything the installer contains, start nothing;
 * see docs/packaging.md).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

async function buildRenderer() {
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}

async function buildElectron() {
  const esbuild = await import('esbuild');
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node22',
    sourcemap: 'linked',
    logLevel: 'warning',
    absWorkingDir: root,
  };
  await esbuild.build({
    ...common,
    entryPoints: ['electron/main/index.ts'],
    outfile: 'dist-electron/main/index.js',
    format: 'esm',
    // Runtime dependencies stay in node_modules (electron-builder ships them); the rest is bundled.
    external: ['electron', ...Object.keys(pkg.dependencies ?? {})],
    banner: {
      js: "import { createRequire as __slCreateRequire } from 'node:module'; const require = __slCreateRequire(import.meta.url);",
    },
  });
  await esbuild.build({
    ...common,
    entryPoints: ['electron/preload/index.ts'],
    outfile: 'dist-electron/preload/index.cjs',
    format: 'cjs',
    external: ['electron'],
  });
}

async function startBrowser() {
  const { tsImport } = await import('tsx/esm/api');
  const here = pathToFileURL(path.join(root, 'scripts', 'start.mjs')).href;
  // The server plans and runs in this process: the CLI's heap growth keeps its peak as low as the CLI's.
  (await tsImport('../core/settings/heap-growth.ts', here)).applyHeapGrowth();
  const { startBrowserMode } = await tsImport('../core/ipc/browser-mode.ts', here);
  const { startSandbox } = await tsImport('../sandbox/index.ts', here);
  const mode = await startBrowserMode({
    port,
    staticDir: fs.existsSync(path.join(rendererDir, 'index.html')) ? rendererDir : null,
    startSandbox,
    appVersion: pkg.version,
  });
  console.log(`Supply Loader (browser mode) is running. Open this URL in your browser:\n\n  ${mode.url}\n`);
  console.log('The link carries the access token of this launch; keep it to yourself. Stop with Ctrl+C.');
  const stop = async () => {
    await mode.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

async function main() {
  if (buildOnly) {
    await buildRenderer();
    await buildElectron();
    console.log('Built dist-renderer/ and dist-electron/.');
    return;
  }
  if (!noBuild) await buildRenderer();
  if (web) return startBrowser();
  const exe = electronBinary();
  if (!exe) {
    console.log(
      'The Electron binary is not installed (node_modules/electron/dist is missing), so Supply Loader starts in browser mode instead.',
    );
    return startBrowser();
  }
  if (!noBuild) await buildElectron();
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
