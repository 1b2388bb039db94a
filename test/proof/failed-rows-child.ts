/**
 * The desktop app's failed-rows and results workbooks of a job (`jobs.failedWorkbook`, `jobs.resultsWorkbook`:
 * app/job-files.ts), printed as JSON: `node --import tsx test/proof/failed-rows-child.ts JOBS_DIR JOB_ID`. Run
 * under a small heap by bounded-memory.test.ts, on a job none of whose writes ran: every row is a failed row.
 * With SOURCE, the results and failed-rows CSV files of that CSV source of the job.
 */
import { JobsRunner } from '../../core/app/sessions/jobs-runner.js';
import { jobResultFile } from '../../core/app/job-files.js';
import type { AppServices, SessionServices } from '../../core/app/services.js';

const [jobsDir, jobId, source] = process.argv.slice(2);
const jobs = new JobsRunner({} as SessionServices, jobsDir);
const app = { sessions: { jobs } } as unknown as AppServices;
const failed = await jobResultFile(app, jobId, source, 'failed');
const results = await jobResultFile(app, jobId, source, 'results');
process.stdout.write(
  JSON.stringify({ failed: { path: failed.path, rows: failed.rows }, results: { path: results.path } }),
);
