/**
 * The CLI reaches planning, runs, undo, LCA and export through app/ (docs/architecture.md "Layers"): its files
 * import nothing of jobs/, lca/ or export/, type-only imports and re-exports included. The files of the import
 * use case (its commands and their helpers) are the lint config's remaining exception and are listed here; the
 * list holds only files that still import the engine, so it shrinks as they move to app/.
 */
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../scripts/import-graph.js';

const STILL_ON_THE_ENGINE = new Set([
  'electron/core/cli/commands/import.ts',
  'electron/core/cli/commands/plan.ts',
  'electron/core/cli/commands/resume.ts',
  'electron/core/cli/commands/watch.ts',
  'electron/core/cli/importing.ts',
  'electron/core/cli/results.ts',
  'electron/core/cli/views.ts',
]);

const ENGINE_WORK = /^electron\/core\/(jobs|lca|export)\//;

describe('the CLI and the engine', () => {
  const graph = importGraph(['electron/core/cli', 'electron/core/jobs', 'electron/core/lca', 'electron/core/export']);
  const engineImports = (file: string) => (graph.get(file) ?? []).filter((to) => ENGINE_WORK.test(to));

  it('no CLI file outside the listed exception imports jobs/, lca/ or export/ (lca, export, undo, jobs go through app/)', () => {
    const cliFiles = [...graph.keys()].filter((f) => f.startsWith('electron/core/cli/'));
    for (const f of ['lca', 'export', 'undo', 'jobs']) expect(cliFiles).toContain(`electron/core/cli/commands/${f}.ts`);
    const offending = cliFiles
      .filter((f) => !STILL_ON_THE_ENGINE.has(f))
      .flatMap((f) => engineImports(f).map((to) => `${f} → ${to}`));
    expect(offending).toEqual([]);
  });

  it('the exception lists only files that still import the engine', () => {
    const done = [...STILL_ON_THE_ENGINE].filter((f) => engineImports(f).length === 0);
    expect(done).toEqual([]);
  });
});
