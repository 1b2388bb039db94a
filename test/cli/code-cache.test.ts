/**
 * The CLI bundle runs through V8's code cache (scripts/load-cli.cjs; it keeps the start fast): one cache per command,
 * made at the end of a run that exited 0, used by the next run of that command; a cache V8 refuses is made again,
 * and a cache that cannot be read or written changes nothing but speed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain CommonJS script without types
import { cacheKey } from '../../scripts/load-cli.cjs';
import { BIN, ROOT } from '../fixtures/cli-process.js';

const key = cacheKey as (argv: string[]) => string;
const dir = mkdtempSync(join(tmpdir(), 'sl-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A bundle of the same shape as cli-fn.js: a CommonJS module in its function; exports main, uses require and __dirname. */
const bundle = join(dir, 'b-1', 'cli-fn.js');
mkdirSync(join(dir, 'b-1'));
writeFileSync(
  bundle,
  `(function (exports, require, module, __filename, __dirname) {const path = require('node:path');
function work(n) { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; }
exports.main = (code) => { if (process.env.EXTRA) extra(2); console.log(JSON.stringify({ sum: work(1000), here: path.basename(__dirname) })); process.exitCode = code; };
function extra(n) { let s = 0; ${Array.from({ length: 3000 }, (_, i) => `s += (function f${i}(m) { let t = 0; for (let k = 0; k < m; k++) { t += (k * ${i}) % 7; if (t > ${i}) t -= 3; } return t; })(n);`).join('\n')} return s; }
})`,
);
const runner = join(dir, 'run.mjs');
writeFileSync(
  runner,
  `import { loadBundle } from ${JSON.stringify(pathToFileURL(join(ROOT, 'scripts/load-cli.cjs')).href)};
const { exports, state } = loadBundle(${JSON.stringify(bundle)}, process.argv.slice(2));
process.stderr.write(state);
exports.main(Number(process.env.CODE ?? 0));
`,
);
const cacheFile = join(dir, 'b-1', 'v8-cache', 'import.bin');

function run(
  env: Record<string, string> = {},
  argv = ['import', 'x.xlsx'],
): { state: string; out: string; code: number | null } {
  const r = spawnSync(process.execPath, [runner, ...argv], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { state: r.stderr, out: r.stdout, code: r.status };
}

describe('the CLI code cache', () => {
  it('is named by the command; options, help and anything but a plain word share one', () => {
    expect(key(['import', 'a.xlsx', '--report', 'r.xlsx'])).toBe('import');
    expect(key(['--json', 'plan', 'a.xlsx'])).toBe('plan');
    expect(key(['--version'])).toBe('_');
    expect(key([])).toBe('_');
    expect(key(['../../etc/passwd'])).toBe('_');
    expect(key(['IMPORT'])).toBe('_');
  });

  it('none → made at the end of a run that exited 0 → used by the next run, with the same result', () => {
    const first = run();
    expect(first).toEqual({ state: 'none', out: '{"sum":2997,"here":"b-1"}\n', code: 0 });
    expect(existsSync(cacheFile)).toBe(true);
    const second = run();
    expect(second).toEqual({ ...first, state: 'used' });
  });

  it('a run that compiled much more than the cache held makes it again (then holding both); runs of either shape after it do not', () => {
    const made = readFileSync(cacheFile);
    expect(run({ EXTRA: '1' })).toMatchObject({ state: 'used', code: 0 });
    const remade = readFileSync(cacheFile);
    expect(remade.length).toBeGreaterThan(made.length * 2);
    for (const env of [{ EXTRA: '1' }, {}] as Record<string, string>[]) {
      expect(run(env)).toMatchObject({ state: 'used', out: '{"sum":2997,"here":"b-1"}\n', code: 0 });
      expect(readFileSync(cacheFile).equals(remade)).toBe(true);
    }
  });

  it('a run that did not exit 0 makes none; SUPPLY_LOADER_CODE_CACHE=0 neither reads nor makes one', () => {
    rmSync(cacheFile);
    expect(run({ CODE: '2' })).toMatchObject({ state: 'none', code: 2 });
    expect(existsSync(cacheFile)).toBe(false);
    expect(run({ SUPPLY_LOADER_CODE_CACHE: '0' })).toMatchObject({ state: 'off', code: 0 });
    expect(existsSync(cacheFile)).toBe(false);
  });

  it('a cache V8 refuses (damaged, or made under other flags) is not used and is made again', () => {
    writeFileSync(cacheFile, Buffer.from('not a code cache at all, just bytes'));
    expect(run()).toMatchObject({ state: 'rejected', out: '{"sum":2997,"here":"b-1"}\n', code: 0 });
    expect(readFileSync(cacheFile).toString()).not.toContain('not a code cache');
    expect(run().state).toBe('used');
  });

  it('a cache that cannot be written only costs speed', () => {
    // v8-cache as a file: no cache can be made under it (root or not)
    rmSync(join(dir, 'b-1', 'v8-cache'), { recursive: true });
    writeFileSync(join(dir, 'b-1', 'v8-cache'), '');
    try {
      expect(run()).toMatchObject({ state: 'none', out: '{"sum":2997,"here":"b-1"}\n', code: 0 });
      expect(run()).toMatchObject({ state: 'none', code: 0 });
    } finally {
      rmSync(join(dir, 'b-1', 'v8-cache'));
    }
  });

  it('a bundle that is not ASCII is read as UTF-8 (the build writes ASCII; one that is not still runs right)', () => {
    const other = join(dir, 'b-2', 'cli-fn.js');
    mkdirSync(join(dir, 'b-2'));
    writeFileSync(
      other,
      `(function (exports, require, module, __filename, __dirname) {exports.main = () => console.log('Größe ✓');\n})`,
    );
    const script = join(dir, 'run-2.mjs');
    writeFileSync(
      script,
      `import { loadBundle } from ${JSON.stringify(pathToFileURL(join(ROOT, 'scripts/load-cli.cjs')).href)};
loadBundle(${JSON.stringify(other)}, ['validate']).exports.main();
`,
    );
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(r.stdout).toBe('Größe ✓\n');
  });

  it('the installed bin uses it: a second --version compiles nothing (SUPPLY_LOADER_TIMINGS names the state)', () => {
    const env = { ...process.env, SUPPLY_LOADER_TIMINGS: '1' };
    for (let i = 0; i < 2; i++) {
      const r = spawnSync(process.execPath, [BIN, '--version'], { cwd: tmpdir(), encoding: 'utf8', env });
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^supply-loader \d+\.\d+\.\d+\n$/);
      if (i === 1) expect(r.stderr).toMatch(/^timing code-cache-used \d+$/m);
    }
  });
});
