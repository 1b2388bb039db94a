/** Handlers of the `jobs` namespace (contract/jobs.ts): list, view, pause, resume, undo, results files. */
import { jobResultFile } from '../../app/job-files.js';
import { profileView, resolveConnection } from '../../app/profiles.js';
import { undoPlanView } from '../../app/sessions/job-views.js';
import type { NamespaceHandlers } from '../contract.js';
import type { jobsProcedures } from '../../contract/jobs.js';
import { withWords } from '../errors.js';
import type { AppServices } from '../../app/services.js';

type Table = NamespaceHandlers<keyof typeof jobsProcedures, AppServices>;

/** The active connection's base URL, without starting anything (null: no profile, or the sandbox not running). */
async function activeServiceUrl(app: AppServices): Promise<string | null> {
  const id = app.settings.snapshot().activeProfileId;
  if (!id) return null;
  return profileView(app, id).then(
    (p) => p.baseUrl,
    () => null,
  );
}

export const jobsHandlers: Table = withWords<Table>({
  'jobs.list': async (_input, app) => {
    const serviceUrl = await activeServiceUrl(app);
    return { jobs: await app.sessions.jobs.list(serviceUrl), serviceUrl };
  },

  'jobs.get': async (input, app) => app.sessions.jobs.view(input.jobId),

  'jobs.rows': async (input, app) => app.sessions.jobs.rows(input.jobId, input.filter, input.offset, input.limit),

  'jobs.pause': async (input, app) => ({ accepted: app.sessions.jobs.pause(input.jobId) }),

  'jobs.cancel': async (input, app) => ({ accepted: app.sessions.jobs.cancel(input.jobId) }),

  'jobs.resume': async (input, app) => {
    const conn = await resolveConnection(app);
    return { jobId: await app.sessions.jobs.resume(input.jobId, conn) };
  },

  'jobs.undoPlan': async (input, app) => {
    const conn = await resolveConnection(app);
    return undoPlanView(input.jobId, await app.sessions.jobs.undoPlan(input.jobId, conn));
  },

  'jobs.undo': async (input, app) => {
    const conn = await resolveConnection(app);
    return { jobId: await app.sessions.jobs.undo(input.jobId, conn, input.skipBlocked) };
  },

  'jobs.resultsWorkbook': async (input, app) => {
    const f = await jobResultFile(app, input.jobId, input.source, 'results');
    return app.sessions.downloads.register(f.path, f.fileName, f.mimeType);
  },

  'jobs.failedWorkbook': async (input, app) => {
    const f = await jobResultFile(app, input.jobId, input.source, 'failed');
    return { ...app.sessions.downloads.register(f.path, f.fileName, f.mimeType), rows: f.rows };
  },
});
