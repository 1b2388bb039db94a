/**
 * The CLI's entry for the heap growth setting (core/settings/heap-growth.ts): the bin sets it before it compiles the
 * bundle (bin/supply-loader.cjs, through the small `heap-growth.cjs` of the bundle built from this file).
 */
export { applyHeapGrowth, heapGrowthFlag } from '../settings/heap-growth.js';
