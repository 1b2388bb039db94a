/**
 * The heap growth of the processes that plan and run: the CLI's (it keeps a 200,000-row run under 400 MiB), the
 * browser-mode server's (scripts/start.mjs) and Electron's main process (electron/main/index.ts), one setting for all.
 * Set by the process's entry before the work starts: the CLI's bin (bin/supply-loader.cjs, through the small
 * `heap-growth.cjs` of the bundle, built from core/cli/heap-growth.ts) or a direct run of main.ts.
 * V8's flags are part of its code cache's key, so they must be the same when the CLI bundle is compiled from the
 * cache and when the cache is made at the end of a run (scripts/load-cli.cjs).
 */
import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what its last full collection left alive, in percent
 * (`SUPPLY_LOADER_HEAP_GROWTH_PERCENT`, default 75; 0 = V8's own, which goes up to 300). A batch run allocates fast and
 * collects rarely, so with V8's default a 200,000-row plan whose live heap is ~170 MiB peaks at 360–450 MiB
 * resident; at 75 % it stays at 320–340 MiB in about the same time (docs/performance.md).
 */
export function heapGrowthFlag(env: NodeJS.ProcessEnv = process.env): { flag: string | null; warning?: string } {
  const raw = env.SUPPLY_LOADER_HEAP_GROWTH_PERCENT?.trim();
  const n = raw === undefined || raw === '' ? 75 : Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 1000)
    return {
      flag: null,
      warning: `SUPPLY_LOADER_HEAP_GROWTH_PERCENT=${raw} is not a whole number from 0 to 1000; V8's default heap growth is used`,
    };
  return { flag: n === 0 ? null : `--heap-growing-percent=${n}` };
}

/** Set the flag for this process; a wrong value is said on stderr, never ignored silently. */
export function applyHeapGrowth(env: NodeJS.ProcessEnv = process.env): void {
  const heap = heapGrowthFlag(env);
  if (heap.flag) setFlagsFromString(heap.flag);
  if (heap.warning) process.stderr.write(`supply-loader: warning: ${heap.warning}\n`);
}
