/** Handlers of the LCA impact procedures (contract/lca-impact.ts): the dry run's estimate, a job's impact, its recompute. */
import { resolveConnection } from '../../app/profiles.js';
import { AppError } from '../../app/errors.js';
import type { NamespaceHandlers } from '../contract.js';
import type { lcaImpactProcedures } from '../../contract/lca-impact.js';
import { withWords } from '../errors.js';
import type { AppServices } from '../../app/services.js';

type Table = NamespaceHandlers<keyof typeof lcaImpactProcedures, AppServices>;

export const lcaImpactHandlers: Table = withWords<Table>({
  'lca.impactDryRun': async (input, app) => {
    const planned = app.sessions.imports.get(input.importId).planned;
    if (!planned) throw new AppError('invalid_input', 'Make the dry run first.');
    return app.sessions.impacts.dryRun(() => resolveConnection(app), planned.jobId);
  },

  'lca.impact': async (input, app) => app.sessions.impacts.view(() => resolveConnection(app), input.jobId, input),

  'lca.impactRecompute': async (input, app) => ({
    accepted: await app.sessions.impacts.start(await resolveConnection(app), input.jobId),
  }),

  'lca.impactCancel': async (input, app) => ({ accepted: app.sessions.impacts.cancel(input.jobId) }),
});
