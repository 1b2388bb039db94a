/**
 * Run the CLI bundle (dist-cli/<build>/cli-fn.js: one CommonJS module inside its function) through V8's code cache: Node 20 has no
 * compile cache of its own (module.enableCompileCache came with Node 22), and compiling the bundle's code is most
 * of a cold start's time.
 *
 * The cache is per command (`dist-cli/<build>/v8-cache/<command>.bin`) and made at the END of a run that exited 0
 * (`script.createCachedData()` in the process's exit handler): it then holds every function that run compiled —
 * the reader, the planner, the client, the workbook writers — not only the bundle's top level, so the next run of
 * that command compiles almost nothing. It is written by the command's first run, and again by a run that compiled
 * much more than it held (REMAKE_SHARE), each time to a temporary file renamed into place, so processes running side
 * by side never read half a cache; a cache V8 refuses (another Node or V8 flags) is made again.
 * The cache is only ever an optimisation: one that cannot be read, written or used changes nothing but speed.
 * `SUPPLY_LOADER_CODE_CACHE=0` runs without it.
 */
'use strict';
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { isAscii } = require('node:buffer');
const { createRequire } = require('node:module');
const path = require('node:path');
const vm = require('node:vm');
const { getHeapCodeStatistics } = require('node:v8');

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

/**
 * A run that compiled more bytecode than this share of what the V8 heap held once the bundle's top level had run
 * (with a cache: what the cache gave) remakes the command's cache at its end. The cache is made by a command's first
 * run, so a first run of another shape (an import without `--report`, the writers never compiled) would leave every
 * later run compiling the rest again: 0.5–0.9 MB of bytecode, 50–80 ms of each import's start. Measured: a run whose
 * cache it made itself compiles ~0.1 of that share, one with a cache of another shape 0.7–1.1. The new cache holds
 * what the old one gave and what this run compiled.
 */
const REMAKE_SHARE = 0.3;

/** Bytecode and its metadata on the V8 heap, bytes. */
function bytecodeBytes() {
  return getHeapCodeStatistics().bytecode_and_metadata_size;
}

/**
 * Run a compiled bundle (compileBundle): its exports. At the end of a run that exited 0 the command's cache is made
 * when none was used, and made again when the run compiled much more than the cache held (REMAKE_SHARE).
 */
function runCompiled({ entry, script, state, cacheFile }) {
  let before = Infinity;
  if (state !== 'off') {
    process.once('exit', (code) => {
      if (code !== 0) return;
      if (state === 'used' && !(bytecodeBytes() - before > REMAKE_SHARE * before)) return;
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
  before = bytecodeBytes();
  return { exports: module.exports, state };
}

module.exports = { cacheKey, loadBundle, compileBundle, runCompiled };
