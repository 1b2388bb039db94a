/** `supply-loader jobs`: the import jobs in the jobs directory, newest first, with status and outcomes. */
import { storedJobs } from '../../app/jobs.js';
import { expectPositionals } from '../shared/args.js';
import { runContext } from '../shared/context.js';
import { EXIT, type CliCommand } from '../shared/types.js';
import { formatJobs } from '../output/views.js';

export const jobsCommand: CliCommand = {
  name: 'jobs',
  summary: 'List import jobs (status, file, outcomes); interrupted ones can be resumed',
  usage: `supply-loader jobs [--jobs-dir DIR] [--json]
  Jobs live in --jobs-dir, SUPPLY_LOADER_JOBS_DIR or the user config dir; resume one with "supply-loader resume JOB_ID".`,
  options: {},
  needsConnection: false,
  async run(_values, positionals, ctx) {
    expectPositionals(positionals, [], 'jobs');
    const rc = runContext(ctx);
    const jobs = await storedJobs(rc.jobsDir);
    if (ctx.json) rc.printJson({ jobs_dir: rc.jobsDir, jobs });
    else {
      ctx.stdout(`Jobs in ${rc.jobsDir}:\n`);
      ctx.stdout(`${formatJobs(jobs).join('\n')}\n`);
    }
    return EXIT.ok;
  },
};
