/**
 * No import cycle among our modules (core and sandbox), type-only imports, re-exports and `import()`
 * included: a cycle makes the order modules load in matter and hides which layer depends on which.
 * `npm run check:cycles` prints the same graph's cycles.
 */
import { describe, expect, it } from 'vitest';
import { cyclesOf, importGraph, pathThrough } from '../../scripts/import-graph.js';

describe('import graph', () => {
  it('finds a cycle, type-only edges included', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
    ]);
    const cycles = cyclesOf(graph);
    expect(cycles).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
    expect(pathThrough(graph, cycles[0])).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
  });

  it('has no cycle in core and sandbox', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(200);
    // an `import type` counts: app/services.ts imports sessions/sessions.ts only as a type
    expect(graph.get('core/app/services.ts')).toContain('core/app/sessions/sessions.ts');
    const cycles = cyclesOf(graph).map((c) => pathThrough(graph, c).join(' → '));
    expect(cycles).toEqual([]);
  });
});
