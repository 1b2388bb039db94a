#!/usr/bin/env node
/**
 * Build the CLI bundle: core/cli/main.ts and everything it imports (the embedded sandbox and the npm
 * packages too) as one CommonJS script under dist-cli/, so `supply-loader` starts without compiling TypeScript
 * (the bin compiles it through V8's code cache, scripts/load-cli.mjs). Runs on `npm install` / `npm ci` (the
 * `prepare` script) and, when a source is newer than the bundle, from bin/supply-loader.mjs (see docs/cli.md,
 * "Start-up"). Each command's modules still run only when it is used: `--version` runs a few kB of it,
 * `validate` the reader, `import` the client too.
 *
 * Each build goes to its own folder dist-cli/<build>/ and only then becomes the current one by renaming
 * dist-cli/current.json into place, so a process starting meanwhile runs the old or the new build whole, and a
 * running process never has its chunks replaced under it (several CLI processes may rebuild at once).
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist-cli');
/** Names the current build: { dir, entry, started_ms } (started_ms: sources older than this are in it). */
export const CURRENT = path.join(DIST, 'current.json');
/** The source folders the bundle is made of: a file under one of them newer than the build makes it stale. */
export const BUNDLE_SOURCES = ['core', 'sandbox'];
/** Builds other than the current one are removed once this old (a CLI run may still load chunks from one). */
const KEEP_OLD_MS = 24 * 3600_000;

/** The newest modification time of a file under dir (0 when there is none). */
function newest(dir) {
  let max = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) max = Math.max(max, newest(p));
    else if (e.isFile()) max = Math.max(max, statSync(p).mtimeMs);
  }
  return max;
}

/**
 * The entry file of the current build under root if it exists and no source is newer than it:
 * `{ entry }`; else `{ why }` in words (no build yet, build missing, sources changed).
 */
export function currentBundle(root = ROOT) {
  const dist = path.join(root, 'dist-cli');
  let current;
  try {
    current = JSON.parse(readFileSync(path.join(dist, 'current.json'), 'utf8'));
  } catch {
    return { why: 'there is no CLI bundle yet' };
  }
  const entry = path.join(dist, String(current.entry));
  // Builds before the code cache were ES modules (main.mjs and chunks): rebuilt, never run as a script.
  if (!entry.endsWith('.cjs')) return { why: 'the CLI bundle is of an older kind' };
  try {
    statSync(entry);
  } catch {
    return { why: 'the CLI bundle is missing' };
  }
  const sourcesAt = Math.max(...BUNDLE_SOURCES.map((d) => newest(path.join(root, d))));
  if (!(sourcesAt <= Number(current.started_ms))) return { why: 'the sources changed since the CLI bundle was built' };
  return { entry };
}

/**
 * undici's HTTP/2 client (dispatcher/client-h2.js) is left out of the bundle: loading it loads Node's http2
 * module, ~10 ms of every start of a command that talks to the service. undici connects over
 * HTTP/2 only when a connection's TLS handshake agrees on it (ALPN), which it offers only with `allowH2`, and the
 * client never sets that (core/api/transport.ts). Should a connection ever come up as HTTP/2 anyway,
 * the stub fails it with an error that says so, as any failed connection is told; it never goes unnoticed.
 */
export const HTTP2_STUB_MESSAGE = 'HTTP/2 is not part of the Supply Loader CLI bundle (the client speaks HTTP/1.1)';
const withoutHttp2Client = {
  name: 'without-undici-http2-client',
  setup(b) {
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, () => ({
      contents: `module.exports = function connectH2 () { throw new Error(${JSON.stringify(HTTP2_STUB_MESSAGE)}) }`,
      loader: 'js',
    }));
  },
};

export async function buildCli() {
  const { build } = await import('esbuild');
  const started = Date.now();
  const dir = `b-${started}-${process.pid}`;
  const outdir = path.join(DIST, dir);
  mkdirSync(outdir, { recursive: true });
  await build({
    // heap-growth.cjs: the V8 flag the bin sets before it compiles cli.cjs (see core/cli/heap-growth.ts).
    entryPoints: {
      cli: path.join(ROOT, 'core/cli/main.ts'),
      'heap-growth': path.join(ROOT, 'core/cli/heap-growth.ts'),
    },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    // One CommonJS script, so that the bin can compile it with V8's code cache (scripts/load-cli.mjs; Node 20 has
    // none for ES modules). Each command is still loaded only when it runs: esbuild turns the commands' dynamic
    // import() into lazily run module bodies, so `--version` evaluates a few kB of it.
    format: 'cjs',
    target: 'node20',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
    legalComments: 'none',
    // Less to read and compile at every start; names are kept (error classes are told apart by name).
    minifyWhitespace: true,
    minifySyntax: true,
    // import.meta.url (the keychain's createRequire) as the bundle's own URL.
    define: { 'import.meta.url': '__slImportMetaUrl' },
    plugins: [withoutHttp2Client],
    banner: { js: "var __slImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  const tmp = `${CURRENT}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ dir, entry: `${dir}/cli.cjs`, started_ms: started }));
  renameSync(tmp, CURRENT);
  for (const name of readdirSync(DIST)) {
    if (!name.startsWith('b-') || name === dir) continue;
    const p = path.join(DIST, name);
    if (Date.now() - statSync(p).mtimeMs > KEEP_OLD_MS) rmSync(p, { recursive: true, force: true });
  }
  return path.join(outdir, 'cli.cjs');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const t0 = performance.now();
  try {
    const entry = await buildCli();
    process.stdout.write(
      `supply-loader: CLI bundle ${path.relative(ROOT, entry)} built in ${Math.round(performance.now() - t0)} ms\n`,
    );
  } catch (e) {
    // An install must not fail for it: the bin then runs the sources through tsx and says so.
    process.stderr.write(
      `supply-loader: warning: the CLI bundle could not be built (${e instanceof Error ? e.message.split('\n')[0] : e}); supply-loader will run the TypeScript sources through tsx (slower start)\n`,
    );
  }
}
