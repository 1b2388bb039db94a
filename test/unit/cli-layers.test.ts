/**
 * The CLI reaches planning, runs, undo, LCA and export through app/ (docs/architecture.md "Layers"): its files
 * import nothing of jobs/, lca/ or export/, type-only imports and re-exports included. Lint holds it per import
 * (test/unit/layers.test.ts); this walks the whole import graph, so no CLI file is left out of the check.
 */
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../scripts/import-graph.js';

const ENGINE_WORK = /^electron\/core\/(jobs|lca|export)\//;

describe('the CLI and the engine', () => {
  it('no CLI file imports jobs/, lca/ or export/: every command goes through app/', () => {
    const graph = importGraph(['core/cli', 'core/jobs', 'core/lca', 'core/export']);
    const cliFiles = [...graph.keys()].filter((f) => f.startsWith('core/cli/'));
    for (const f of ['import', 'plan', 'resume', 'watch', 'lca', 'export', 'undo', 'jobs'])
      expect(cliFiles).toContain(`core/cli/commands/${f}.ts`);
    const offending = cliFiles.flatMap((f) =>
      (graph.get(f) ?? []).filter((to) => ENGINE_WORK.test(to)).map((to) => `${f} → ${to}`),
    );
    expect(offending).toEqual([]);
  });
});
