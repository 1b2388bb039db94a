/**
 * Build browser mode's server (core/ipc/browser-mode.ts, the heap growth setting and, as a chunk of its own loaded
 * only when the embedded sandbox starts, sandbox/index.ts) as an ES module bundle under dist-web/, so that
 * `npm run start:web` runs plain JavaScript: through tsx every module was compiled at run time and held with its
 * source map and transform cache (the server held ~170–190 MiB before a file was picked; ~85–95 MiB from the
 * bundle). scripts/start.mjs builds it with the renderer in a child process (`node scripts/build-web.mjs
 * --with-renderer`; `--build-only` builds it too) and reuses it with `--no-build` while it is current; it never
 * runs a stale one (see currentWebServer).
 *
 * The options are the Electron main process bundle's (NODE_BUNDLE, shared with scripts/start.mjs): runtime
 * dependencies stay in node_modules, the rest is bundled; whitespace and syntax minified as in the CLI bundle
 * (~200 kB less source to hold, ~4 MiB less resident; names are kept). One exception, as in the CLI bundle
 * (scripts/build-cli.mjs, LAZY_REWRITES): exceljs's entry evaluates its whole tree at once (the streaming reader
 * and writer, the in-memory Workbook with jszip, archiver, fast-csv, …, ~30 MiB resident), so the bundle imports a
 * stand-in that requires each of those parts from exceljs when it is first used (lazyExceljs).
 *
 * Each build goes to its own folder dist-web/<build>/, which becomes the current one by renaming
 * dist-web/current.json into place: a running server never has the chunk it loads later replaced under it.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EXCELJS_ENTRY_EXPECT, lazyExceljsEntry, publishBuild } from './build-cli.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_DIST = path.join(ROOT, 'dist-web');
/** The entry's file in a build; it exports applyHeapGrowth, startBrowserMode and startSandbox. */
const WEB_ENTRY = 'server.js';
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** Build the renderer (Vite) into dist-renderer/. */
export async function buildRenderer() {
  const { build } = await import('vite');
  await build({ configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
}

/**
 * The esbuild options of a Node bundle of ours that runs from this checkout or the app's folder, where
 * node_modules holds the runtime dependencies (package.json "dependencies"): they stay external, the rest
 * (our TypeScript and the dev dependencies it imports) is bundled. `require` is defined for the CommonJS parts.
 */
export const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  logLevel: 'warning',
  absWorkingDir: ROOT,
  external: Object.keys(pkg.dependencies ?? {}),
  banner: {
    js: "import { createRequire as __slCreateRequire } from 'node:module'; const require = __slCreateRequire(import.meta.url);",
  },
};

/** The bundle's entry (esbuild's stdin, named ENTRY_NAME): the sandbox is imported when it first starts (a chunk of its own), not with the server. */
const ENTRY_NAME = 'browser-mode-server.ts';
const ENTRY = `export { applyHeapGrowth } from './core/settings/heap-growth.ts';
export { startBrowserMode } from './core/ipc/browser-mode.ts';
export async function startSandbox(opts) {
  return (await import('./sandbox/index.ts')).startSandbox(opts);
}
`;

/** exceljs imported as its stand-in (scripts/build-cli.mjs lazyExceljsEntry), when its entry is what it expects. */
const lazyExceljs = {
  name: 'lazy-exceljs',
  setup(b) {
    let text = '';
    try {
      text = readFileSync(path.join(ROOT, 'node_modules/exceljs/lib/exceljs.nodejs.js'), 'utf8');
    } catch {
      return;
    }
    if (!EXCELJS_ENTRY_EXPECT.every((e) => text.includes(e))) return;
    b.onResolve({ filter: /^exceljs$/ }, () => ({ path: 'exceljs', namespace: 'supply-loader-lazy' }));
    b.onLoad({ filter: /^exceljs$/, namespace: 'supply-loader-lazy' }, () => ({
      loader: 'js',
      resolveDir: ROOT,
      contents: lazyExceljsEntry((part) => `exceljs/lib/${part.slice(2)}`, 'export default ExcelJS;'),
    }));
  },
};

/**
 * The current build's entry file if every source file it was built from is still there and not newer than the
 * build: `{ entry }`; else `{ why }` in words (no build yet, build missing, sources changed).
 */
export function currentWebServer(root = ROOT) {
  const dist = path.join(root, 'dist-web');
  let current;
  try {
    current = JSON.parse(readFileSync(path.join(dist, 'current.json'), 'utf8'));
  } catch {
    return { why: 'there is no browser-mode server bundle yet' };
  }
  const entry = path.join(dist, String(current.entry));
  const started = Number(current.started_ms);
  if (!Array.isArray(current.inputs) || !(started > 0)) return { why: 'the browser-mode server bundle is incomplete' };
  try {
    statSync(entry);
  } catch {
    return { why: 'the browser-mode server bundle is missing' };
  }
  for (const input of current.inputs) {
    let at;
    try {
      at = statSync(path.join(root, String(input))).mtimeMs;
    } catch {
      return { why: 'the sources changed since the browser-mode server bundle was built' };
    }
    if (!(at <= started)) return { why: 'the sources changed since the browser-mode server bundle was built' };
  }
  return { entry };
}

/** Build the server bundle into a new dist-web/<build>/ and make it the current one; returns its entry file. */
export async function buildWebServer() {
  const esbuild = await import('esbuild');
  const started = Date.now();
  const dir = `b-${started}-${process.pid}`;
  const outdir = path.join(WEB_DIST, dir);
  mkdirSync(outdir, { recursive: true });
  try {
    const result = await esbuild.build({
      ...NODE_BUNDLE,
      stdin: { contents: ENTRY, resolveDir: ROOT, sourcefile: ENTRY_NAME, loader: 'ts' },
      outdir,
      entryNames: 'server',
      chunkNames: '[name]-[hash]',
      splitting: true,
      tsconfig: path.join(ROOT, 'tsconfig.json'),
      metafile: true,
      plugins: [lazyExceljs],
      minifyWhitespace: true,
      minifySyntax: true,
    });
    const inputs = Object.keys(result.metafile.inputs).filter(
      (f) => f !== ENTRY_NAME && !f.includes(':') && !f.includes('node_modules'),
    );
    inputs.push(
      path
        .relative(ROOT, fileURLToPath(import.meta.url))
        .split(path.sep)
        .join('/'),
      'package.json',
    );
    // current.json names it: { dir, entry, started_ms, inputs } (inputs: the source files it is made of).
    publishBuild(WEB_DIST, { dir, entry: `${dir}/${WEB_ENTRY}`, started_ms: started, inputs });
  } finally {
    // esbuild's service process would otherwise stay beside the server as long as it runs.
    await esbuild.stop();
  }
  return path.join(outdir, WEB_ENTRY);
}

// `node scripts/build-web.mjs [--with-renderer]`: the renderer first when asked, then the server bundle unless the
// current one is made of the sources as they are (an unchanged build is not made again); exit 1 on failure.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    if (process.argv.includes('--with-renderer')) await buildRenderer();
    if (!currentWebServer().entry) await buildWebServer();
  } catch (e) {
    console.error(`supply-loader: the build failed: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
