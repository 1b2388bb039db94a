/**
 * Which CLI build is current (dist-cli/current.json, written by scripts/build-cli.mjs) and whether a source is newer
 * than it. CommonJS, as the bin (bin/supply-loader.cjs) is: what every start runs before the bundle must not start
 * Node's ES module loader (~30 ms of a start here). The build itself is scripts/build-cli.mjs.
 */
'use strict';
const fs = require('node:fs');
const { readFileSync, readdirSync, statSync } = fs;
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist-cli');
/** The source folders the bundle is made of: a file under one of them newer than the build makes it stale. */
const BUNDLE_SOURCES = ['core', 'sandbox'];
/**
 * The bundle's file in a build: esbuild's CommonJS output, ASCII only, inside the function Node wraps a CommonJS
 * module in — `(function (exports, require, module, __filename, __dirname) { … })` — so that the loader compiles
 * the file's text as it is read (scripts/load-cli.cjs), without joining a wrapper to 3 MB of text first.
 */
const BUNDLE_FILE = 'cli-fn.js';

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
 * The current build under root as dist-cli/current.json names it (`{ dir, entry, started_ms }`), without looking at
 * the sources: `{ entry, startedMs }` (sources older than startedMs are in it), or `{ why }` in words (no build yet,
 * build missing, of an older kind).
 */
function currentBuild(root = ROOT) {
  const dist = path.join(root, 'dist-cli');
  let current;
  try {
    current = JSON.parse(readFileSync(path.join(dist, 'current.json'), 'utf8'));
  } catch {
    return { why: 'there is no CLI bundle yet' };
  }
  const entry = path.join(dist, String(current.entry));
  // Builds of an earlier kind — ES modules (main.mjs and chunks), or a CommonJS cli.cjs the loader wrapped — are
  // rebuilt, never run as the function script.
  if (path.basename(entry) !== BUNDLE_FILE) return { why: 'the CLI bundle is of an older kind' };
  try {
    statSync(entry);
  } catch {
    return { why: 'the CLI bundle is missing' };
  }
  return { entry, startedMs: Number(current.started_ms) };
}

const SOURCES_CHANGED = 'the sources changed since the CLI bundle was built';

/**
 * The entry file of the current build under root if it exists and no source is newer than it:
 * `{ entry }`; else `{ why }` in words (no build yet, build missing, sources changed).
 */
function currentBundle(root = ROOT) {
  const found = currentBuild(root);
  if (!found.entry) return found;
  const sourcesAt = Math.max(...BUNDLE_SOURCES.map((d) => newest(path.join(root, d))));
  if (!(sourcesAt <= found.startedMs)) return { why: SOURCES_CHANGED };
  return { entry: found.entry };
}

/**
 * Whether a source file is newer than `startedMs` (or went away while being looked at): what currentBundle
 * checks, with the files' modification times read by libuv's threads. The folders are listed now and every file's
 * stat is asked before this returns, so a caller that compiles the bundle meanwhile (bin/supply-loader.cjs) has
 * the answer when it is done instead of waiting for the ~300 stats before it begins.
 */
function sourcesChangedSince(root, startedMs) {
  const files = [];
  for (const d of BUNDLE_SOURCES) {
    let entries;
    try {
      entries = readdirSync(path.join(root, d), { withFileTypes: true, recursive: true });
    } catch {
      // A folder that cannot be listed whole: as currentBundle looks (what can be listed of it, at once).
      return Promise.resolve(!(Math.max(...BUNDLE_SOURCES.map((x) => newest(path.join(root, x)))) <= startedMs));
    }
    for (const e of entries) if (e.isFile()) files.push(path.join(e.parentPath ?? e.path, e.name));
  }
  if (files.length === 0) return Promise.resolve(!(0 <= startedMs));
  return new Promise((resolve) => {
    let left = files.length;
    let changed = false;
    for (const f of files)
      fs.stat(f, (err, st) => {
        if (err || !(st.mtimeMs <= startedMs)) changed = true;
        if (--left === 0) resolve(changed);
      });
  });
}

module.exports = {
  ROOT,
  DIST,
  BUNDLE_SOURCES,
  BUNDLE_FILE,
  currentBuild,
  currentBundle,
  sourcesChangedSince,
};
