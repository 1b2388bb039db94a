/**
 * The CLI's heap growth setting (it keeps a 200,000-row run under 400 MiB): V8 lets the old generation grow by this percentage of what the
 * last full collection left alive (`--heap-growing-percent`), 75 by default, SUPPLY_LOADER_HEAP_GROWTH_PERCENT
 * to change it (0 = V8's own); a value that is not a whole number is said on stderr, never ignored silently.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { heapGrowthFlag } from '../../core/cli/heap-growth.js';
import { BIN } from '../fixtures/cli-process.js';

describe('heap growth of the CLI process', () => {
  it('75 % by default; the variable sets it; 0 leaves V8 its own; anything else is a warning', () => {
    expect(heapGrowthFlag({})).toEqual({ flag: '--heap-growing-percent=75' });
    expect(heapGrowthFlag({ SUPPLY_LOADER_HEAP_GROWTH_PERCENT: ' ' })).toEqual({ flag: '--heap-growing-percent=75' });
    expect(heapGrowthFlag({ SUPPLY_LOADER_HEAP_GROWTH_PERCENT: '30' })).toEqual({ flag: '--heap-growing-percent=30' });
    expect(heapGrowthFlag({ SUPPLY_LOADER_HEAP_GROWTH_PERCENT: '0' })).toEqual({ flag: null });
    for (const bad of ['abc', '-5', '12.5', '5000']) {
      const r = heapGrowthFlag({ SUPPLY_LOADER_HEAP_GROWTH_PERCENT: bad });
      expect(r.flag).toBeNull();
      expect(r.warning).toBe(
        `SUPPLY_LOADER_HEAP_GROWTH_PERCENT=${bad} is not a whole number from 0 to 1000; V8's default heap growth is used`,
      );
    }
  });

  it('the installed bin applies it (V8 knows the flag: no "unrecognized flag") and says so when the value is wrong', () => {
    const ok = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8', env: { ...process.env } });
    expect(ok.status).toBe(0);
    expect(ok.stderr).not.toMatch(/warning|unrecognized flag|Error/i);
    expect(ok.stdout.trim()).toMatch(/^supply-loader \d+\.\d+\.\d+$/); // a flag V8 does not know would be named on stderr
    const bad = spawnSync(process.execPath, [BIN, '--version'], {
      encoding: 'utf8',
      env: { ...process.env, SUPPLY_LOADER_HEAP_GROWTH_PERCENT: 'lots' },
    });
    expect(bad.status).toBe(0);
    expect(bad.stderr).toContain(
      "supply-loader: warning: SUPPLY_LOADER_HEAP_GROWTH_PERCENT=lots is not a whole number from 0 to 1000; V8's default heap growth is used",
    );
    expect(bad.stdout.trim()).toMatch(/^supply-loader \d+\.\d+\.\d+$/);
  });
});
