/** Handlers of the `lca` namespace (contract/lca.ts): selection, runs, report, analysis, production, export. */
import { fileStamp } from '../../app/sessions/downloads.js';
import { resolveConnection } from '../../app/profiles.js';
import type { NamespaceHandlers } from '../contract.js';
import type { lcaProcedures } from '../../contract/lca.js';
import { withWords } from '../errors.js';
import type { AppServices } from '../../app/services.js';

type Table = NamespaceHandlers<keyof typeof lcaProcedures, AppServices>;

export const lcaHandlers: Table = withWords<Table>({
  'lca.options': async (_input, app) => app.sessions.lca.options(await resolveConnection(app)),

  'lca.select': async (input, app) => app.sessions.lca.select(await resolveConnection(app), input.by, input.codes),

  'lca.run': async (input, app) => ({
    runId: app.sessions.lca.start(await resolveConnection(app), input.selectionId, input.recompute),
  }),

  'lca.report': async (input, app) => app.sessions.lca.view(input.runId),

  'lca.analysis': async (input, app) => app.sessions.lca.analysis(input.runId, input),

  'lca.enterProduction': async (input, app) => ({
    runId: await app.sessions.lca.enterProduction(
      await resolveConnection(app),
      input.runId,
      input.instanceId,
      input.year,
      input.quantity,
    ),
  }),

  'lca.cancel': async (input, app) => ({ accepted: app.sessions.lca.cancel(input.runId) }),

  'lca.export': async (input, app) => {
    const w = app.sessions;
    const buffer = await w.lca.workbook(input.runId);
    return w.downloads.registerBytes(buffer, `lca-results-${fileStamp()}.xlsx`);
  },
});
