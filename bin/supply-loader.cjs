#!/usr/bin/env node
// supply-loader: the Supply Loader command line. Runs the bundled CLI (dist-cli/, built by `npm install` through
// the `prepare` script, scripts/build-cli.mjs). Never runs a stale bundle: when the bundle is missing or a source
// under core or sandbox is newer than it, it is rebuilt first (esbuild, about a second) with a one-line
// notice on stderr; if it cannot be built (esbuild not installed), the sources run through tsx instead, also
// with a notice. SUPPLY_LOADER_CLI_SOURCE=1 always runs the sources (development). Works from any directory:
// paths are resolved from this file, not the cwd. See docs/cli.md, "Start-up".
// CommonJS, as everything it runs before the bundle (scripts/cli-bundle.cjs, scripts/load-cli.cjs) and the bundle
// itself: a start that loads no ES module never starts Node's ES module loader (~30 ms of every start here). The
// build script (an ES module) is loaded only to rebuild.
'use strict';
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { currentBuild, sourcesChangedSince } = require('../scripts/cli-bundle.cjs');
const { compileBundle, runCompiled } = require('../scripts/load-cli.cjs');

const root = path.resolve(__dirname, '..');

// exceljs's zip dependencies call Buffer(); Node warns about that (DEP0005) only for code outside node_modules,
// which bundled code is. The same code run from node_modules is silent, so the bundle is too — for that one
// warning only.
const emitWarning = process.emitWarning;
process.emitWarning = function (warning, ...rest) {
  const code = typeof rest[0] === 'object' && rest[0] !== null ? rest[0].code : rest[1];
  if (code === 'DEP0005') return;
  return emitWarning.call(process, warning, ...rest);
};

async function runSources(notice) {
  if (notice)
    process.stderr.write(`supply-loader: ${notice}; running the TypeScript sources through tsx (slower start)\n`);
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: path.join(root, 'tsconfig.json') });
  (await import(pathToFileURL(path.join(root, 'core/cli/heap-growth.ts')).href)).applyHeapGrowth();
  return import(pathToFileURL(path.join(root, 'core/cli/main.ts')).href);
}

async function load() {
  if (process.env.SUPPLY_LOADER_CLI_SOURCE === '1') return runSources();
  const found = currentBuild(root);
  let why = found.why;
  if (found.entry) {
    // The sources' modification times are read by libuv's threads while this thread compiles the bundle; it runs
    // only once none is newer than the build.
    const changed = sourcesChangedSince(root, found.startedMs);
    const compiled = compileBundle(withHeapGrowth(found.entry), process.argv.slice(2));
    if (!(await changed)) return runBundle(compiled);
    why = 'the sources changed since the CLI bundle was built';
  }
  let built;
  try {
    const t0 = performance.now();
    const { buildCli } = await import(pathToFileURL(path.join(root, 'scripts/build-cli.mjs')).href);
    built = await buildCli();
    process.stderr.write(`supply-loader: ${why}; rebuilt it (${Math.round(performance.now() - t0)} ms)\n`);
  } catch (e) {
    return runSources(`${why} and it could not be rebuilt (${e instanceof Error ? e.message.split('\n')[0] : e})`);
  }
  return runBundle(compileBundle(withHeapGrowth(built), process.argv.slice(2)));
}

/** V8's flags before the bundle is compiled (once): they are part of the code cache's key (scripts/load-cli.mjs). */
let heapGrowthSet = false;
function withHeapGrowth(entry) {
  if (!heapGrowthSet) require(path.join(path.dirname(entry), 'heap-growth.cjs')).applyHeapGrowth();
  heapGrowthSet = true;
  return entry;
}

/** The compiled bundle run (through V8's code cache); SUPPLY_LOADER_TIMINGS=1 says whether the cache was used. */
function runBundle(compiled) {
  const { exports, state } = runCompiled(compiled);
  if (process.env.SUPPLY_LOADER_TIMINGS === '1')
    process.stderr.write(`timing code-cache-${state} ${Math.round(performance.now())}\n`);
  return exports;
}

load().then(({ main }) => main(process.argv.slice(2)));
