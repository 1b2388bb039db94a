/**
 * Run the CLI bundle (dist-cli/<build>/cli-fn.js: one CommonJS module inside its function) through V8's code cache: Node 20 has no
 * compile cache of its own (module.enableCompileCache came with Node 22), and compiling the bundle's code is most
 * of a cold start's time.
 *
 * The cache is per command (`dist-cli/<build>/v8-cache/<command>.bin`) and made at the END of a run that exited 0
 * (`script.createCachedData()` in the process's exit handler): it then holds every function that run compiled —
 * the reader, the planner, the client, the workbook writers — not only the bundle's top level, so the next run of
 * that command compiles almost nothing. It is written once (to a temporary file renamed into place, so processes
 * running side by side never read half a cache); a cache V8 refuses (another Node or V8 flags) is made again.
 * The cache is only ever an optimisation: one that cannot be read, written or used changes nothing but speed.
 * `SUPPLY_LOADER_CODE_CACHE=0` runs without it.
 */
'use strict';
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { isAscii } = require('node:buffer');
const { createRequire } = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** The cache's name for a run: its command (a plain lowercase word), else `_` (help, --version, typos). */
function cacheKey(argv) {
  const first = argv.find((a) => !a.startsWith('-'));
  return first && /^[a-z][a-z-]{0,31}$/.test(first) ? first : '_';
}

/**
 * The bundle's exports, its code compiled from the command's cache when there is one that V8 takes.
 * `state` (for tests and SUPPLY_LOADER_TIMINGS) says what happened: 'used', 'rejected', 'none' or 'off'.
 */
function loadBundle(entry, argv, env = process.env) {
  return runCompiled(compileBundle(entry, argv, env));
}

/**
 * The bundle compiled (from the command's cache when V8 takes it), not yet run: runCompiled runs it. Compiled apart
 * so that the bin can check meanwhile that the sources did not change (bin/supply-loader.cjs).
 */
function compileBundle(entry, argv, env = process.env) {
  const off = env.SUPPLY_LOADER_CODE_CACHE === '0';
  const file = path.join(path.dirname(entry), 'v8-cache', `${cacheKey(argv)}.bin`);
  let cachedData;
  if (!off) {
    try {
      cachedData = readFileSync(file);
    } catch {
      // none yet (or unreadable): compiled from source, and a cache made at exit
    }
  }
  // The build writes the module already inside its function and in ASCII (scripts/build-cli.mjs): compiled as read,
  // one byte a character, with no wrapper to join and no UTF-8 to decode (3 MB each at every start).
  const bytes = readFileSync(entry);
  const code = isAscii(bytes) ? bytes.latin1Slice(0, bytes.length) : bytes.toString('utf8');
  const script = new vm.Script(code, {
    filename: entry,
    ...(cachedData && { cachedData }),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const state = off ? 'off' : !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  return { entry, script, state, cacheFile: file };
}

/** Run a compiled bundle (compileBundle): its exports; a cache is made at exit when none was used. */
function runCompiled({ entry, script, state, cacheFile }) {
  if (state === 'none' || state === 'rejected') {
    process.once('exit', (code) => {
      if (code !== 0) return;
      try {
        const data = script.createCachedData();
        mkdirSync(path.dirname(cacheFile), { recursive: true });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, data);
        renameSync(tmp, cacheFile);
      } catch {
        // a read-only install: every start compiles, as without a cache
      }
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(entry), module, entry, path.dirname(entry));
  return { exports: module.exports, state };
}

module.exports = { cacheKey, loadBundle, compileBundle, runCompiled };
