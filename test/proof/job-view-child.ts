/**
 * The desktop app's view of one job (JobsRunner.view: what the Jobs screen and the Run step show), printed as
 * JSON: `node --import tsx test/proof/job-view-child.ts JOBS_DIR JOB_ID`. Run under a small heap by
 * bounded-memory.test.ts.
 */
import { JobsRunner } from '../../electron/core/app/jobs-runner.js';
import type { WorkServices } from '../../electron/core/ipc/services.js';

const [jobsDir, jobId] = process.argv.slice(2);
// view() reads the job folder only; the services are for starting jobs
const v = await new JobsRunner({} as WorkServices, jobsDir).view(jobId);
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
  }),
);
