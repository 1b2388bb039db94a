/**
 * Declared Node versions agree with what is installed. package.json `engines.node` is what
 * the CLI, the sandbox and the tests need; `devEngines.runtime` what the whole development install needs,
 * including the desktop toolchain (Electron, electron-builder), whose packages want Node ≥ 22.12. Checked
 * against package-lock.json: no locked package's `engines.node` excludes a Node version the declared range
 * allows (which is what makes npm print EBADENGINE), and the README states both ranges.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../fixtures/cli-process.js';

interface Semver {
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
}
const semver = createRequire(import.meta.url)('semver') as Semver;

interface LockPackage {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devEngines: { runtime: { name: string; version: string } };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockPackage>;
};
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The desktop toolchain: only the desktop app's start and packaging use these (and what they pull in). */
const DESKTOP_TOOLCHAIN = ['electron', 'electron-builder'] as const;

/**
 * Does every Node version `range` allows also satisfy `required`? Checked at every bound either range names and
 * just around it (the versions where a range's answer can change), plus a far-future version.
 */
function allowsOnly(range: string, required: string): boolean {
  const bounds = new Set<string>(['99.0.0']);
  for (const m of `${range} ${required}`.matchAll(/(\d+)(?:\.(\d+))?(?:\.(\d+))?/g)) {
    const [a, b, c] = [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
    for (const v of [
      [a, b, c],
      [a, b, c + 1],
      [a, b + 1, 0],
      [a + 1, 0, 0],
      ...(c > 0 ? [[a, b, c - 1]] : []),
      ...(b > 0 ? [[a, b - 1, 99]] : []),
      ...(a > 0 ? [[a - 1, 99, 99]] : []),
    ])
      bounds.add(v.join('.'));
  }
  return [...bounds].every((v) => !semver.satisfies(v, range) || semver.satisfies(v, required));
}

function nodeRange(p: LockPackage): string | null {
  return p.engines && !Array.isArray(p.engines) && p.engines.node ? p.engines.node : null;
}

/** The lock path a dependency `name` of the package at `from` resolves to (Node's lookup through node_modules). */
function resolveIn(from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return null;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i < 0 ? '' : dir.slice(0, i);
  }
}

/** Lock paths reachable from the root's dependencies and devDependencies, leaving out `exclude`. */
function reachable(exclude: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const roots = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((n) => !exclude.includes(n));
  const todo = roots.map((n) => resolveIn('', n)).filter((p): p is string => p !== null);
  while (todo.length) {
    const at = todo.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    const p = lock.packages[at];
    for (const n of Object.keys({ ...p.dependencies, ...p.optionalDependencies, ...p.peerDependencies })) {
      const to = resolveIn(at, n);
      if (to && !seen.has(to)) todo.push(to);
    }
  }
  return seen;
}

/** Locked packages whose engines.node excludes a version `range` allows (optional ones npm skips then: left out). */
function excluding(range: string, paths: Iterable<string>): string[] {
  const out: string[] = [];
  for (const path of paths) {
    const p = lock.packages[path];
    const need = nodeRange(p);
    if (!need || p.optional) continue;
    if (!allowsOnly(range, need)) out.push(`${path}@${p.version}: engines.node ${need}`);
  }
  return out.sort();
}

describe('Node versions: package.json, package-lock.json and README agree', () => {
  it('the range check itself tells a narrower requirement apart', () => {
    expect(allowsOnly('>=20.19', '>=22.12.0')).toBe(false);
    expect(allowsOnly('>=20.19', '^20.19.0 || >=22.12.0')).toBe(false); // 21.x and 22.0–22.11
    expect(allowsOnly('^20.19.0 || >=22.12.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(allowsOnly('^20.19.0 || ^22.13.0 || >=24.0.0', '^20.0.0 || ^22.0.0 || >=24.0.0')).toBe(true);
    expect(allowsOnly('^22.13.0 || >=24.0.0', '>= 22.12.0')).toBe(true);
    expect(allowsOnly('^22.13.0 || >=24.0.0', '^22.20 || ^24.12 || >=25')).toBe(false);
  });

  it('the declared ranges are valid, node is the runtime, and the lock records the same engines', () => {
    expect(semver.validRange(pkg.engines.node)).not.toBeNull();
    expect(pkg.devEngines.runtime.name).toBe('node');
    expect(semver.validRange(pkg.devEngines.runtime.version)).not.toBeNull();
    // The development install needs at least what the CLI needs.
    expect(allowsOnly(pkg.devEngines.runtime.version, pkg.engines.node)).toBe(true);
    expect(nodeRange(lock.packages[''])).toBe(pkg.engines.node);
    for (const name of DESKTOP_TOOLCHAIN) expect(pkg.devDependencies[name], name).toBeDefined();
  });

  it('the README states the Node the CLI and tests need and the one the desktop toolchain needs, as package.json declares', () => {
    expect(readme).toContain(`\`${pkg.engines.node}\``);
    expect(readme).toContain(`\`${pkg.devEngines.runtime.version}\``);
    expect(readme).toMatch(/Electron \d+/);
    const electron = lock.packages['node_modules/electron'].version!.split('.')[0];
    expect(readme).toContain(`Electron ${electron}`);
  });

  it('every package the CLI, the sandbox and the tests use accepts every Node version engines.node allows', () => {
    const used = reachable(DESKTOP_TOOLCHAIN);
    expect(used.has('node_modules/fastify')).toBe(true);
    expect(used.has('node_modules/vitest')).toBe(true);
    expect(used.has('node_modules/electron')).toBe(false);
    expect(excluding(pkg.engines.node, used)).toEqual([]);
  });

  it('every locked package accepts every Node version devEngines allows (the whole install, Electron included)', () => {
    expect(excluding(pkg.devEngines.runtime.version, Object.keys(lock.packages).filter(Boolean))).toEqual([]);
  });
});
