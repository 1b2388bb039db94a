/**
 * The long-lived work state behind the Import, Jobs, Export and LCA screens, one per AppServices (its `work`
 * field, built with the services by each host: electron/main, browser mode): workbooks read for import, running
 * import jobs, LCA runs and files offered for download.
 * Jobs live in `<config dir>/jobs` next to settings.json — the same folder the CLI uses by default, so the
 * Jobs screen also lists (and can resume) jobs started from the command line.
 */
import os from 'node:os';
import path from 'node:path';
import { DownloadRegistry } from './downloads.js';
import { ImportSessions } from './imports.js';
import { JobsRunner } from './jobs-runner.js';
import { LcaImpacts } from './lca-impacts.js';
import { LcaRuns } from './lca-runs.js';
import type { SessionServices } from '../host.js';

export interface Sessions {
  imports: ImportSessions;
  jobs: JobsRunner;
  lca: LcaRuns;
  /** jobs' LCA impact: the dry run's estimate, the recompute after the job */
  impacts: LcaImpacts;
  downloads: DownloadRegistry;
  /** Stop running work and remove temporary files; called when the app or the browser-mode server closes. */
  dispose(): Promise<void>;
}

export function jobsDirOf(app: Pick<SessionServices, 'settings'>): string {
  const settingsFile = app.settings.location;
  // Settings kept in memory (tests): a private temp folder, never the working directory.
  if (!path.isAbsolute(settingsFile)) return path.join(os.tmpdir(), `supply-loader-jobs-${process.pid}`);
  return path.join(path.dirname(settingsFile), 'jobs');
}

export function createSessions(app: SessionServices): Sessions {
  const imports = new ImportSessions();
  const jobs = new JobsRunner(app, jobsDirOf(app));
  const lca = new LcaRuns(app);
  const impacts = new LcaImpacts(app, jobs.jobsDir);
  const downloads = new DownloadRegistry();
  let disposed: Promise<void> | null = null;
  return {
    imports,
    jobs,
    lca,
    impacts,
    downloads,
    dispose: () =>
      (disposed ??= (async () => {
        imports.dispose();
        await Promise.all([jobs.dispose(), lca.dispose(), impacts.dispose()]);
        downloads.dispose();
      })()),
  };
}
