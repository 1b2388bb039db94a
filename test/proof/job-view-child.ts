/**
 * The desktop app's view of one job and pages of its rows (`jobs.get` and `jobs.rows` through the IPC handler
 * table: what the Jobs screen and the Run step show), printed as JSON: `node --import tsx test/proof/job-view-child.ts JOBS_DIR JOB_ID`. Run under a small heap by
 * bounded-memory.test.ts.
 */
import { JobsRunner } from '../../core/app/sessions/jobs-runner.js';
import { failedIdentities } from '../../core/app/sessions/job-views.js';
import { jobsHandlers } from '../../core/ipc/handlers/jobs.js';
import type { AppServices, SessionServices } from '../../core/app/services.js';

const [jobsDir, jobId] = process.argv.slice(2);
// jobs.get and jobs.rows read the job folder only; the services are for starting jobs
const jobs = new JobsRunner({} as SessionServices, jobsDir);
const app = { sessions: { jobs } } as unknown as AppServices;
const v = await jobsHandlers['jobs.get']({ jobId }, app);
const all = await jobsHandlers['jobs.rows']({ jobId, filter: {}, offset: 0, limit: 50 }, app);
const problems = await jobsHandlers['jobs.rows']({ jobId, filter: { outcome: 'problems' }, offset: 0, limit: 50 }, app);
// what a re-run of its failed rows keeps (import.plan with onlyFailedOf)
const failed = await failedIdentities(jobsDir, jobId);
const last = await jobsHandlers['jobs.rows'](
  { jobId, filter: { sheet: 'supplier-products' }, offset: 16_890, limit: 50 },
  app,
);
process.stdout.write(
  JSON.stringify({
    status: v.status,
    rows: v.rows,
    entries: v.entries,
    counts: v.counts,
    notSucceeded: v.notSucceeded,
    notSucceededRows: v.notSucceededRows,
    failedRows: v.failedRows,
    bySheet: v.bySheet,
    failedIdentities: failed.size,
    pages: {
      all: { total: all.total, first: all.rows[0] },
      problems: { total: problems.total, outcomes: problems.rows.map((r) => r.outcome) },
      last: { total: last.total, offset: last.offset, externalIds: last.rows.map((r) => r.externalId) },
    },
  }),
);
